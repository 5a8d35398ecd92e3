// original: gpuverify: testsuite/OpenCL/misc/fail/struct_member_race/kernel.cl (xfail:NOT_ALL_VERIFIED)
// Every invocation of four workgroups stores its index into field y of the
// same struct element of a storage array.
// wgrace: --dispatch 4 --buffer g=8
// expect: race
// race: intra-workgroup 14 14
// race: inter-workgroup 14 14

struct S { x: i32, y: i32 }
@group(0) @binding(0) var<storage, read_write> g: array<S>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    g[3].y = i32(gid.x);
}
