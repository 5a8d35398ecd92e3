// original: gpuverify: testsuite/OpenCL/benign_race_tests/pass/writezero/kernel.cl (pass)
// wgsl: race: every invocation stores 0 into a[0]; benign for GPUVerify, a race under WGSL.
// Every invocation stores 0 into a[0], with no barrier.
// wgrace: --dispatch 2
// expect: race
// race: intra-workgroup 12 12

var<workgroup> a: array<i32, 4>;

@compute @workgroup_size(64)
fn main() {
    a[0] = 0;
}
