// original: gpuverify: testsuite/OpenCL/inter_group_and_barrier_flag_tests/fail/sync_within_group_wrong_flag/kernel.cl (xfail:NOT_ALL_VERIFIED)
// Neighbour exchange in storage memory inside each workgroup, separated by
// workgroupBarrier() (the CLK_LOCAL_MEM_FENCE of the original), which does not
// order storage memory. The last invocation of a workgroup does not write
// past its workgroup's slice.
// wgrace: --dispatch 3 --buffer p=96
// expect: race
// race: barrier-kind 14 17

@group(0) @binding(0) var<storage, read_write> p: array<u32>;

@compute @workgroup_size(32)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(global_invocation_id) gid: vec3<u32>) {
    p[gid.x] = gid.x;
    workgroupBarrier();
    if lid < 32u - 1u {
        p[gid.x + 1u] = gid.x;
    }
}
