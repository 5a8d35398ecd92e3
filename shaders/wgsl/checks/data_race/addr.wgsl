// wgrace check: data races (addr mode). The engine of wgrace's first
// check, linked after runtime.wgsl (with stmt.wgsl, statement mode): the
// per-word shadow state machines that the access hooks the pass splices into
// the shader call (hooks/: where the access happens, or when the workgroup
// ends, replaying what was recorded), and what they do at the runtime's
// begin, barrier and end events.
//
// Detection happens here, on the GPU, in the checked dispatch.  Every tracked
// 4-byte word has one *state word*, updated by compare-and-swap, that
// holds exactly what is needed to decide whether the access races with an
// earlier one (WGSL memory model: different invocations, at least one write,
// not both atomic, not ordered by a barrier of the right kind).  Because all
// of a word's verdict state sits in one atomic, the verdict is linearizable:
// no race that happened is missed and none is invented.  Besides the state
// word, *witness words* keep a second access (a reader, or an earlier writer)
// so that both source locations of a race can be reported; a witness is only
// used after checking that it conflicts with the current access.
//
// Races are recorded in the runtime's table (wgrace_record_pair) under the
// race classes, this check's record codes; the host decodes them in
// instrument/src/checks/data_race/. docs/detector.md describes the design.

// The workgroup-memory shadow of this workgroup, when it fits in workgroup
// memory next to the shader's own variables (WGSL zero-initialises it).
var<workgroup> wgrace_wg_shadow: array<atomic<u32>, WGRACE_WG_SHADOW_LEN>;

// Race classes (the report's `class`): the data-race check's record codes,
// 0 to 3 (it comes first in the registry); other checks' codes follow.
const WGRACE_CLASS_INTRA: u32 = 0u;
const WGRACE_CLASS_BARRIER_KIND: u32 = 1u;
const WGRACE_CLASS_INTER: u32 = 2u;
const WGRACE_CLASS_INTRA_SUBGROUP: u32 = 3u;

// Site ids take 14 bits of the race table's key; this one stands for
// "earlier access not recorded".
const WGRACE_UNKNOWN_SITE: u32 = 0x3fffu;
// Lock-step code meaning "visible at every width" (see wgrace_lockstep_code).
const WGRACE_LOCKSTEP_NEVER: u32 = 5u;
// How long to wait for a witness word that another invocation is about to
// publish (it writes the witness right after the compare-and-swap we observed).
const WGRACE_WITNESS_SPIN: u32 = 256u;

// ---------------------------------------------------------------- identity

const WGRACE_T_MASK: u32 = (1u << WGRACE_T_BITS) - 1u;
const WGRACE_S_MASK: u32 = (1u << WGRACE_S_BITS) - 1u;
var<private> wgrace_slot_at: u32;    // first log word of this workgroup's slot
var<private> wgrace_any: u32;        // barriers of any kind executed so far
var<private> wgrace_accesses: u32;   // instrumented accesses executed (WGRACE_COUNT_ACCESSES)
var<private> wgrace_epoch: u32;      // storage-ordering barriers executed so far
var<private> wgrace_wg_interval: u32; // workgroup-ordering barriers so far, mod 2^WGRACE_WG_INTERVAL_BITS
var<private> wgrace_storage_on: bool;
var<private> wgrace_me32: u32;       // workgroup identity of this invocation, without site
var<private> wgrace_me_st: WgraceState; // storage identity of this invocation, without site
// Counted privately and added to the log by wgrace_end: every access site
// inlines the checks, and a memory operation there costs on every access.
var<private> wgrace_out_of_bounds: u32;
var<private> wgrace_evicted: u32;

fn wgrace_update_identity() {
    // Barriers of any kind, in as many low bits as the state words keep:
    // within one interval, only barriers of the other kind change it.
    let a = wgrace_any & WGRACE_WG_BARRIER_MASK;
    wgrace_me32 = wgrace_t | (a << (WGRACE_T_BITS + WGRACE_S_BITS)) | (wgrace_wg_interval << WGRACE_WG_INTERVAL_SHIFT);
    wgrace_me_st = (WgraceState(wgrace_any & WGRACE_ST_BARRIER_MASK) << 5u)
        | (WgraceState(wgrace_t) << WGRACE_ST_T_SHIFT)
        | (WgraceState(wgrace_epoch) << WGRACE_ST_E_SHIFT)
        | (WgraceState(wgrace_g) << WGRACE_ST_G_SHIFT);
}

// The runtime's end event: flushes what the invocation counted privately
// (hooks/replay.wgsl: the replay pass checks what was recorded, and flushes
// what the checks counted).
fn wgrace_data_race_on_end() {
    wgrace_end_hook();
    if WGRACE_COUNT_ACCESSES && wgrace_accesses != 0u {
        // A 64-bit sum: carry into the high word.
        let before = atomicAdd(&wgrace_log[WGRACE_LOG_ACCESSES], wgrace_accesses);
        if before + wgrace_accesses < before {
            atomicAdd(&wgrace_log[WGRACE_LOG_ACCESSES + 1u], 1u);
        }
    }
    if !WGRACE_REPLAY {
        wgrace_data_race_flush();
    }
    wgrace_stmt_end();
    if WGRACE_HB_ON {
        wgrace_hb_end();
    }
}

// Adds what the state machines counted privately to the log.
fn wgrace_data_race_flush() {
    if wgrace_out_of_bounds != 0u {
        atomicAdd(&wgrace_log[WGRACE_LOG_OUT_OF_BOUNDS], wgrace_out_of_bounds);
    }
    if wgrace_evicted != 0u {
        atomicAdd(&wgrace_log[WGRACE_LOG_EVICTED], wgrace_evicted);
    }
}

// The runtime's begin event, in uniform control flow (hooks/replay.wgsl:
// the replay pass sets up the state machines).
fn wgrace_data_race_on_begin() {
    if WGRACE_INSTRUMENTED {
        wgrace_subgroup_begin();
    }
    wgrace_begin_hook();
    if !WGRACE_REPLAY {
        wgrace_data_race_state_begin();
    }
    if WGRACE_HB_ON {
        wgrace_hb_begin();
    }
}

// In uniform control flow, where accesses are checked: the invocation's
// identity in the state words, and its workgroup's shadow slot.
fn wgrace_data_race_state_begin() {
    wgrace_slot_at = wgrace_log_slots_at() + wgrace_slot * WGRACE_WG_WORDS * WGRACE_WG_STATE_WORDS;
    wgrace_any = 0u;
    wgrace_epoch = 0u;
    wgrace_wg_interval = 0u;
    wgrace_storage_on = true;
    wgrace_update_identity();
    if WGRACE_WG_WORDS > 0u && !WGRACE_WG_RESIDENT {
        // The slot still holds the state its previous workgroup left.
        wgrace_sweep_slot();
        storageBarrier();
    }
}

// The workgroup shadow, word `i` of this workgroup's slot, wherever it lives.
fn wgrace_wg_load(i: u32) -> u32 {
    if WGRACE_WG_RESIDENT {
        return atomicLoad(&wgrace_wg_shadow[i]);
    }
    return atomicLoad(&wgrace_log[wgrace_slot_at + i]);
}

fn wgrace_wg_store(i: u32, value: u32) {
    if WGRACE_WG_RESIDENT {
        atomicStore(&wgrace_wg_shadow[i], value);
    } else {
        atomicStore(&wgrace_log[wgrace_slot_at + i], value);
    }
}

fn wgrace_wg_or(i: u32, bits: u32) -> u32 {
    if WGRACE_WG_RESIDENT {
        return atomicOr(&wgrace_wg_shadow[i], bits);
    }
    return atomicOr(&wgrace_log[wgrace_slot_at + i], bits);
}

// Compare-and-swap: (old value, 1 if exchanged).
fn wgrace_wg_exchange(i: u32, old: u32, value: u32) -> vec2<u32> {
    if WGRACE_WG_RESIDENT {
        let r = atomicCompareExchangeWeak(&wgrace_wg_shadow[i], old, value);
        return vec2<u32>(r.old_value, u32(r.exchanged));
    }
    let r = atomicCompareExchangeWeak(&wgrace_log[wgrace_slot_at + i], old, value);
    return vec2<u32>(r.old_value, u32(r.exchanged));
}

// ---------------------------------------------------------------- barriers

fn wgrace_wg_max(i: u32, value: u32) {
    if WGRACE_WG_RESIDENT {
        atomicMax(&wgrace_wg_shadow[i], value);
    } else {
        atomicMax(&wgrace_log[wgrace_slot_at + i], value);
    }
}

// Orders the workgroup shadow's updates before what follows, for the whole
// workgroup (the user's workgroupBarrier does not order storage memory).
fn wgrace_wg_shadow_barrier() {
    if WGRACE_WG_RESIDENT {
        workgroupBarrier();
    } else {
        storageBarrier();
    }
}

fn wgrace_sweep_slot() {
    for (var i = wgrace_t; i < WGRACE_WG_WORDS * WGRACE_WG_STATE_WORDS; i += WGRACE_WG_INVOCATIONS) {
        wgrace_wg_store(i, 0u);
    }
}

// Starts the interval `n` (at least 1) intervals on; true when the interval
// counter wrapped, so that states of earlier intervals could be mistaken for
// current ones and the slot must be cleared.
fn wgrace_next_wg_interval(n: u32) -> bool {
    let wrapped = n > WGRACE_WG_INTERVAL_MASK - wgrace_wg_interval;
    wgrace_wg_interval = (wgrace_wg_interval + n) & WGRACE_WG_INTERVAL_MASK;
    return wrapped;
}

// The runtime's barrier event, right after each workgroup control barrier
// of the user's code (and workgroupUniformLoad): a new interval starts for
// the memory the barrier orders: wgrace_barrier_hook (hooks/) applies it, or
// records it for the replay to apply.
fn wgrace_data_race_on_barrier(kind: u32, id: u32) {
    let subgroup_execution = (kind & WGRACE_BARRIER_SUBGROUP) != 0u;
    if WGRACE_HB_ON {
        // The happens-before engine's barrier: every invocation publishes
        // what it releases, waits for the others (in the user's barrier's
        // control flow: the subgroup's, for a subgroup barrier), and
        // acquires what they released.
        let subgroup_memory = (kind & WGRACE_BARRIER_SUBGROUP_MEMORY) != 0u;
        let orders = kind & (WGRACE_ORDERS_WORKGROUP | WGRACE_ORDERS_STORAGE);
        wgrace_hb_barrier_arrive(subgroup_execution, subgroup_memory, orders);
        if subgroup_execution {
            wgrace_hb_subgroup_sync();
        } else {
            storageBarrier();
        }
        wgrace_hb_barrier_leave(subgroup_execution, subgroup_memory, orders);
    }
    // With nothing instrumented, intervals have nothing to separate. A
    // barrier only a subgroup waits at starts no interval: the engine
    // checks the memory it orders (the host sees to that).
    if kind == 0u || !WGRACE_INSTRUMENTED || (subgroup_execution && WGRACE_HB_ON) {
        return;
    }
    wgrace_barrier_hook(u32((kind & WGRACE_ORDERS_STORAGE) != 0u), u32((kind & WGRACE_ORDERS_WORKGROUP) != 0u));
}

// Applies `any` barriers (in uniform control flow), `storage` of which order
// storage memory and `workgroup` of which order workgroup memory.
fn wgrace_advance(any: u32, storage: u32, workgroup: u32) {
    wgrace_any += any;
    if storage != 0u {
        if storage > WGRACE_ST_EPOCH_MAX - wgrace_epoch {
            if wgrace_storage_on && wgrace_t == 0u {
                atomicAdd(&wgrace_log[WGRACE_LOG_EPOCH_OVERFLOW], 1u);
            }
            wgrace_storage_on = false;
            wgrace_epoch = WGRACE_ST_EPOCH_MAX;
        } else {
            wgrace_epoch += storage;
        }
    }
    if WGRACE_STMT {
        wgrace_update_identity();
        if workgroup != 0u {
            wgrace_stmt_interval_end();
        }
        return;
    }
    // A new workgroup-memory interval starts: nothing before the barrier can
    // race with anything after it. States carry their interval, so older ones
    // read as untouched; the slot is only cleared when the counter wraps,
    // every 2^WGRACE_WG_INTERVAL_BITS barriers.
    var sweep = false;
    if workgroup != 0u {
        sweep = wgrace_next_wg_interval(workgroup) && WGRACE_WG_WORDS > 0u;
    }
    wgrace_update_identity();
    if sweep {
        if WGRACE_WG_RESIDENT {
            // The user's barrier ordered the shadow's updates before the sweep.
            wgrace_sweep_slot();
            workgroupBarrier();
        } else {
            // The user's workgroupBarrier does not order storage memory.
            storageBarrier();
            wgrace_sweep_slot();
            storageBarrier();
        }
    }
}

// ---------------------------------------------------------------- subgroup reads
//
// GRace records a thread-invariant address for one invocation. Here a read
// that every active invocation of a subgroup makes
// together (same words, site and barrier counts: wgrace_subgroup_span, only
// at sites whose indices may be invariant) is checked by the lowest of them,
// twice: for itself, and on behalf of the highest. That loses nothing:
// - the state machines end where all the reads would take them: after two
//   reads by different invocations of one interval, further reads of it
//   change no state word (A, MULTI/M or X and its witness are set);
// - a read's verdict depends only on the state before it and on which
//   invocation reads, and every reader that would detect a race is in this
//   subgroup, so its race has the class the lowest's or highest's has;
// - the lock-step code of a detection grows with the distance between the
//   two invocations, so its largest over the readers is the lowest's or the
//   highest's.
// Only `occurrences` counts fewer detections. When the lowest's read finds a
// word already settled (read by two invocations of the interval), the
// highest's read could change nothing either, and is skipped.
// WGRACE_AGGREGATE is off in statement mode, whose tables count every
// invocation.

// Which invocation this one checks an access for besides itself: normally
// itself; for a read the whole subgroup makes together (`invariant` sites,
// `key` as for wgrace_subgroup_span), the lowest of them checks for itself
// and for the highest, and the others check nothing
// (WGRACE_NOT_CHECKED_HERE).
const WGRACE_NOT_CHECKED_HERE: u32 = 0xffffffffu;

fn wgrace_also_checked_for(invariant: bool, key: vec4<u32>) -> u32 {
    if invariant && WGRACE_AGGREGATE {
        let span = wgrace_subgroup_span(key);
        if span.x <= span.y {
            return select(WGRACE_NOT_CHECKED_HERE, span.y, wgrace_t == span.x);
        }
    }
    return wgrace_t;
}

// ---------------------------------------------------------------- race records

// The smallest lock-step width, as k for width 4 << k (k = 0..4: 4 to 64),
// at which invocations `a` and `b` of one workgroup share a subgroup under the
// usual mapping (local index / width); WGRACE_LOCKSTEP_NEVER if none does.
// Hardware running subgroups of that width or wider in lock-step executes two
// different statements of the pair one after the other (GRace's rule).
fn wgrace_lockstep_code(a: u32, b: u32) -> u32 {
    for (var k = 0u; k < WGRACE_LOCKSTEP_NEVER; k++) {
        if (a >> (2u + k)) == (b >> (2u + k)) {
            return k;
        }
    }
    return WGRACE_LOCKSTEP_NEVER;
}

// Records a race detected by this invocation: `first_*` describe the other
// access (the earlier one), the second access is this invocation's.
fn wgrace_record(race_class: u32, word: u32, first_site: u32, first_g: u32, first_t: u32, first_write: bool,
                 second_site: u32) {
    let codes = wgrace_race_codes(race_class, first_site, first_t, second_site);
    wgrace_record_as(codes.x, codes.y, word, first_site, first_g, first_t, first_write, second_site);
}

// The record code and lock-step code of a race of class `race_class` (as
// wgrace_record's): races in one workgroup are refined to intra-subgroup
// when both invocations share this invocation's subgroup.
fn wgrace_race_codes(race_class: u32, first_site: u32, first_t: u32, second_site: u32) -> vec2<u32> {
    var c = race_class;
    var code = WGRACE_LOCKSTEP_NEVER;
    if c <= WGRACE_CLASS_BARRIER_KIND && first_site != WGRACE_UNKNOWN_SITE {
        if first_t / wgrace_sg_size == wgrace_t / wgrace_sg_size {
            c = WGRACE_CLASS_INTRA_SUBGROUP;
        }
        if first_site != second_site {
            code = wgrace_lockstep_code(first_t, wgrace_t);
        }
    }
    return vec2<u32>(c, code);
}

// Records a race under `record_code` with lock-step code `lockstep`, its
// spread and its place in the timeline: wgrace_record's, and the records
// other checks make of the happens-before engine's races
// (happens_before/engine.wgsl: scope, missing-fence, lockset), whose
// classes lock-step does not hide.
fn wgrace_record_as(record_code: u32, lockstep: u32, word: u32, first_site: u32, first_g: u32, first_t: u32,
                    first_write: bool, second_site: u32) {
    let slot = wgrace_record_pair(record_code, word, first_site, first_g, first_t, first_write, second_site, wgrace_g,
                                  wgrace_t, lockstep);
    wgrace_spread_memory(slot, second_site, word, false, first_g, wgrace_g);
    if WGRACE_TIMELINE {
        wgrace_timeline_raced(first_site, first_g, first_t, second_site);
    }
}

// ---------------------------------------------------------------- workgroup memory
//
// One state word and one witness word per tracked word and workgroup slot,
// cleared at every barrier that orders workgroup memory, so the state only
// ever describes the current interval of one workgroup:
//
//   bits 30-31  tag: 0 untouched, 1 read only, 2 written
//   bit  29     MULTI: read by at least two invocations
//   bits 0..    identity A (invocation | site | barrier count mod
//               2^WGRACE_WG_BARRIER_BITS | interval) of the first reader
//               (tag 1) or of the first writer (tag 2)
//
// A state whose interval is not the current one describes an earlier
// interval, which the barrier ordered: it counts as untouched.
// The witness word holds, once MULTI is set, a reader other than A.

const WGRACE_WG_READ: u32 = 1u << 30u;
const WGRACE_WG_WRITE: u32 = 2u << 30u;
const WGRACE_WG_MULTI: u32 = 1u << 29u;
const WGRACE_WG_IDENTITY: u32 = (1u << 29u) - 1u;
const WGRACE_WG_WITNESS_VALID: u32 = 1u << 31u;
const WGRACE_WG_BARRIER_MASK: u32 = (1u << WGRACE_WG_BARRIER_BITS) - 1u;
const WGRACE_WG_INTERVAL_SHIFT: u32 = WGRACE_T_BITS + WGRACE_S_BITS + WGRACE_WG_BARRIER_BITS;
const WGRACE_WG_INTERVAL_MASK: u32 = (1u << WGRACE_WG_INTERVAL_BITS) - 1u;

fn wgrace_wg_current(x: u32) -> bool {
    return ((x >> WGRACE_WG_INTERVAL_SHIFT) & WGRACE_WG_INTERVAL_MASK) == wgrace_wg_interval;
}

// A witness of the current interval, by another invocation.
fn wgrace_wg_witness_ok(w: u32) -> bool {
    return (w & WGRACE_WG_WITNESS_VALID) != 0u && wgrace_wg_current(w) && (w & WGRACE_T_MASK) != wgrace_t;
}

// Checks an access to workgroup memory (the arguments of the access hook
// wgrace_wg_access, hooks/). `at` is the word's index in the workgroup's slot
// (the variable's place in the slot plus the word's offset in the variable);
// `in_bounds` says every index of the access was in bounds, which also keeps
// `at` in the variable.
fn wgrace_wg_check(var_id: u32, at: u32, words: u32, in_bounds: bool, site: u32, write: bool, invariant: bool) {
    if !in_bounds {
        wgrace_out_of_bounds += 1u;
        return;
    }
    // Workgroup memory that subgroup barriers order: the happens-before
    // engine's, each workgroup's copy words of its own. wgrace_hb_owns
    // folds at each site (a constant variable), which then compiles one
    // path of the two.
    if WGRACE_HB_ON && wgrace_hb_owns(var_id) {
        let word = at - wgrace_params.vars[var_id].base;
        let hb = wgrace_hb_var_word(var_id, word);
        for (var i = 0u; i < words; i++) {
            wgrace_hb_access(hb + i, word + i, site, write, wgrace_any, 0u);
        }
        return;
    }
    if WGRACE_STMT {
        for (var i = 0u; i < words; i++) {
            wgrace_stmt_wg_word(at + i, site, write);
            if write {
                wgrace_warp_check(at + i, site, true);
            }
        }
        return;
    }
    let me = wgrace_me32 | (site << WGRACE_T_BITS);
    let mine = wgrace_t;
    let other = wgrace_also_checked_for(invariant, vec4<u32>(at, site, wgrace_any, wgrace_wg_interval));
    if other == WGRACE_NOT_CHECKED_HERE {
        return;
    }
    // Drivers inline every call. Checking in place, where every site has its
    // copy, a one-word access of this invocation (the usual case) runs the
    // state machine with no loop around it; the replay, whose copy is the
    // only one, calls it from the loop alone. (The constant condition on its
    // own: naga turns `&&` into branches on a local variable, which would
    // leave drivers a second copy of the state machine to inline before
    // they find it dead, and the pass drops constant branches.)
    if !WGRACE_REPLAY {
        if words == 1u && other == mine {
            wgrace_wg_word(2u * at, me, write, var_id, at);
            return;
        }
    }
    var settled = true;
    var i = 0u;
    loop {
        if i == words {
            if wgrace_t != mine || other == mine || settled {
                break;
            }
            wgrace_t = other;
            i = 0u;
        }
        let ok = wgrace_wg_word(2u * (at + i), (me & ~WGRACE_T_MASK) | wgrace_t, write, var_id, at + i);
        settled = ok && settled;
        i += 1u;
    }
    wgrace_t = mine;
}

// What one access does to a workgroup state word that holds `old`.
struct WgraceWgStep {
    next: u32,               // the state after the access (old: no change)
    race: bool,
    witness: u32,            // identity of the earlier access, if race
    witness_write: bool,
    from_witness_word: bool, // the earlier access is the witness word's reader
    publish: bool,           // this access sets MULTI: it becomes the witness
    settled: bool,           // see wgrace_wg_word
}

fn wgrace_wg_step(old: u32, me: u32, write: bool) -> WgraceWgStep {
    var step = WgraceWgStep(old, false, 0u, false, false, false, false);
    // The state as this interval sees it.
    let view = select(0u, old, wgrace_wg_current(old));
    let tag = view & ~(WGRACE_WG_MULTI | WGRACE_WG_IDENTITY);
    let a_t = view & WGRACE_T_MASK;
    let multi = (view & WGRACE_WG_MULTI) != 0u;
    step.settled = !write && tag == WGRACE_WG_READ && multi;
    step.next = view;
    if tag == 0u {
        step.next = select(WGRACE_WG_READ, WGRACE_WG_WRITE, write) | me;
    } else if tag == WGRACE_WG_READ {
        if write {
            if a_t != wgrace_t {
                step.race = true;
                step.witness = view & WGRACE_WG_IDENTITY;
            } else if multi {
                step.race = true;
                step.from_witness_word = true;
            }
            step.next = WGRACE_WG_WRITE | me;
        } else if a_t != wgrace_t && !multi {
            step.next = view | WGRACE_WG_MULTI;
            step.publish = true;
        }
    } else if a_t != wgrace_t {
        step.race = true;
        step.witness = view & WGRACE_WG_IDENTITY;
        step.witness_write = true;
    }
    return step;
}

// Moves state word `state` from `old` to `step.next` after an exchange was
// lost: (the value found, 1 if moved). Losers are typically readers that all
// found the word untouched (a tile row read by a subgroup), and all of them
// now set MULTI: with an atomic or, which cannot fail, instead of exchanges
// that would make each other retry once more. If the word is no longer
// `old`, another reader set MULTI (the word is settled) or a write took it
// (a written state ignores the bit), and deciding again from the value found
// changes nothing further. (A first attempt uses the exchange: on n-body's
// whole-subgroup reads the or cost 5%.)
fn wgrace_wg_apply(state: u32, old: u32, step: WgraceWgStep) -> vec2<u32> {
    if step.publish {
        let found = wgrace_wg_or(state, WGRACE_WG_MULTI);
        return vec2<u32>(found, u32(found == old));
    }
    return wgrace_wg_exchange(state, old, step.next);
}

// Returns whether the word was *settled*: read by two invocations in this
// interval and not written, a state no further read of the interval changes
// or races with.
fn wgrace_wg_word(state: u32, me: u32, write: bool, var_id: u32, at: u32) -> bool {
    // Writes mostly hit untouched words: exchange optimistically from 0 (a
    // failed exchange returns the state, as a load would).
    var old = 0u;
    if !write {
        old = wgrace_wg_load(state);
    }
    var step: WgraceWgStep;
    if WGRACE_REPLAY {
        // The replay's copy, the only one: the same steps with one copy of
        // the decision, which compiles faster (see wgrace_storage_word).
        var first = true;
        loop {
            step = wgrace_wg_step(old, me, write);
            if step.next == old {
                break;
            }
            var r: vec2<u32>;
            if first {
                r = wgrace_wg_exchange(state, old, step.next);
            } else {
                r = wgrace_wg_apply(state, old, step);
            }
            if r.y != 0u {
                break;
            }
            first = false;
            old = r.x;
        }
    } else {
        step = wgrace_wg_step(old, me, write);
        if step.next != old {
            var r = wgrace_wg_exchange(state, old, step.next);
            // Another access changed the word first (or the exchange failed
            // spuriously): decide again from what it left. Kept out of the
            // path of an exchange that succeeds, which then runs no loop.
            while r.y == 0u {
                old = r.x;
                step = wgrace_wg_step(old, me, write);
                if step.next == old {
                    break;
                }
                r = wgrace_wg_apply(state, old, step);
            }
        }
    }
    var witness = step.witness;
    if step.publish {
        // After the exchange that set MULTI, so that a reader whose exchange
        // failed never overwrites the witness; whoever needs it waits for it.
        wgrace_wg_store(state + 1u, me | WGRACE_WG_WITNESS_VALID);
    }
    if !step.race {
        return step.settled;
    }
    var witness_site = 0u;
    if step.from_witness_word {
        // A reader other than this invocation exists; wait for its witness.
        var w = 0u;
        for (var n = 0u; n < WGRACE_WITNESS_SPIN; n++) {
            w = wgrace_wg_load(state + 1u);
            if wgrace_wg_witness_ok(w) {
                break;
            }
        }
        witness = w & WGRACE_WG_IDENTITY;
        if !wgrace_wg_witness_ok(w) {
            // Not recorded: keep this access's barrier count (the class
            // defaults to intra-workgroup) and name no site.
            witness = me;
            witness_site = WGRACE_UNKNOWN_SITE;
        }
    }
    let shift = WGRACE_T_BITS + WGRACE_S_BITS;
    let race_class = select(WGRACE_CLASS_BARRIER_KIND, WGRACE_CLASS_INTRA, (witness >> shift) == (me >> shift));
    if witness_site == 0u {
        witness_site = (witness >> WGRACE_T_BITS) & WGRACE_S_MASK;
    }
    wgrace_record(race_class, at - wgrace_params.vars[var_id].base, witness_site, wgrace_g, witness & WGRACE_T_MASK,
                  step.witness_write, (me >> WGRACE_T_BITS) & WGRACE_S_MASK);
    return false;
}

// ---------------------------------------------------------------- storage memory
//
// One state word per tracked word, never cleared during a dispatch. It is a
// WgraceState: 32 bits when the identity below fits (the default), else 64.
//
//   bits 0-1   tag: 0 untouched, 1 read only, 2 written
//   bit  2     X: (read only) read by at least two workgroups
//   bit  3     M: read by at least two invocations in A's interval
//   bit  4     P: (written) A is a reader of a later interval of the writing
//              workgroup; the writes themselves are ordered before it
//   bits 5..   identity A: barrier count mod 2^WGRACE_ST_BARRIER_BITS | site
//              (its index among the instrumented storage sites) |
//              invocation | storage epoch | workgroup (from
//              WGRACE_ST_G_SHIFT up); the widths are chosen per dispatch
//              (StorageLayout in shaders/src/lib.rs)
//   above      with the direct-mapped cache (WGRACE_ST_TAG_BITS != 0), the
//              tag of the word that owns the entry
//
// A storage *interval* is (workgroup, epoch): two accesses are ordered only
// when they are in one workgroup and a storage-ordering barrier separates
// them.  In the identity layout, (epoch | workgroup) are the top bits, so
// `x >> WGRACE_ST_E_SHIFT` names an interval and `x >> WGRACE_ST_G_SHIFT` a
// workgroup.
//
// Witnesses (described with wgrace_witness_ok below) name a second access
// when the race partner of a later access is not A.
//
// The direct-mapped cache (after ScoRD) keeps one state per
// 2^WGRACE_ST_TAG_BITS words: entry `word mod 2^cache_bits`, tagged with
// `word >> cache_bits`. An access that finds another word's tag starts from
// the untouched state, so the cache can miss a race but never invents one;
// such takeovers are counted (WGRACE_LOG_EVICTED) and the report says so.

const WGRACE_ST_TAG: WgraceState = WgraceState(3u);
const WGRACE_ST_READ: WgraceState = WgraceState(1u);
const WGRACE_ST_WRITE: WgraceState = WgraceState(2u);
const WGRACE_ST_X: WgraceState = WgraceState(4u);
const WGRACE_ST_M: WgraceState = WgraceState(8u);
const WGRACE_ST_P: WgraceState = WgraceState(16u);
const WGRACE_ST_FLAGS: WgraceState = WgraceState(31u);
const WGRACE_ST_BARRIER_MASK: u32 = (1u << WGRACE_ST_BARRIER_BITS) - 1u;
const WGRACE_ST_SITE_SHIFT: u32 = 5u + WGRACE_ST_BARRIER_BITS;
const WGRACE_ST_T_SHIFT: u32 = WGRACE_ST_SITE_SHIFT + WGRACE_ST_S_BITS;
const WGRACE_ST_E_SHIFT: u32 = WGRACE_ST_T_SHIFT + WGRACE_T_BITS;

// Checks an access to storage memory (the arguments of the access hook
// wgrace_storage_access, hooks/). `word` is the word's index in variable
// `var_id`; `state_site` is the site's index among the instrumented storage
// sites (WGRACE_ST_SITE_IDS), which is what a state word holds.
fn wgrace_storage_check(var_id: u32, word: u32, words: u32, in_bounds: bool, site: u32, state_site: u32,
                        write: bool, invariant: bool) {
    if !wgrace_storage_on {
        return;
    }
    if !in_bounds {
        wgrace_out_of_bounds += 1u;
        return;
    }
    // Memory that release and acquire synchronization can order: the
    // happens-before engine's (happens_before/engine.wgsl), as for
    // workgroup memory.
    if WGRACE_HB_ON && wgrace_hb_owns(var_id) {
        let hb = wgrace_hb_var_word(var_id, word);
        for (var i = 0u; i < words; i++) {
            wgrace_hb_access(hb + i, word + i, site, write, wgrace_any, 0u);
        }
        return;
    }
    let at = wgrace_params.vars[var_id].base + word;
    // A buffer no barrier orders (wgrace_data_race_barriers_order, generated
    // by the host: private accesses under SPIR-V's Vulkan memory model): all
    // of a workgroup's accesses to it are of its first epoch, and the
    // barrier count tells a race across a barrier (barrier-kind).
    let ordered = wgrace_data_race_barriers_order(var_id);
    if WGRACE_STMT {
        for (var i = 0u; i < words; i++) {
            wgrace_stmt_storage_word(at + i, site, write, select(0u, wgrace_epoch, ordered));
            if write {
                wgrace_warp_check(at + i, site, false);
            }
        }
        return;
    }
    var me = wgrace_me_st | (WgraceState(state_site) << WGRACE_ST_SITE_SHIFT);
    if !ordered {
        let epoch_field = ((WgraceState(1u) << (WGRACE_ST_G_SHIFT - WGRACE_ST_E_SHIFT)) - WgraceState(1u))
            << WGRACE_ST_E_SHIFT;
        me &= ~epoch_field;
    }
    let mine = wgrace_t;
    let other = wgrace_also_checked_for(invariant, vec4<u32>(at, site, wgrace_any, wgrace_epoch));
    if other == WGRACE_NOT_CHECKED_HERE {
        return;
    }
    // As for workgroup memory.
    if !WGRACE_REPLAY {
        if words == 1u && other == mine {
            wgrace_storage_word(at, me, write, var_id, word);
            return;
        }
    }
    let t_field = WgraceState(WGRACE_T_MASK) << WGRACE_ST_T_SHIFT;
    var settled = true;
    var i = 0u;
    loop {
        if i == words {
            if wgrace_t != mine || other == mine || settled {
                break;
            }
            wgrace_t = other;
            i = 0u;
        }
        let id = (me & ~t_field) | (WgraceState(wgrace_t) << WGRACE_ST_T_SHIFT);
        let ok = wgrace_storage_word(at + i, id, write, var_id, word + i);
        settled = ok && settled;
        i += 1u;
    }
    wgrace_t = mine;
}

fn wgrace_t_of(x: WgraceState) -> u32 {
    return u32(x >> WGRACE_ST_T_SHIFT) & WGRACE_T_MASK;
}

// The site id of identity `x`.
fn wgrace_site_of(x: WgraceState) -> u32 {
    let index = u32(x >> WGRACE_ST_SITE_SHIFT) & ((1u << WGRACE_ST_S_BITS) - 1u);
    return WGRACE_ST_SITE_IDS[index];
}

fn wgrace_g_of(x: WgraceState) -> u32 {
    return u32(x >> WGRACE_ST_G_SHIFT);
}

// Witnesses: an identity (bits 5..) with bit 0 set, and bit 1 set if the
// access wrote. Slot 1 holds a second reader of the interval of A (set with
// M); slot 2 a reader of another workgroup (set with X, while the word is only
// read) or, once written, a write that a later interval's reads follow (P).
// A witness is published after the exchange that made it needed, so a reader
// whose exchange failed never overwrites one; whoever needs it may have to
// wait for it briefly.
//
// Identities of up to 48 bits (WGRACE_ST_WITNESS_CACHE) share a witness
// cache of witness_mask + 1 entries: entry (word << 1 | slot - 1) mod
// entries holds the witness with, from bit 48, the bits of the word the index
// leaves out, so that a witness another word has since taken over is
// recognised and not used (the race is then reported with its earlier access
// "not recorded"). 64-bit identities have two witness words per tracked word.
const WGRACE_WITNESS_WRITE: WgraceState = WgraceState(2u);

fn wgrace_witness_entry(at: u32, slot: u32) -> u32 {
    let entry = (at << 1u) | (slot - 1u);
    if WGRACE_ST_WITNESS_CACHE {
        return entry & wgrace_params.witness_mask;
    }
    return entry;
}

fn wgrace_witness_tag(at: u32) -> u64 {
    return u64(at >> wgrace_params.witness_shift) << 48u;
}

fn wgrace_witness_store(at: u32, slot: u32, w: WgraceState) {
    var entry = u64(w);
    if WGRACE_ST_WITNESS_CACHE {
        entry |= wgrace_witness_tag(at);
    }
    atomicStore(&wgrace_shadow_u64[wgrace_witness_entry(at, slot)], entry);
}

// The witness in `slot` of word `at`, or 0 (no witness) if its entry holds
// another word's.
fn wgrace_witness_load(at: u32, slot: u32) -> WgraceState {
    let entry = atomicLoad(&wgrace_shadow_u64[wgrace_witness_entry(at, slot)]);
    if WGRACE_ST_WITNESS_CACHE && (entry & ~((1lu << 48u) - 1lu)) != wgrace_witness_tag(at) {
        return WgraceState(0u);
    }
    return WgraceState(entry & u64(WGRACE_ST_ID_MASK));
}

// What a witness must be to conflict with the current access.
const WGRACE_WANT_INTERVAL_READER: u32 = 0u;   // a reader of this interval, another invocation
const WGRACE_WANT_OTHER_READER: u32 = 1u;      // a reader of another workgroup
const WGRACE_WANT_OTHER_WRITER: u32 = 2u;      // a writer of another workgroup

fn wgrace_witness_ok(w: WgraceState, me: WgraceState, want: u32) -> bool {
    let is_write = (w & WGRACE_WITNESS_WRITE) != WgraceState(0u);
    if (w & WgraceState(1u)) == WgraceState(0u) || is_write != (want == WGRACE_WANT_OTHER_WRITER) {
        return false;
    }
    if want == WGRACE_WANT_INTERVAL_READER {
        return (w >> WGRACE_ST_E_SHIFT) == (me >> WGRACE_ST_E_SHIFT) && wgrace_t_of(w) != wgrace_t;
    }
    return wgrace_g_of(w) != wgrace_g;
}

// Whether access `a` (an identity) and this invocation's access `me` race.
fn wgrace_st_conflict(a: WgraceState, a_write: bool, me: WgraceState, write: bool) -> bool {
    if !(a_write || write) {
        return false;
    }
    let same_interval = (a >> WGRACE_ST_E_SHIFT) == (me >> WGRACE_ST_E_SHIFT);
    return wgrace_g_of(a) != wgrace_g || (same_interval && wgrace_t_of(a) != wgrace_t);
}

// What one access does to a storage state entry that holds `old`, `tag`
// being this word's cache tag (zero without the cache).
struct WgraceStStep {
    next: WgraceState,        // the entry after the access (old: no change)
    seen: WgraceState,        // the state of this word: old, unless another word owns the entry
    race: bool,
    a_write: bool,            // whether A, the state's identity, wrote
    want: u32,
    witness_slot: u32,        // 0: A itself; else the witness slot to read
    publish_slot: u32,        // the witness slot this access fills, if any
    publish_value: WgraceState,
    settled: bool,            // see wgrace_storage_word
}

fn wgrace_storage_step(old: WgraceState, tag: WgraceState, me: WgraceState, write: bool) -> WgraceStStep {
    let zero = WgraceState(0u);
    var step = WgraceStStep(old, zero, false, false, 0u, 0u, 0u, zero, false);
    var seen = old;
    if WGRACE_ST_TAG_BITS != 0u {
        seen = select(zero, old & WGRACE_ST_ID_MASK, (old & ~WGRACE_ST_ID_MASK) == tag);
    }
    step.seen = seen;
    let state = seen & WGRACE_ST_TAG;
    let p = (seen & WGRACE_ST_P) != zero;
    step.a_write = state == WGRACE_ST_WRITE && !p;
    let same_wg = (seen >> WGRACE_ST_G_SHIFT) == (me >> WGRACE_ST_G_SHIFT);
    let same_interval = (seen >> WGRACE_ST_E_SHIFT) == (me >> WGRACE_ST_E_SHIFT);
    let same_t = wgrace_t_of(seen) == wgrace_t;
    let multi = (seen & WGRACE_ST_M) != zero;
    let x = (seen & WGRACE_ST_X) != zero;
    step.settled = !write && ((state == WGRACE_ST_READ && x)
        || (same_interval && !x && (state == WGRACE_ST_READ || p) && multi));
    step.next = seen;
    if state == zero {
        step.next = select(WGRACE_ST_READ, WGRACE_ST_WRITE, write) | me;
    } else if same_interval && (seen & WGRACE_ST_X) == zero && (state == WGRACE_ST_READ || p) {
        // A is a reader of this interval (read only, or P: the writes are
        // ordered before it). A write races with any other reader of it.
        if write {
            if !same_t {
                step.race = true;
            } else if multi {
                step.race = true;
                step.witness_slot = 1u;
                step.want = WGRACE_WANT_INTERVAL_READER;
            }
            step.next = WGRACE_ST_WRITE | me;
        } else if !same_t && !multi {
            step.next = seen | WGRACE_ST_M;
            step.publish_slot = 1u;
            step.publish_value = me | WgraceState(1u);
        }
    } else if state == WGRACE_ST_READ {
        if (seen & WGRACE_ST_X) != zero {
            // Read by several workgroups: any write conflicts with one of them.
            if write {
                step.race = true;
                if same_wg {
                    step.witness_slot = 2u;
                    step.want = WGRACE_WANT_OTHER_READER;
                }
                step.next = WGRACE_ST_WRITE | me;
            }
        } else if !same_wg {
            if write {
                step.race = true;
                step.next = WGRACE_ST_WRITE | me;
            } else {
                step.next = seen | WGRACE_ST_X;
                step.publish_slot = 2u;
                step.publish_value = me | WgraceState(1u);
            }
        } else {
            // A later interval of the same workgroup: earlier reads are ordered.
            step.next = select(WGRACE_ST_READ, WGRACE_ST_WRITE, write) | me;
        }
    } else if !same_wg {
        step.race = true;
        if p && !write {
            // A is a reader; only the earlier write conflicts with a read.
            step.witness_slot = 2u;
            step.want = WGRACE_WANT_OTHER_WRITER;
        }
    } else if !same_interval {
        if write {
            step.next = WGRACE_ST_WRITE | me;
        } else {
            step.next = WGRACE_ST_WRITE | WGRACE_ST_P | me;
            if !p {
                step.publish_slot = 2u;
                step.publish_value = (seen & ~WGRACE_ST_FLAGS) | WGRACE_WITNESS_WRITE | WgraceState(1u);
            }
        }
    } else {
        // A is the write of this interval.
        step.race = !same_t;
    }
    step.next |= tag;
    return step;
}

// One access to tracked storage word `at` (its index in the shadow; `word` is
// its index in variable `var_id`, for the report). Returns whether the word
// was *settled*: read by two invocations of this interval (M) or by two
// workgroups (X) since its last write, a state no further read of this
// interval changes or races with.
fn wgrace_storage_word(at: u32, me: WgraceState, write: bool, var_id: u32, word: u32) -> bool {
    let zero = WgraceState(0u);
    // The state entry and, with the cache, the tag of this word.
    var entry = at;
    var tag = zero;
    if WGRACE_ST_TAG_BITS != 0u {
        entry = at & ((1u << wgrace_params.cache_bits) - 1u);
        tag = WgraceState(at >> wgrace_params.cache_bits) << WGRACE_ST_TAG_SHIFT;
    }
    // As for workgroup memory, writes start from the untouched state.
    var old = zero;
    if !write {
        old = atomicLoad(&wgrace_shadow[entry]);
    }
    var step: WgraceStStep;
    if WGRACE_REPLAY {
        // The replay's copy, the only one: the same steps as below with one
        // copy of the decision (two copies are what checking in place runs
        // fastest; in the replay they cost compile time, not run time).
        loop {
            step = wgrace_storage_step(old, tag, me, write);
            if step.next == old {
                break;
            }
            let r = atomicCompareExchangeWeak(&wgrace_shadow[entry], old, step.next);
            if r.exchanged {
                if step.seen == zero && old != zero {
                    wgrace_evicted += 1u;
                }
                break;
            }
            old = r.old_value;
        }
    } else {
        step = wgrace_storage_step(old, tag, me, write);
        if step.next != old {
            var r = atomicCompareExchangeWeak(&wgrace_shadow[entry], old, step.next);
            // As for workgroup memory: retry only after losing the entry.
            while !r.exchanged {
                old = r.old_value;
                step = wgrace_storage_step(old, tag, me, write);
                if step.next == old {
                    break;
                }
                r = atomicCompareExchangeWeak(&wgrace_shadow[entry], old, step.next);
            }
            if r.exchanged && step.seen == zero && old != zero {
                wgrace_evicted += 1u;
            }
        }
    }
    if step.publish_slot != 0u {
        wgrace_witness_store(at, step.publish_slot, step.publish_value);
    }
    if !step.race {
        return step.settled;
    }
    var witness = step.seen;
    var witness_write = step.a_write;
    var recorded = true;
    var race_class = WGRACE_CLASS_INTER;
    if step.witness_slot != 0u {
        var w = zero;
        for (var n = 0u; n < WGRACE_WITNESS_SPIN; n++) {
            w = wgrace_witness_load(at, step.witness_slot);
            if wgrace_witness_ok(w, me, step.want) {
                break;
            }
        }
        if wgrace_witness_ok(w, me, step.want) {
            witness = w;
            witness_write = (w & WGRACE_WITNESS_WRITE) != zero;
        } else if !wgrace_st_conflict(step.seen, step.a_write, me, write) {
            // Not recorded (and A is no partner either): the class follows
            // from what was wanted.
            recorded = false;
            race_class = select(WGRACE_CLASS_INTRA, WGRACE_CLASS_INTER, step.want != WGRACE_WANT_INTERVAL_READER);
        }
    }
    if recorded && wgrace_g_of(witness) == wgrace_g {
        // Same workgroup and same storage interval: was a barrier of another
        // kind executed in between?
        let barriers = WgraceState(WGRACE_ST_BARRIER_MASK);
        race_class = select(WGRACE_CLASS_BARRIER_KIND, WGRACE_CLASS_INTRA, ((witness >> 5u) & barriers) == ((me >> 5u) & barriers));
    }
    let witness_site = select(WGRACE_UNKNOWN_SITE, wgrace_site_of(witness), recorded);
    wgrace_record(race_class, word, witness_site, wgrace_g_of(witness), wgrace_t_of(witness), witness_write,
                  wgrace_site_of(me));
    return false;
}
