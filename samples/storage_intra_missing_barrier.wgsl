// Each workgroup exchanges values among its invocations through its own
// slice of a storage buffer with no barrier at all: the neighbour may not have
// written yet. Slices are disjoint, so only invocations of one workgroup race.
// wgrace: --dispatch 2 --buffer data=128 --buffer out=128
// expect: race
// race: intra-workgroup 16 17

@group(0) @binding(0) var<storage, read_write> data: array<u32>;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32,
        @builtin(workgroup_id) wid: vec3<u32>,
        @builtin(global_invocation_id) gid: vec3<u32>) {
    let base = wid.x * 64u;
    data[base + lid] = lid * lid;
    out[gid.x] = data[base + (lid + 63u) % 64u];
}
