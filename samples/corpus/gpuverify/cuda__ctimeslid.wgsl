// original: gpuverify: testsuite/CUDA/ctimeslid/kernel.cu (pass)
// wgsl: WIDTH 8 instead of 256 (and a workgroup array of 512 instead of 16384).
// Each invocation fills its own run of WIDTH consecutive workgroup slots,
// [WIDTH * lid, WIDTH * (lid + 1)).
// wgrace: --dispatch 4
// expect: no-race

const WIDTH = 8u;
var<workgroup> a: array<u32, 512>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32) {
    for (var i = 0u; i < WIDTH; i++) {
        a[i + lid * WIDTH] = lid;
    }
}
