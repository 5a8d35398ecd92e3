// 5-point stencil over a 2-D dispatch that reads a read-only source grid and
// writes each invocation's own cell of a separate destination: race-free (the
// in-place version is storage_stencil_2d_inplace.wgsl).
// wgrace: --dispatch 2,2 --buffer src=256 --buffer dst=256
// expect: no-race

@group(0) @binding(0) var<storage, read> src: array<f32>;
@group(0) @binding(1) var<storage, read_write> dst: array<f32>;

@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let w = nwg.x * 8u;
    let h = nwg.y * 8u;
    let x = gid.x;
    let y = gid.y;
    let c = src[y * w + x];
    let l = src[y * w + select(x - 1u, x, x == 0u)];
    let r = src[y * w + select(x + 1u, x, x + 1u == w)];
    let d = src[select(y - 1u, y, y == 0u) * w + x];
    let u = src[select(y + 1u, y, y + 1u == h) * w + x];
    dst[y * w + x] = 0.5 * c + 0.125 * (l + r + d + u);
}
