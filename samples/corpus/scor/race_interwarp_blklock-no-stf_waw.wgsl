// original: scor: microbenchmarks/src/race_interwarp_blklock-no-stf_waw.cu (race_)
// wgsl: same verdict, but not because the acquire fence is missing: WGSL has no fences and a lock of relaxed atomics orders nothing, fenced or not.
// Invocations 0 and 32 of one workgroup (different subgroups at sizes 4, 8 and
// 32) each take a storage spin lock and write the data word inside it.
// wgrace: --dispatch 1
// expect: race
// race: intra-workgroup 17 25

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
        for (var k = 0u; k < 100000u; k++) {
            if atomicCompareExchangeWeak(&lock, 0u, 1u).exchanged {
                data = 2u;
                atomicExchange(&lock, 0u);
                break;
            }
        }
    }
}
