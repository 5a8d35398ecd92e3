// original: scor: microbenchmarks/src/norace_interblock_lock_waw.cu (norace_)
// wgsl: race. A spin lock built from relaxed WGSL atomics does not order the plain accesses it guards, and nothing orders storage accesses of different workgroups, so the two critical-section writes race.
// Each of two workgroups takes a compare-exchange spin lock, writes the data
// word inside it and releases it (critical section inside the retry loop).
// wgrace: --dispatch 2
// expect: race
// race: inter-workgroup 17 25

@group(0) @binding(0) var<storage, read_write> data: u32;
@group(0) @binding(1) var<storage, read_write> lock: atomic<u32>;

@compute @workgroup_size(1)
fn main(@builtin(workgroup_id) wid: vec3<u32>) {
    if wid.x == 0u {
        for (var k = 0u; k < 100000u; k++) {
            if atomicCompareExchangeWeak(&lock, 0u, 1u).exchanged {
                data = 1u;
                atomicExchange(&lock, 0u);
                break;
            }
        }
    } else {
        for (var k = 0u; k < 100000u; k++) {
            if atomicCompareExchangeWeak(&lock, 0u, 1u).exchanged {
                data = 2u;
                atomicExchange(&lock, 0u);
                break;
            }
        }
    }
}
