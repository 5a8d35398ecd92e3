// The fix of bounds_workgroup_halo_read.wgsl, and the other ways shaders
// keep an index in bounds: clamping with min/max, wrapping with `%`,
// choosing with select, and testing against arrayLength before the access.
// Every index stays inside its array: no finding.
// wgrace: --dispatch 3 --buffer data=150 --buffer out=192
// expect: no-race

@group(0) @binding(0) var<storage, read> data: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
var<workgroup> tile: array<f32, 64>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(global_invocation_id) gid: vec3<u32>) {
    // 192 invocations, 150 elements: the guard keeps the read in bounds.
    var v = 0.0;
    if gid.x < arrayLength(&data) {
        v = data[gid.x];
    }
    tile[lid] = v;
    workgroupBarrier();
    let left = tile[max(lid, 1u) - 1u];
    let right = tile[min(lid + 1u, 63u)];
    let wrapped = tile[(lid + 32u) % 64u];
    let chosen = tile[select(lid + 1u, 0u, lid == 63u)];
    out[gid.x] = left + right + wrapped + chosen;
}
