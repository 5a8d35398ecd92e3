// original: gpuverify: testsuite/CUDA/fail_tests/race_on_shared/kernel.cu (xfail:NOT_ALL_VERIFIED)
// The 16 invocations of one workgroup store their index into element 0 of a
// workgroup array (CUDA __shared__).
// wgrace: --dispatch 1
// expect: race
// race: intra-workgroup 12 12

var<workgroup> a: array<i32, 16>;

@compute @workgroup_size(16)
fn main(@builtin(local_invocation_index) lid: u32) {
    a[0] = i32(lid);
}
