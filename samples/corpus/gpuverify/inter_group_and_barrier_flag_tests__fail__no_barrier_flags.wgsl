// original: gpuverify: testsuite/OpenCL/inter_group_and_barrier_flag_tests/fail/no_barrier_flags/kernel.cl (xfail:NOT_ALL_VERIFIED)
// wgsl: barrier(0) synchronises execution but fences no memory; WGSL has no fence-less control barrier, so the port drops it: the accesses stay exactly as unordered as in the original, and the race is reported as intra-workgroup rather than barrier-kind.
// Neighbour exchange in a workgroup array with nothing ordering the two writes.
// wgrace: --dispatch 2
// expect: race
// race: intra-workgroup 12 13

var<workgroup> p: array<u32, 65>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(global_invocation_id) gid: vec3<u32>) {
    p[lid] = gid.x;
    p[lid + 1u] = gid.x;
}
