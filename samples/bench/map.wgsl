// Element-wise map y = a * x + sin(x) over arrayLength(&x) elements in a
// grid-stride loop: one load and one store per element and little arithmetic,
// the memory-bound case. `a` comes from `params`; each invocation writes only
// its own elements of y.
// wgrace: --dispatch 4 --fill x=random:11 --set params.a=2.5
// expect: no-race

struct Params {
    a: f32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> x: array<f32>;
@group(0) @binding(2) var<storage, read_write> y: array<f32>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(num_workgroups) nwg: vec3<u32>) {
    let n = min(arrayLength(&x), arrayLength(&y));
    let stride = nwg.x * 256u;
    for (var i = gid.x; i < n; i = i + stride) {
        let v = x[i];
        y[i] = params.a * v + sin(v);
    }
}
