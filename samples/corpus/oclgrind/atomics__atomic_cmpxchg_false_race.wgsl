// original: oclgrind: tests/kernels/atomics/atomic_cmpxchg_false_race (no error expected)
// wgsl: the plain reads of scratch[0] become atomicLoad (WGSL accesses an atomic word only atomically), so the pattern Oclgrind must not flag (plain reads beside failing compare-exchanges) is all-atomic here; same verdict.
// Each of 4 invocations retries a compare-exchange on a workgroup counter, one
// attempt per barrier-separated round, until it succeeds; invocation 0 then
// stores the count and every invocation its result.
// wgrace: --dispatch 1 --buffer data=5 --fill data=zero
// expect: no-race
// output: nondeterministic: which invocation's compare-exchange succeeds in which round depends on scheduling

var<workgroup> scratch: atomic<i32>;
@group(0) @binding(0) var<storage, read_write> data: array<i32>;

@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) l: u32) {
    if l == 0u {
        atomicStore(&scratch, 0);
    }
    workgroupBarrier();
    var done = false;
    var result = 0;
    for (var i = 0u; i < 4u; i++) {
        workgroupBarrier();
        let before = atomicLoad(&scratch);
        workgroupBarrier();
        if !done {
            let old = atomicCompareExchangeWeak(&scratch, before, before + 1);
            if old.exchanged {
                done = true;
                result = atomicLoad(&scratch);
            }
        }
    }
    workgroupBarrier();
    if l == 0u {
        data[0] = atomicLoad(&scratch);
    }
    data[l + 1u] = result;
}
