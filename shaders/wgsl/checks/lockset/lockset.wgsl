// The lockset check: races of buffer memory that the data-race check's
// happens-before engine finds (checks/data_race/happens_before/engine.wgsl)
// between accesses whose invocations held no spin lock in common, one of
// them holding one (wgrace_hb_disjoint), and that neither its wide nor its
// strong program orders. They are recorded under this check's code instead
// of a data-race class; linked only when the shader takes locks.

// A race detected by this invocation: `first_*` describe the earlier
// access, the second is this invocation's (as wgrace_record's).
fn wgrace_hb_lockset(word: u32, first_site: u32, first_g: u32, first_t: u32, first_write: bool,
                     second_site: u32) {
    wgrace_record_as(WGRACE_CODE_LOCKSET, WGRACE_LOCKSTEP_NEVER, word, first_site, first_g, first_t, first_write,
                     second_site);
}
