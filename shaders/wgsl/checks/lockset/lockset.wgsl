// The lockset check: races of buffer memory that the data-race check's
// happens-before engine finds (checks/data_race/happens_before/engine.wgsl)
// between accesses whose invocations held no spin lock in common, one of
// them holding one (wgrace_hb_disjoint), and that neither its wide nor its
// strong program orders. They are recorded under this check's code instead
// of a data-race class; linked only when the shader takes locks.

// The record code of such a race (the engine records it).
fn wgrace_hb_lockset_code() -> u32 {
    return WGRACE_CODE_LOCKSET;
}
