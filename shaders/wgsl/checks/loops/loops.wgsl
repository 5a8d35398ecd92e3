// wgrace check: loops.
//
// A loop that runs away (a spin-wait on a value nothing writes, a bound read
// from the wrong buffer) hangs the GPU, or on lavapipe is silently cut
// short. The pass counts each of the user's loops' iterations per
// invocation (instrument/src/loops.rs); the runtime calls this check after a
// loop that an invocation left past its budget (the invocation then stops),
// and after a loop that ended without its exit (the adapter cut it short).
// The check keeps the first of each per invocation and records them when
// the invocation ends, so that no loop of its own runs inside the user's
// loops (lavapipe counts loops of branches not taken against its limit).
// A spin-wait (a loop that waits for storage memory other invocations
// write) that ended by itself is reported too, the first per invocation.
// Each is one record under WGRACE_CODE_LOOPS (+0 budget, +1 cut, +2 spin), keyed by
// the loop's id in the report's loop table: counted per invocation, the
// first examples kept with their iteration counts, the most iterations in
// `aux`. The host decodes them in instrument/src/checks/loops/.

// The first loop past its budget and the first cut short: id + 1 (0 for
// none), and the iterations it started.
var<private> wgrace_loops_budget_id: u32;
var<private> wgrace_loops_budget_n: u32;
var<private> wgrace_loops_cut_id: u32;
var<private> wgrace_loops_cut_n: u32;
var<private> wgrace_loops_spin_id: u32;
var<private> wgrace_loops_spin_n: u32;

fn wgrace_loops_on_loop_budget(id: u32, n: u32) {
    if wgrace_loops_budget_id == 0u {
        wgrace_loops_budget_id = id + 1u;
        wgrace_loops_budget_n = n;
    }
}

fn wgrace_loops_on_loop_cut(id: u32, n: u32) {
    if wgrace_loops_cut_id == 0u {
        wgrace_loops_cut_id = id + 1u;
        wgrace_loops_cut_n = n;
    }
}

fn wgrace_loops_on_loop_spin(id: u32, n: u32) {
    if wgrace_loops_spin_id == 0u {
        wgrace_loops_spin_id = id + 1u;
        wgrace_loops_spin_n = n;
    }
}

fn wgrace_loops_on_end() {
    if wgrace_loops_budget_id != 0u {
        let id = wgrace_loops_budget_id - 1u;
        let n = wgrace_loops_budget_n;
        wgrace_record_pair(WGRACE_CODE_LOOPS, n, id, wgrace_g, wgrace_t, false, id, wgrace_g, wgrace_t, n);
    }
    if wgrace_loops_cut_id != 0u {
        let id = wgrace_loops_cut_id - 1u;
        let n = wgrace_loops_cut_n;
        wgrace_record_pair(WGRACE_CODE_LOOPS + 1u, n, id, wgrace_g, wgrace_t, false, id, wgrace_g, wgrace_t, n);
    }
    if wgrace_loops_spin_id != 0u {
        let id = wgrace_loops_spin_id - 1u;
        let n = wgrace_loops_spin_n;
        wgrace_record_pair(WGRACE_CODE_LOOPS + 2u, n, id, wgrace_g, wgrace_t, false, id, wgrace_g, wgrace_t, n);
    }
}
