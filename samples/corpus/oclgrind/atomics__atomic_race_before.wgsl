// original: oclgrind: tests/kernels/atomics/atomic_race_before (ERROR Read-write and Write-write data race at global memory address, x3 each)
// wgsl: no-race: the original races invocation 0's plain reset with the others' atomic_dec; in WGSL the reset must be atomicStore, and atomics never race with atomics.
// Invocation 0 resets a storage counter while every invocation decrements it.
// wgrace: --dispatch 1 --fill data=zero
// expect: no-race

@group(0) @binding(0) var<storage, read_write> data: atomic<i32>;

@compute @workgroup_size(4)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    if gid.x == 0u {
        atomicStore(&data, 0);
    }
    atomicSub(&data, 1);
}
