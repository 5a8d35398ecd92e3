// original: oclgrind: tests/kernels/atomics/atomic_cmpxchg_write_race (ERROR Read-write data race at global memory)
// wgsl: no-race: the original races invocation 0's plain store with the other invocation's atomic_cmpxchg; in WGSL the store must be atomicStore, and atomics never race with atomics.
// Invocation 0 stores 0; both invocations then compare-exchange the word
// (expected value: their index) to 42.
// wgrace: --dispatch 1 --fill data=const:-1
// expect: no-race

@group(0) @binding(0) var<storage, read_write> data: atomic<i32>;

@compute @workgroup_size(2)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let i = i32(gid.x);
    if i == 0 {
        atomicStore(&data, 0);
    }
    atomicCompareExchangeWeak(&data, i, 42);
}
