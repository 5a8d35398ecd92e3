// original: gpuverify: testsuite/OpenCL/inter_group_and_barrier_flag_tests/pass/pass_due_to_intra_group_flag/kernel.cl (pass)
// wgsl: race: the original passes only because it is run with --only-intra-group, which switches off inter-group checking; wgrace always checks between workgroups, and the inter-group race the original's comment mentions is there.
// Each invocation stores its global index at the slot of its local index, so
// all workgroups write the same words.
// wgrace: --dispatch 4 --buffer p=64
// expect: race
// race: inter-workgroup 13 13

@group(0) @binding(0) var<storage, read_write> p: array<u32>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(global_invocation_id) gid: vec3<u32>) {
    p[lid] = gid.x;
}
