// Every kind of texture a compute shader can bind, read the way each
// allows: sampled 1D, 2D, 2D array, 3D, cube and cube array textures,
// depth textures (2D, cube, multisampled), a multisampled texture, a
// `read` storage texture, a sampler and a comparison sampler; and a 3D
// storage texture written. Each invocation writes its own element of `out`
// and its own texel of `volume`: race-free.
// wgrace: --dispatch 2 --texture ms=16x16:samples=4 --fill ms=const:0.5 --fill depth_ms=const:0.25 --texture cube=8x8 --texture cubes=8x8x2 --texture volume=8x8x8
// expect: no-race

@group(0) @binding(0) var line: texture_1d<f32>;
@group(0) @binding(1) var plane: texture_2d<u32>;
@group(0) @binding(2) var planes: texture_2d_array<i32>;
@group(0) @binding(3) var block: texture_3d<f32>;
@group(0) @binding(4) var cube: texture_cube<f32>;
@group(0) @binding(5) var cubes: texture_cube_array<f32>;
@group(0) @binding(6) var depth: texture_depth_2d;
@group(0) @binding(7) var depth_cube: texture_depth_cube;
@group(0) @binding(8) var depth_ms: texture_depth_multisampled_2d;
@group(0) @binding(9) var ms: texture_multisampled_2d<f32>;
@group(0) @binding(10) var readable: texture_storage_2d<r32float, read>;
@group(0) @binding(11) var smp: sampler;
@group(0) @binding(12) var cmp: sampler_comparison;
@group(1) @binding(0) var volume: texture_storage_3d<rgba16float, write>;
@group(1) @binding(1) var<storage, read_write> out: array<vec4<f32>, 128>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let i = gid.x;
    let p = vec2<u32>(i % 16u, i / 16u);
    var v = textureLoad(line, i % 64u, 0);
    v += vec4<f32>(textureLoad(plane, p, 0));
    v += vec4<f32>(textureLoad(planes, p, i % 4u, 0));
    v += textureLoad(block, vec3<u32>(p, i % 8u), 0);
    v += textureSampleLevel(cube, smp, vec3<f32>(1.0, f32(p.x) / 8.0 - 1.0, 0.5), 0.0);
    v += textureSampleLevel(cubes, smp, vec3<f32>(0.5, 1.0, -0.5), i % 2u, 0.0);
    v.x += textureLoad(depth, p, 0);
    v.y += textureSampleCompareLevel(depth_cube, cmp, vec3<f32>(0.0, 0.0, 1.0), 0.5);
    v.z += textureLoad(depth_ms, p, i32(i % 4u));
    v += textureLoad(ms, p, i32(i % 4u));
    v.w += textureLoad(readable, p).x;
    v += vec4<f32>(vec4<u32>(textureDimensions(block), textureNumLayers(planes)));
    out[i] = v;
    textureStore(volume, vec3<u32>(i % 8u, (i / 8u) % 8u, i / 64u), v);
}
