// original: gpuverify: testsuite/OpenCL/benign_race_tests/pass/writeafterread/kernel.cl (pass)
// wgsl: race: GPUVerify's equality abstraction accepts writing back the value just read as benign; under WGSL the reads and writes of a[0] by different invocations race.
// Every invocation reads a[0] and writes the same value back, with no barrier.
// wgrace: --dispatch 1
// expect: race
// race: intra-workgroup 13 14
// race: intra-workgroup 14 14

var<workgroup> a: array<i32, 4>;

@compute @workgroup_size(64)
fn main() {
    let v = a[0];
    a[0] = v;
}
