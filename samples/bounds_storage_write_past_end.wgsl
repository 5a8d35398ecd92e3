// The host sized `out` for 100 results but dispatched 2 workgroups of 64
// invocations, and the shader writes without testing its index: the last
// 28 invocations write past the end of the runtime-sized array. WGSL drops
// or clamps such writes (onto out[99], which invocation 99 also writes),
// differently on each GPU.
// wgrace: --dispatch 2 --buffer src=128 --buffer out=100
// expect: no-race
// finding: bounds 16
// output: nondeterministic: the writes past the end are dropped or land on out[99], in no fixed order with invocation 99's

@group(0) @binding(0) var<storage, read> src: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    out[gid.x] = src[gid.x] * 2.0;
}
