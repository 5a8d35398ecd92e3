// original: gpuverify: testsuite/OpenCL/sourcelocation_tests/races/pass/no_race/kernel.cl (pass)
// Invocations above 10 write their own slot of p; the others read their own
// slot of p: every slot is touched by one invocation only.
// wgrace: --dispatch 2
// expect: no-race

var<workgroup> p: array<u32, 64>;
var<workgroup> q: array<u32, 64>;
var<workgroup> r: array<u32, 64>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32) {
    if lid > 10u {
        p[lid] = q[lid];
    }
    if lid <= 10u {
        r[lid] = p[lid];
    }
}
