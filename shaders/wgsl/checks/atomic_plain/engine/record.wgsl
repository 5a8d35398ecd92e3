// The atomic-plain check's races that the data-race check's happens-before
// engine finds (checks/data_race/happens_before/engine.wgsl): in a buffer
// the engine checks, an atomic and a plain access of one word that release
// and acquire synchronization, barriers and the atomic's scope leave
// unordered. Linked when the engine follows such a buffer
// (the atomics' own accesses of it: wgrace_hb_atomic_data), instead of
// this check's own state for that buffer (wgrace_atomic_plain_on_atomic_memory
// leaves its words to the engine).

// A race detected by this invocation: `first_*` describe the earlier
// access, the second is this invocation's (as wgrace_record's), and
// `second_write` says whether it wrote.
fn wgrace_hb_atomic_plain(word: u32, first_site: u32, first_g: u32, first_t: u32, first_write: bool,
                          second_site: u32, second_write: bool) {
    wgrace_record_as(WGRACE_CODE_ATOMIC_PLAIN + u32(second_write), WGRACE_LOCKSTEP_NEVER, word, first_site, first_g,
                     first_t, first_write, second_site);
}
