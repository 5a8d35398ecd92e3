// original: gpuverify: testsuite/OpenCL/sourcelocation_tests/race_from_call_in_loop/kernel.cl (xfail:NOT_ALL_VERIFIED)
// wgsl: loop of 4 trips instead of 100.
// A helper called in a loop reads p[lid]; afterwards each invocation writes
// p[lid + 1], the word its right neighbour's helper read.
// wgrace: --dispatch 2
// expect: race
// race: intra-workgroup 12 20

var<workgroup> p: array<u32, 17>;

fn foo(tid: u32) -> u32 {
    return p[tid];
}

@compute @workgroup_size(16)
fn main(@builtin(local_invocation_index) tid: u32) {
    for (var i = 0; i < 4; i++) {
        _ = foo(tid);
    }
    p[tid + 1u] = tid;
}
