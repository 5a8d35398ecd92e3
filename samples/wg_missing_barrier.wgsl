// Each invocation writes its slot of a workgroup tile and reads its
// neighbour's, with no barrier in between: the neighbour may not have
// written yet.
// wgrace: --dispatch 2
// expect: race
// race: intra-workgroup 13 14

var<workgroup> tile: array<u32, 64>;
@group(0) @binding(0) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(global_invocation_id) gid: vec3<u32>) {
    tile[lid] = lid * 2u;
    out[gid.x] = tile[(lid + 1u) % 64u];
}
