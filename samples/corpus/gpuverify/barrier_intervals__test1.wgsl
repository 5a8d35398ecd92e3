// original: gpuverify: testsuite/OpenCL/barrier_intervals/test1/kernel.cl (pass)
// Each invocation writes its own slot three times, with barriers between.
// wgrace: --dispatch 4
// expect: no-race

var<workgroup> p: array<u32, 16>;

@compute @workgroup_size(16)
fn main(@builtin(local_invocation_index) tid: u32) {
    p[tid] = tid;
    workgroupBarrier();
    p[tid] = tid;
    workgroupBarrier();
    p[tid] = tid;
}
