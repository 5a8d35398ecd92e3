// original: oclgrind: tests/kernels/atomics/atomic_intergroup_race (ERROR Read-write data race at global memory; ERROR Write-write data race at global memory)
// wgsl: no-race: the original races invocation 0's plain reset of the counter with the other workgroup's atomic_inc (a barrier cannot order workgroups); in WGSL the reset must be atomicStore, and atomics never race with atomics.
// Invocation 0 resets a storage counter; after a storageBarrier() every
// invocation of two workgroups increments it.
// wgrace: --dispatch 2 --fill data=const:-1
// expect: no-race
// output: nondeterministic: invocation 0's reset and the other workgroup's increments are unordered, so the final count depends on the schedule

@group(0) @binding(0) var<storage, read_write> data: atomic<i32>;

@compute @workgroup_size(4)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    if gid.x == 0u {
        atomicStore(&data, 0);
    }
    storageBarrier();
    atomicAdd(&data, 1);
}
