// A nested array in workgroup memory written by rows and read by columns
// after a barrier: each invocation writes element [lid / 8][lid % 8] and
// reads [lid % 8][lid / 8]. Race-free.
// expect: no-race

@group(0) @binding(0) var<storage, read_write> out: array<u32>;

var<workgroup> grid: array<array<u32, 8>, 8>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32) {
    grid[lid / 8u][lid % 8u] = lid;
    workgroupBarrier();
    out[lid] = grid[lid % 8u][lid / 8u];
}
