// original: gpuverify: testsuite/OpenCL/benign_race_tests/fail/writereadarray_equality/kernel.cl (xfail:NOT_ALL_VERIFIED)
// Two invocations: each zeroes its own slot and reads its right neighbour's
// slot with no barrier; invocation 0 reads the slot invocation 1 writes.
// wgrace: --dispatch 1
// expect: race
// race: intra-workgroup 13 14

var<workgroup> a: array<i32, 3>;
@group(0) @binding(0) var<storage, read_write> sink: array<i32, 2>;

@compute @workgroup_size(2)
fn main(@builtin(local_invocation_index) lid: u32) {
    a[lid] = 0;
    let next = a[lid + 1u];
    sink[lid] = next;
}
