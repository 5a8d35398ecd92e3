// original: gpuverify: testsuite/OpenCL/misc/fail/vector_element_race/kernel.cl (xfail:NOT_ALL_VERIFIED)
// Every invocation of four workgroups stores its index into component y of the
// same vec4 of a storage array.
// wgrace: --dispatch 4 --buffer g=8
// expect: race
// race: intra-workgroup 13 13
// race: inter-workgroup 13 13

@group(0) @binding(0) var<storage, read_write> g: array<vec4<f32>>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    g[3].y = f32(gid.x);
}
