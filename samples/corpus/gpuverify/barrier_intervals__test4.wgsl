// original: gpuverify: testsuite/OpenCL/barrier_intervals/test4/kernel.cl (pass)
// wgsl: loops of 4 trips instead of 100; the test of p[0] uses workgroupUniformLoad() (its value is then 0, so the guarded loops are skipped, as in the original); barrier(LOCAL|GLOBAL) becomes workgroupBarrier().
// Each invocation writes its own slot, then a barrier, in a loop; a uniform
// test of p[0] guards three more such loops.
// wgrace: --dispatch 4
// expect: no-race

var<workgroup> p: array<i32, 16>;

fn barrier_wrapper() {
    workgroupBarrier();
}

@compute @workgroup_size(16)
fn main(@builtin(local_invocation_index) tid: u32) {
    for (var i = 0; i < 4; i++) {
        p[tid] = i32(tid);
        barrier_wrapper();
    }
    if workgroupUniformLoad(&p[0]) == 22 {
        barrier_wrapper();
        for (var i = 0; i < 4; i++) {
            p[tid] = i32(tid);
            barrier_wrapper();
        }
        for (var i = 0; i < 4; i++) {
            p[tid] = i32(tid);
            barrier_wrapper();
        }
        for (var i = 0; i < 4; i++) {
            p[tid] = i32(tid);
            barrier_wrapper();
        }
    }
}
