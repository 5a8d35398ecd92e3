// Each invocation takes items until it holds its quota, but invocation 0's
// quota is larger than what it can ever take (`take` caps at 4): its loop
// runs away before the workgroup's barrier. wgrace stops it there; the other
// invocations pass the barrier without it. The stopped invocation skipped
// the barrier, but that is not reported as a barrier divergence: what it
// would have done after is not checked (the report is incomplete).
// wgrace: --dispatch 1 --buffer data=64 --fill quota=zero --set quota[0]=9
// expect: no-race
// finding: loops

@group(0) @binding(0) var<storage, read_write> data: array<u32>;
@group(0) @binding(1) var<storage, read> quota: array<u32, 64>;

var<workgroup> held: array<u32, 64>;

fn take(have: u32) -> u32 {
    return min(have + 1u, 4u);
}

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32) {
    var have = 0u;
    while have < quota[lid] {
        have = take(have);
    }
    held[lid] = have;
    workgroupBarrier();
    data[lid] = held[63u - lid];
}
