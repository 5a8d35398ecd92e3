// Covers: a read_write storage buffer written and read back by other
// invocations of the workgroup, ordered by storageBarrier(). Storage accesses
// call `wgrace_storage_access`; the barrier tells the runtime it orders
// storage memory. The read-only binding is not tracked and has no hooks.

@group(0) @binding(0) var<storage, read_write> data: array<f32>;
@group(0) @binding(1) var<storage, read> weights: array<f32>;

@compute @workgroup_size(32)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
    data[gid.x] = weights[gid.x] * 2.0;
    storageBarrier();
    let base = gid.x - lid;
    data[gid.x] = data[base + (lid + 1u) % 32u] + data[gid.x];
}
