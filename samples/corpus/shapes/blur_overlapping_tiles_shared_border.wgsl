// original: shapes: 3x3 box blur through a workgroup tile with a one-pixel halo (racy: overlapping output tiles)
// A 15x15 image blurred by 2x2 workgroups whose 8x8 output blocks are placed 7
// pixels apart (an off-by-one in the tile stride), so column 7 and row 7 of the
// output are written by two workgroups each, and pixel (7,7) by all four.
// wgrace: --dispatch 2,2
// expect: race
// race: inter-workgroup 45 45

const W: i32 = 15;
const H: i32 = 15;
const STRIDE: i32 = 7;

@group(0) @binding(0) var<storage, read> src: array<f32, 225>;
@group(0) @binding(1) var<storage, read_write> dst: array<f32, 225>;

var<workgroup> tile: array<array<f32, 10>, 10>;

fn pixel(x: i32, y: i32) -> f32 {
    if x < 0 || y < 0 || x >= W || y >= H {
        return 0.0;
    }
    return src[y * W + x];
}

@compute @workgroup_size(8, 8)
fn main(@builtin(local_invocation_id) lid: vec3<u32>,
        @builtin(local_invocation_index) li: u32,
        @builtin(workgroup_id) wid: vec3<u32>) {
    let bx = i32(wid.x) * STRIDE;
    let by = i32(wid.y) * STRIDE;
    for (var t = li; t < 100u; t += 64u) {
        let ty = t / 10u;
        let tx = t % 10u;
        tile[ty][tx] = pixel(bx - 1 + i32(tx), by - 1 + i32(ty));
    }
    workgroupBarrier();
    var acc = 0.0;
    for (var dy = 0u; dy < 3u; dy++) {
        for (var dx = 0u; dx < 3u; dx++) {
            acc += tile[lid.y + dy][lid.x + dx];
        }
    }
    let x = bx + i32(lid.x);
    let y = by + i32(lid.y);
    dst[y * W + x] = acc / 9.0;
}
