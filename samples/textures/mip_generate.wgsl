// One step of mip generation: every invocation averages a 2x2 block of
// level 0 of a 64x64 texture (through a linear sampler, between the four
// texels) and writes one texel of level 1, a storage view of the
// destination's mip level 1. Each invocation writes its own texel:
// race-free.
// wgrace: --dispatch 4,4 --texture src=64x64 --texture dst=64x64:mip=1
// expect: no-race

@group(0) @binding(0) var src: texture_2d<f32>;
@group(0) @binding(1) var smp: sampler;
@group(0) @binding(2) var dst: texture_storage_2d<rgba8unorm, write>;

@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let texel = 1.0 / vec2<f32>(textureDimensions(src));
    let centre = (vec2<f32>(gid.xy) * 2.0 + 1.0) * texel;
    textureStore(dst, vec2<i32>(gid.xy), textureSampleLevel(src, smp, centre, 0.0));
}
