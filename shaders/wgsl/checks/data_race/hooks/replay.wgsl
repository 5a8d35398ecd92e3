// The data-race check's hooks in addr mode: record and replay (linked
// instead of hooks/check.wgsl: see `Replay` in instrument/src/pass.rs).
//
// Drivers inline every function call, so an access hook that ran the state
// machines of addr.wgsl where the access happens would put a copy of them at
// every access site: the instrumented pipeline's compile time would grow
// with sites x state machine (minutes for a shader of a few hundred lines).
// Instead, each access and barrier is *recorded* where it happens, as one
// 8-byte entry in the invocation's stream, and the *replay pass*
// (passes/replay.wgsl), a dispatch of its own over the same workgroup
// slots, replays each workgroup's streams after the chunk's checked
// dispatch: the state machines run from one call site, in one loop, in a
// pipeline of their own. Drivers' compile time grows faster than the size
// of what they compile (lavapipe's coroutine passes, for one), so two
// pipelines compile faster than one that holds both.
//
// The replay is a schedule the real execution could have taken. Each
// invocation checks its own events in program order; the workgroup checks
// the accesses before a barrier, synchronizes (storage and workgroup
// memory), applies the barrier, and goes on. So a state machine sees the
// accesses of one interval in some order, as it would have, and every
// interval of a workgroup after the one before; workgroups replay in any
// order, which the storage state machine allows as it allows any
// interleaving of workgroups. Same state machines, same events, same
// verdicts (docs/detector.md, "Record and replay").
//
// What a recording site compiles to is what the driver spends most of its
// time on in shaders with many sites (on lavapipe, a store of one 64-bit
// entry compiles in about 60% of the time of a 16-byte one, and a branch
// around it costs about 40% more), so a site stores one entry, always: an
// invocation's stream has wgrace_params.trace_capacity entries and one more
// that takes every entry beyond them. An invocation that records more keeps
// counting (WGRACE_LOG_TRACE_NEEDED, WGRACE_LOG_TRACE_LOST) and only its
// first entries are replayed; the host then runs the dispatch again with
// room for them all, checks in place instead (--replay auto, when the room
// would leave chunks too small), or reports the entries beyond a binding's
// room unchecked.
//
// Statement mode checks where the access happens (hooks/check.wgsl): its
// warp check compares the invocations that execute an access together.

// The buffer starts with WGRACE_TRACE_HEAD entries, one per site, that the
// host writes: the words an access of the site covers (high half) and, for a
// storage site, its index among the instrumented storage sites (low half).
// Then entry j of invocation t of workgroup slot s is
// WGRACE_TRACE_HEAD + (s * (capacity + 1) + j) * WGRACE_WG_INVOCATIONS + t:
// a subgroup's entries of one step are adjacent. Entry `capacity` takes
// the entries beyond the room while the invocation runs; when it ends, it
// holds what the replay pass needs of it (wgrace_end_hook).
@group(0) @binding(5) var<storage, read_write> wgrace_trace: array<u64>;

// An access event is one entry: the high half holds the site (bits 0-13),
// the variable (14-26) and the flags below, the low half the word (index in
// the variable, storage) or place in the workgroup's slot (workgroup
// memory). What else the state machines need of the access is the same
// every time its site runs: the replay finds it at the buffer's head.
// A barrier event (WGRACE_EVENT_BARRIER), before the first access after one
// or more barriers, holds the barriers the invocation has executed so far:
// those that order storage beside the flag, and those that order workgroup
// memory. The runtime only forwards barriers that order one of the two, so
// the count of any kind is their sum, unless some barrier orders both
// (WGRACE_BARRIER_ENTRIES == 2u): then the event starts with a second entry
// that holds the count of any kind beside the flag. (Counts sharing a half
// with the flag are kept modulo 2^31: an invocation would have to execute
// two billion barriers.)
const WGRACE_EVENT_BARRIER: u32 = 1u << 31u;
const WGRACE_EVENT_STORAGE: u32 = 1u << 30u;
const WGRACE_EVENT_WRITE: u32 = 1u << 29u;
const WGRACE_EVENT_INVARIANT: u32 = 1u << 28u;
const WGRACE_EVENT_IN_BOUNDS: u32 = 1u << 27u;
const WGRACE_EVENT_SITE_MASK: u32 = 0x3fffu;
const WGRACE_EVENT_VAR_SHIFT: u32 = 14u;
const WGRACE_EVENT_VAR_MASK: u32 = 0x1fffu;

var<private> wgrace_events: u32;           // entries this invocation recorded
var<private> wgrace_trace_at: u32;         // its first entry
var<private> wgrace_barriers: vec3<u32>;   // barriers executed (any, storage, workgroup)
// Entries of a barrier event that waits after the last entry counted (0 or
// WGRACE_BARRIER_ENTRIES): it is counted when an access follows, so
// barriers with no access after them (at the end, or several in a row) cost
// no replay round.
var<private> wgrace_barrier_waiting: u32;

// Per replay round, in three rotating sets (see wgrace_replay): invocations
// that stopped at a barrier event, and the smallest barrier counts of those
// events.
var<workgroup> wgrace_round: array<array<atomic<u32>, 4>, 3>;

// ---------------------------------------------------------------- hooks
//
// What runs at an access site is a few instructions and one store; the state
// machines run from the replay's one call site. (`words` and `state_site`
// are the site's: the replay finds them at the head of wgrace_trace.)

fn wgrace_wg_access(var_id: u32, at: u32, words: u32, in_bounds: bool, site: u32, write: bool, invariant: bool) {
    if WGRACE_COUNT_ACCESSES {
        wgrace_accesses += 1u;
    }
    wgrace_record_access(wgrace_event_flags(false, write, invariant, in_bounds) | site
        | (var_id << WGRACE_EVENT_VAR_SHIFT), at);
}

fn wgrace_storage_access(var_id: u32, word: u32, words: u32, in_bounds: bool, site: u32, state_site: u32,
                         write: bool, invariant: bool) {
    if WGRACE_COUNT_ACCESSES {
        wgrace_accesses += 1u;
    }
    wgrace_record_access(wgrace_event_flags(true, write, invariant, in_bounds) | site
        | (var_id << WGRACE_EVENT_VAR_SHIFT), word);
}

// After a barrier that orders `storage` and/or `workgroup` memory (0 or 1).
fn wgrace_barrier_hook(storage: u32, workgroup: u32) {
    wgrace_record_barrier(storage, workgroup);
}

// First thing in the entry point (wgrace_data_race_on_begin).
fn wgrace_begin_hook() {
    wgrace_trace_at = WGRACE_TRACE_HEAD + wgrace_slot * (wgrace_params.trace_capacity + 1u) * WGRACE_WG_INVOCATIONS
        + wgrace_t;
}

// When the entry point returns (wgrace_data_race_on_end): the entries
// this invocation recorded (beyond the capacity too) and its subgroup size,
// for the replay pass, in the stream's last entry.
fn wgrace_end_hook() {
    wgrace_trace[wgrace_trace_entry(wgrace_params.trace_capacity)] =
        (u64(wgrace_sg_size) << 32u) | u64(wgrace_events);
}

// ---------------------------------------------------------------- recording


fn wgrace_event_flags(storage: bool, write: bool, invariant: bool, in_bounds: bool) -> u32 {
    return select(0u, WGRACE_EVENT_STORAGE, storage) | select(0u, WGRACE_EVENT_WRITE, write)
        | select(0u, WGRACE_EVENT_INVARIANT, invariant) | select(0u, WGRACE_EVENT_IN_BOUNDS, in_bounds);
}

// Entry `n` of this invocation's stream: the last one (the overflow entry)
// for every n at or beyond the capacity.
fn wgrace_trace_entry(n: u32) -> u32 {
    return wgrace_trace_at + min(n, wgrace_params.trace_capacity) * WGRACE_WG_INVOCATIONS;
}

// Records an access event (see above): `x` is its high half.
fn wgrace_record_access(x: u32, word: u32) {
    let n = wgrace_events + wgrace_barrier_waiting;
    wgrace_barrier_waiting = 0u;
    wgrace_events = n + 1u;
    wgrace_trace[wgrace_trace_entry(n)] = (u64(x) << 32u) | u64(word);
}

// Records a barrier that orders `storage` and/or `workgroup` memory (0 or
// 1): (re)writes the barrier event after the last entry counted.
fn wgrace_record_barrier(storage: u32, workgroup: u32) {
    wgrace_barriers += vec3<u32>(1u, storage, workgroup);
    wgrace_barrier_waiting = WGRACE_BARRIER_ENTRIES;
    let b = wgrace_barriers;
    let n = wgrace_events;
    if WGRACE_BARRIER_ENTRIES == 2u {
        wgrace_trace[wgrace_trace_entry(n)] = u64(WGRACE_EVENT_BARRIER | b.x) << 32u;
    }
    wgrace_trace[wgrace_trace_entry(n + WGRACE_BARRIER_ENTRIES - 1u)] = (u64(WGRACE_EVENT_BARRIER | b.y) << 32u) | u64(b.z);
}

// Resets set `k` of the round counters.
fn wgrace_round_clear(k: u32) {
    atomicStore(&wgrace_round[k][0], 0u);
    for (var c = 1u; c < 4u; c++) {
        atomicStore(&wgrace_round[k][c], 0xffffffffu);
    }
}

// Checks the access event whose high half is `x`, at `word`.
fn wgrace_replay_access(x: u32, word: u32) {
    let site = x & WGRACE_EVENT_SITE_MASK;
    let var_id = (x >> WGRACE_EVENT_VAR_SHIFT) & WGRACE_EVENT_VAR_MASK;
    let write = (x & WGRACE_EVENT_WRITE) != 0u;
    let invariant = (x & WGRACE_EVENT_INVARIANT) != 0u;
    let in_bounds = (x & WGRACE_EVENT_IN_BOUNDS) != 0u;
    let facts = wgrace_trace[site];
    let words = u32(facts >> 32u);
    if WGRACE_TIMELINE {
        wgrace_timeline_access(site, write);
    }
    if (x & WGRACE_EVENT_STORAGE) != 0u {
        wgrace_storage_check(var_id, word, words, in_bounds, site, u32(facts), write, invariant);
    } else {
        wgrace_wg_check(var_id, word, words, in_bounds, site, write, invariant);
    }
}

// Called by the replay pass, in uniform control flow: checks the
// workgroup's recorded events, one interval at a time. Each round, every
// invocation checks its accesses up to its next barrier event; the workgroup
// synchronizes and moves on to the fewest barriers any of those events
// counts, and the invocations whose event counts that many go past it.
// Under uniform barriers they all do; an invocation that skipped barriers
// (barrier divergence, which its own check reports) waits at its event.
fn wgrace_replay() {
    let capacity = wgrace_params.trace_capacity;
    let n = min(wgrace_events, capacity);
    if wgrace_t == 0u {
        wgrace_round_clear(0u);
        wgrace_round_clear(1u);
    }
    workgroupBarrier();
    // The barriers applied so far.
    var done = vec3<u32>(0u);
    var i = 0u;
    var round = 0u;
    loop {
        // This invocation's accesses up to its next barrier event.
        var next = vec3<u32>(0u);
        var at_barrier = false;
        loop {
            if i >= n {
                break;
            }
            let e = wgrace_trace[wgrace_trace_entry(i)];
            let x = u32(e >> 32u);
            if (x & WGRACE_EVENT_BARRIER) != 0u {
                // A barrier event cut off by the end of the stream ends it
                // (its entries beyond the capacity are reported lost).
                if i + WGRACE_BARRIER_ENTRIES > n {
                    i = n;
                    break;
                }
                // The counts of storage and workgroup barriers are in the
                // event's last entry; of any kind, their sum or the first.
                var last = e;
                if WGRACE_BARRIER_ENTRIES == 2u {
                    last = wgrace_trace[wgrace_trace_entry(i + 1u)];
                }
                next = vec3<u32>(0u, u32(last >> 32u) & ~WGRACE_EVENT_BARRIER, u32(last));
                next.x = select(next.y + next.z, x & ~WGRACE_EVENT_BARRIER, WGRACE_BARRIER_ENTRIES == 2u);
                at_barrier = true;
                break;
            }
            wgrace_replay_access(x, u32(e));
            i += 1u;
        }
        // Round r uses set r mod 3 and clears set r + 2 for later: every
        // invocation read that set in round r - 1, before the barrier below,
        // and writes it in round r + 2, after the next round's barrier.
        let round_set = round % 3u;
        if at_barrier {
            atomicAdd(&wgrace_round[round_set][0], 1u);
            // Counts grow together (uniform barriers), so the smallest of
            // each are one event's.
            atomicMin(&wgrace_round[round_set][1], next.x);
            atomicMin(&wgrace_round[round_set][2], next.y);
            atomicMin(&wgrace_round[round_set][3], next.z);
        }
        // Every check before the barrier is ordered before every check after
        // it, in both memories (the shadows of either may be in storage).
        storageBarrier();
        workgroupBarrier();
        let waiting = atomicLoad(&wgrace_round[round_set][0]);
        let fewest = vec3<u32>(atomicLoad(&wgrace_round[round_set][1]), atomicLoad(&wgrace_round[round_set][2]),
                               atomicLoad(&wgrace_round[round_set][3]));
        if wgrace_t == 0u {
            wgrace_round_clear((round + 2u) % 3u);
        }
        if waiting == 0u {
            break;
        }
        // At least the invocation whose event counts the fewest barriers of
        // any kind goes past it, so every round makes progress.
        if at_barrier && next.x == fewest.x {
            i += WGRACE_BARRIER_ENTRIES;
            if WGRACE_TIMELINE {
                wgrace_timeline_barrier(next.x);
            }
        }
        // (Counts never go back, unless barriers diverged.)
        let reached = max(fewest, done);
        wgrace_advance(reached.x - done.x, reached.y - done.y, reached.z - done.z);
        done = reached;
        round += 1u;
    }
    if wgrace_events > capacity {
        atomicAdd(&wgrace_log[WGRACE_LOG_TRACE_LOST], wgrace_events - capacity);
    }
    // The loop ends when no invocation waits at a barrier event, so every
    // invocation has gone through its entries, unless the driver ended the
    // loops early: lavapipe ends a shader's loops after 65,535 iterations in
    // all, and the replay's take a few per entry.
    if i < n {
        atomicAdd(&wgrace_log[WGRACE_LOG_REPLAY_UNREACHED], n - i);
    }
    if wgrace_events != 0u {
        atomicMax(&wgrace_log[WGRACE_LOG_TRACE_NEEDED], wgrace_events);
    }
}

// ---------------------------------------------------------------- deferred recording
//
// What the pass calls instead of the hooks above (instrument/src/defer.rs):
// a site keeps its entry in a slot of its own, a private vec3<u32> (the
// entry's high half, its low half, and its index in the stream plus one),
// and the pass stores slots where paths have joined, so that a driver
// compiles fewer stores.

fn wgrace_wg_pending(var_id: u32, at: u32, words: u32, in_bounds: bool, site: u32, write: bool, invariant: bool)
    -> vec3<u32> {
    if WGRACE_COUNT_ACCESSES {
        wgrace_accesses += 1u;
    }
    return wgrace_pending_entry(wgrace_event_flags(false, write, invariant, in_bounds) | site
        | (var_id << WGRACE_EVENT_VAR_SHIFT), at);
}

fn wgrace_storage_pending(var_id: u32, word: u32, words: u32, in_bounds: bool, site: u32, state_site: u32,
                          write: bool, invariant: bool) -> vec3<u32> {
    if WGRACE_COUNT_ACCESSES {
        wgrace_accesses += 1u;
    }
    return wgrace_pending_entry(wgrace_event_flags(true, write, invariant, in_bounds) | site
        | (var_id << WGRACE_EVENT_VAR_SHIFT), word);
}

// Counts an access event whose high half is `x` and returns its slot.
fn wgrace_pending_entry(x: u32, word: u32) -> vec3<u32> {
    let n = wgrace_events + wgrace_barrier_waiting;
    wgrace_barrier_waiting = 0u;
    wgrace_events = n + 1u;
    return vec3<u32>(x, word, n + 1u);
}

// Stores the entry a slot holds at its place in the stream. A slot that
// never held one is zero: its index wraps to the entry that takes those
// beyond the room.
fn wgrace_flush_pending(slot: vec3<u32>) {
    wgrace_trace[wgrace_trace_entry(slot.z - 1u)] = (u64(slot.x) << 32u) | u64(slot.y);
}
