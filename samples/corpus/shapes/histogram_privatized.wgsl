// original: shapes: histogram privatized per workgroup, then merged (race-free)
// Each workgroup counts its samples into a workgroup-memory histogram with
// atomics, waits at a barrier, and the first 16 invocations add one bin each
// into the global histogram with atomicAdd.
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
    workgroupBarrier();
    if lid < 16u {
        atomicAdd(&bins[lid], atomicLoad(&local_bins[lid]));
    }
}
