// Every third invocation takes a ticket from a storage atomic counter and marks
// that slot, and counts itself in a workgroup atomic; after a barrier
// invocation 0 stores the workgroup's count. Atomics never race, the tickets
// are distinct, and the marks and per-workgroup counts do not depend on order.
// wgrace: --dispatch 4 --fill counter=zero --fill marks=zero --buffer marks=256 --buffer per_group=4
// expect: no-race

@group(0) @binding(0) var<storage, read_write> counter: atomic<u32>;
@group(0) @binding(1) var<storage, read_write> marks: array<u32>;
@group(0) @binding(2) var<storage, read_write> per_group: array<u32>;
var<workgroup> local_count: atomic<u32>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32,
        @builtin(workgroup_id) wid: vec3<u32>,
        @builtin(global_invocation_id) gid: vec3<u32>) {
    if gid.x % 3u == 0u {
        let ticket = atomicAdd(&counter, 1u);
        marks[ticket] = 1u;
        atomicAdd(&local_count, 1u);
    }
    workgroupBarrier();
    if lid == 0u {
        per_group[wid.x] = atomicLoad(&local_count);
    }
}
