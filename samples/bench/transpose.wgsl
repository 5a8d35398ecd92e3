// Tiled transpose: each 16x16 workgroup reads a block of the row-major input
// ((16 * groups.y) rows x (16 * groups.x) columns) into a tile padded to 17
// columns, and after a barrier writes the block transposed to the mirrored
// position of the output (16 * groups.x rows x 16 * groups.y columns).
// wgrace: --dispatch 2,3 --fill input=random:6
// expect: no-race

@group(0) @binding(0) var<storage, read> input: array<f32>;
@group(0) @binding(1) var<storage, read_write> output: array<f32>;

var<workgroup> tile: array<array<f32, 17>, 16>;

@compute @workgroup_size(16, 16)
fn main(@builtin(local_invocation_id) lid: vec3<u32>,
        @builtin(workgroup_id) wid: vec3<u32>,
        @builtin(num_workgroups) nwg: vec3<u32>) {
    let width = nwg.x * 16u;
    let height = nwg.y * 16u;
    let x = wid.x * 16u + lid.x;
    let y = wid.y * 16u + lid.y;
    tile[lid.y][lid.x] = input[y * width + x];
    workgroupBarrier();
    let ox = wid.y * 16u + lid.x;
    let oy = wid.x * 16u + lid.y;
    output[oy * height + ox] = tile[lid.x][lid.y];
}
