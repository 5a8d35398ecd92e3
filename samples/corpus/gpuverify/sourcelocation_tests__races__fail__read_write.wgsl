// original: gpuverify: testsuite/OpenCL/sourcelocation_tests/races/fail/read_write/kernel.cl (xfail:NOT_ALL_VERIFIED)
// Every invocation copies a[8] into its own slot of b, then writes its own
// slot of a: invocation 8's write races with the others' reads of a[8].
// wgrace: --dispatch 2
// expect: race
// race: intra-workgroup 13 14

var<workgroup> a: array<u32, 64>;
var<workgroup> b: array<u32, 64>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32) {
    b[lid] = a[8];
    a[lid] = lid;
}
