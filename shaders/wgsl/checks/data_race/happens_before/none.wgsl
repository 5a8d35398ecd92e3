// The data-race check without its happens-before engine (engine.wgsl): the
// shader has no memory that release and acquire synchronization can order,
// or the engine cannot follow it; WGRACE_HB_ON folds the calls away.

const WGRACE_HB_ON: bool = false;
const WGRACE_HB_NONE: u32 = 0xffffffffu;
const WGRACE_HB_SCOPE_WORKGROUP: u32 = 2u;

fn wgrace_hb_var_word(v: u32, word: u32) -> u32 {
    return WGRACE_HB_NONE;
}

fn wgrace_hb_begin() {}

fn wgrace_hb_barrier_arrive(scope: u32, release: bool) {}

fn wgrace_hb_barrier_leave(scope: u32, acquire: bool) {}

fn wgrace_hb_access(word: u32, var_word: u32, site: u32, write: bool, barriers: u32, kind: u32) {}
