// Two bind groups: a uniform parameter struct (set with --set), a read-only
// nested table, and read_write i32 data, nested rows and matrices. Invocations
// past params.n return early; every other one writes only its own elements.
// wgrace: --dispatch 2 --buffer ints=128 --buffer rows=128 --buffer mats=128
// wgrace: --set params.n=100 --set params.scale=-3 --set params.bias=0.5,-1.5 --set params.gain=2.0
// wgrace: --fill table=random:11
// expect: no-race

struct Params {
    n: u32,
    scale: i32,
    bias: vec2<f32>,
    gain: f32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> table: array<array<f32, 4>, 16>;
@group(1) @binding(0) var<storage, read_write> ints: array<i32>;
@group(1) @binding(1) var<storage, read_write> rows: array<array<f32, 4>>;
@group(1) @binding(2) var<storage, read_write> mats: array<mat2x2<f32>>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let i = gid.x;
    if i >= params.n {
        return;
    }
    ints[i] = ints[i] * params.scale - i32(i % 7u);
    let t = table[i % 16u];
    for (var k = 0u; k < 4u; k = k + 1u) {
        rows[i][k] = t[k] * params.gain + params.bias[k % 2u] + rows[i][k];
    }
    let m = mat2x2<f32>(rows[i][0], rows[i][1], rows[i][2], rows[i][3]);
    mats[i] = m * mats[i];
    mats[i][1].x = f32(ints[i]);
}
