// The fix of wg_barrier_after_early_return.wgsl: every invocation reaches the
// barrier, and only the accesses are guarded. The left neighbour of the last
// element of a tile is read only after the barrier: no race, no divergence.
// wgrace: --dispatch 4 --buffer src=256 --buffer dst=256
// expect: no-race

const N: u32 = 200u;
var<workgroup> tile: array<f32, 64>;
@group(0) @binding(0) var<storage, read> src: array<f32>;
@group(0) @binding(1) var<storage, read_write> dst: array<f32>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(global_invocation_id) gid: vec3<u32>) {
    let inside = gid.x < N;
    if inside {
        tile[lid] = src[gid.x];
    }
    workgroupBarrier();
    if inside {
        let left = tile[max(lid, 1u) - 1u];
        dst[gid.x] = (left + tile[lid]) * 0.5;
    }
}
