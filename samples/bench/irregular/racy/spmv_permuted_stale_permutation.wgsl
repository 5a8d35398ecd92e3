// samples/bench/irregular/spmv_permuted.wgsl with a row map that is not a
// permutation (random rows, reduced modulo the length of y, as after a
// resize that did not rebuild it): stored rows mapped to one row of y store
// into the same word.
// wgrace: --dispatch 4 --set params.width=8 --buffer perm=1024 --buffer y=1024 --buffer x=1024
// wgrace: --buffer col=8192 --buffer val=8192 --fill perm=random:91 --fill col=random:92
// wgrace: --fill val=random:93 --fill x=random:94
// expect: race
// race: intra-workgroup 38 38
// race: inter-workgroup 38 38

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
    let row = perm[r] % arrayLength(&y);
    y[row] = acc;
}
