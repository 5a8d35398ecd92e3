// The fix of banks_transpose_tile.wgsl: a row of 33 words instead of 32.
// A column's words are then 33 apart, and consecutive invocations' words
// fall on consecutive banks: reading a column is conflict-free, as writing
// a row is. No finding.
// wgrace: --checks default,banks --dispatch 2,2 --buffer input=4096 --buffer output=4096
// expect: no-race

@group(0) @binding(0) var<storage, read> input: array<f32>;
@group(0) @binding(1) var<storage, read_write> output: array<f32>;
var<workgroup> tile: array<array<f32, 33>, 32>;

@compute @workgroup_size(32, 8)
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>) {
    for (var r = lid.y; r < 32u; r += 8u) {
        tile[r][lid.x] = input[(wid.y * 32u + r) * 64u + wid.x * 32u + lid.x];
    }
    workgroupBarrier();
    for (var r = lid.y; r < 32u; r += 8u) {
        output[(wid.x * 32u + r) * 64u + wid.y * 32u + lid.x] = tile[lid.x][r];
    }
}
