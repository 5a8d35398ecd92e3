// The data-race check without subgroups (warp.wgsl is linked where the
// adapter has subgroup operations). Every invocation counts as a subgroup of
// its own, so no race is classed intra-subgroup; statement mode runs without
// its warp check, and loses nothing by it: its statement tables (stmt.wgsl)
// compare every pair of invocations, including two that wrote the same word
// in one execution of a statement.

fn wgrace_subgroup_begin() {
}

fn wgrace_warp_check(at: u32, site: u32, workgroup_memory: bool) {
}

// Every invocation is a subgroup of its own.
fn wgrace_subgroup_span(key: vec4<u32>) -> vec2<u32> {
    return vec2<u32>(wgrace_t, wgrace_t);
}
