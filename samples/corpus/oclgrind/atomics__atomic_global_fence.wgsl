// original: oclgrind: tests/kernels/atomics/atomic_global_fence (no error expected)
// wgsl: the plain reset and final read of scratch[g] become atomicStore/atomicLoad (WGSL accesses an atomic word only atomically); same verdict.
// The first invocation of each workgroup resets the workgroup's storage
// counter; between storage barriers all add their index; then the first
// invocation copies the counter out.
// wgrace: --dispatch 2 --buffer data=2 --fill data=zero --buffer scratch=2 --fill scratch=const:-1
// expect: no-race

@group(0) @binding(0) var<storage, read_write> data: array<i32>;
@group(0) @binding(1) var<storage, read_write> scratch: array<atomic<i32>>;

@compute @workgroup_size(4)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(local_invocation_index) l: u32,
        @builtin(workgroup_id) wid: vec3<u32>) {
    let g = wid.x;
    if l == 0u {
        atomicStore(&scratch[g], 0);
    }
    storageBarrier();
    atomicAdd(&scratch[g], i32(gid.x));
    storageBarrier();
    if l == 0u {
        data[g] = atomicLoad(&scratch[g]);
    }
}
