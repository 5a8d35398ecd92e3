// The invocations of one workgroup exchange values through a storage buffer,
// but order the write and the neighbour's read with workgroupBarrier(), which
// covers workgroup memory only. A single workgroup, so nothing inter-workgroup.
// wgrace: --dispatch 1 --buffer data=64 --buffer out=64
// expect: race
// race: barrier-kind 14 16

@group(0) @binding(0) var<storage, read_write> data: array<u32>;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32) {
    // Should be storageBarrier(): data lives in storage memory.
    data[lid] = lid * lid;
    workgroupBarrier();
    out[lid] = data[(lid + 63u) % 64u];
}
