// Mip generation gone wrong: one invocation per texel of level 0 instead of
// level 1, each writing texel gid / 2 of level 1. Four invocations write
// every texel of level 1, the race the report places at texel coordinates
// of mip level 1.
// wgrace: --dispatch 8,8 --texture src=64x64 --texture dst=64x64:mip=1
// expect: race
// race: intra-workgroup 15 15

@group(0) @binding(0) var src: texture_2d<f32>;
@group(0) @binding(1) var dst: texture_storage_2d<rgba8unorm, write>;

@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let c = textureLoad(src, vec2<i32>(gid.xy), 0);
    textureStore(dst, vec2<i32>(gid.xy / 2u), c);
}
