// A luminance histogram of an image: every invocation reads one texel of a
// sampled texture and counts it into one of 16 bins with atomicAdd. Reading
// a sampled texture cannot race, and atomics do not race with atomics:
// race-free.
// wgrace: --dispatch 4,4 --texture image=32x32 --fill image=file:gradient_32.png
// expect: no-race

@group(0) @binding(0) var image: texture_2d<f32>;
@group(0) @binding(1) var<storage, read_write> bins: array<atomic<u32>, 16>;

@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let c = textureLoad(image, vec2<i32>(gid.xy), 0);
    let luma = dot(c.rgb, vec3<f32>(0.2126, 0.7152, 0.0722));
    let bin = min(u32(luma * 16.0), 15u);
    atomicAdd(&bins[bin], 1u);
}
