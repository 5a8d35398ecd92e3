// original: gpuverify: testsuite/OpenCL/sourcelocation_tests/races/fail/write_write/loop/kernel.cl (xfail:NOT_ALL_VERIFIED)
// wgsl: loop of 4 trips instead of 100.
// In a loop, invocation 5 writes p[5] and invocation 4 writes p[4 + 1].
// wgrace: --dispatch 2
// expect: race
// race: intra-workgroup 14 17

var<workgroup> p: array<u32, 64>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32) {
    for (var i = 0; i < 4; i++) {
        if lid == 5u {
            p[lid] = lid;
        }
        if lid == 4u {
            p[lid + 1u] = lid;
        }
    }
}
