// original: gpuverify: testsuite/OpenCL/misc/fail/4d_array_race/kernel.cl (xfail:NOT_ALL_VERIFIED)
// wgsl: workgroup shrunk from 64x64 to 8x8 (WGSL's default limit is 256 invocations).
// Every invocation stores into the same element of a 4-D workgroup array.
// wgrace: --dispatch 2,2
// expect: race
// race: intra-workgroup 13 13

var<workgroup> l: array<array<array<array<i32, 5>, 4>, 3>, 2>;
@group(0) @binding(0) var<storage, read_write> g: array<i32>;

@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    l[1][2][3][3] = g[gid.x];
}
