// original: shapes: 3x3 box blur through a workgroup tile with a one-pixel halo (racy: blurred in place)
// The blur of blur_halo_tile.wgsl with source and destination the same buffer.
// Within a workgroup it is fine (each invocation loads its own pixel and later
// overwrites only that pixel; halo cells lie outside the block), but a
// workgroup's halo is its neighbours' border pixels, which they overwrite with
// no ordering between workgroups.
// wgrace: --dispatch 2,2
// expect: race
// race: inter-workgroup 22 58

const W: i32 = 16;
const H: i32 = 16;

@group(0) @binding(0) var<storage, read_write> img: array<f32, 256>;

var<workgroup> tile: array<array<f32, 10>, 10>;

fn halo_pixel(x: i32, y: i32) -> f32 {
    if x < 0 || y < 0 || x >= W || y >= H {
        return 0.0;
    }
    return img[y * W + x];
}

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
    let own = gid.y * u32(W) + gid.x;
    tile[lid.y + 1u][lid.x + 1u] = img[own];
    if li < 36u {
        let c = halo_cell(li);
        tile[c.y][c.x] = halo_pixel(ox + i32(c.x), oy + i32(c.y));
    }
    workgroupBarrier();
    var acc = 0.0;
    for (var dy = 0u; dy < 3u; dy++) {
        for (var dx = 0u; dx < 3u; dx++) {
            acc += tile[lid.y + dy][lid.x + dx];
        }
    }
    img[own] = acc / 9.0;
}
