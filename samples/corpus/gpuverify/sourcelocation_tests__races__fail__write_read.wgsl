// original: gpuverify: testsuite/OpenCL/sourcelocation_tests/races/fail/write_read/kernel.cl (xfail:NOT_ALL_VERIFIED)
// Every invocation writes its own slot of a, then copies a[3] into its slot of
// b: invocation 3's write races with the others' reads.
// wgrace: --dispatch 2
// expect: race
// race: intra-workgroup 13 14

var<workgroup> a: array<u32, 64>;
var<workgroup> b: array<u32, 64>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32) {
    a[lid] = lid;
    b[lid] = a[3];
}
