// samples/bench/irregular/binning.wgsl with cells laid out half as far apart
// as their capacity: a cell holding more than 16 particles spills into the
// next cell's entries, which that cell's particles also store to.
// wgrace: --dispatch 4 --set params.grid=8 --set params.cap=32 --fill pos=random:41
// wgrace: --buffer pos=1024 --buffer cell_count=64 --buffer cells=2048 --fill cell_count=zero
// expect: race
// race: intra-workgroup 35 35
// race: inter-workgroup 35 35

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
    if slot < params.cap && cell * (params.cap / 2u) + slot < arrayLength(&cells) {
        cells[cell * (params.cap / 2u) + slot] = i;
    }
}
