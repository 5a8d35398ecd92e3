// original: gpuverify: testsuite/OpenCL/sourcelocation_tests/race_with_loop/kernel.cl (xfail:NOT_ALL_VERIFIED)
// wgsl: loop of 8 trips instead of 100 and a workgroup of 64 instead of 1024.
// Every invocation sums p[0..9) through two reads per trip, then stores the
// sum into its own slot: invocations 0..8 overwrite words the others read.
// wgrace: --dispatch 2
// expect: race
// race: intra-workgroup 16 19
// race: intra-workgroup 17 19

var<workgroup> p: array<i32, 64>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32) {
    var x = 0;
    for (var i = 0u; i < 8u; i++) {
        x += p[i];
        x += p[i + 1u];
    }
    p[lid] = x;
}
