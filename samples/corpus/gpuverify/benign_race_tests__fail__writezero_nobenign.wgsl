// original: gpuverify: testsuite/OpenCL/benign_race_tests/fail/writezero_nobenign/kernel.cl (xfail:NOT_ALL_VERIFIED)
// Every invocation stores 0 into a[0] (run with benign-race tolerance off in
// the original; WGSL never tolerates it).
// wgrace: --dispatch 1
// expect: race
// race: intra-workgroup 12 12

var<workgroup> a: array<i32, 4>;

@compute @workgroup_size(64)
fn main() {
    a[0] = 0;
}
