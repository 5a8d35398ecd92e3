// The tiled blur of blur_tile.wgsl without its workgroupBarrier: an
// invocation may read a tile element before the invocation that loads it
// has stored it.
// wgrace: --dispatch 2,2 --texture src=32x32 --fill src=file:gradient_32.png --texture dst=32x32
// expect: race
// race: intra-workgroup 23 28

@group(0) @binding(0) var src: texture_2d<f32>;
@group(0) @binding(1) var dst: texture_storage_2d<rgba8unorm, write>;

var<workgroup> tile: array<array<vec4<f32>, 18>, 18>;

@compute @workgroup_size(16, 16)
fn main(
    @builtin(global_invocation_id) gid: vec3<u32>,
    @builtin(local_invocation_id) lid: vec3<u32>,
    @builtin(workgroup_id) wid: vec3<u32>,
) {
    let size = vec2<i32>(textureDimensions(src));
    let origin = vec2<i32>(wid.xy) * 16 - 1;
    for (var i = lid.y * 16u + lid.x; i < 18u * 18u; i += 256u) {
        let at = clamp(origin + vec2<i32>(i32(i % 18u), i32(i / 18u)), vec2<i32>(0), size - 1);
        tile[i / 18u][i % 18u] = textureLoad(src, at, 0);
    }
    var sum = vec4<f32>(0.0);
    for (var dy = 0u; dy < 3u; dy++) {
        for (var dx = 0u; dx < 3u; dx++) {
            sum += tile[lid.y + dy][lid.x + dx];
        }
    }
    textureStore(dst, vec2<i32>(gid.xy), sum / 9.0);
}
