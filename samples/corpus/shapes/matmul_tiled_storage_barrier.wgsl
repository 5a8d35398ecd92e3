// original: shapes: tiled matrix multiply through workgroup-memory tiles (racy: wrong barrier kind)
// The tiled matmul of matmul_tiled.wgsl with both barriers written as
// storageBarrier(): the tiles live in workgroup memory, which a storage barrier
// does not order, so every tile load races with the reads of other invocations
// before it (previous step) and after it (same step).
// wgrace: --dispatch 2,2
// expect: race
// race: barrier-kind 28 32
// race: barrier-kind 29 32

const N: u32 = 16u;
const TILE: u32 = 8u;

@group(0) @binding(0) var<storage, read> a: array<f32, 256>;
@group(0) @binding(1) var<storage, read> b: array<f32, 256>;
@group(0) @binding(2) var<storage, read_write> c: array<f32, 256>;

var<workgroup> tile_a: array<array<f32, 8>, 8>;
var<workgroup> tile_b: array<array<f32, 8>, 8>;

@compute @workgroup_size(8, 8)
fn main(@builtin(local_invocation_id) lid: vec3<u32>,
        @builtin(global_invocation_id) gid: vec3<u32>) {
    let row = gid.y;
    let col = gid.x;
    var acc = 0.0;
    for (var step = 0u; step < N / TILE; step++) {
        tile_a[lid.y][lid.x] = a[row * N + step * TILE + lid.x];
        tile_b[lid.y][lid.x] = b[(step * TILE + lid.y) * N + col];
        storageBarrier();
        for (var k = 0u; k < TILE; k++) {
            acc += tile_a[lid.y][k] * tile_b[k][lid.x];
        }
        storageBarrier();
    }
    c[row * N + col] = acc;
}
