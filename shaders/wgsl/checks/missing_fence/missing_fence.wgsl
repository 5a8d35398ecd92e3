// The missing-fence check: races of buffer memory that the data-race check's
// happens-before engine finds (checks/data_race/happens_before/engine.wgsl)
// and that its strong set orders, the same program with every atomic
// acquiring what it reads and releasing what it writes. They are recorded
// under this check's code instead of a data-race class; linked only with
// that set (WGRACE_HB_STRONG).

// The record code of such a race (the engine records it).
fn wgrace_hb_missing_fence_code() -> u32 {
    return WGRACE_CODE_MISSING_FENCE;
}
