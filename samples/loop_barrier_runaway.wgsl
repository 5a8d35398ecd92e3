// A tiled sum whose tile count comes from a uniform the host left
// zero: `count - 1u` wraps, and the loop, which holds two workgroup
// barriers, runs away. Its control flow is uniform, so every invocation of
// a workgroup reaches the budget at the same iteration and all leave the
// loop together: no barrier divergence, and the run ends.
// wgrace: --dispatch 2 --buffer data=4096 --buffer out=2 --fill params=zero
// expect: no-race
// finding: loops

struct Params { tiles: u32 }

@group(0) @binding(0) var<storage, read> data: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
@group(0) @binding(2) var<uniform> params: Params;

var<workgroup> tile: array<f32, 64>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
    var acc = 0.0;
    for (var t = 0u; t < params.tiles - 1u; t++) {
        tile[lid] = data[(t * 64u + lid) % 4096u];
        workgroupBarrier();
        acc += tile[63u - lid];
        workgroupBarrier();
    }
    if lid == 0u {
        out[wid.x] = acc;
    }
}
