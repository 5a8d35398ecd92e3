// original: oclgrind: tests/kernels/atomics/atomic_same_workitem (no error expected)
// wgsl: the plain accesses mixed with atomic_inc on each word become atomicLoad/atomicStore (WGSL accesses an atomic word only atomically); the point is unchanged: one invocation's own accesses never race.
// Each invocation mixes stores and increments on its own storage word only.
// wgrace: --dispatch 1 --buffer data=4 --fill data=zero
// expect: no-race

@group(0) @binding(0) var<storage, read_write> data: array<atomic<i32>>;

@compute @workgroup_size(4)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let i = gid.x;
    if (i % 2u) == 0u {
        atomicStore(&data[i], 0);
        atomicAdd(&data[i], 1);
    } else {
        atomicAdd(&data[i], 1);
        atomicStore(&data[i], atomicLoad(&data[i]) + 1);
    }
}
