// Covers: stores to one component of a vector in storage and workgroup
// memory, by swizzle name and by dynamic index. A component store counts as
// a store to the whole vector, so the hook gets the vector's first word and
// its size in words.

@group(0) @binding(0) var<storage, read_write> positions: array<vec4<f32>>;

var<workgroup> scratch: array<vec2<u32>, 8>;

@compute @workgroup_size(8)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
    positions[gid.x].y = 1.0;
    positions[gid.x][lid % 4u] = f32(lid);
    scratch[lid].x = lid;
    scratch[lid][1] = gid.x;
    workgroupBarrier();
    positions[gid.x].w = f32(scratch[7u - lid].y);
}
