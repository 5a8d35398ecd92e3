// original: gpuverify: testsuite/OpenCL/sourcelocation_tests/races/pass/read_read/kernel.cl (pass)
// Each invocation copies its own slot of q into p and into r.
// wgrace: --dispatch 2
// expect: no-race

var<workgroup> p: array<u32, 64>;
var<workgroup> q: array<u32, 64>;
var<workgroup> r: array<u32, 64>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32) {
    p[lid] = q[lid];
    r[lid] = q[lid];
}
