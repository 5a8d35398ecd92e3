// Every texel format WGSL allows for storage textures (its core list),
// each written by every invocation at its own texel; and the three that
// allow read_write access, read and written in place. Race-free in each
// format. The tests also compare the textures `--dump` writes after a
// checked run with those after `--no-detect`.
// wgrace: --dispatch 2,2
// expect: no-race

@group(0) @binding(0) var t_rgba8unorm: texture_storage_2d<rgba8unorm, write>;
@group(0) @binding(1) var t_rgba8snorm: texture_storage_2d<rgba8snorm, write>;
@group(0) @binding(2) var t_rgba8uint: texture_storage_2d<rgba8uint, write>;
@group(0) @binding(3) var t_rgba8sint: texture_storage_2d<rgba8sint, write>;
@group(0) @binding(4) var t_rgba16uint: texture_storage_2d<rgba16uint, write>;
@group(0) @binding(5) var t_rgba16sint: texture_storage_2d<rgba16sint, write>;
@group(0) @binding(6) var t_rgba16float: texture_storage_2d<rgba16float, write>;
@group(0) @binding(7) var t_r32uint: texture_storage_2d<r32uint, write>;
@group(0) @binding(8) var t_r32sint: texture_storage_2d<r32sint, write>;
@group(0) @binding(9) var t_r32float: texture_storage_2d<r32float, write>;
@group(0) @binding(10) var t_rg32uint: texture_storage_2d<rg32uint, write>;
@group(0) @binding(11) var t_rg32sint: texture_storage_2d<rg32sint, write>;
@group(0) @binding(12) var t_rg32float: texture_storage_2d<rg32float, write>;
@group(0) @binding(13) var t_rgba32uint: texture_storage_2d<rgba32uint, write>;
@group(0) @binding(14) var t_rgba32sint: texture_storage_2d<rgba32sint, write>;
@group(0) @binding(15) var t_rgba32float: texture_storage_2d<rgba32float, write>;
@group(0) @binding(16) var t_bgra8unorm: texture_storage_2d<bgra8unorm, write>;
@group(1) @binding(17) var rw_r32uint: texture_storage_2d<r32uint, read_write>;
@group(1) @binding(18) var rw_r32sint: texture_storage_2d<r32sint, read_write>;
@group(1) @binding(19) var rw_r32float: texture_storage_2d<r32float, read_write>;

@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let f = vec4<f32>(vec2<f32>(gid.xy) / 16.0, 0.25, 1.0);
    let s = vec4<f32>(vec2<f32>(gid.xy) / 8.0 - 1.0, -0.5, 1.0);
    let u = vec4<u32>(gid.x, gid.y, gid.x + gid.y, 7u);
    let i = vec4<i32>(i32(gid.x) - 8, i32(gid.y) - 8, 3, -1);
    textureStore(t_rgba8unorm, gid.xy, f);
    textureStore(t_rgba8snorm, gid.xy, s);
    textureStore(t_rgba8uint, gid.xy, u);
    textureStore(t_rgba8sint, gid.xy, i);
    textureStore(t_rgba16uint, gid.xy, u);
    textureStore(t_rgba16sint, gid.xy, i);
    textureStore(t_rgba16float, gid.xy, f);
    textureStore(t_r32uint, gid.xy, u);
    textureStore(t_r32sint, gid.xy, i);
    textureStore(t_r32float, gid.xy, f);
    textureStore(t_rg32uint, gid.xy, u);
    textureStore(t_rg32sint, gid.xy, i);
    textureStore(t_rg32float, gid.xy, f);
    textureStore(t_rgba32uint, gid.xy, u);
    textureStore(t_rgba32sint, gid.xy, i);
    textureStore(t_rgba32float, gid.xy, f);
    textureStore(t_bgra8unorm, gid.xy, f);
    textureStore(rw_r32uint, gid.xy, textureLoad(rw_r32uint, gid.xy) + 1u);
    textureStore(rw_r32sint, gid.xy, textureLoad(rw_r32sint, gid.xy) + -1);
    textureStore(rw_r32float, gid.xy, textureLoad(rw_r32float, gid.xy) + 0.5);
}
