// original: shapes: 3x3 box blur through a workgroup tile with a one-pixel halo (racy: halo loaded after the barrier)
// The blur of blur_halo_tile.wgsl written as "own pixel, barrier, halo": each
// invocation stores its own pixel before the barrier, but invocations 0..35
// store the 36 halo cells after it, while the edge invocations already read them.
// wgrace: --dispatch 2,2
// expect: race
// race: intra-workgroup 49 54

const W: i32 = 16;
const H: i32 = 16;

@group(0) @binding(0) var<storage, read> src: array<f32, 256>;
@group(0) @binding(1) var<storage, read_write> dst: array<f32, 256>;

var<workgroup> tile: array<array<f32, 10>, 10>;

fn pixel(x: i32, y: i32) -> f32 {
    if x < 0 || y < 0 || x >= W || y >= H {
        return 0.0;
    }
    return src[y * W + x];
}

// Tile coordinates of halo cell h (0..35): top row, bottom row, left and right columns.
fn halo_cell(h: u32) -> vec2<u32> {
    if h < 10u {
        return vec2(h, 0u);
    }
    if h < 20u {
        return vec2(h - 10u, 9u);
    }
    if h < 28u {
        return vec2(0u, h - 19u);
    }
    return vec2(9u, h - 27u);
}

@compute @workgroup_size(8, 8)
fn main(@builtin(local_invocation_id) lid: vec3<u32>,
        @builtin(local_invocation_index) li: u32,
        @builtin(workgroup_id) wid: vec3<u32>,
        @builtin(global_invocation_id) gid: vec3<u32>) {
    let ox = i32(wid.x) * 8 - 1;
    let oy = i32(wid.y) * 8 - 1;
    tile[lid.y + 1u][lid.x + 1u] = pixel(i32(gid.x), i32(gid.y));
    workgroupBarrier();
    if li < 36u {
        let c = halo_cell(li);
        tile[c.y][c.x] = pixel(ox + i32(c.x), oy + i32(c.y));
    }
    var acc = 0.0;
    for (var dy = 0u; dy < 3u; dy++) {
        for (var dx = 0u; dx < 3u; dx++) {
            acc += tile[lid.y + dy][lid.x + dx];
        }
    }
    dst[gid.y * u32(W) + gid.x] = acc / 9.0;
}
