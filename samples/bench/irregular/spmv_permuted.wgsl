// Sparse matrix-vector product y = A * x with the rows of A stored in
// ELLPACK order after sorting them by length (as jagged-diagonal formats
// do): stored row r holds `params.width` entries at r, r + rows, r + 2 rows,
// ... of `col` and `val` (coalesced across invocations) and belongs to row
// perm[r] of y. One stored row per invocation; the indirect output y[perm[r]]
// is race-free because `perm` is a permutation.
// wgrace: --dispatch 4 --set params.width=8 --buffer perm=1024 --buffer y=1024 --buffer x=1024
// wgrace: --buffer col=8192 --buffer val=8192 --fill perm=permutation:91 --fill col=random:92
// wgrace: --fill val=random:93 --fill x=random:94
// expect: no-race

struct Params {
    width: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> perm: array<u32>;
@group(0) @binding(2) var<storage, read> col: array<u32>;
@group(0) @binding(3) var<storage, read> val: array<f32>;
@group(0) @binding(4) var<storage, read> x: array<f32>;
@group(0) @binding(5) var<storage, read_write> y: array<f32>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let rows = arrayLength(&perm);
    let r = gid.x;
    let entries = min(arrayLength(&col), arrayLength(&val));
    if r >= rows || entries / rows < params.width {
        return;
    }
    let nx = arrayLength(&x);
    var acc = 0.0;
    for (var k = 0u; k < params.width; k++) {
        let j = k * rows + r;
        acc += val[j] * x[col[j] % nx];
    }
    let row = perm[r];
    if row < arrayLength(&y) {
        y[row] = acc;
    }
}
