// wgrace check: atomic-plain, its state within a workgroup (see
// ../atomic_plain.wgsl), linked when the host placed some memory's state
// there: after the generated WGRACE_AP_LOCAL_WORDS, WGRACE_AP_LOCAL_WITNESSES
// and wgrace_ap_local_at (instrument/src/checks/atomic_memory.rs).

var<workgroup> wgrace_ap_local: array<atomic<u64>, WGRACE_AP_LOCAL_WORDS>;
var<workgroup> wgrace_ap_local_witness: array<atomic<u64>, WGRACE_AP_LOCAL_WITNESSES>;

// `epoch`: the control barriers ordering buffer memory this invocation
// executed, or 0 for memory no barrier orders.
fn wgrace_ap_within(local: u32, word: u32, site: u32, write: bool, side: u32, other: u32, epoch: u32) {
    let me = wgrace_t;
    var old = atomicLoad(&wgrace_ap_local[local]);
    loop {
        let old_epoch = u32(old >> 32u);
        // An epoch ahead of this invocation's can only come from a subgroup
        // barrier other subgroups did not execute: taken as ordered, as the
        // data-race check takes it (the report says so).
        if old_epoch > epoch {
            return;
        }
        // A new epoch starts afresh: the barrier orders what came before.
        var s = WgraceApState(0u, vec2<u32>(0u));
        if old_epoch == epoch {
            s = wgrace_ap_unpack_within(old);
        }
        if wgrace_ap_raced(s) {
            return;
        }
        if wgrace_ap_races(s, other, me) {
            break;
        }
        let added = wgrace_ap_add(s, side, write, me);
        let next = wgrace_ap_pack_within(added.state, epoch);
        if next == old {
            return;
        }
        let r = atomicCompareExchangeWeak(&wgrace_ap_local[local], old, next);
        if r.exchanged {
            let w = wgrace_ap_witness(site, write, epoch);
            for (var c = 0u; c < 4u; c++) {
                if ((added.first >> c) & 1u) != 0u {
                    atomicStore(&wgrace_ap_local_witness[8u * local + 2u * c], w);
                }
                if ((added.second >> c) & 1u) != 0u {
                    atomicStore(&wgrace_ap_local_witness[8u * local + 2u * c + 1u], w);
                }
            }
            return;
        }
        old = r.old_value;
    }
    // The word's first race in this epoch of this workgroup.
    let before = atomicOr(&wgrace_ap_local[local], 3lu << 24u);
    if u32(before >> 32u) == epoch && ((u32(before) >> 24u) & 3u) == 3u {
        return;
    }
    // A witness of the conflicting category, of this epoch and another
    // invocation.
    var w = 0lu;
    for (var k = 0u; k < 2u; k++) {
        let candidate = atomicLoad(&wgrace_ap_local_witness[8u * local + 2u * other + k]);
        let current = (candidate >> 63u) != 0lu && u32(candidate) == epoch;
        if w == 0lu && current && (u32(candidate >> 32u) & 1023u) != me {
            w = candidate;
        }
    }
    wgrace_ap_record(word, site, write, w, wgrace_g);
}
