// original: gpuverify: testsuite/OpenCL/inter_group_and_barrier_flag_tests/fail/missing_global_barrier_flag/kernel.cl (xfail:NOT_ALL_VERIFIED)
// Each invocation writes its own storage word, then (after a barrier that
// orders only workgroup memory) the next word, which its neighbour wrote. The
// last invocation of a workgroup skips the second write, so nothing crosses
// workgroups.
// wgrace: --dispatch 2 --buffer p=128
// expect: race
// race: barrier-kind 14 17

@group(0) @binding(0) var<storage, read_write> p: array<u32>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(global_invocation_id) gid: vec3<u32>) {
    p[gid.x] = gid.x;
    workgroupBarrier();
    if lid < 64u - 1u {
        p[gid.x + 1u] = gid.x;
    }
}
