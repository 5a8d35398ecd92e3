// Race-free twin of wg_vector_components.wgsl: a barrier separates the stores
// of the two components of the shared vec4; and each invocation also owns a
// vec4 of its own whose components it stores one by one.
// wgrace: --dispatch 2
// expect: no-race

var<workgroup> acc: vec4<f32>;
var<workgroup> own: array<vec4<f32>, 64>;
@group(0) @binding(0) var<storage, read_write> out: array<f32>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(global_invocation_id) gid: vec3<u32>) {
    if lid == 0u {
        acc.x = 1.0;
    }
    workgroupBarrier();
    if lid == 1u {
        acc.y = 2.0;
    }
    own[lid].x = f32(lid);
    own[lid].w = 0.5;
    own[lid][2] = own[lid].x + 1.0;
    workgroupBarrier();
    out[gid.x] = acc.x + acc.y + own[lid].x + own[lid].z + own[lid].w;
}
