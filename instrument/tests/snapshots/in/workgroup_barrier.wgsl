// Covers: loads and stores of a workgroup array, separated by
// workgroupBarrier(). Each store is preceded and each load followed by a
// `wgrace_wg_access` call, and each barrier is followed by `wgrace_barrier`.

@group(0) @binding(0) var<storage, read_write> out: array<u32>;

var<workgroup> tile: array<u32, 64>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(global_invocation_id) gid: vec3<u32>) {
    tile[lid] = lid * 2u;
    workgroupBarrier();
    let neighbour = tile[(lid + 1u) % 64u];
    workgroupBarrier();
    tile[lid] = neighbour + 1u;
    workgroupBarrier();
    out[gid.x] = tile[63u - lid];
}
