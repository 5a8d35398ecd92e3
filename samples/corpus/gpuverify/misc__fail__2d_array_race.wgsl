// original: gpuverify: testsuite/OpenCL/misc/fail/2d_array_race/kernel.cl (xfail:NOT_ALL_VERIFIED)
// wgsl: workgroup shrunk from 64x64 to 8x8 (WGSL allows at most 256 invocations by default); the 2-D tile gets one spare row so the +1 row stays in bounds.
// Each invocation loads its cell of a 2-D workgroup tile, increments the cell
// one row down (its neighbour's), and stores its own cell back, with no barrier.
// wgrace: --dispatch 2,2 --buffer g=256
// expect: race
// race: intra-workgroup 18 19
// race: intra-workgroup 19 20

var<workgroup> tile: array<array<i32, 8>, 9>;
@group(0) @binding(0) var<storage, read_write> g: array<i32>;

@compute @workgroup_size(8, 8)
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(num_workgroups) nwg: vec3<u32>) {
    let width = nwg.x * 8u;
    let idx = gid.y * width + gid.x;
    tile[lid.y][lid.x] = g[idx];
    tile[lid.y + 1u][lid.x] += 1;
    g[idx] = tile[lid.y][lid.x];
}
