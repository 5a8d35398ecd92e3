// original: scor: microbenchmarks/src/race_interblock_none-lock_rtraw.cu (race_)
// wgsl: same verdict; the reads go to a per-workgroup sink instead of the original's shared dummy, whose two plain writes would add an unrelated inter-workgroup race in WGSL (the lock does not order them).
// Both workgroups read the data inside a spin lock; workgroup 0 then writes it
// after releasing the lock. Reads go to per-workgroup sink words (the original
// used one shared dummy) so that only the data word is contended.
// wgrace: --dispatch 2 --buffer sink=2
// expect: race
// race: inter-workgroup 24 28

@group(0) @binding(0) var<storage, read_write> data: u32;
@group(0) @binding(1) var<storage, read_write> lock: atomic<u32>;
@group(0) @binding(2) var<storage, read_write> sink: array<u32>;

@compute @workgroup_size(1)
fn main(@builtin(workgroup_id) wid: vec3<u32>) {
    if wid.x == 0u {
        for (var k = 0u; k < 100000u; k++) {
            if atomicCompareExchangeWeak(&lock, 0u, 1u).exchanged {
                sink[0] = data;
                atomicExchange(&lock, 0u);
                break;
            }
        }
        data = 1u;
    } else {
        for (var k = 0u; k < 100000u; k++) {
            if atomicCompareExchangeWeak(&lock, 0u, 1u).exchanged {
                sink[1] = data;
                atomicExchange(&lock, 0u);
                break;
            }
        }
    }
}
