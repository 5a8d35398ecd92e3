// original: scor: microbenchmarks/src/norace_interwarp_dev-blklock_waw.cu (norace_)
// wgsl: race. One side locks with device-scope, the other with block-scope atomics; in WGSL both are the same relaxed atomics, which do not order the plain writes the lock guards (and the fences have no counterpart inside the lock's non-uniform control flow), so the writes race.
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
