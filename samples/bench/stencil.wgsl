// 2-D 5-point stencil: each 16x16 workgroup stages its block of `src` plus a
// one-cell halo in workgroup memory, then after a barrier every invocation
// computes its cell into `dst`. The grid is (16 * groups.x) x (16 * groups.y)
// cells, row-major, clamped at the edges.
// wgrace: --dispatch 2,2 --fill src=random:9
// expect: no-race

@group(0) @binding(0) var<storage, read> src: array<f32>;
@group(0) @binding(1) var<storage, read_write> dst: array<f32>;

var<workgroup> tile: array<array<f32, 18>, 18>;

fn cell(x: i32, y: i32, w: i32, h: i32) -> f32 {
    let cx = clamp(x, 0, w - 1);
    let cy = clamp(y, 0, h - 1);
    return src[u32(cy) * u32(w) + u32(cx)];
}

@compute @workgroup_size(16, 16)
fn main(@builtin(local_invocation_id) lid: vec3<u32>,
        @builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(num_workgroups) nwg: vec3<u32>) {
    let w = i32(nwg.x * 16u);
    let h = i32(nwg.y * 16u);
    let x = i32(gid.x);
    let y = i32(gid.y);
    let tx = lid.x + 1u;
    let ty = lid.y + 1u;
    tile[ty][tx] = cell(x, y, w, h);
    if lid.x == 0u {
        tile[ty][0] = cell(x - 1, y, w, h);
    }
    if lid.x == 15u {
        tile[ty][17] = cell(x + 1, y, w, h);
    }
    if lid.y == 0u {
        tile[0][tx] = cell(x, y - 1, w, h);
    }
    if lid.y == 15u {
        tile[17][tx] = cell(x, y + 1, w, h);
    }
    workgroupBarrier();
    let v = 0.5 * tile[ty][tx]
        + 0.125 * (tile[ty][tx - 1u] + tile[ty][tx + 1u] + tile[ty - 1u][tx] + tile[ty + 1u][tx]);
    dst[gid.y * nwg.x * 16u + gid.x] = v;
}
