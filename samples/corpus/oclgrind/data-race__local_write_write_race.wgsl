// original: oclgrind: tests/kernels/data-race/local_write_write_race (ERROR Write-write data race at local memory)
// Every invocation stores its index into one workgroup word; after a barrier
// each copies it out.
// wgrace: --dispatch 1 --buffer data=4 --fill data=zero
// expect: race
// race: intra-workgroup 14 14

var<workgroup> scratch: i32;
@group(0) @binding(0) var<storage, read_write> data: array<i32>;

@compute @workgroup_size(4)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let i = gid.x;
    scratch = i32(i);
    workgroupBarrier();
    data[i] = scratch;
}
