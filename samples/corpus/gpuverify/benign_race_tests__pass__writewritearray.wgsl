// original: gpuverify: testsuite/OpenCL/benign_race_tests/pass/writewritearray/kernel.cl (pass)
// wgsl: race: every invocation copies the same b[j] into a[i]; benign for GPUVerify's equality abstraction, a race under WGSL.
// Every invocation copies b[j] into a[i] (i, j uniform), with no barrier.
// wgrace: --dispatch 2 --set params.i=3 --set params.j=9
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
