// original: gpuverify: testsuite/OpenCL/sourcelocation_tests/races/fail/write_write/normal/kernel.cl (xfail:NOT_ALL_VERIFIED)
// Every invocation writes its own slot; invocation 0 then also writes a[7],
// which invocation 7 wrote.
// wgrace: --dispatch 2
// expect: race
// race: intra-workgroup 12 14

var<workgroup> a: array<u32, 64>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32) {
    a[lid] = lid;
    if lid == 0u {
        a[7] = 0u;
    }
}
