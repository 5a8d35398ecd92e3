// original: gpuverify: testsuite/OpenCL/sourcelocation_tests/barrier_divergence/pass/kernel.cl (pass)
// wgsl: barrier(CLK_GLOBAL_MEM_FENCE) becomes storageBarrier(); workgroup of 64 instead of 1024, 4 workgroups instead of 1024.
// Every invocation writes its own element of one workgroup array, executes a
// barrier, and writes its own element of another: the barrier is uniform.
// wgrace: --dispatch 4
// expect: no-race

var<workgroup> a: array<u32, 64>;
var<workgroup> b: array<u32, 64>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32) {
    a[lid] = lid;
    storageBarrier();
    b[lid] = lid;
}
