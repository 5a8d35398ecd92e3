// original: oclgrind: tests/kernels/data-race/increment (no error expected)
// Four single-invocation workgroups each increment their own storage word.
// wgrace: --dispatch 4 --buffer data=4
// expect: no-race

@group(0) @binding(0) var<storage, read_write> data: array<i32>;

@compute @workgroup_size(1)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let i = gid.x;
    data[i] = data[i] + 1;
}
