// wgrace statement mode (`--mode stmt`): GRace-stmt's statement tables,
// grouped by address.
//
// Addr mode keeps one state per word and so remembers one earlier access;
// statement mode reports every pair of statements (access sites) that race.
// Each tracked word has WGRACE_SLOTS (workgroup memory) or WGRACE_ST_SLOTS
// (storage) *slots*, one per statement that touched
// it in the current scope, filled in order. A slot is a key naming the
// statement and the accesses' ordering context, and the least and greatest
// invocation that made such an access. Accesses only *accumulate* into slots
// (a compare-and-swap to claim one, then atomic max operations), so they need
// no ordering among themselves; the check compares slots pairwise once
// everything they hold is visible:
//
// - workgroup memory: per workgroup and barrier interval, checked by the
//   workgroup's invocations right after each barrier that orders workgroup
//   memory (and when the entry point returns), then cleared;
// - storage memory: per dispatch, checked after the dispatch by
//   wgrace_stmt_storage_check (stmt_check.wgsl, a pass of its own).
//
// Two slots P and Q, at least one of a writing statement, race exactly when
// their accesses can be paired with different invocations that nothing
// ordered; a set of invocations is only known by its extremes, but that is
// enough:
// - two invocations exist, one in P and one in Q, iff the extremes of P ∪ Q
//   differ (for P = Q: iff P has two);
// - invocations of different workgroups (or subgroups) can be paired iff
//   P ∪ Q spans two workgroups (subgroups);
// - every pair is hidden by lock-step execution of width W iff the extremes
//   of P ∪ Q fall in one block of W invocations.
// The example pair reported is built from the extremes, so it is a real pair
// of the right class. Slots are few per word and words are checked in
// parallel: the work is linear in the words and quadratic only in the
// statements that touched one word.
//
// A word touched by more statements than it has slots in one scope loses the
// extra ones; they are counted (WGRACE_LOG_SLOT_OVERFLOW) and the report says
// it is incomplete.

var<private> wgrace_slot_overflow: u32;

// ---------------------------------------------------------------- workgroup memory
//
// WGRACE_WG_STATE_WORDS = 5 * WGRACE_SLOTS shadow words per tracked word; a
// slot is
//   key        write << 15 | site + 1, 0 if empty
//   least      max over its accesses of WGRACE_T_MASK - invocation
//   greatest   max over its accesses of invocation
//   fewest     max over its accesses of 0xffff - barriers executed
//   most       max over its accesses of barriers executed
// so that a cleared slot (all zero, as WGSL initialises workgroup memory) is
// empty. Barriers of any kind are counted: within the interval, a barrier
// that does not order workgroup memory (storageBarrier()) makes a race of
// accesses it separates barrier-kind rather than intra-workgroup. Shaders
// without such a barrier (WGRACE_WG_COUNT_BARRIERS false) skip the two
// counts: every access of an interval has the same.

const WGRACE_WG_SLOT_WORDS: u32 = 5u;

fn wgrace_stmt_wg_word(at: u32, site: u32, write: bool) {
    let key = (u32(write) << 15u) | (site + 1u);
    let first = at * WGRACE_WG_STATE_WORDS;
    for (var k = 0u; k < WGRACE_SLOTS; k++) {
        let s = first + WGRACE_WG_SLOT_WORDS * k;
        var current = wgrace_wg_load(s);
        if current == 0u {
            loop {
                let r = wgrace_wg_exchange(s, 0u, key);
                if r.y != 0u {
                    current = key;
                    break;
                }
                // A spurious failure of the weak exchange leaves old 0: retry.
                if r.x != 0u {
                    current = r.x;
                    break;
                }
            }
        }
        if current == key {
            wgrace_wg_max(s + 1u, WGRACE_T_MASK - wgrace_t);
            wgrace_wg_max(s + 2u, wgrace_t);
            if WGRACE_WG_COUNT_BARRIERS {
                let barriers = min(wgrace_any, 0xffffu);
                wgrace_wg_max(s + 3u, 0xffffu - barriers);
                wgrace_wg_max(s + 4u, barriers);
            }
            return;
        }
    }
    wgrace_slot_overflow += 1u;
}

// Called after each barrier that orders workgroup memory, by every invocation
// of the workgroup: the interval's accesses are all recorded; check them,
// clear the slots, and let no invocation record the next interval's accesses
// before the check is done.
fn wgrace_stmt_interval_end() {
    if WGRACE_WG_WORDS == 0u {
        return;
    }
    if !WGRACE_WG_RESIDENT {
        // The user's workgroupBarrier() does not order the slots in storage.
        storageBarrier();
    }
    wgrace_stmt_wg_check();
    wgrace_wg_shadow_barrier();
}

// Called by wgrace_end: the last interval ends when the entry point returns.
fn wgrace_stmt_end() {
    if WGRACE_STMT && WGRACE_WG_WORDS > 0u {
        wgrace_wg_shadow_barrier();
        wgrace_stmt_wg_check();
    }
    if wgrace_slot_overflow != 0u {
        atomicAdd(&wgrace_log[WGRACE_LOG_SLOT_OVERFLOW], wgrace_slot_overflow);
    }
}

// Each invocation checks its share of the words. lavapipe ends every loop
// of an invocation once its loops ran 65,535 iterations in all (after a long
// spin of the shader's, say): a check whose loops end before their end, with
// a word or a slot left, is counted (WGRACE_LOG_CHECKS_CUT), and the report
// says it is incomplete.
fn wgrace_stmt_wg_check() {
    var at = wgrace_t;
    var cut = false;
    for (; at < WGRACE_WG_WORDS; at += WGRACE_WG_INVOCATIONS) {
        let first = at * WGRACE_WG_STATE_WORDS;
        var p = 0u;
        for (; p < WGRACE_SLOTS; p++) {
            let sp = first + WGRACE_WG_SLOT_WORDS * p;
            let kp = wgrace_wg_load(sp);
            if kp == 0u {
                break;
            }
            let p_lo = WGRACE_T_MASK - wgrace_wg_load(sp + 1u);
            let p_hi = wgrace_wg_load(sp + 2u);
            let p_fewest = 0xffffu - wgrace_wg_load(sp + 3u);
            let p_most = wgrace_wg_load(sp + 4u);
            var q = p;
            for (; q < WGRACE_SLOTS; q++) {
                let sq = first + WGRACE_WG_SLOT_WORDS * q;
                let kq = wgrace_wg_load(sq);
                if kq == 0u {
                    break;
                }
                if ((kp | kq) & (1u << 15u)) == 0u {
                    continue;
                }
                let q_lo = WGRACE_T_MASK - wgrace_wg_load(sq + 1u);
                let q_hi = wgrace_wg_load(sq + 2u);
                // One barrier count for all the accesses: nothing separates
                // them. Otherwise some pair is separated by a barrier of the
                // wrong kind (GRace-style extremes cannot say whether an
                // unseparated pair exists too).
                let fewest = min(p_fewest, 0xffffu - wgrace_wg_load(sq + 3u));
                let most = max(p_most, wgrace_wg_load(sq + 4u));
                let same_barriers = !WGRACE_WG_COUNT_BARRIERS || fewest == most;
                wgrace_stmt_pair_in_workgroup(at, wgrace_g, (kp & 0x3fffu) - 1u, (kp >> 15u) != 0u, p_lo, p_hi,
                                              (kq & 0x3fffu) - 1u, q_lo, q_hi, same_barriers, wgrace_sg_size);
            }
            cut = cut || (q < WGRACE_SLOTS && wgrace_wg_load(first + WGRACE_WG_SLOT_WORDS * q) != 0u);
            // Slots fill in order, so clearing the slots in use (each as
            // it is checked) clears the word: the ones after the first
            // empty slot are clear already.
            wgrace_wg_store(sp, 0u);
            wgrace_wg_store(sp + 1u, 0u);
            wgrace_wg_store(sp + 2u, 0u);
            wgrace_wg_store(sp + 3u, 0u);
            wgrace_wg_store(sp + 4u, 0u);
        }
        cut = cut || (p < WGRACE_SLOTS && wgrace_wg_load(first + WGRACE_WG_SLOT_WORDS * p) != 0u);
    }
    if cut || at < WGRACE_WG_WORDS {
        atomicAdd(&wgrace_log[WGRACE_LOG_CHECKS_CUT], 1u);
    }
}

// Slots P and Q of one word, holding invocations of workgroup `g` in one
// interval (of the memory's ordering barriers), given by their least and
// greatest local index: records their race if two different invocations can
// be paired. `same_barriers`: no barrier of another kind separates them.
fn wgrace_stmt_pair_in_workgroup(word: u32, g: u32, p_site: u32, p_write: bool, p_lo: u32, p_hi: u32, q_site: u32,
                                 q_lo: u32, q_hi: u32, same_barriers: bool, sg_size: u32) {
    let lo = min(p_lo, q_lo);
    let hi = max(p_hi, q_hi);
    if lo == hi {
        return;
    }
    var c = select(WGRACE_CLASS_BARRIER_KIND, WGRACE_CLASS_INTRA, same_barriers);
    let one_subgroup = lo / sg_size == hi / sg_size;
    if one_subgroup {
        c = WGRACE_CLASS_INTRA_SUBGROUP;
    }
    let pair = wgrace_stmt_example(vec4<u32>(p_lo, p_hi, q_lo, q_hi), sg_size, one_subgroup);
    var code = WGRACE_LOCKSTEP_NEVER;
    if p_site != q_site {
        code = wgrace_lockstep_code(lo, hi);
    }
    let slot = wgrace_record_pair(c, word, p_site, g, pair.x, p_write, q_site, g, pair.y, code);
    wgrace_spread_memory(slot, q_site, word, true, g, g);
}

// A pair (a from P, b from Q) of different invocations of one workgroup,
// from the extremes (P least, P greatest, Q least, Q greatest) of two sets
// that have one; in different subgroups unless `one_subgroup`. One of the
// four extreme pairs always qualifies (see the top of this file).
fn wgrace_stmt_example(x: vec4<u32>, sg_size: u32, one_subgroup: bool) -> vec2<u32> {
    let candidates = array<vec2<u32>, 4>(x.xw, x.yz, x.xz, x.yw);
    var fallback = x.xw;
    for (var i = 0u; i < 4u; i++) {
        let c = candidates[i];
        if c.x == c.y {
            continue;
        }
        if one_subgroup || c.x / sg_size != c.y / sg_size {
            return c;
        }
        fallback = c;
    }
    return fallback;
}

// ---------------------------------------------------------------- storage memory
//
// WGRACE_ST_SLOT_WORDS * WGRACE_ST_SLOTS 64-bit shadow words per tracked word,
// for the whole dispatch; a slot is
//   key        1 << 63 | storage epoch << 16 | write << 15 | site + 1, 0 if empty
//   least      max over its accesses of !(workgroup << 10 | invocation)
//   greatest   max over its accesses of workgroup << 10 | invocation
//   fewest     max over its accesses of !(barriers executed)
//   most       max over its accesses of barriers executed
// Slots are keyed by epoch (storage barriers executed) because an access is
// ordered only after the storage barriers of its own workgroup; accesses of
// different workgroups race whatever their epochs. The barrier counts are
// kept only where a barrier that does not order storage memory exists
// (WGRACE_ST_COUNT_BARRIERS).

const WGRACE_ST_SLOT_WORDS: u32 = 5u;

// `epoch`: the invocation's storage epoch, or 0 for a buffer no barrier
// orders.
fn wgrace_stmt_storage_word(word: u32, site: u32, write: bool, epoch: u32) {
    let key = (1lu << 63u) | (u64(epoch) << 16u) | (u64(write) << 15u) | u64(site + 1u);
    let me = (u64(wgrace_g) << 10u) | u64(wgrace_t);
    let first = word * WGRACE_ST_SLOT_WORDS * WGRACE_ST_SLOTS;
    for (var k = 0u; k < WGRACE_ST_SLOTS; k++) {
        let s = first + WGRACE_ST_SLOT_WORDS * k;
        var current = atomicLoad(&wgrace_shadow_u64[s]);
        if current == 0lu {
            loop {
                let r = atomicCompareExchangeWeak(&wgrace_shadow_u64[s], 0lu, key);
                if r.exchanged {
                    current = key;
                    break;
                }
                if r.old_value != 0lu {
                    current = r.old_value;
                    break;
                }
            }
        }
        if current == key {
            atomicMax(&wgrace_shadow_u64[s + 1u], ~me);
            atomicMax(&wgrace_shadow_u64[s + 2u], me);
            if WGRACE_ST_COUNT_BARRIERS {
                atomicMax(&wgrace_shadow_u64[s + 3u], ~u64(wgrace_any));
                atomicMax(&wgrace_shadow_u64[s + 4u], u64(wgrace_any));
            }
            return;
        }
    }
    wgrace_slot_overflow += 1u;
}
