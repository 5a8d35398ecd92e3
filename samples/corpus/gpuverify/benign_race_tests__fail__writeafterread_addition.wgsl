// original: gpuverify: testsuite/OpenCL/benign_race_tests/fail/writeafterread_addition/kernel.cl (xfail:NOT_ALL_VERIFIED)
// Every invocation reads a[0] and writes back the value plus one, with no
// barrier: the reads race with the writes, and the writes with each other.
// wgrace: --dispatch 1
// expect: race
// race: intra-workgroup 13 14
// race: intra-workgroup 14 14

var<workgroup> a: array<i32, 4>;

@compute @workgroup_size(64)
fn main() {
    let v = a[0];
    a[0] = v + 1;
}
