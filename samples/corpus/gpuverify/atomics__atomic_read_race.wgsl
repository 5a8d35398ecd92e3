// original: gpuverify: testsuite/OpenCL/atomics/atomic_read_race/kernel.cl (xfail:NOT_ALL_VERIFIED)
// wgsl: no-race: the original races a plain read of A[0] (by work-item 0) with the atomic increments of A[0]; in WGSL an atomic word can only be read with atomicLoad, and atomics never race with atomics.
// Each invocation reads its own slot of an atomic workgroup array, then
// increments slot 0.
// wgrace: --dispatch 1 --buffer out=64
// expect: no-race
// output: nondeterministic: invocation 0's load of a[0] sees however many increments came before it (on NVIDIA they differ from run to run)

var<workgroup> a: array<atomic<i32>, 64>;
@group(0) @binding(0) var<storage, read_write> out: array<i32>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32) {
    let x = atomicLoad(&a[lid]);
    atomicAdd(&a[0], 1);
    out[lid] = x;
}
