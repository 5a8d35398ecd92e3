// The data-race check's timeline: what one workgroup (the *focus*) did with
// the sites that raced, interval by interval, for the viewer's CL-VIS-style
// view (docs/viewer.md, "Timeline").
//
// Only the timeline's own run compiles it (WGRACE_TIMELINE, the prelude's):
// after a run that found races, the host runs the chunks up to the focus
// workgroup's again, with the same instrumented pipeline and a replay pass
// built with WGRACE_TIMELINE (passes/replay.wgsl), so the checked shader
// pays nothing. Every other module prunes these calls as constant branches.
//
// The host's table is at the end of wgrace_examples: its last element holds
// the focus workgroup's linear index, and the elements before it, counted
// back from it, each site's slot plus one (0: not shown), four sites to an
// element: site s in element (last - 1 - s / 4), lane s % 4. A slot is one
// of up to WGRACE_TIMELINE_SITES sites that raced in the first run.
//
// What the GPU gathers is at the end of wgrace_log (WGRACE_TIMELINE_WORDS):
//   word 0   intervals the focus reached (the most barriers it passed, + 1)
//   word 1   its accesses after the last interval kept, not shown
//   then     per interval k < WGRACE_TIMELINE_INTERVALS and invocation t,
//            2 words: the sites t accessed in k (bit 2s: read slot s, bit
//            2s + 1: wrote it), and those of them that raced (bit s)
//   then     per invocation t and slot s, the latest interval + 1 in which t
//            accessed s so far (to place the earlier access of a race)

const WGRACE_TIMELINE_INTERVALS: u32 = 32u;
const WGRACE_TIMELINE_SITES: u32 = 16u;
const WGRACE_TIMELINE_HEAD: u32 = 2u;
const WGRACE_TIMELINE_CELLS: u32 = WGRACE_TIMELINE_INTERVALS * WGRACE_WG_INVOCATIONS;
const WGRACE_TIMELINE_WORDS: u32 =
    WGRACE_TIMELINE_HEAD + 2u * WGRACE_TIMELINE_CELLS + WGRACE_WG_INVOCATIONS * WGRACE_TIMELINE_SITES;

// Barriers of any kind the invocation has gone past in the replay.
var<private> wgrace_timeline_interval: u32;

fn wgrace_timeline_at() -> u32 {
    return arrayLength(&wgrace_log) - WGRACE_TIMELINE_WORDS;
}

fn wgrace_timeline_focus() -> u32 {
    return wgrace_examples[arrayLength(&wgrace_examples) - 1u].x;
}

// The slot of `site` plus one; 0 when the timeline does not show it.
fn wgrace_timeline_slot(site: u32) -> u32 {
    if site == WGRACE_UNKNOWN_SITE {
        return 0u;
    }
    return wgrace_examples[arrayLength(&wgrace_examples) - 2u - site / 4u][site % 4u];
}

// Word of cell (interval `k`, invocation `t`): its accesses; the next word
// its races.
fn wgrace_timeline_cell(k: u32, t: u32) -> u32 {
    return wgrace_timeline_at() + WGRACE_TIMELINE_HEAD + 2u * (k * WGRACE_WG_INVOCATIONS + t);
}

fn wgrace_timeline_latest(t: u32, s: u32) -> u32 {
    return wgrace_timeline_at() + WGRACE_TIMELINE_HEAD + 2u * WGRACE_TIMELINE_CELLS + t * WGRACE_TIMELINE_SITES + s;
}

// The invocation went past barriers up to `passed` of any kind.
fn wgrace_timeline_barrier(passed: u32) {
    wgrace_timeline_interval = passed;
    if wgrace_g == wgrace_timeline_focus() {
        atomicMax(&wgrace_log[wgrace_timeline_at()], passed + 1u);
    }
}

// The invocation accessed `site` (the replay, in program order).
fn wgrace_timeline_access(site: u32, write: bool) {
    if wgrace_g != wgrace_timeline_focus() {
        return;
    }
    let slot = wgrace_timeline_slot(site);
    if slot == 0u {
        return;
    }
    let k = wgrace_timeline_interval;
    if k >= WGRACE_TIMELINE_INTERVALS {
        atomicAdd(&wgrace_log[wgrace_timeline_at() + 1u], 1u);
        return;
    }
    let s = slot - 1u;
    atomicMax(&wgrace_log[wgrace_timeline_at()], k + 1u);
    atomicOr(&wgrace_log[wgrace_timeline_cell(k, wgrace_t)], 1u << (2u * s + u32(write)));
    atomicStore(&wgrace_log[wgrace_timeline_latest(wgrace_t, s)], k + 1u);
}

// A race was detected (wgrace_record): marks the focus's accesses in it.
// This invocation's access is in its current interval; the earlier one, when
// the focus made it, in the latest interval in which its invocation accessed
// its site (a race needs the two accesses unordered, so no barrier ordering
// that memory came between them in the earlier access's workgroup).
fn wgrace_timeline_raced(first_site: u32, first_g: u32, first_t: u32, second_site: u32) {
    let focus = wgrace_timeline_focus();
    if wgrace_g == focus {
        let slot = wgrace_timeline_slot(second_site);
        if slot != 0u && wgrace_timeline_interval < WGRACE_TIMELINE_INTERVALS {
            atomicOr(&wgrace_log[wgrace_timeline_cell(wgrace_timeline_interval, wgrace_t) + 1u], 1u << (slot - 1u));
        }
    }
    if first_g == focus {
        let slot = wgrace_timeline_slot(first_site);
        if slot != 0u {
            let k = atomicLoad(&wgrace_log[wgrace_timeline_latest(first_t, slot - 1u)]);
            if k != 0u && k <= WGRACE_TIMELINE_INTERVALS {
                atomicOr(&wgrace_log[wgrace_timeline_cell(k - 1u, first_t) + 1u], 1u << (slot - 1u));
            }
        }
    }
}
