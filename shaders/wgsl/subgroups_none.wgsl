// wgrace's subgroup helpers where the adapter has no subgroup operations:
// every invocation is a subgroup of its own.

// Every invocation leads its own subgroup of one.
fn wgrace_subgroup_leader() -> bool {
    return true;
}

fn wgrace_subgroup_share(v: u64) -> u64 {
    return v;
}
