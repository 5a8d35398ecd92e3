// original: gpuverify: testsuite/OpenCL/sourcelocation_tests/barrier_divergence/fail/kernel.cl (xfail:NOT_ALL_VERIFIED: barrier may be reached by non-uniform control flow)
// wgsl: invalid WGSL (a barrier in non-uniform control flow), which naga accepts; wgrace reports the divergence. barrier(CLK_GLOBAL_MEM_FENCE) becomes storageBarrier(); workgroup of 64 instead of 1024, 4 workgroups instead of 1024.
// Only invocation 3 executes a barrier; then every invocation writes its own
// element of a workgroup array.
// wgrace: --dispatch 4
// expect: no-race
// finding: barrier-divergence

var<workgroup> a: array<u32, 64>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32) {
    if lid == 3u {
        storageBarrier();
    }
    a[lid] = lid;
}
