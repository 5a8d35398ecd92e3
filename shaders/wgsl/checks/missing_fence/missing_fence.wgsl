// The missing-fence check: races of buffer memory that the data-race check's
// happens-before engine finds (checks/data_race/happens_before/engine.wgsl)
// and that its strong set orders, the same program with every atomic
// acquiring what it reads and releasing what it writes. They are recorded
// under this check's code instead of a data-race class; linked only with
// that set (WGRACE_HB_STRONG).

// A race detected by this invocation: `first_*` describe the earlier
// access, the second is this invocation's (as wgrace_record's).
fn wgrace_hb_missing_fence(word: u32, first_site: u32, first_g: u32, first_t: u32, first_write: bool,
                           second_site: u32) {
    wgrace_record_as(WGRACE_CODE_MISSING_FENCE, WGRACE_LOCKSTEP_NEVER, word, first_site, first_g, first_t, first_write,
                     second_site);
}
