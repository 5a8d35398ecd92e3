// original: oclgrind: tests/kernels/atomics/atomic_race_after (ERROR Read-write data race at global memory)
// wgsl: no-race: the original races the last invocation's plain read of the counter with the others' atomic_inc; in WGSL that read must be atomicLoad, and atomics never race with atomics.
// Every invocation increments a storage counter; the last one then copies it
// into output.
// wgrace: --dispatch 1 --fill data=zero --fill output=zero
// expect: no-race

@group(0) @binding(0) var<storage, read_write> data: atomic<i32>;
@group(0) @binding(1) var<storage, read_write> output: i32;

@compute @workgroup_size(4)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    atomicAdd(&data, 1);
    if gid.x == 4u - 1u {
        output = atomicLoad(&data);
    }
}
