// original: gpuverify: testsuite/OpenCL/divergence/race_and_divergence/kernel.cl (xfail:NOT_ALL_VERIFIED: barrier may be reached by non-uniform control flow)
// wgsl: same verdict, and the race too: the original is checked with --only-divergence; wgrace checks both, and every invocation stores into B[0]. Workgroup of 64 instead of 1024; A holds its index, so only invocation 0 (A[0] == 0) executes the barrier.
// Each invocation reads its element of A; those that read 0 execute a storage
// barrier; then every invocation stores what it read into B[0].
// wgrace: --dispatch 1 --buffer a=64 --buffer b=4
// expect: race
// race: intra-workgroup 19 19
// finding: barrier-divergence

@group(0) @binding(0) var<storage, read_write> a: array<i32>;
@group(0) @binding(1) var<storage, read_write> b: array<i32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let tmp = a[gid.x];
    if tmp == 0 {
        storageBarrier();
    }
    b[0] = tmp;
}
