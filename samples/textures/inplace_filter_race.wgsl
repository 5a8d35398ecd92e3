// An in-place box filter: every invocation averages its texel with its
// left and right neighbours and writes the result back into the same
// read_write texture. The neighbours' invocations write those texels
// meanwhile: each store races with the loads of the invocations beside it,
// within a workgroup and across the seam between two.
// wgrace: --dispatch 2,8 --texture img=16x8
// expect: race
// race: intra-workgroup 19 22
// race: inter-workgroup 19 22
// race: intra-workgroup 20 22
// race: inter-workgroup 20 22

@group(0) @binding(0) var img: texture_storage_2d<r32float, read_write>;

@compute @workgroup_size(8, 1)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let p = vec2<i32>(gid.xy);
    let w = i32(textureDimensions(img).x);
    let left = textureLoad(img, vec2<i32>(max(p.x - 1, 0), p.y)).x;
    let right = textureLoad(img, vec2<i32>(min(p.x + 1, w - 1), p.y)).x;
    let here = textureLoad(img, p).x;
    textureStore(img, p, vec4<f32>((left + here + right) / 3.0));
}
