// original: gpuverify: testsuite/OpenCL/warpsync/2d/kernel.cl (pass)
// wgsl: race: verified with --warp-sync=16 (the 4x4 group is one lock-step warp); WGSL has no lock-step guarantee. Its barrier(CLK_GLOBAL_MEM_FENCE) becomes storageBarrier(); the only access after it to the tile is each invocation reading the cell it wrote itself, so nothing races across it. 2x2 tiles instead of 10x10.
// In-place transpose of a 4x4 workgroup tile with no barrier, then each
// invocation stores its own tile cell to the transposed position in storage.
// wgrace: --dispatch 2,2 --buffer a=64
// expect: race
// race: intra-workgroup 20 20

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
    storageBarrier();
    a[((x + wid.y * SIZE) * LENGTH) + (y + wid.x * SIZE)] = tile[x][y];
}
