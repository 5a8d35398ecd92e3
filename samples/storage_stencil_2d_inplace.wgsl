// In-place 5-point stencil on one storage grid: every invocation reads its four
// neighbours and then overwrites its own cell, so a neighbour's write may land
// before or after the read. Neighbours inside one 8x8 workgroup race
// intra-workgroup; neighbours across a workgroup edge race inter-workgroup.
// wgrace: --dispatch 2,2 --buffer grid=256
// expect: race
// race: intra-workgroup 26 31
// race: intra-workgroup 27 31
// race: intra-workgroup 28 31
// race: intra-workgroup 29 31
// race: inter-workgroup 26 31
// race: inter-workgroup 27 31
// race: inter-workgroup 28 31
// race: inter-workgroup 29 31

@group(0) @binding(0) var<storage, read_write> grid: array<f32>;

@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let w = nwg.x * 8u;
    let h = nwg.y * 8u;
    let x = gid.x;
    let y = gid.y;
    // Out-of-grid neighbours are clamped to the cell itself.
    let c = grid[y * w + x];
    let l = grid[y * w + select(x - 1u, x, x == 0u)];
    let r = grid[y * w + select(x + 1u, x, x + 1u == w)];
    let d = grid[select(y - 1u, y, y == 0u) * w + x];
    let u = grid[select(y + 1u, y, y + 1u == h) * w + x];
    // Overwrites the cell its neighbours read: should go to a second buffer.
    grid[y * w + x] = 0.5 * c + 0.125 * (l + r + d + u);
}
