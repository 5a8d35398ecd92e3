// Race-free twin of storage_intra_missing_barrier.wgsl: storageBarrier()
// orders each workgroup's storage writes before the neighbour reads, and the
// workgroups use disjoint slices of the buffer.
// wgrace: --dispatch 2 --buffer data=128 --buffer out=128
// expect: no-race

@group(0) @binding(0) var<storage, read_write> data: array<u32>;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32,
        @builtin(workgroup_id) wid: vec3<u32>,
        @builtin(global_invocation_id) gid: vec3<u32>) {
    let base = wid.x * 64u;
    data[base + lid] = lid * lid;
    storageBarrier();
    out[gid.x] = data[base + (lid + 63u) % 64u];
}
