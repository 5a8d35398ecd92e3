// original: gpuverify: testsuite/OpenCL/inter_group_and_barrier_flag_tests/pass/global_barrier/kernel.cl (pass)
// Each invocation writes its own storage word, then, after a storageBarrier(),
// its neighbour's word; the last invocation of a workgroup skips the second
// write, so every overlap is inside one workgroup and ordered.
// wgrace: --dispatch 2 --buffer p=128
// expect: no-race

@group(0) @binding(0) var<storage, read_write> p: array<u32>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(global_invocation_id) gid: vec3<u32>) {
    p[gid.x] = gid.x;
    storageBarrier();
    if lid < 64u - 1u {
        p[gid.x + 1u] = gid.x;
    }
}
