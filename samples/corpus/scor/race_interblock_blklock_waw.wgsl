// original: scor: microbenchmarks/src/race_interblock_blklock_waw.cu (race_)
// wgsl: same verdict; in WGSL the lock's scope is irrelevant (no atomic orders plain accesses, and nothing orders storage accesses of different workgroups), and its block-scope fences have no counterpart inside the lock's non-uniform control flow.
// Each of two workgroups takes a "block-scoped" compare-exchange spin lock,
// writes the data word inside it and releases it.
// wgrace: --dispatch 2
// expect: race
// race: inter-workgroup 18 26

@group(0) @binding(0) var<storage, read_write> data: u32;
@group(0) @binding(1) var<storage, read_write> lock: atomic<u32>;

@compute @workgroup_size(1)
fn main(@builtin(workgroup_id) wid: vec3<u32>) {
    let v = wid.x + 1u;
    if wid.x == 0u {
        for (var k = 0u; k < 100000u; k++) {
            if atomicCompareExchangeWeak(&lock, 0u, 1u).exchanged {
                data = v;
                atomicExchange(&lock, 0u);
                break;
            }
        }
    } else {
        for (var k = 0u; k < 100000u; k++) {
            if atomicCompareExchangeWeak(&lock, 0u, 1u).exchanged {
                data = v;
                atomicExchange(&lock, 0u);
                break;
            }
        }
    }
}
