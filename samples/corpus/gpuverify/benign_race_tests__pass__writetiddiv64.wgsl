// original: gpuverify: testsuite/OpenCL/benign_race_tests/pass/writetiddiv64/kernel.cl (pass)
// wgsl: race: all 64 invocations store lid / 64 == 0 into a[i]; GPUVerify accepts equal stores as benign, WGSL does not.
// Every invocation stores lid / 64 into a[i] (i uniform).
// wgrace: --dispatch 2 --set params.i=7
// expect: race
// race: intra-workgroup 14 14

struct Params { i: u32 }
@group(0) @binding(0) var<uniform> params: Params;
var<workgroup> a: array<u32, 64>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32) {
    a[params.i] = lid / 64u;
}
