// A matrix transpose through a 32x32 workgroup tile: each invocation writes
// a row of the tile (consecutive words: conflict-free) and reads a column
// back (`tile[lid.x][r]`: a subgroup's invocations read words 32 apart,
// which all lie on one of the 32 banks, so the read is as many times slower
// as a subgroup has invocations: 32-way on NVIDIA, 8-way on lavapipe).
// banks_transpose_padded.wgsl is the fix.
// wgrace: --checks default,banks --dispatch 2,2 --buffer input=4096 --buffer output=4096
// expect: no-race
// finding: banks 22

@group(0) @binding(0) var<storage, read> input: array<f32>;
@group(0) @binding(1) var<storage, read_write> output: array<f32>;
var<workgroup> tile: array<array<f32, 32>, 32>;

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
