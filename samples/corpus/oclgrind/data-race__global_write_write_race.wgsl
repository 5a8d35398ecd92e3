// original: oclgrind: tests/kernels/data-race/global_write_write_race (ERROR Write-write data race at global memory)
// Four single-invocation workgroups store their index into data[0].
// wgrace: --dispatch 4 --buffer data=1 --fill data=zero
// expect: race
// race: inter-workgroup 11 11

@group(0) @binding(0) var<storage, read_write> data: array<i32>;

@compute @workgroup_size(1)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    data[0] = i32(gid.x);
}
