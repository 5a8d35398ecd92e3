// original: scor: microbenchmarks/src/race_interwarp_blklock-no-tf_waw.cu (race_)
// wgsl: same verdict, but not because the release fence is missing: WGSL has no fences and a lock of relaxed atomics orders nothing, fenced or not. Rendered with the block-scoped lock and data in workgroup memory.
// Invocations 0 and 32 of each workgroup take a workgroup-memory spin lock and
// write a workgroup word inside it; after a barrier invocation 0 copies the
// word out.
// wgrace: --dispatch 2 --buffer out=2
// expect: race
// race: intra-workgroup 20 28

var<workgroup> lock: atomic<u32>;
var<workgroup> data: u32;
@group(0) @binding(0) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32,
        @builtin(workgroup_id) wid: vec3<u32>) {
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
    workgroupBarrier();
    if lid == 0u {
        out[wid.x] = data;
    }
}
