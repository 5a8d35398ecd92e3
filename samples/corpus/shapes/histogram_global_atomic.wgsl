// original: shapes: 16-bin histogram straight into global memory (race-free: atomic increments)
// Race-free twin of histogram_global_plain.wgsl: each bin is an atomic<u32> and
// every increment an atomicAdd.
// wgrace: --dispatch 4 --fill samples=random:5
// expect: no-race

@group(0) @binding(0) var<storage, read> samples: array<u32, 256>;
@group(0) @binding(1) var<storage, read_write> bins: array<atomic<u32>, 16>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let bin = samples[gid.x] >> 28u;
    atomicAdd(&bins[bin], 1u);
}
