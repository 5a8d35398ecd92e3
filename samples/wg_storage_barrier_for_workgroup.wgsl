// A workgroup tile is written and then read at the neighbour's slot, but the
// two are separated only by storageBarrier(), which orders storage memory, not
// workgroup memory: the neighbour's write is still unordered with the read.
// wgrace: --dispatch 2
// expect: race
// race: barrier-kind 14 16

var<workgroup> tile: array<u32, 64>;
@group(0) @binding(0) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(global_invocation_id) gid: vec3<u32>) {
    // The wrong barrier: this should be workgroupBarrier().
    tile[lid] = lid * 3u + 1u;
    storageBarrier();
    out[gid.x] = tile[(lid + 1u) % 64u];
}
