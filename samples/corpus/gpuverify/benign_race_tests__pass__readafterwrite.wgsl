// original: gpuverify: testsuite/OpenCL/benign_race_tests/pass/readafterwrite/kernel.cl (pass)
// wgsl: race: GPUVerify's equality abstraction accepts these as benign (every invocation writes and reads the same values); WGSL has no benign races. With i == j the read of a[j] also races with the writes of a[i].
// Every invocation stores i into a[i], then copies a[j] into b[j] (i, j uniform).
// wgrace: --dispatch 2 --set params.i=5 --set params.j=5
// expect: race
// race: intra-workgroup 17 17
// race: intra-workgroup 17 18
// race: intra-workgroup 18 18

struct Params { i: u32, j: u32 }
@group(0) @binding(0) var<uniform> params: Params;
var<workgroup> a: array<u32, 16>;
var<workgroup> b: array<u32, 16>;

@compute @workgroup_size(64)
fn main() {
    a[params.i] = params.i;
    b[params.j] = a[params.j];
}
