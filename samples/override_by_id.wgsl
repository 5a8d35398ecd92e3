// An override with an `@id` is set by its name (or its id):
// `--override gain=2` and `--override 1300=2` both set `gain`. Without a
// value the run stops with an error naming the override, its type and the
// flag. Each invocation scales its own element: race-free.
// wgrace: --override gain=2
// expect: no-race

@id(1300) override gain: f32;

@group(0) @binding(0) var<storage, read_write> samples: array<f32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    samples[gid.x] = samples[gid.x] * gain;
}
