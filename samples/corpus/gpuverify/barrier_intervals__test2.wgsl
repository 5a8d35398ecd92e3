// original: gpuverify: testsuite/OpenCL/barrier_intervals/test2/kernel.cl (xfail:NOT_ALL_VERIFIED)
// wgsl: invalid WGSL (the first barrier is in non-uniform control flow), which naga accepts; wgrace reports the divergence. Each invocation writes only its own element: no race. The original checks GPUVerify's barrier intervals (--debug); 4 workgroups instead of 16.
// Every invocation writes its element three times: before a barrier only
// invocation 0 executes, before a barrier all execute, and after it.
// wgrace: --dispatch 4
// expect: no-race
// finding: barrier-divergence

var<workgroup> p: array<u32, 16>;

@compute @workgroup_size(16)
fn main(@builtin(local_invocation_index) tid: u32) {
    p[tid] = tid;
    if tid == 0u {
        workgroupBarrier();
    }
    p[tid] = tid;
    workgroupBarrier();
    p[tid] = tid;
}
