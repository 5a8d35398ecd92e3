// The scope check's races of atomics that the data-race check's
// happens-before engine finds (checks/data_race/happens_before/engine.wgsl):
// in a buffer with atomics narrower than the device that the engine checks
// (a module that synchronizes with release and acquire), two atomic
// accesses of one word, one writing, whose scopes do not both hold the
// other's invocation and of which neither happens before the other.
// Recorded under the check's codes 3 and 4 (its state machines record such
// races elsewhere under 0 and 1: atomics.wgsl, which leaves the engine's
// words to it); linked when the engine checks such a buffer.

// The record code of such a race whose second access, this invocation's,
// wrote or not (the engine records it).
fn wgrace_hb_atomic_scope_code(second_write: bool) -> u32 {
    return WGRACE_CODE_SCOPE + 3u + u32(second_write);
}
