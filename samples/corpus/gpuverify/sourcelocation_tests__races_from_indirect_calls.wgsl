// original: gpuverify: testsuite/OpenCL/sourcelocation_tests/races_from_indirect_calls/kernel.cl (xfail:NOT_ALL_VERIFIED)
// wgsl: the helpers read the workgroup array directly instead of through pointer parameters; the two reads the original does on one line in bar() are on two lines. The original lists six possible read sites; only the four that read p[tid] or p[tid + 2] can race: p[tid + 1] is written by invocation tid itself.
// A chain of helpers reads p at tid, tid + 1 and tid + 2; then each
// invocation writes p[tid + 1].
// wgrace: --dispatch 2
// expect: race
// race: intra-workgroup 16 40
// race: intra-workgroup 27 40
// race: intra-workgroup 28 40
// race: intra-workgroup 34 40

var<workgroup> p: array<i32, 18>;

fn jazz(tid: u32) -> i32 {
    return
        p[tid] +
        p[tid + 1u] +
        p[tid + 1u];
}

fn sim(x: i32, tid: u32) -> i32 {
    _ = jazz(tid);
    return 0;
}

fn bar(tid: u32) -> i32 {
    let first = p[tid];
    let second = p[tid + 2u];
    return first + sim(second, tid);
}

fn foo(tid: u32) -> i32 {
    _ = bar(tid);
    return p[tid];
}

@compute @workgroup_size(16)
fn main(@builtin(local_invocation_index) tid: u32) {
    _ = foo(tid);
    p[tid + 1u] = i32(tid);
}
