// original: gpuverify: testsuite/OpenCL/atomics/histo/kernel.cl (pass)
// Each invocation reads its own slot of a and atomically counts that value
// in a histogram; only reads and atomics touch shared words.
// wgrace: --dispatch 2
// expect: no-race

var<workgroup> a: array<u32, 64>;
var<workgroup> b: array<atomic<u32>, 64>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32) {
    let t = a[lid];
    atomicAdd(&b[t], 1u);
}
