// original: gpuverify: testsuite/OpenCL/misc/fail/4d_array_of_vectors_race/kernel.cl (xfail:NOT_ALL_VERIFIED)
// wgsl: workgroup shrunk from 64x64 to 8x8; the original reports bytes 8..11 (.z), under WGSL a component store counts as a store to the whole vec4 (same verdict).
// Every invocation stores the z component of the same vec4 element of a 4-D
// workgroup array.
// wgrace: --dispatch 2,2
// expect: race
// race: intra-workgroup 14 14

var<workgroup> l: array<array<array<array<vec4<f32>, 5>, 4>, 3>, 2>;
@group(0) @binding(0) var<storage, read_write> g: array<vec4<f32>>;

@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    l[1][2][3][3].z = g[gid.x].x;
}
