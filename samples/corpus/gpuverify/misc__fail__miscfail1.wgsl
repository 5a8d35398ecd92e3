// original: gpuverify: testsuite/OpenCL/misc/fail/miscfail1/kernel.cl (xfail:NOT_ALL_VERIFIED)
// wgsl: workgroup of 64 instead of 1024.
// Each invocation copies c[lid + 1] into c[lid], then reads c[lid + 2] to
// index a read-only array; the neighbours' copies overwrite what is read.
// wgrace: --dispatch 1
// expect: race
// race: intra-workgroup 16 16
// race: intra-workgroup 16 17

var<workgroup> a: array<i32, 64>;
var<workgroup> b: array<i32, 64>;
var<workgroup> c: array<u32, 66>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32) {
    c[lid] = c[lid + 1u];
    b[lid] = a[c[lid + 2u]];
}
