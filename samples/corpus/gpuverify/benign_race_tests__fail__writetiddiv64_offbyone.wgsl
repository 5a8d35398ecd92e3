// original: gpuverify: testsuite/OpenCL/benign_race_tests/fail/writetiddiv64_offbyone/kernel.cl (xfail:NOT_ALL_VERIFIED)
// wgsl: same verdict, wider cause: the original fails only because invocation 64 stores 1 where the others store 0; under WGSL the 64 equal stores race too.
// 65 invocations store lid / 64 into the same word a[i] (i is uniform).
// wgrace: --dispatch 1 --set params.i=7
// expect: race
// race: intra-workgroup 14 14

struct Params { i: u32 }
@group(0) @binding(0) var<uniform> params: Params;
var<workgroup> a: array<u32, 64>;

@compute @workgroup_size(65)
fn main(@builtin(local_invocation_index) lid: u32) {
    a[params.i] = lid / 64u;
}
