// The atomic-plain check's races that the data-race check's happens-before
// engine finds (checks/data_race/happens_before/engine.wgsl): in a buffer
// the engine checks, an atomic and a plain access of one word that release
// and acquire synchronization, barriers and the atomic's scope leave
// unordered. Linked when the engine follows such a buffer
// (the atomics' own accesses of it: wgrace_hb_atomic_data), instead of
// this check's own state for that buffer (wgrace_atomic_plain_on_atomic_memory
// leaves its words to the engine).

// The record code of such a race whose second access, this invocation's,
// wrote or not (the engine records it).
fn wgrace_hb_atomic_plain_code(second_write: bool) -> u32 {
    return WGRACE_CODE_ATOMIC_PLAIN + u32(second_write);
}
