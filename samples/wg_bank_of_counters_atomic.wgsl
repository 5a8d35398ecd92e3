// Workgroup-local histogram with atomicAdd on a bank of workgroup atomics; a
// barrier, then the first 8 invocations read the counters with atomicLoad and
// store them to the workgroup's own slots of out. Race-free.
// wgrace: --dispatch 2 --buffer values=128 --buffer out=16 --fill values=random:7
// expect: no-race

var<workgroup> bank: array<atomic<u32>, 8>;
@group(0) @binding(0) var<storage, read> values: array<u32>;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32,
        @builtin(workgroup_id) wid: vec3<u32>,
        @builtin(global_invocation_id) gid: vec3<u32>) {
    atomicAdd(&bank[values[gid.x] % 8u], 1u);
    workgroupBarrier();
    if lid < 8u {
        out[wid.x * 8u + lid] = atomicLoad(&bank[lid]);
    }
}
