// Covers: compound assignments (`+=`, `*=`) and increments (`++`) on
// workgroup and storage memory. Each is a load followed by a store of the
// same location, so it is two sites: a read and a write.

@group(0) @binding(0) var<storage, read_write> sums: array<u32>;

var<workgroup> histogram: array<u32, 4>;

@compute @workgroup_size(16)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(global_invocation_id) gid: vec3<u32>) {
    histogram[lid % 4u] += 1u;
    workgroupBarrier();
    sums[gid.x] *= histogram[lid / 4u];
    sums[gid.x]++;
}
