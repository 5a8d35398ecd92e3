// original: gpuverify: testsuite/CUDA/warpsync/2d/kernel.cu (pass)
// wgsl: race: verified with --warp-sync=16, so the 4x4 block is one lock-step warp and the in-place transpose of the tile is safe; WGSL has no lock-step guarantee. 2x2 tiles instead of 10x10.
// Each invocation of a 4x4 workgroup copies tile[y][x] into tile[x][y] with no
// barrier, then (after a barrier) stores its tile cell to the transposed
// position in storage.
// wgrace: --dispatch 2,2 --buffer a=64
// expect: race
// race: intra-workgroup 21 21

const SIZE = 4u;
const TILES = 2u;
const LENGTH = TILES * SIZE;

var<workgroup> tile: array<array<f32, SIZE>, SIZE>;
@group(0) @binding(0) var<storage, read_write> a: array<f32>;

@compute @workgroup_size(4, 4)
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>) {
    let x = lid.x;
    let y = lid.y;
    tile[x][y] = tile[y][x];
    workgroupBarrier();
    a[((x + wid.y * SIZE) * LENGTH) + (y + wid.x * SIZE)] = tile[x][y];
}
