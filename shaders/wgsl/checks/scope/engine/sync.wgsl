// The scope check's races of plain accesses: races of buffer memory that
// the data-race check's happens-before engine finds
// (checks/data_race/happens_before/engine.wgsl) and that its wide set
// orders, the same program with every atomic and fence at device scope.
// They are recorded under the check's third code (WGRACE_SCOPE_SYNC_CODE)
// instead of a data-race class; linked only with that set.

const WGRACE_SCOPE_SYNC_CODE: u32 = WGRACE_CODE_SCOPE + 2u;

// A race detected by this invocation: `first_*` describe the earlier
// access, the second is this invocation's (as wgrace_record's).
fn wgrace_hb_scope(word: u32, first_site: u32, first_g: u32, first_t: u32, first_write: bool, second_site: u32) {
    wgrace_record_as(WGRACE_SCOPE_SYNC_CODE, WGRACE_LOCKSTEP_NEVER, word, first_site, first_g, first_t, first_write,
                     second_site);
}
