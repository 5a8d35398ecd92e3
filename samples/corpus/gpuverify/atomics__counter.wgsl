// original: gpuverify: testsuite/OpenCL/atomics/counter/kernel.cl (pass)
// Invocation 0 resets a workgroup counter; after a barrier every invocation
// takes a distinct ticket from it and writes that slot.
// wgrace: --dispatch 1
// expect: no-race

var<workgroup> count: atomic<u32>;
var<workgroup> a: array<u32, 64>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32) {
    if lid == 0u {
        atomicStore(&count, 0u);
    }
    workgroupBarrier();
    a[atomicAdd(&count, 1u)] = lid;
}
