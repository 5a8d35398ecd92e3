// original: oclgrind: tests/kernels/atomics/atomic_global_fence_race (ERROR Read-write data race at global memory, x2)
// wgsl: no-race: the original's race is a plain read of the counter by each workgroup against the other workgroup's atomic_add; in WGSL that read must be atomicLoad, and atomics never race with atomics.
// Every invocation of two workgroups adds its index to one storage counter;
// after a storageBarrier() the first invocation of each reads it.
// wgrace: --dispatch 2 --buffer data=2 --fill data=zero --fill scratch=zero
// expect: no-race
// output: nondeterministic: each workgroup stores the counter as it saw it, which depends on how the two workgroups interleave

@group(0) @binding(0) var<storage, read_write> data: array<i32>;
@group(0) @binding(1) var<storage, read_write> scratch: atomic<i32>;

@compute @workgroup_size(4)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(local_invocation_index) l: u32,
        @builtin(workgroup_id) wid: vec3<u32>) {
    atomicAdd(&scratch, i32(gid.x));
    storageBarrier();
    if l == 0u {
        data[wid.x] = atomicLoad(&scratch);
    }
}
