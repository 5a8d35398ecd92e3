// original: gpuverify: testsuite/OpenCL/benign_race_tests/fail/writeafterread_otherval/kernel.cl (xfail:NOT_ALL_VERIFIED)
// Every invocation copies a[0] into its own slot of b, then stores 5 into
// a[0], with no barrier.
// wgrace: --dispatch 1
// expect: race
// race: intra-workgroup 14 15
// race: intra-workgroup 15 15

var<workgroup> a: array<i32, 4>;
var<workgroup> b: array<i32, 64>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32) {
    b[lid] = a[0];
    a[0] = 5;
}
