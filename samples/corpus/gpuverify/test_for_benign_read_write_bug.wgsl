// original: gpuverify: testsuite/OpenCL/test_for_benign_read_write_bug/kernel.cl (xfail:NOT_ALL_VERIFIED)
// wgsl: WGSL has no 16-bit integers: the short array becomes i32.
// Every invocation increments p[0] with no barrier.
// wgrace: --dispatch 2
// expect: race
// race: intra-workgroup 12 12

var<workgroup> p: array<i32, 4>;

@compute @workgroup_size(64)
fn main() {
    p[0] += 1;
}
