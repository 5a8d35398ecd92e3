// The data-race check without its happens-before engine (engine.wgsl): the
// shader has no memory that release and acquire synchronization can order,
// or the engine cannot follow it; WGRACE_HB_ON folds the calls away.

const WGRACE_HB_ON: bool = false;
const WGRACE_HB_NONE: u32 = 0xffffffffu;

fn wgrace_hb_var_word(v: u32, word: u32) -> u32 {
    return WGRACE_HB_NONE;
}

fn wgrace_hb_owns(v: u32) -> bool {
    return false;
}

fn wgrace_hb_checks_atomics(v: u32) -> bool {
    return false;
}

fn wgrace_hb_begin() {}

fn wgrace_hb_end() {}

fn wgrace_hb_barrier_arrive(subgroup_execution: bool, subgroup_memory: bool, orders: u32) {}

fn wgrace_hb_subgroup_sync() {}

fn wgrace_hb_barrier_leave(subgroup_execution: bool, subgroup_memory: bool, orders: u32) {}

fn wgrace_hb_access(word: u32, var_word: u32, site: u32, write: bool, barriers: u32, kind: u32) {}
