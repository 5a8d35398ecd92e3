// original: gpuverify: testsuite/OpenCL/barrier_intervals/test3/kernel.cl (pass)
// wgsl: loops of 4 trips instead of 100; the branch on p[0] reads it with workgroupUniformLoad() so that the barriers inside stay in uniform control flow (OpenCL just requires it); barrier(LOCAL|GLOBAL) becomes workgroupBarrier() (only workgroup memory is used).
// Each invocation writes its own slot between barriers in a loop; then a
// uniform test of p[0] guards a second such loop.
// wgrace: --dispatch 4
// expect: no-race

var<workgroup> p: array<i32, 16>;

fn barrier_wrapper() {
    workgroupBarrier();
}

@compute @workgroup_size(16)
fn main(@builtin(local_invocation_index) tid: u32) {
    for (var i = 0; i < 4; i++) {
        barrier_wrapper();
        p[tid] = i32(tid);
        barrier_wrapper();
    }
    if workgroupUniformLoad(&p[0]) == 22 {
        for (var i = 0; i < 4; i++) {
            barrier_wrapper();
            p[tid] = i32(tid);
            barrier_wrapper();
        }
    }
}
