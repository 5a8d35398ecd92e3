// original: shapes: single-pass sum reduction, workgroup sums accumulated atomically (race-free)
// Race-free alternative to reduction_last_block.wgsl: each workgroup reduces its
// 64 values in workgroup memory and invocation 0 adds the sum into the total
// with atomicAdd, so no workgroup reads another's result.
// wgrace: --dispatch 4
// expect: no-race

@group(0) @binding(0) var<storage, read> input: array<u32, 256>;
@group(0) @binding(1) var<storage, read_write> total: atomic<u32>;

var<workgroup> s: array<u32, 64>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32,
        @builtin(global_invocation_id) gid: vec3<u32>) {
    s[lid] = input[gid.x];
    workgroupBarrier();
    for (var stride = 32u; stride > 0u; stride /= 2u) {
        if lid < stride {
            s[lid] += s[lid + stride];
        }
        workgroupBarrier();
    }
    if lid == 0u {
        atomicAdd(&total, s[0]);
    }
}
