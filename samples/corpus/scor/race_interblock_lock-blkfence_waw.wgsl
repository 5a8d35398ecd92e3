// original: scor: microbenchmarks/src/race_interblock_lock-blkfence_waw.cu (race_)
// wgsl: same verdict, but not because the acquire fence of workgroup 0 has block scope ("improper scope"): WGSL has no fences, atomics do not order the plain accesses a lock guards, and nothing orders storage accesses of different workgroups; the fenced and unfenced versions of this lock race alike.
// Each of two workgroups takes a device compare-exchange spin lock, writes the
// data word inside it and releases it.
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
