// Four invocations store elements of a small workgroup array while every
// invocation copies the whole array into a local value, with no barrier: the
// copy reads all four words, so it races with each of the element stores.
// wgrace: --dispatch 2
// expect: race
// race: intra-workgroup 14 16

var<workgroup> tile: array<u32, 4>;
@group(0) @binding(0) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(global_invocation_id) gid: vec3<u32>) {
    if lid < 4u {
        tile[lid] = lid + 10u;
    }
    let copy = tile;
    out[gid.x] = copy[lid % 4u];
}
