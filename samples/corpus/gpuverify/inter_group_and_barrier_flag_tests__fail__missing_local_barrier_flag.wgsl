// original: gpuverify: testsuite/OpenCL/inter_group_and_barrier_flag_tests/fail/missing_local_barrier_flag/kernel.cl (xfail:NOT_ALL_VERIFIED)
// Neighbour exchange in a workgroup array separated by storageBarrier() (the
// CLK_GLOBAL_MEM_FENCE of the original), which does not order workgroup memory.
// wgrace: --dispatch 2
// expect: race
// race: barrier-kind 12 14

var<workgroup> p: array<u32, 65>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(global_invocation_id) gid: vec3<u32>) {
    p[lid] = gid.x;
    storageBarrier();
    p[lid + 1u] = gid.x;
}
