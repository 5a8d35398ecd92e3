// original: gpuverify: testsuite/OpenCL/inter_group_and_barrier_flag_tests/fail/sync/kernel.cl (xfail:NOT_ALL_VERIFIED)
// Like global_barrier but without the guard: the last invocation of each
// workgroup writes the first word of the next workgroup's slice, which a
// barrier cannot order.
// wgrace: --dispatch 2 --buffer p=129
// expect: race
// race: inter-workgroup 13 15

@group(0) @binding(0) var<storage, read_write> p: array<u32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    p[gid.x] = gid.x;
    storageBarrier();
    p[gid.x + 1u] = gid.x;
}
