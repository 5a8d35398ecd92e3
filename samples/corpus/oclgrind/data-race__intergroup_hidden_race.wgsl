// original: oclgrind: tests/kernels/data-race/intergroup_hidden_race (ERROR Read-write data race at global memory)
// Two single-invocation workgroups both read data[0]; workgroup 1 then
// overwrites it, unordered with workgroup 0's read.
// wgrace: --dispatch 2 --buffer data=1 --buffer output=2 --fill data=zero --fill output=zero
// expect: race
// race: inter-workgroup 14 16

@group(0) @binding(0) var<storage, read_write> data: array<i32>;
@group(0) @binding(1) var<storage, read_write> output: array<i32>;

@compute @workgroup_size(1)
fn main(@builtin(workgroup_id) wid: vec3<u32>) {
    let group = wid.x;
    output[group] = data[0];
    if group == 1u {
        data[0] = i32(group);
    }
}
