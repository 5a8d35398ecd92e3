// original: gpuverify: testsuite/OpenCL/benign_race_tests/fail/writewritearray_adversarial/kernel.cl (xfail:NOT_ALL_VERIFIED)
// wgsl: same verdict, different reason: GPUVerify fails here because its adversarial abstraction forgets that all invocations copy the same value; under WGSL the equal stores race anyway.
// Every invocation copies b[j] into a[i] (i, j uniform), with no barrier.
// wgrace: --dispatch 1 --set params.i=3 --set params.j=9
// expect: race
// race: intra-workgroup 15 15

struct Params { i: u32, j: u32 }
@group(0) @binding(0) var<uniform> params: Params;
var<workgroup> a: array<i32, 16>;
var<workgroup> b: array<i32, 16>;

@compute @workgroup_size(64)
fn main() {
    a[params.i] = b[params.j];
}
