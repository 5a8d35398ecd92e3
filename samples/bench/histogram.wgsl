// 256-bin histogram of the top byte of each value: every workgroup counts its
// grid-stride share of the input in workgroup atomics, then after a barrier
// each invocation adds one bin into the global bins with a storage atomic.
// wgrace: --dispatch 4 --fill values=random:5 --fill bins=zero
// expect: no-race

@group(0) @binding(0) var<storage, read> values: array<u32>;
@group(0) @binding(1) var<storage, read_write> bins: array<atomic<u32>, 256>;

var<workgroup> local_bins: array<atomic<u32>, 256>;

@compute @workgroup_size(256)
fn main(@builtin(local_invocation_index) lid: u32,
        @builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(num_workgroups) nwg: vec3<u32>) {
    let n = arrayLength(&values);
    let stride = nwg.x * 256u;
    for (var i = gid.x; i < n; i = i + stride) {
        atomicAdd(&local_bins[values[i] >> 24u], 1u);
    }
    workgroupBarrier();
    let count = atomicLoad(&local_bins[lid]);
    if count != 0u {
        atomicAdd(&bins[lid], count);
    }
}
