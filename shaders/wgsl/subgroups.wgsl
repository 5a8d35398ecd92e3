// wgrace's subgroup helpers, for adapters with subgroup operations
// (subgroups_none.wgsl replaces this file where there are none), for any
// check to use.

// Per-subgroup aggregation: the subgroup's first active invocation does the
// work for all (wgrace_subgroup_leader), then gives them its result
// (wgrace_subgroup_share, called by every active invocation after the
// leader's branch).
fn wgrace_subgroup_leader() -> bool {
    // (naga has no subgroupElect.)
    return subgroupBroadcastFirst(wgrace_t) == wgrace_t;
}

fn wgrace_subgroup_share(v: u64) -> u64 {
    let halves = subgroupBroadcastFirst(vec2<u32>(u32(v >> 32u), u32(v)));
    return (u64(halves.x) << 32u) | u64(halves.y);
}
