// The scope check's races of atomics that the data-race check's
// happens-before engine finds (checks/data_race/happens_before/engine.wgsl):
// in a buffer with atomics narrower than the device that the engine checks
// (a module that synchronizes with release and acquire), two atomic
// accesses of one word, one writing, whose scopes do not both hold the
// other's invocation and of which neither happens before the other.
// Recorded under the check's codes 3 and 4 (its state machines record such
// races elsewhere under 0 and 1: atomics.wgsl, which leaves the engine's
// words to it); linked when the engine checks such a buffer.

// A race detected by this invocation: `first_*` describe the earlier
// access, the second is this invocation's (as wgrace_record's), and
// `second_write` says whether it wrote.
fn wgrace_hb_atomic_scope(word: u32, first_site: u32, first_g: u32, first_t: u32, first_write: bool,
                          second_site: u32, second_write: bool) {
    wgrace_record_as(WGRACE_CODE_SCOPE + 3u + u32(second_write), WGRACE_LOCKSTEP_NEVER, word, first_site, first_g,
                     first_t, first_write, second_site);
}
