// original: gpuverify: testsuite/OpenCL/shared_int/kernel.cl (xfail:NOT_ALL_VERIFIED)
// Every invocation stores its index into one workgroup scalar.
// wgrace: --dispatch 4
// expect: race
// race: intra-workgroup 11 11

var<workgroup> a: i32;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32) {
    a = i32(lid);
}
