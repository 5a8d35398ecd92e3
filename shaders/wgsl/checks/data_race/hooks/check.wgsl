// The data-race check's hooks, checking each access where it happens
// (`wgrace run --replay never`, addr mode with few sites, and statement
// mode): the pass calls
// wgrace_wg_access and wgrace_storage_access at every access, and drivers
// inline a copy of the state machines there (hooks/replay.wgsl is the
// default in addr mode).

fn wgrace_wg_access(var_id: u32, at: u32, words: u32, in_bounds: bool, site: u32, write: bool, invariant: bool) {
    if WGRACE_COUNT_ACCESSES {
        wgrace_accesses += 1u;
    }
    wgrace_wg_check(var_id, at, words, in_bounds, site, write, invariant);
}

fn wgrace_storage_access(var_id: u32, word: u32, words: u32, in_bounds: bool, site: u32, state_site: u32,
                         write: bool, invariant: bool) {
    if WGRACE_COUNT_ACCESSES {
        wgrace_accesses += 1u;
    }
    wgrace_storage_check(var_id, word, words, in_bounds, site, state_site, write, invariant);
}

// After a barrier that orders `storage` and/or `workgroup` memory (0 or 1).
fn wgrace_barrier_hook(storage: u32, workgroup: u32) {
    wgrace_advance(1u, storage, workgroup);
}

fn wgrace_begin_hook() {}

fn wgrace_end_hook() {}
