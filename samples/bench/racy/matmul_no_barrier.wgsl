// samples/bench/matmul.wgsl without the barrier after loading the tiles: an
// invocation reads ta/tb while others may still be writing the tile step's
// elements (the CUDA twin is samples/bench/cuda/matmul.cu racy).
// wgrace: --dispatch 2,2 --set dims.m=32 --set dims.n=32 --set dims.k=32
// wgrace: --fill a=random:1 --fill b=random:2
// expect: race
// race: intra-workgroup 30 34
// race: intra-workgroup 31 34

struct Dims {
    m: u32,
    n: u32,
    k: u32,
}

@group(0) @binding(0) var<uniform> dims: Dims;
@group(0) @binding(1) var<storage, read> a: array<f32>;
@group(0) @binding(2) var<storage, read> b: array<f32>;
@group(0) @binding(3) var<storage, read_write> c: array<f32>;

var<workgroup> ta: array<array<f32, 16>, 16>;
var<workgroup> tb: array<array<f32, 16>, 16>;

@compute @workgroup_size(16, 16)
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(global_invocation_id) gid: vec3<u32>) {
    let row = gid.y;
    let col = gid.x;
    var acc = 0.0;
    for (var t = 0u; t < dims.k; t = t + 16u) {
        ta[lid.y][lid.x] = a[row * dims.k + t + lid.x];
        tb[lid.y][lid.x] = b[(t + lid.y) * dims.n + col];
        // missing: workgroupBarrier();
        for (var i = 0u; i < 16u; i = i + 1u) {
            acc = acc + ta[lid.y][i] * tb[i][lid.x];
        }
        workgroupBarrier();
    }
    c[row * dims.n + col] = acc;
}
