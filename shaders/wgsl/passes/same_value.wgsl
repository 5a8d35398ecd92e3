// wgrace runtime: the same-value pass, with `--same-value-notes`
// (runtime.wgsl, "written values"). Appended to the runtime as a module of
// its own, with two entry points:
//
//   wgrace_same_value_slots    after each chunk of the checked dispatch (and
//                              its replay), one workgroup per workgroup slot
//                              the chunk used: checks the slots' words, and
//                              clears their table for the next chunk;
//   wgrace_same_value_storage  after the last chunk (and statement mode's
//                              storage check): checks the storage words.
//
// A word linked to a record that held two values marks the record
// (WGRACE_VALUES_DIFFER in its entry's fourth word): some event of it may
// have been between writes of two values.

const WGRACE_SAME_VALUE_WORKGROUP: u32 = 64u;

@compute @workgroup_size(64)
fn wgrace_same_value_slots(@builtin(workgroup_id) slot: vec3<u32>, @builtin(local_invocation_index) t: u32) {
    let first = wgrace_params.slot_values_at + 3u * slot.x * WGRACE_WG_WORDS;
    for (var w = t; w < WGRACE_WG_WORDS; w += WGRACE_SAME_VALUE_WORKGROUP) {
        let at = first + 3u * w;
        wgrace_same_value_word(at);
        atomicStore(&wgrace_log[at], 0u);
        atomicStore(&wgrace_log[at + 1u], 0u);
        atomicStore(&wgrace_log[at + 2u], 0u);
    }
}

@compute @workgroup_size(64)
fn wgrace_same_value_storage(@builtin(global_invocation_id) id: vec3<u32>,
                             @builtin(num_workgroups) groups: vec3<u32>) {
    let stride = groups.x * WGRACE_SAME_VALUE_WORKGROUP;
    for (var w = id.x; w < wgrace_params.storage_words; w += stride) {
        wgrace_same_value_word(wgrace_word_values_at() + 3u * w);
    }
}

// The word whose values entry is at log word `at`.
fn wgrace_same_value_word(at: u32) {
    let link = atomicLoad(&wgrace_log[at + 2u]);
    if link == 0u {
        return;
    }
    // A word no store told its value of (most 0, least 0xffffffff) counts
    // as one of two values too.
    let most = atomicLoad(&wgrace_log[at]);
    let least = ~atomicLoad(&wgrace_log[at + 1u]);
    if most != least {
        atomicOr(&wgrace_log[WGRACE_LOG_HEADER + (link - 1u) * WGRACE_PAIR_WORDS + 3u], WGRACE_VALUES_DIFFER);
    }
}
