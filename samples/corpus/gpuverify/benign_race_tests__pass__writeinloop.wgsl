// original: gpuverify: testsuite/OpenCL/benign_race_tests/pass/writeinloop/kernel.cl (pass)
// wgsl: race: the constant 42 written by every invocation is a benign race for GPUVerify, a race under WGSL.
// Every invocation stores 42 into a[0] on each trip of a loop over
// [start, end) (uniform bounds).
// wgrace: --dispatch 2 --set params.start=0 --set params.end=3
// expect: race
// race: intra-workgroup 16 16

struct Params { start: u32, end: u32 }
@group(0) @binding(0) var<uniform> params: Params;
var<workgroup> a: array<i32, 4>;

@compute @workgroup_size(64)
fn main() {
    for (var i = params.start; i < params.end; i++) {
        a[0] = 42;
    }
}
