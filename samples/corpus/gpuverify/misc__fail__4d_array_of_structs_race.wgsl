// original: gpuverify: testsuite/OpenCL/misc/fail/4d_array_of_structs_race/kernel.cl (xfail:NOT_ALL_VERIFIED)
// wgsl: workgroup shrunk from 64x64 to 8x8 (WGSL's default limit is 256 invocations).
// Every invocation stores the z field of the same struct element of a 4-D
// workgroup array (a struct field is its own word, unlike a vector component).
// wgrace: --dispatch 2,2
// expect: race
// race: intra-workgroup 15 15

struct F4 { x: f32, y: f32, z: f32, w: f32 }
var<workgroup> l: array<array<array<array<F4, 5>, 4>, 3>, 2>;
@group(0) @binding(0) var<storage, read_write> g: array<F4>;

@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    l[1][2][3][3].z = g[gid.x].x;
}
