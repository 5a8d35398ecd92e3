// original: scor: microbenchmarks/src/race_interwarp_none-blklock_waw.cu (race_)
// Invocation 0 of one workgroup writes the data word inside a storage spin
// lock; invocation 32 (another subgroup) writes it without the lock.
// wgrace: --dispatch 1
// expect: race
// race: intra-workgroup 16 22

@group(0) @binding(0) var<storage, read_write> data: u32;
@group(0) @binding(1) var<storage, read_write> lock: atomic<u32>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32) {
    if lid == 0u {
        for (var k = 0u; k < 100000u; k++) {
            if atomicCompareExchangeWeak(&lock, 0u, 1u).exchanged {
                data = 1u;
                atomicExchange(&lock, 0u);
                break;
            }
        }
    } else if lid == 32u {
        data = 2u;
    }
}
