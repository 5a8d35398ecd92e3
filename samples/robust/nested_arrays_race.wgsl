// nested_arrays.wgsl with the row index wrapped at 4: invocations lid and
// lid + 32 write the same element (different subgroups at every subgroup
// size up to 32), and the reads after the barrier are ordered.
// expect: race
// race: intra-workgroup 13 13

@group(0) @binding(0) var<storage, read_write> out: array<u32>;

var<workgroup> grid: array<array<u32, 8>, 8>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32) {
    grid[(lid / 8u) % 4u][lid % 8u] = lid;
    workgroupBarrier();
    out[lid] = grid[lid % 8u][lid / 8u];
}
