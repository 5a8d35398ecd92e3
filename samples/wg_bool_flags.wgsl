// Each invocation sets its own flag in a workgroup array of bools; after the
// barrier invocation 0 counts them. Neighbouring bools share a 4-byte word
// (naga lays each out in one byte) but are distinct locations: no race.
// wgrace: --dispatch 2
// expect: no-race

var<workgroup> seen: array<bool, 64>;
@group(0) @binding(0) var<storage, read_write> counts: array<u32>;
@group(0) @binding(1) var<storage, read> data: array<u32>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(workgroup_id) wid: vec3<u32>) {
    seen[lid] = (data[gid.x] & 1u) == 1u;
    workgroupBarrier();
    if lid == 0u {
        var n = 0u;
        for (var i = 0u; i < 64u; i++) {
            n += select(0u, 1u, seen[i]);
        }
        counts[wid.x] = n;
    }
}
