// original: scor: microbenchmarks/src/norace_intrawarp_none-blklock-no-tf_waw.cu (norace_)
// wgsl: rendered in workgroup memory (lock and data), the block-scoped place WGSL has; the missing release fence is moot with one invocation.
// One invocation takes a workgroup spin lock, writes a workgroup word, frees
// the lock and writes the word again; then copies it to storage. No race.
// wgrace: --dispatch 2 --buffer out=2
// expect: no-race

var<workgroup> lock: atomic<u32>;
var<workgroup> data: u32;
@group(0) @binding(0) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(1)
fn main(@builtin(workgroup_id) wid: vec3<u32>) {
    for (var k = 0u; k < 100000u; k++) {
        if atomicCompareExchangeWeak(&lock, 0u, 1u).exchanged {
            data = 1u;
            atomicExchange(&lock, 0u);
            break;
        }
    }
    data = 2u;
    out[wid.x] = data;
}
