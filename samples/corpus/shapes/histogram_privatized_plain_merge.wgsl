// original: shapes: histogram privatized per workgroup, then merged (racy: plain merge into global memory)
// The privatized histogram of histogram_privatized.wgsl, but the global bins are
// plain u32 and the merge is a plain read-modify-write: within a workgroup each
// bin has one merging invocation, but invocation b of every workgroup merges
// into bin b, and the workgroups are not ordered.
// wgrace: --dispatch 4 --fill samples=random:5
// expect: race
// race: inter-workgroup 22 22

@group(0) @binding(0) var<storage, read> samples: array<u32, 256>;
@group(0) @binding(1) var<storage, read_write> bins: array<u32, 16>;

var<workgroup> local_bins: array<atomic<u32>, 16>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32,
        @builtin(global_invocation_id) gid: vec3<u32>) {
    let bin = samples[gid.x] >> 28u;
    atomicAdd(&local_bins[bin], 1u);
    workgroupBarrier();
    if lid < 16u {
        bins[lid] += atomicLoad(&local_bins[lid]);
    }
}
