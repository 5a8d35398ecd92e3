// wgrace check: barrier divergence.
//
// WGSL requires every invocation of a workgroup to execute the same
// workgroup barriers: a barrier may only sit in uniform control flow, and a
// shader that breaks the rule is invalid. naga does not check it (wgpu#4006),
// and GPUs run such shaders with results that differ by vendor, or hang. This
// check reports a workgroup whose invocations executed different sequences of
// barriers, found when they finish. It handles the runtime's barrier and end
// events and records through the runtime's table (wgrace_record_pair) under
// its code WGRACE_CODE_BARRIER_DIVERGENCE; the host decodes the records in
// instrument/src/checks/barrier_divergence/.
//
// Each invocation folds the id of every workgroup barrier it executes
// (1-based, in the report's barrier table) into a 31-bit signature. When it
// finishes, it compares (signature, barrier count, last barrier) with the
// first invocation of its workgroup to finish, through one 64-bit atomic in
// workgroup memory, which WGSL zero-initialises per workgroup:
//
//   bit  63      set: claimed
//   bit  62      set: the invocation stopped in a loop past its budget
//   bits 32-61   signature of the barrier sequence
//   bits 20-31   barriers executed (saturating at 4095)
//   bits 10-19   id of the last barrier (0: none; saturating at 1023)
//   bits 0-9     local invocation index of the first to finish
//
// Two sequences with the same count and last barrier collide in the
// signature with probability about 2^-30. An invocation that a loop stopped
// (the loops check, wgrace_is_stopped) skipped the barriers after it: it
// records nothing, and a workgroup whose first finisher stopped is not
// compared (its run is incomplete anyway).

var<private> wgrace_div_signature: u32;
var<private> wgrace_div_count: u32;
var<private> wgrace_div_last: u32;
var<workgroup> wgrace_div_first: atomic<u64>;

// Called after every workgroup control barrier, with its id. A subgroup
// barrier is not one: the invocations of a workgroup may reach different
// numbers of them.
fn wgrace_barrier_divergence_on_barrier(kind: u32, id: u32) {
    if (kind & WGRACE_BARRIER_SUBGROUP) != 0u {
        return;
    }
    wgrace_div_signature = (wgrace_div_signature ^ id) * 16777619u;
    wgrace_div_count += 1u;
    wgrace_div_last = id;
}

// Called by every invocation when it finishes.
fn wgrace_barrier_divergence_on_end() {
    let stopped = wgrace_is_stopped();
    let mine = (1lu << 63u)
        | (u64(stopped) << 62u)
        | (u64(wgrace_div_signature >> 2u) << 32u)
        | (u64(min(wgrace_div_count, 4095u)) << 20u)
        | (u64(min(wgrace_div_last, 1023u)) << 10u)
        | u64(wgrace_t);
    // One invocation per subgroup compares-and-swaps the workgroup's word
    // (rather than every invocation contending for it), then shares what it
    // found; each invocation compares itself with that first finisher.
    var first = 0lu;
    if wgrace_subgroup_leader() {
        loop {
            let r = atomicCompareExchangeWeak(&wgrace_div_first, 0lu, mine);
            if r.exchanged {
                first = mine;
                break;
            }
            // A spurious failure of the weak exchange leaves old_value 0: retry.
            if r.old_value != 0lu {
                first = r.old_value;
                break;
            }
        }
    }
    first = wgrace_subgroup_share(first);
    if (first >> 10u) == (mine >> 10u) || stopped || (first & (1lu << 62u)) != 0lu {
        return;
    }
    // The race table records the pair of last barriers; the "word" holds
    // both barrier counts, the first finisher's in the low half.
    let first_count = u32(first >> 20u) & 4095u;
    let first_last = u32(first >> 10u) & 1023u;
    let counts = first_count | (min(wgrace_div_count, 4095u) << 16u);
    wgrace_record_pair(WGRACE_CODE_BARRIER_DIVERGENCE, counts, first_last, wgrace_g, u32(first) & 1023u, false,
                       min(wgrace_div_last, 1023u), wgrace_g, wgrace_t, 0u);
}
