// The scope check's races of plain accesses: races of buffer memory that
// the data-race check's happens-before engine finds
// (checks/data_race/happens_before/engine.wgsl) and that its wide set
// orders, the same program with every atomic and fence at device scope.
// They are recorded under the check's third code (WGRACE_SCOPE_SYNC_CODE)
// instead of a data-race class; linked only with that set.

const WGRACE_SCOPE_SYNC_CODE: u32 = WGRACE_CODE_SCOPE + 2u;

// The record code of such a race (the engine records it).
fn wgrace_hb_scope_code() -> u32 {
    return WGRACE_SCOPE_SYNC_CODE;
}
