// wgrace addr mode: the replay pass, a dispatch of its own run after each
// chunk of the checked dispatch when accesses are recorded
// (hooks/replay.wgsl). Its workgroups take the same slots as the chunk's
// (the host dispatches as many, with the chunk's parameters), and each
// replays the streams its slot's workgroup recorded through the state
// machines, exactly as that workgroup would have when it ended.
//
// The instrumentation pass gives it the shader's workgroup size (the size
// below only makes the module valid on its own): what the replay needs of
// an invocation is its local index.

@compute @workgroup_size(WGRACE_WG_INVOCATIONS)
fn wgrace_replay_pass(@builtin(local_invocation_index) local_index: u32,
                      @builtin(workgroup_id) slot_id: vec3<u32>) {
    wgrace_set_identity(local_index, slot_id);
    wgrace_begin_hook();
    // What the invocation left in its stream's last entry (wgrace_end_hook).
    let left = wgrace_trace[wgrace_trace_entry(wgrace_params.trace_capacity)];
    wgrace_events = u32(left);
    wgrace_sg_size = max(u32(left >> 32u), 1u);
    wgrace_data_race_state_begin();
    wgrace_replay();
    wgrace_data_race_flush();
    wgrace_flush_records();
}
