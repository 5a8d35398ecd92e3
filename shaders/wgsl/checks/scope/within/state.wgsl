// wgrace check: scope, its state within a workgroup (see ../atomics.wgsl),
// linked when the host placed some memory's state there: after the generated
// WGRACE_SCOPE_LOCAL_WORDS, WGRACE_SCOPE_LEVEL_WORDS,
// WGRACE_SCOPE_LOCAL_WITNESSES and wgrace_scope_local_at
// (instrument/src/checks/atomic_memory.rs).
//
// One level of state per word, or two when the shader has atomics of
// invocation scope. Level 0: the accessors are subgroups, and narrow
// accesses are atomics of subgroup (or invocation) scope. Level 1 (words
// from WGRACE_SCOPE_LEVEL_WORDS): the accessors are invocations, and narrow
// accesses are atomics of invocation scope, which are mutually ordered with
// no other invocation's; it records only races within a subgroup (level 0
// has those of different subgroups), and its epochs count subgroup barriers
// too, which order the invocations of their subgroup.

var<workgroup> wgrace_scope_local: array<atomic<u64>, WGRACE_SCOPE_LOCAL_WORDS>;
var<workgroup> wgrace_scope_local_witness: array<atomic<u64>, WGRACE_SCOPE_LOCAL_WITNESSES>;

const WGRACE_SCOPE_LEVELS: u32 = WGRACE_SCOPE_LOCAL_WORDS / WGRACE_SCOPE_LEVEL_WORDS;

fn wgrace_scope_within(local: u32, word: u32, site: u32, write: bool, flags: u32, workgroup_memory: bool) {
    let epoch = select(wgrace_scope_epochs.x, wgrace_scope_epochs.y, workgroup_memory);
    wgrace_scope_within_level(0u, local, word, site, write, (flags & WGRACE_ACCESS_SUBGROUP) != 0u, epoch);
    if WGRACE_SCOPE_LEVELS > 1u {
        let lane_epoch = select(wgrace_scope_lane_epochs.x, wgrace_scope_lane_epochs.y, workgroup_memory);
        wgrace_scope_within_level(1u, local + WGRACE_SCOPE_LEVEL_WORDS, word, site, write,
                                  (flags & WGRACE_ACCESS_INVOCATION) != 0u, lane_epoch);
    }
}

fn wgrace_scope_within_level(level: u32, local: u32, word: u32, site: u32, write: bool, narrow: bool, epoch: u32) {
    let mine = wgrace_scope_mine(write, narrow);
    let against = wgrace_scope_against(write, narrow);
    let me = select(wgrace_t / wgrace_sg_size, wgrace_t, level == 1u);
    var old = atomicLoad(&wgrace_scope_local[local]);
    loop {
        // Workgroup barriers are executed by the whole workgroup: an access
        // of an earlier epoch is ordered before this one.
        let old_epoch = u32(old >> 32u);
        if old_epoch > epoch {
            // Only barriers some invocations skipped (a barrier-divergence
            // finding) get here.
            return;
        }
        var s = WgraceScopeState(0u, 0u, false);
        if old_epoch == epoch {
            let low = u32(old);
            s = WgraceScopeState((low >> 16u) & 255u, low & 1023u, ((low >> 24u) & 1u) != 0u);
        }
        if s.raced {
            return;
        }
        if wgrace_scope_other(s, against, me) {
            break;
        }
        let added = wgrace_scope_add(s, mine, me);
        let next = (u64(epoch) << 32u) | u64((added.state.categories << 16u) | added.state.id);
        if next == old {
            return;
        }
        let r = atomicCompareExchangeWeak(&wgrace_scope_local[local], old, next);
        if r.exchanged {
            let w = wgrace_scope_witness_of(site, write, epoch);
            for (var c = 0u; c < 4u; c++) {
                if ((added.first >> c) & 1u) != 0u {
                    atomicStore(&wgrace_scope_local_witness[8u * local + 2u * c], w);
                }
                if ((added.second >> c) & 1u) != 0u {
                    atomicStore(&wgrace_scope_local_witness[8u * local + 2u * c + 1u], w);
                }
            }
            return;
        }
        old = r.old_value;
    }
    // The word's first race in this epoch of this workgroup.
    let before = atomicOr(&wgrace_scope_local[local], 1lu << 24u);
    if u32(before >> 32u) == epoch && ((u32(before) >> 24u) & 1u) != 0u {
        return;
    }
    // A witness of the conflicting category, of this epoch and another
    // accessor (at level 1, preferably of this subgroup).
    var w = 0lu;
    var other_subgroup = false;
    for (var k = 0u; k < 2u; k++) {
        let candidate = atomicLoad(&wgrace_scope_local_witness[8u * local + 2u * against + k]);
        let current = (candidate >> 63u) != 0lu && u32(candidate) == epoch;
        let t = u32(candidate >> 32u) & 1023u;
        if !current || select(t / wgrace_sg_size, t, level == 1u) == me {
            continue;
        }
        if level == 1u && t / wgrace_sg_size != wgrace_t / wgrace_sg_size {
            other_subgroup = true;
        } else if w == 0lu {
            w = candidate;
        }
    }
    // A race with another subgroup only is level 0's to record.
    if w == 0lu && other_subgroup {
        return;
    }
    wgrace_scope_record(word, site, write, w, wgrace_g);
}
