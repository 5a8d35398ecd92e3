// original: shapes: 3x3 box blur through a workgroup tile with a one-pixel halo (race-free)
// Each 8x8 workgroup loads the 10x10 tile around its block (pixels outside the
// 16x16 image read as 0) cooperatively, waits at a barrier, and writes the blur
// of its block to a separate output image.
// wgrace: --dispatch 2,2
// expect: no-race

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

@compute @workgroup_size(8, 8)
fn main(@builtin(local_invocation_id) lid: vec3<u32>,
        @builtin(local_invocation_index) li: u32,
        @builtin(workgroup_id) wid: vec3<u32>,
        @builtin(global_invocation_id) gid: vec3<u32>) {
    let ox = i32(wid.x) * 8 - 1;
    let oy = i32(wid.y) * 8 - 1;
    for (var t = li; t < 100u; t += 64u) {
        let ty = t / 10u;
        let tx = t % 10u;
        tile[ty][tx] = pixel(ox + i32(tx), oy + i32(ty));
    }
    workgroupBarrier();
    var acc = 0.0;
    for (var dy = 0u; dy < 3u; dy++) {
        for (var dx = 0u; dx < 3u; dx++) {
            acc += tile[lid.y + dy][lid.x + dx];
        }
    }
    dst[gid.y * u32(W) + gid.x] = acc / 9.0;
}
