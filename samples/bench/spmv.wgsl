// Sparse matrix-vector product y = A * x with A in CSR whose rows are padded
// to blocks of `params.block` entries (block 1 is plain CSR): row r's entries
// are [row_ptr[r] * block, row_ptr[r + 1] * block) of `col` and `val`. One row
// per invocation in a grid-stride loop over the rows of y; each entry gathers
// x[col[j]]. Indices read from memory are guarded (row ranges clamped to the
// entries there are, columns taken modulo arrayLength(&x)), so any contents
// stay in bounds. The default `index` fill of row_ptr gives every row one
// block; random columns scatter the gathers over x.
// wgrace: --dispatch 4 --set params.block=8 --buffer row_ptr=4097 --buffer y=4096
// wgrace: --buffer col=32768 --buffer val=32768 --fill col=random:21 --fill val=random:22 --fill x=random:23
// expect: no-race

struct Params {
    block: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> row_ptr: array<u32>;
@group(0) @binding(2) var<storage, read> col: array<u32>;
@group(0) @binding(3) var<storage, read> val: array<f32>;
@group(0) @binding(4) var<storage, read> x: array<f32>;
@group(0) @binding(5) var<storage, read_write> y: array<f32>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(num_workgroups) nwg: vec3<u32>) {
    let rows = min(arrayLength(&y), arrayLength(&row_ptr) - 1u);
    let block = max(params.block, 1u);
    let blocks = min(arrayLength(&col), arrayLength(&val)) / block;
    let nx = arrayLength(&x);
    let stride = nwg.x * 256u;
    for (var row = gid.x; row < rows; row = row + stride) {
        let start = min(row_ptr[row], blocks) * block;
        let end = max(min(row_ptr[row + 1u], blocks) * block, start);
        var acc = 0.0;
        for (var j = start; j < end; j = j + 1u) {
            acc = acc + val[j] * x[col[j] % nx];
        }
        y[row] = acc;
    }
}
