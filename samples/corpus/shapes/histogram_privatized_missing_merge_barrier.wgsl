// original: shapes: histogram privatized per workgroup, then merged (buggy but race-free: merge barrier missing)
// wgsl: a logic bug that is not a data race: without the barrier the merge may read a local bin before all increments landed, but every access to local_bins and bins is atomic, and atomics never race
// The privatized histogram of histogram_privatized.wgsl with the barrier between
// counting and merging left out.
// wgrace: --dispatch 4 --fill samples=random:5
// expect: no-race

@group(0) @binding(0) var<storage, read> samples: array<u32, 256>;
@group(0) @binding(1) var<storage, read_write> bins: array<atomic<u32>, 16>;

var<workgroup> local_bins: array<atomic<u32>, 16>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32,
        @builtin(global_invocation_id) gid: vec3<u32>) {
    let bin = samples[gid.x] >> 28u;
    atomicAdd(&local_bins[bin], 1u);
    if lid < 16u {
        atomicAdd(&bins[lid], atomicLoad(&local_bins[lid]));
    }
}
