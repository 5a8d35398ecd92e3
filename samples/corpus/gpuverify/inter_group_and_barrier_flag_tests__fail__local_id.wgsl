// original: gpuverify: testsuite/OpenCL/inter_group_and_barrier_flag_tests/fail/local_id/kernel.cl (xfail:NOT_ALL_VERIFIED)
// Each invocation stores its workgroup id at the slot of its local index, so
// the workgroups of the dispatch all write the same 64 words of storage.
// wgrace: --dispatch 4 --buffer p=64
// expect: race
// race: inter-workgroup 12 12

@group(0) @binding(0) var<storage, read_write> p: array<u32>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
    p[lid] = wid.x;
}
