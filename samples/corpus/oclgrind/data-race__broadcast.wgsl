// original: oclgrind: tests/kernels/data-race/broadcast (no error expected)
// Four single-invocation workgroups each copy value[0] into their own output
// element; value is only read.
// wgrace: --dispatch 4 --buffer value=1 --buffer output=4 --fill value=const:42 --fill output=zero
// expect: no-race

@group(0) @binding(0) var<storage, read_write> value: array<i32>;
@group(0) @binding(1) var<storage, read_write> output: array<i32>;

@compute @workgroup_size(1)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    output[gid.x] = value[0];
}
