// original: gpuverify: testsuite/OpenCL/inter_group_and_barrier_flag_tests/pass/sync_within_group/kernel.cl (pass)
// Neighbour exchange in storage memory ordered by storageBarrier() inside each
// workgroup; the last invocation of a workgroup stays within its slice.
// wgrace: --dispatch 3 --buffer p=96
// expect: no-race

@group(0) @binding(0) var<storage, read_write> p: array<u32>;

@compute @workgroup_size(32)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(global_invocation_id) gid: vec3<u32>) {
    p[gid.x] = gid.x;
    storageBarrier();
    if lid < 32u - 1u {
        p[gid.x + 1u] = gid.x;
    }
}
