// Dynamic indices into a vector's components, a matrix's columns and an
// array nested in a struct: the component index runs to 4 (a vec4 has 0..3),
// the column index to 3 (a mat3x3 has 0..2), and the row of the nested grid
// to 8 (it has 8 rows, 0..7).
// wgrace: --dispatch 1 --buffer out=16
// expect: no-race
// finding: bounds 18 19 20

struct Grid { rows: array<array<f32, 4>, 8>, scale: f32 }

@group(0) @binding(0) var<storage, read_write> out: array<f32>;
var<workgroup> grid: Grid;

@compute @workgroup_size(16)
fn main(@builtin(local_invocation_index) lid: u32) {
    let v = vec4<f32>(1.0, 2.0, 3.0, 4.0);
    let m = mat3x3<f32>(v.xyz, v.yzw, v.zwx);
    let component = v[lid % 5u];
    let column = m[lid / 4u].x;
    let row = grid.rows[lid / 2u + 1u][lid % 4u];
    out[lid] = component + column + row;
}
