// Shaders with `f64` and `i16` check where the adapter supports them
// (lavapipe does): wgrace asks the device for every feature the shader needs
// that the adapter has, and names the one an adapter lacks. Pairs of
// invocations store into one `f64` element: a race. Each invocation stores
// its own `i16` element, two to a 32-bit word: no race.
// wgrace: --no-analyzer
// expect: race
// race: intra-workgroup 17 17
enable wgpu_int16;

@group(0) @binding(0) var<storage, read_write> wide: array<f64>;
@group(0) @binding(1) var<storage, read_write> narrow: array<i16>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    narrow[gid.x] = i16(gid.x);
    wide[gid.x / 2u] = f64(gid.x) * 0.5lf;
}
