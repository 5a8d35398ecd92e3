// original: oclgrind: tests/kernels/atomics/atomic_local_fence (no error expected)
// wgsl: the plain reset and final read of the counter become atomicStore/atomicLoad (WGSL accesses an atomic word only atomically); same verdict.
// Each workgroup resets its workgroup counter, adds every invocation's index
// between barriers, and its first invocation copies the sum out.
// wgrace: --dispatch 2 --buffer data=2 --fill data=zero
// expect: no-race

var<workgroup> scratch: atomic<i32>;
@group(0) @binding(0) var<storage, read_write> data: array<i32>;

@compute @workgroup_size(4)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(local_invocation_index) l: u32,
        @builtin(workgroup_id) wid: vec3<u32>) {
    if l == 0u {
        atomicStore(&scratch, 0);
    }
    workgroupBarrier();
    atomicAdd(&scratch, i32(gid.x));
    workgroupBarrier();
    if l == 0u {
        data[wid.x] = atomicLoad(&scratch);
    }
}
