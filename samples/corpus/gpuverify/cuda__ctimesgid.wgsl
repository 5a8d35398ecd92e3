// original: gpuverify: testsuite/CUDA/ctimesgid/kernel.cu (pass)
// wgsl: WIDTH 8 instead of 256, 4 workgroups instead of 16.
// Each invocation fills its own run of WIDTH consecutive storage elements,
// [WIDTH * gid, WIDTH * (gid + 1)).
// wgrace: --dispatch 4 --buffer a=2048
// expect: no-race

const WIDTH = 8u;
@group(0) @binding(0) var<storage, read_write> a: array<u32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    for (var i = 0u; i < WIDTH; i++) {
        a[i + gid.x * WIDTH] = gid.x;
    }
}
