// A 1-D blur over n = 200 elements, in workgroups of 64: invocations past the
// end return early, before the barrier the others wait at. The last workgroup
// diverges at its barrier (WGSL forbids it; naga accepts the shader).
// wg_barrier_after_bounds_guard.wgsl is the fix.
// wgrace: --dispatch 4 --buffer src=256 --buffer dst=256
// expect: no-race
// finding: barrier-divergence

const N: u32 = 200u;
var<workgroup> tile: array<f32, 64>;
@group(0) @binding(0) var<storage, read> src: array<f32>;
@group(0) @binding(1) var<storage, read_write> dst: array<f32>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(global_invocation_id) gid: vec3<u32>) {
    if gid.x >= N {
        return;
    }
    tile[lid] = src[gid.x];
    workgroupBarrier();
    let left = tile[max(lid, 1u) - 1u];
    dst[gid.x] = (left + tile[lid]) * 0.5;
}
