// Particle binning into a uniform grid of fixed-capacity cells, as particle
// simulations build their neighbour grids: each invocation finds its
// particle's cell and takes a slot in it with atomicAdd on the cell's
// counter. Cell c owns entries [c * cap, (c + 1) * cap) of `cells`; a slot
// past the capacity is counted but not stored (the counter tells the host to
// grow the cells). Tickets of one counter are unique, and cells do not
// overlap, so no two invocations store to one entry.
// wgrace: --dispatch 4 --set params.grid=8 --set params.cap=32 --fill pos=random:41
// wgrace: --buffer pos=1024 --buffer cell_count=64 --buffer cells=2048 --fill cell_count=zero
// expect: no-race
// output: nondeterministic: the order of the particles within a cell depends on the schedule

struct Params {
    grid: u32,
    cap: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> pos: array<vec2<f32>>;
@group(0) @binding(2) var<storage, read_write> cell_count: array<atomic<u32>>;
@group(0) @binding(3) var<storage, read_write> cells: array<u32>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let i = gid.x;
    let grid = max(params.grid, 1u);
    if i >= arrayLength(&pos) {
        return;
    }
    let p = clamp(pos[i], vec2(0.0), vec2(1.0));
    let xy = min(vec2<u32>(p * f32(grid)), vec2(grid - 1u));
    let cell = xy.y * grid + xy.x;
    if cell >= arrayLength(&cell_count) {
        return;
    }
    let slot = atomicAdd(&cell_count[cell], 1u);
    if slot < params.cap && cell * params.cap + slot < arrayLength(&cells) {
        cells[cell * params.cap + slot] = i;
    }
}
