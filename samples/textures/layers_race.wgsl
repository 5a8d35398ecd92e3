// A 2D array texture of 4 layers, 16x16 each: invocation (x, y, z) writes
// texel (x, y) of layer z % 2, so the invocations of z and z + 2 write the
// same texels of layers 0 and 1, in different workgroups.
// wgrace: --dispatch 2,2,4 --texture layers=16x16x4
// expect: race
// race: inter-workgroup 13 13

@group(0) @binding(0) var layers: texture_storage_2d_array<r32uint, write>;

@compute @workgroup_size(8, 8, 1)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let v = gid.x + gid.y * 16u + gid.z * 256u;
    textureStore(layers, vec2<i32>(gid.xy), i32(gid.z % 2u), vec4<u32>(v));
}
