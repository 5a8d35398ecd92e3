// A 3-point smoothing over a workgroup tile reads both neighbours of each
// element, but the first and the last invocation's neighbours lie outside
// the tile: `tile[lid - 1u]` wraps to 4294967295 for invocation 0, and
// `tile[lid + 1u]` is 64 for invocation 63. WGSL clamps such reads to some
// element (or returns zero), differently on each GPU.
// bounds_clamped_indices.wgsl is the fix.
// wgrace: --dispatch 2 --buffer data=128
// expect: no-race
// finding: bounds 18 19

@group(0) @binding(0) var<storage, read_write> data: array<f32>;
var<workgroup> tile: array<f32, 64>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(global_invocation_id) gid: vec3<u32>) {
    tile[lid] = data[gid.x];
    workgroupBarrier();
    let left = tile[lid - 1u];
    let right = tile[lid + 1u];
    data[gid.x] = (left + tile[lid] + right) / 3.0;
}
