// Invocation 0 picks a per-workgroup round count; workgroupUniformLoad()
// orders that write before every invocation's load and makes the count
// uniform, so the loop may contain barriers. Each round exchanges values
// through a tile with barriers around the reads. Race-free.
// wgrace: --dispatch 2 --buffer counts=2 --buffer out=128
// expect: no-race

var<workgroup> rounds: u32;
var<workgroup> tile: array<u32, 64>;
@group(0) @binding(0) var<storage, read> counts: array<u32>;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32,
        @builtin(workgroup_id) wid: vec3<u32>,
        @builtin(global_invocation_id) gid: vec3<u32>) {
    if lid == 0u {
        rounds = counts[wid.x] % 3u + 2u;
    }
    let n = workgroupUniformLoad(&rounds);
    var v = lid;
    for (var i = 0u; i < n; i = i + 1u) {
        tile[lid] = v;
        workgroupBarrier();
        v = v + tile[(lid + 1u) % 64u];
        workgroupBarrier();
    }
    out[gid.x] = v;
}
