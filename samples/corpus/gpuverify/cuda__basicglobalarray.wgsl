// original: gpuverify: testsuite/CUDA/basicglobalarray/kernel.cu (pass)
// The invocations of a single workgroup each store into their own element.
// wgrace: --dispatch 1 --buffer p=64
// expect: no-race

@group(0) @binding(0) var<storage, read_write> p: array<i32>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32) {
    p[lid] = 2;
}
