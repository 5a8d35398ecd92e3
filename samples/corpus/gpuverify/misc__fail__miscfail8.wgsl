// original: gpuverify: testsuite/OpenCL/misc/fail/miscfail8/kernel.cl (xfail:NOT_ALL_VERIFIED)
// A helper reads p[lid] (its result is unused); then each invocation writes
// p[lid + 1], the word its right neighbour's helper read.
// wgrace: --dispatch 2
// expect: race
// race: intra-workgroup 11 17

var<workgroup> p: array<u32, 17>;

fn foo(lid: u32) -> u32 {
    return p[lid];
}

@compute @workgroup_size(16)
fn main(@builtin(local_invocation_index) lid: u32) {
    _ = foo(lid);
    p[lid + 1u] = lid;
}
