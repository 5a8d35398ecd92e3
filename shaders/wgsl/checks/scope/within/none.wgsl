// wgrace check: scope, with no state within a workgroup (no memory of the
// shader has atomics of subgroup scope with one: see ../atomics.wgsl), so
// that it takes no workgroup memory.

fn wgrace_scope_local_at(v: u32, word: u32) -> u32 {
    return WGRACE_SCOPE_NONE;
}

fn wgrace_scope_within(local: u32, word: u32, site: u32, write: bool, flags: u32, workgroup_memory: bool) {}
