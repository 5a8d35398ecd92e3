// original: gpuverify: testsuite/OpenCL/inter_group_and_barrier_flag_tests/pass/local_barrier_flag/kernel.cl (pass)
// Neighbour exchange in a workgroup array ordered by workgroupBarrier().
// wgrace: --dispatch 2
// expect: no-race

var<workgroup> p: array<u32, 65>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(global_invocation_id) gid: vec3<u32>) {
    p[lid] = gid.x;
    workgroupBarrier();
    p[lid + 1u] = gid.x;
}
