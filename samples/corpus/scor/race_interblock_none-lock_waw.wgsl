// original: scor: microbenchmarks/src/race_interblock_none-lock_waw.cu (race_)
// Workgroup 0 writes the data inside a device spin lock; workgroup 1 writes it
// without taking the lock.
// wgrace: --dispatch 2
// expect: race
// race: inter-workgroup 16 22

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
        data = 2u;
    }
}
