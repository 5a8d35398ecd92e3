// The data-race check's happens-before engine: races on buffer and shared
// memory under the Vulkan memory model's synchronization (release and acquire atomics,
// fences, release sequences, control barriers, each within its scope), for
// SPIR-V modules whose protocols the check's barrier epochs cannot order.
// Linked after the data-race check (it records through wgrace_record), with
// a generated prelude of its layout:
//
//   WGRACE_HB_N          invocations in the dispatch (the clocks' width)
//   WGRACE_HB_WG_SIZE    invocations per workgroup
//   WGRACE_HB_LOCATIONS  atomic words that synchronization goes through
//   WGRACE_HB_WORDS      words of memory whose accesses it checks
//   WGRACE_HB_HISTORY    accesses each word remembers
//   WGRACE_HB_SETS       sets of clocks: the shader's, and the strong and the
//                        wide set where they are on
//   WGRACE_HB_STRONG_INDEX  the strong set's index (0: none)
//   WGRACE_HB_WIDE_INDEX    the wide set's index (0: none)
//   WGRACE_HB_SUBGROUP_SLOTS  subgroups that keep barrier clocks of their
//                        own (WGRACE_HB_N where the shader has subgroup
//                        barriers, or barriers of subgroup memory scope; 0
//                        otherwise)
//   WGRACE_HB_LOC_PARTS  parts of each atomic location's clock: 1, or four
//                        per workgroup of the dispatch (one for what each
//                        workgroup's invocations released into it at each
//                        scope)
//   WGRACE_HB_PENDING_SCOPES  pending clocks of each invocation: 1, or 3
//                        (with location parts: one for what an acquire
//                        fence of each scope, subgroup to device, would
//                        acquire)
//   WGRACE_HB_CLASSES    storage classes it checks memory of, 1 or 2,
//                        each on clocks of its own
//   WGRACE_HB_CLASS0, WGRACE_HB_CLASS1  the WGRACE_ORDERS_* bit of each
//                        class's memory (0: no second class)
//   wgrace_hb_word_class(word)  the class of an engine word
//   wgrace_hb_loc_memory(loc)   the WGRACE_ORDERS_* bit of an atomic
//                        location's memory
//   WGRACE_HB_LOCK_SPIN  tries for a word's or a location's lock before an
//                        invocation gives up (fewer on lavapipe, whose
//                        loop budget must not end the lock's loop first)
//
// Vector clocks, one entry per invocation (the invocation's count of release
// points: an access made while the count was c is ordered before any
// invocation whose clock holds c or more for it). Each invocation keeps, in
// its own buffer, wgrace_hb (private variables do not survive fences in
// loops on every driver), its clock; a snapshot of it at its latest release fence
// (what an atomic write after the fence releases); and the clocks it read
// through relaxed atomics or barriers that do not acquire, which an acquire
// fence later joins ("pending"). Each atomic location keeps the clock its
// release sequence publishes; each workgroup, for each parity of its barrier
// count, what its invocations released at their barriers, and, in shaders
// with subgroup barriers, each subgroup likewise for its own. Each word keeps
// its last WGRACE_HB_HISTORY accesses; an access races with each of them
// that conflicts and does not happen before it.
//
// Storage classes. The model's happens-before is one relation per storage
// class: synchronization orders the memory its semantics name. The engine
// keeps every clock once for each class it checks (buffer memory, shared
// memory or both, WGRACE_HB_CLASSES), and an access is checked on its
// class's clocks. Each event runs in each class, releasing and acquiring
// only where its semantics name the class's memory; a fence releases
// through an atomic write, and acquires through an atomic read, only where
// it names the atomic's memory too.
//
// The strong and the wide set. Beside the shader's program, the engine can
// follow two others, each on a set of clocks of its own: the *strong* one
// (WGRACE_HB_STRONG) is the same program with every atomic acquiring what it
// reads and releasing what it writes, at its own scope; the *wide* one
// (WGRACE_HB_WIDE), with every atomic and fence at device scope. Each event
// runs once for each set; each access keeps its invocation's count in each.
// A race of the shader that the wide program orders is one of too narrow a
// scope (the scope check's, wgrace_hb_scope); one that the strong program
// orders would not be one if the atomics had release and acquire semantics
// (or fences around them): the missing-fence check's
// (wgrace_hb_missing_fence).
//
// Scopes. A release synchronizes with an acquire only when each is in the
// other's scope instance (and, through an atomic, the atomic write and read
// too). A published clock joins contributions from several invocations, so
// it carries a *signature*: the narrowest and widest scope of its
// contributions and where they come from (one subgroup, one workgroup, or
// several). An acquire joins the clock when every contribution passes,
// leaves it when none does, and otherwise cannot decide: on the shader's
// clocks it counts WGRACE_LOG_HB_UNCHECKED, which makes the report
// incomplete, as does a full history or a lock that was never taken; on the
// strong and wide sets, whose clocks only class a race, it counts
// WGRACE_LOG_HB_CLASS_UNSURE (wgrace_hb_undecided).
//
// docs/detector.md ("Release and acquire") describes the design;
// shaders/tests/happens_before.rs holds it to the reference model
// (shaders/tests/common/vulkan_model.rs) on random traces.

const WGRACE_HB_ON: bool = true;
// wgrace_hb_var_word (generated by the host: the engine's word of a
// variable's word) for variables the engine does not check.
const WGRACE_HB_NONE: u32 = 0xffffffffu;
// The record code (wgrace_hb_scope_code and the like, generated by the host
// for checks that are not linked) of a race no check records.
const WGRACE_HB_NOT_LINKED: u32 = 0xffffffffu;

// Scopes, narrowest first (not SPIR-V's numbering).
const WGRACE_HB_SCOPE_INVOCATION: u32 = 0u;
const WGRACE_HB_SCOPE_SUBGROUP: u32 = 1u;
const WGRACE_HB_SCOPE_WORKGROUP: u32 = 2u;
const WGRACE_HB_SCOPE_DEVICE: u32 = 3u;

// Flags of an atomic (wgrace_hb_atomic): it reads, it writes (a
// compare-exchange only when it exchanged), its semantics acquire or
// release; it takes a spin lock (a compare-exchange from 0 to a constant
// that exchanged) or frees one (a store or exchange of 0); and, from bit
// WGRACE_HB_NAMES_SHIFT, the WGRACE_ORDERS_* bits of the memory its
// semantics name.
const WGRACE_HB_READ: u32 = 1u;
const WGRACE_HB_WRITE: u32 = 2u;
const WGRACE_HB_ACQUIRE: u32 = 4u;
const WGRACE_HB_RELEASE: u32 = 8u;
const WGRACE_HB_LOCK_TAKE: u32 = 16u;
const WGRACE_HB_LOCK_FREE: u32 = 32u;
const WGRACE_HB_NAMES_SHIFT: u32 = 6u;
// The memory names' bits, and the flags a plain atomic load may carry.
const WGRACE_HB_NAMES_MASK: u32 = 0xfu << WGRACE_HB_NAMES_SHIFT;
const WGRACE_HB_LOAD_FLAGS: u32 = WGRACE_HB_READ | WGRACE_HB_ACQUIRE;

// What a pending clock holds (the own word 7): clocks read through relaxed
// atomics of each memory (WGRACE_ORDERS_* bits), and through barriers.
const WGRACE_HB_PENDED_BARRIER: u32 = 4u;
// Every memory: what a fence before a control barrier needs to name to
// release through it (any memory it names).
const WGRACE_HB_ANY_MEMORY: u32 = 0xfu;

// How many times an invocation tries to merge a signature before it gives
// up. One try is one loop iteration, which lavapipe counts against the
// 65,535 it lets an invocation's loops run in all (see wgrace_hb_ran), so
// each try is a single compare-exchange. How many times it tries for a
// word's or a location's lock is the host's WGRACE_HB_LOCK_SPIN: as many on
// lavapipe, and more elsewhere, where a thousand invocations can queue for
// one location (a holder never waits for anything).
const WGRACE_HB_SPIN: u32 = 60000u;

// The engine's state; the host allocates WGRACE_HB_END words and clears them
// before the run.
@group(0) @binding(6) var<storage, read_write> wgrace_hb: array<atomic<u64>>;

// The layout, in words of wgrace_hb: for each class, WGRACE_HB_SETS sets
// of clocks, each of WGRACE_HB_SET_WORDS words from the offsets below; then
// the words' histories.
const WGRACE_HB_STRONG: bool = WGRACE_HB_STRONG_INDEX != 0u;
const WGRACE_HB_WIDE: bool = WGRACE_HB_WIDE_INDEX != 0u;
const WGRACE_HB_NN: u32 = WGRACE_HB_N * WGRACE_HB_N;
const WGRACE_HB_WORKGROUPS: u32 = WGRACE_HB_N / WGRACE_HB_WG_SIZE;
// Each invocation's clock, fence snapshot and pending clock.
const WGRACE_HB_CLOCKS: u32 = 0u;
const WGRACE_HB_FENCES: u32 = WGRACE_HB_CLOCKS + WGRACE_HB_NN;
const WGRACE_HB_PENDING: u32 = WGRACE_HB_FENCES + WGRACE_HB_NN;
// Each invocation's own words: the scopes and memory of its release fences
// (WGRACE_HB_FENCE_*), the pending clock's signature, its barrier count,
// the last location clock it acquired and pended (location + 1 << 32 |
// version): a spin on one location joins its clock once per release; and
// (in the first class's shader's set) the locks it holds
// (wgrace_hb_locks); its count of barriers that synchronize within the
// subgroup only (wgrace_hb_subgroup_barrier_at), and, << 32, of those that
// acquire; what its pending clock holds (WGRACE_HB_PENDED_*).
const WGRACE_HB_OWN: u32 = WGRACE_HB_PENDING + WGRACE_HB_PENDING_SCOPES * WGRACE_HB_NN;
const WGRACE_HB_OWN_WORDS: u32 = 8u;
// Each workgroup's barrier clocks, two (by the parity of the barrier
// count), each a signature and a clock.
const WGRACE_HB_BARRIERS: u32 = WGRACE_HB_OWN + WGRACE_HB_OWN_WORDS * WGRACE_HB_N;
// Each subgroup's barrier clocks, the same way.
const WGRACE_HB_SUBGROUP_BARRIERS: u32 = WGRACE_HB_BARRIERS + 2u * WGRACE_HB_WORKGROUPS * (WGRACE_HB_N + 1u);
// Each location: a lock, a version (its writes), then each part of what
// its release sequence published: a signature and a clock.
const WGRACE_HB_LOCS: u32 = WGRACE_HB_SUBGROUP_BARRIERS + 2u * WGRACE_HB_SUBGROUP_SLOTS * (WGRACE_HB_N + 1u);
const WGRACE_HB_LOC_WORDS: u32 = 2u + WGRACE_HB_LOC_PARTS * (WGRACE_HB_N + 1u);
const WGRACE_HB_SET_WORDS: u32 = WGRACE_HB_LOCS + WGRACE_HB_LOCATIONS * WGRACE_HB_LOC_WORDS;
// The first word of each set in a class's sets, and a class's words.
const WGRACE_HB_REAL: u32 = 0u;
const WGRACE_HB_STRONG_SET: u32 = WGRACE_HB_STRONG_INDEX * WGRACE_HB_SET_WORDS;
const WGRACE_HB_WIDE_SET: u32 = WGRACE_HB_WIDE_INDEX * WGRACE_HB_SET_WORDS;
const WGRACE_HB_CLASS_WORDS: u32 = WGRACE_HB_SETS * WGRACE_HB_SET_WORDS;
// Each word: a lock, then its accesses, four words each (an empty one has
// a second word of 0): (count | invocation << 32), (site | write << 14 |
// 1 << 15 | barriers << 16 | kind << 32 | subgroup barriers << 48), (strong
// count | wide count << 32), and the locks the invocation held
// (wgrace_hb_locks).
const WGRACE_HB_HISTORIES: u32 = WGRACE_HB_CLASSES * WGRACE_HB_CLASS_WORDS;
const WGRACE_HB_ENTRY_WORDS: u32 = 4u;
const WGRACE_HB_WORD_WORDS: u32 = 1u + WGRACE_HB_ENTRY_WORDS * WGRACE_HB_HISTORY;
// The layout's end: what the host allocates.
const WGRACE_HB_END: u32 = WGRACE_HB_HISTORIES + WGRACE_HB_WORDS * WGRACE_HB_WORD_WORDS;

// The fence word: the scope of the latest release fence plus one (0: none),
// the widest scope of the earlier ones plus one, << 8; the memory the
// latest one names (WGRACE_ORDERS_* bits), << 16, and that the earlier ones
// name, << 20.
const WGRACE_HB_FENCE_LATEST: u32 = 0xffu;

// Signatures (a u64): bit 0 when there is a contribution; the narrowest
// scope in bits 1-2, the widest in bits 3-4; bit 5 when the contributions
// come from several workgroups, bit 6 from several subgroups, bit 7 from
// more than two invocations; another contributing invocation plus one in
// bits 8-31 (0: none); the first contributing invocation in bits 32-63.
const WGRACE_HB_SIG_ANY: u64 = 1lu;
const WGRACE_HB_SIG_MANY_WG: u64 = 32lu;
const WGRACE_HB_SIG_MANY_SG: u64 = 64lu;
const WGRACE_HB_SIG_MANY: u64 = 128lu;

// ---------------------------------------------------------------- identity

// This invocation's index in the clocks.
fn wgrace_hb_me() -> u32 {
    return wgrace_g * WGRACE_HB_WG_SIZE + wgrace_t;
}

fn wgrace_hb_workgroup_of(i: u32) -> u32 {
    return i / WGRACE_HB_WG_SIZE;
}

// Subgroups are blocks of consecutive local indices (the data-race check
// counts invocations for which they are not, WGRACE_LOG_NONLINEAR).
fn wgrace_hb_subgroup_of(i: u32) -> u32 {
    return wgrace_hb_workgroup_of(i) * WGRACE_HB_WG_SIZE + (i % WGRACE_HB_WG_SIZE) / wgrace_sg_size;
}

// What the engine could not follow is counted privately and added to the
// log once, when the invocation ends (wgrace_hb_end): an atomic add at each
// of the hundreds of places that may count, inlined at every event, made
// the driver's compile of the instrumented shader slower by a third
// (lavapipe expands each storage atomic into a loop over its lanes).
var<private> wgrace_hb_unchecked_count: u32;
var<private> wgrace_hb_class_unsure_count: u32;

fn wgrace_hb_unchecked() {
    wgrace_hb_unchecked_count += 1u;
}

// Synchronization that the clocks at `cs` could not follow. On the shader's
// own clocks a race may be missed or reported: not checked. On the strong
// or the wide set only the class of a race found on the shader's rests on
// them, never whether it is one (a set that could not decide an acquire
// leaves it out, so what it orders it does order): counted apart
// (WGRACE_LOG_HB_CLASS_UNSURE), for a note in the report.
fn wgrace_hb_undecided(cs: u32) {
    if (cs % WGRACE_HB_CLASS_WORDS) == WGRACE_HB_REAL {
        wgrace_hb_unchecked();
    } else {
        wgrace_hb_class_unsure_count += 1u;
    }
}

// Last thing in the entry point (the data-race check's end event): adds
// what this invocation counted to the log.
fn wgrace_hb_end() {
    if wgrace_hb_unchecked_count != 0u {
        atomicAdd(&wgrace_log[WGRACE_LOG_HB_UNCHECKED], wgrace_hb_unchecked_count);
    }
    if wgrace_hb_class_unsure_count != 0u {
        atomicAdd(&wgrace_log[WGRACE_LOG_HB_CLASS_UNSURE], wgrace_hb_class_unsure_count);
    }
}

// ---------------------------------------------------------------- classes

// The first word of class c's sets of clocks.
fn wgrace_hb_class(c: u32) -> u32 {
    return c * WGRACE_HB_CLASS_WORDS;
}

// The WGRACE_ORDERS_* bit of class c's memory.
fn wgrace_hb_class_bit(c: u32) -> u32 {
    return select(WGRACE_HB_CLASS0, WGRACE_HB_CLASS1, c == 1u);
}

// ---------------------------------------------------------------- clocks

// Where invocation i's clock, fence snapshot and pending clock, and own
// words, are in the set of clocks starting at `cs`.
fn wgrace_hb_clock(cs: u32, i: u32) -> u32 {
    return cs + WGRACE_HB_CLOCKS + i * WGRACE_HB_N;
}

fn wgrace_hb_fences(cs: u32, i: u32) -> u32 {
    return cs + WGRACE_HB_FENCES + i * WGRACE_HB_N;
}

fn wgrace_hb_pending(cs: u32, i: u32) -> u32 {
    return cs + WGRACE_HB_PENDING + i * WGRACE_HB_PENDING_SCOPES * WGRACE_HB_N;
}

fn wgrace_hb_own(cs: u32, i: u32) -> u32 {
    return cs + WGRACE_HB_OWN + i * WGRACE_HB_OWN_WORDS;
}

// Location `loc`'s words in the set (its lock is the real set's).
fn wgrace_hb_loc(cs: u32, loc: u32) -> u32 {
    return cs + WGRACE_HB_LOCS + loc * WGRACE_HB_LOC_WORDS;
}

// Part `p` (a signature, then a clock) of the location at `at`. With parts,
// invocation i releases at scope S into part (its workgroup, S), so that an
// acquire can tell contributions of its own workgroup, which a workgroup
// scope holds, from those of others, which only the device scope does, and
// contributions of one scope from those of another: a release sequence
// that several workgroups' atomics contribute to, or one invocation's at
// two scopes (a chain of synchronization through one flag), is then decided
// part by part.
fn wgrace_hb_loc_part(at: u32, p: u32) -> u32 {
    return at + 2u + p * (WGRACE_HB_N + 1u);
}

fn wgrace_hb_part_of(i: u32, scope: u32) -> u32 {
    return (wgrace_hb_workgroup_of(i) * 4u + scope) % WGRACE_HB_LOC_PARTS;
}

// The barrier clock (a signature, then a clock) of this invocation's
// workgroup for barrier count k.
fn wgrace_hb_barrier_at(cs: u32, k: u32) -> u32 {
    let slot = (k & 1u) * WGRACE_HB_WORKGROUPS + wgrace_hb_workgroup_of(wgrace_hb_me());
    return cs + WGRACE_HB_BARRIERS + slot * (WGRACE_HB_N + 1u);
}

// The same for this invocation's subgroup and its count k of the barriers
// that synchronize memory within the subgroup only: those of subgroup
// execution scope, and those of subgroup memory scope (which the whole
// workgroup waits at, but which order memory only within a subgroup). The
// invocations of a subgroup meet the same such barriers, in the same order.
fn wgrace_hb_subgroup_barrier_at(cs: u32, k: u32) -> u32 {
    let slot = (k & 1u) * WGRACE_HB_SUBGROUP_SLOTS + wgrace_hb_subgroup_of(wgrace_hb_me());
    return cs + WGRACE_HB_SUBGROUP_BARRIERS + slot * (WGRACE_HB_N + 1u);
}

// Where a barrier's clocks are (a workgroup's or a subgroup's) for this
// invocation's count of such barriers, in the set at `cs`; the count goes
// on for the next one when `next`.
fn wgrace_hb_barrier_slot(cs: u32, subgroup: bool, next: bool) -> u32 {
    let counter = wgrace_hb_own(cs, wgrace_hb_me()) + select(2u, 6u, subgroup);
    let old = atomicLoad(&wgrace_hb[counter]);
    let k = u32(old);
    if next {
        atomicStore(&wgrace_hb[counter], (old & 0xffffffff00000000lu) | u64(k + 1u));
    }
    if subgroup {
        return wgrace_hb_subgroup_barrier_at(cs, k);
    }
    return wgrace_hb_barrier_at(cs, k);
}

// The engine's loops check that they ran to the end: lavapipe ends every
// loop of an invocation once its loops ran 65,535 iterations in all (a
// shader that spins a while, with the engine's loops of one iteration per
// invocation of the dispatch inside, gets there), and what was cut short is
// not followed.
fn wgrace_hb_ran(i: u32, n: u32) {
    if i < n {
        wgrace_hb_unchecked();
    }
}

// The clocks' width, WGRACE_HB_N, as the clock loops' bound: a value the
// compiler cannot see (wgrace_hb always has more words), so that it keeps
// them loops rather than unroll every one of their many call sites (which
// made lavapipe's compile of a workgroup of 128 several times slower).
fn wgrace_hb_width() -> u32 {
    return min(WGRACE_HB_N, arrayLength(&wgrace_hb));
}

// Clock operations take four entries an iteration, to spend less of that.
fn wgrace_hb_join_entry(into: u32, source: u32, i: u32) {
    if i < WGRACE_HB_N {
        let v = atomicLoad(&wgrace_hb[source + i]);
        if v != 0lu {
            atomicMax(&wgrace_hb[into + i], v);
        }
    }
}

fn wgrace_hb_join(into: u32, source: u32) {
    var i = 0u;
    let n = wgrace_hb_width();
    for (; i < n; i += 4u) {
        wgrace_hb_join_entry(into, source, i);
        wgrace_hb_join_entry(into, source, i + 1u);
        wgrace_hb_join_entry(into, source, i + 2u);
        wgrace_hb_join_entry(into, source, i + 3u);
    }
    wgrace_hb_ran(i, WGRACE_HB_N);
}

fn wgrace_hb_copy_entry(into: u32, source: u32, i: u32) {
    if i < WGRACE_HB_N {
        atomicStore(&wgrace_hb[into + i], atomicLoad(&wgrace_hb[source + i]));
    }
}

// Copies the clock at `source` over the one at `into`.
fn wgrace_hb_copy(into: u32, source: u32) {
    var i = 0u;
    let n = wgrace_hb_width();
    for (; i < n; i += 4u) {
        wgrace_hb_copy_entry(into, source, i);
        wgrace_hb_copy_entry(into, source, i + 1u);
        wgrace_hb_copy_entry(into, source, i + 2u);
        wgrace_hb_copy_entry(into, source, i + 3u);
    }
    wgrace_hb_ran(i, WGRACE_HB_N);
}

fn wgrace_hb_clear_entry(at: u32, i: u32) {
    if i < WGRACE_HB_N {
        atomicStore(&wgrace_hb[at + i], 0lu);
    }
}

fn wgrace_hb_clear(at: u32) {
    var i = 0u;
    let n = wgrace_hb_width();
    for (; i < n; i += 4u) {
        wgrace_hb_clear_entry(at, i);
        wgrace_hb_clear_entry(at, i + 1u);
        wgrace_hb_clear_entry(at, i + 2u);
        wgrace_hb_clear_entry(at, i + 3u);
    }
    wgrace_hb_ran(i, WGRACE_HB_N);
}

// The end of a release: later accesses of this invocation are not part of
// what it released.
fn wgrace_hb_tick(cs: u32) {
    let me = wgrace_hb_me();
    atomicAdd(&wgrace_hb[wgrace_hb_clock(cs, me) + me], 1lu);
}

// This invocation's count in the set.
fn wgrace_hb_count(cs: u32) -> u32 {
    let me = wgrace_hb_me();
    return u32(atomicLoad(&wgrace_hb[wgrace_hb_clock(cs, me) + me]));
}

// Whether, in the set, the access of count `count` by invocation `i`
// happens before this invocation's next access.
fn wgrace_hb_before(cs: u32, i: u32, count: u32) -> bool {
    let me = wgrace_hb_me();
    return i == me || u32(atomicLoad(&wgrace_hb[wgrace_hb_clock(cs, me) + i])) >= count;
}

// ---------------------------------------------------------------- signatures

fn wgrace_hb_sig_of(i: u32, scope: u32) -> u64 {
    return WGRACE_HB_SIG_ANY | (u64(scope) << 1u) | (u64(scope) << 3u) | (u64(i) << 32u);
}

fn wgrace_hb_sig_min(s: u64) -> u32 {
    return u32(s >> 1u) & 3u;
}

fn wgrace_hb_sig_max(s: u64) -> u32 {
    return u32(s >> 3u) & 3u;
}

// Both signatures' contributions.
fn wgrace_hb_sig_merge(a: u64, b: u64) -> u64 {
    if (a & WGRACE_HB_SIG_ANY) == 0lu {
        return b;
    }
    if (b & WGRACE_HB_SIG_ANY) == 0lu {
        return a;
    }
    let ia = u32(a >> 32u);
    let ib = u32(b >> 32u);
    var flags = (a | b) & (WGRACE_HB_SIG_MANY_WG | WGRACE_HB_SIG_MANY_SG);
    if wgrace_hb_workgroup_of(ia) != wgrace_hb_workgroup_of(ib) {
        flags |= WGRACE_HB_SIG_MANY_WG;
    }
    if wgrace_hb_subgroup_of(ia) != wgrace_hb_subgroup_of(ib) {
        flags |= WGRACE_HB_SIG_MANY_SG;
    }
    // The contributors: the first two, and whether there are more (no loop:
    // see wgrace_hb_ran).
    var second = wgrace_hb_sig_second(a);
    var more = ((a | b) & WGRACE_HB_SIG_MANY) != 0lu;
    let c0 = ib + 1u;
    if c0 != ia + 1u && c0 != second {
        more = more || second != 0u;
        second = select(second, c0, second == 0u);
    }
    let c1 = wgrace_hb_sig_second(b);
    if c1 != 0u && c1 != ia + 1u && c1 != second {
        more = more || second != 0u;
        second = select(second, c1, second == 0u);
    }
    if more {
        flags |= WGRACE_HB_SIG_MANY;
    }
    let lo = min(wgrace_hb_sig_min(a), wgrace_hb_sig_min(b));
    let hi = max(wgrace_hb_sig_max(a), wgrace_hb_sig_max(b));
    return WGRACE_HB_SIG_ANY | (u64(lo) << 1u) | (u64(hi) << 3u) | flags | (u64(second) << 8u) | (u64(ia) << 32u);
}

// A contributing invocation other than the first, plus one (0: none).
fn wgrace_hb_sig_second(s: u64) -> u32 {
    return u32(s >> 8u) & 0xffffffu;
}

// The contributions as seen through an operation of `scope` as well.
fn wgrace_hb_sig_narrow(s: u64, scope: u32) -> u64 {
    if (s & WGRACE_HB_SIG_ANY) == 0lu {
        return s;
    }
    let lo = min(wgrace_hb_sig_min(s), scope);
    let hi = min(wgrace_hb_sig_max(s), scope);
    return (s & ~30lu) | (u64(lo) << 1u) | (u64(hi) << 3u);
}

// Whether this invocation, acquiring through an operation of `scope`,
// synchronizes with every contribution of `s` (1), with none (0), or with
// some only (2): a contribution of scope S from invocation i synchronizes
// when min(S, scope) includes both invocations.
fn wgrace_hb_verdict(s: u64, scope: u32) -> u32 {
    if (s & WGRACE_HB_SIG_ANY) == 0lu {
        return 0u;
    }
    let me = wgrace_hb_me();
    var first = u32(s >> 32u);
    // Two contributors, one of them this invocation: its own part needs no
    // scope (its clock holds it already), so the other's decides.
    var many = (s & (WGRACE_HB_SIG_MANY_WG | WGRACE_HB_SIG_MANY_SG)) != 0lu;
    let second = wgrace_hb_sig_second(s);
    if (s & WGRACE_HB_SIG_MANY) == 0lu && second != 0u && (first == me || second == me + 1u) {
        first = select(first, second - 1u, first == me);
        many = false;
    }
    // The scope two invocations need, at most and at least, over the
    // contributions: 1 for one subgroup, 2 for one workgroup, 3 for the
    // device.
    var worst = 3u;
    var best = 3u;
    if many && (s & WGRACE_HB_SIG_MANY_WG) != 0lu {
        best = 1u;
    } else if wgrace_hb_workgroup_of(first) == wgrace_hb_workgroup_of(me) {
        if many && (s & WGRACE_HB_SIG_MANY_SG) != 0lu {
            worst = 2u;
            best = 1u;
        } else if wgrace_hb_subgroup_of(first) == wgrace_hb_subgroup_of(me) {
            worst = 1u;
            best = 1u;
        } else {
            worst = 2u;
            best = 2u;
        }
    }
    if min(wgrace_hb_sig_min(s), scope) >= worst {
        return 1u;
    }
    if min(wgrace_hb_sig_max(s), scope) < best {
        return 0u;
    }
    return 2u;
}

// Adds a clock (at `source`) with its signature to this invocation's pending
// clock, for an acquire fence to come; `memory` is what it came through
// (WGRACE_HB_PENDED_*).
//
// With three pending clocks, each pends what an acquire fence of its scope
// (subgroup, workgroup, device) will acquire, decided now, part by part:
// the signature word then holds, for each such scope F, bit F when its
// clock has something and bit F + 4 when a contribution could not be
// decided for it.
fn wgrace_hb_pend(cs: u32, source: u32, s: u64, memory: u32) {
    if (s & WGRACE_HB_SIG_ANY) == 0lu {
        return;
    }
    let me = wgrace_hb_me();
    let at = wgrace_hb_own(cs, me) + 1u;
    atomicStore(&wgrace_hb[at + 6u], atomicLoad(&wgrace_hb[at + 6u]) | u64(memory));
    if WGRACE_HB_PENDING_SCOPES == 1u {
        wgrace_hb_join(wgrace_hb_pending(cs, me), source);
        atomicStore(&wgrace_hb[at], wgrace_hb_sig_merge(atomicLoad(&wgrace_hb[at]), s));
        return;
    }
    var flags = atomicLoad(&wgrace_hb[at]);
    var f = WGRACE_HB_SCOPE_SUBGROUP;
    for (; f <= WGRACE_HB_SCOPE_DEVICE; f++) {
        let v = wgrace_hb_verdict(wgrace_hb_sig_narrow(s, f), f);
        if v == 1u {
            wgrace_hb_join(wgrace_hb_pending(cs, me) + (f - 1u) * WGRACE_HB_N, source);
            flags |= 1lu << f;
        } else if v == 2u {
            flags |= 1lu << (f + 4u);
        }
    }
    wgrace_hb_ran(f, WGRACE_HB_SCOPE_DEVICE + 1u);
    atomicStore(&wgrace_hb[at], flags);
}

// Joins a clock (at `source`) into this invocation's when it synchronizes
// with all of it (`s`, seen through an acquire of `scope`): whether it did.
fn wgrace_hb_acquire(cs: u32, source: u32, s: u64, scope: u32) -> bool {
    let v = wgrace_hb_verdict(s, scope);
    if v == 1u {
        wgrace_hb_join(wgrace_hb_clock(cs, wgrace_hb_me()), source);
    } else if v == 2u {
        wgrace_hb_undecided(cs);
    }
    return v == 1u;
}

// ---------------------------------------------------------------- events

// Each event runs once in each class's each set of clocks: set p of
// WGRACE_HB_ALL_SETS, class p / WGRACE_HB_SETS's set p % WGRACE_HB_SETS,
// whose clocks start at word p * WGRACE_HB_SET_WORDS. An event is one loop
// over the sets, not a call for each: drivers inline every call, and the
// events' code, once per set, took lavapipe minutes to compile in shaders
// with many atomics. The loop costs an iteration per set of lavapipe's
// 65,535 (see wgrace_hb_ran).
const WGRACE_HB_ALL_SETS: u32 = WGRACE_HB_CLASSES * WGRACE_HB_SETS;

fn wgrace_hb_set(p: u32) -> u32 {
    return p * WGRACE_HB_SET_WORDS;
}

fn wgrace_hb_set_class(p: u32) -> u32 {
    return p / WGRACE_HB_SETS;
}

fn wgrace_hb_set_is_strong(p: u32) -> bool {
    return WGRACE_HB_STRONG && p % WGRACE_HB_SETS == WGRACE_HB_STRONG_INDEX;
}

fn wgrace_hb_set_is_wide(p: u32) -> bool {
    return WGRACE_HB_WIDE && p % WGRACE_HB_SETS == WGRACE_HB_WIDE_INDEX;
}

// An event's scope in set p: the wide program's are all device scope.
fn wgrace_hb_set_scope(p: u32, scope: u32) -> u32 {
    return select(scope, WGRACE_HB_SCOPE_DEVICE, wgrace_hb_set_is_wide(p));
}

// First thing in the entry point: the invocation's first count.
fn wgrace_hb_begin() {
    let me = wgrace_hb_me();
    var p = 0u;
    for (; p < WGRACE_HB_ALL_SETS; p++) {
        atomicStore(&wgrace_hb[wgrace_hb_clock(wgrace_hb_set(p), me) + me], 1lu);
    }
    wgrace_hb_ran(p, WGRACE_HB_ALL_SETS);
}

// A fence (OpMemoryBarrier) that acquires or releases: `acquire` and
// `release` from its semantics, of `scope`; `names`, the WGRACE_ORDERS_*
// bits of the memory its semantics name. In a class whose memory it does
// not name, it is nothing.
fn wgrace_hb_fence(scope: u32, acquire: bool, release: bool, names: u32) {
    wgrace_hb_repeat_loc = 0u;
    var p = 0u;
    for (; p < WGRACE_HB_ALL_SETS; p++) {
        if (names & wgrace_hb_class_bit(wgrace_hb_set_class(p))) != 0u {
            wgrace_hb_fence_in(wgrace_hb_set(p), wgrace_hb_set_scope(p, scope), acquire, release, names);
        }
    }
    wgrace_hb_ran(p, WGRACE_HB_ALL_SETS);
}

// Whether an acquire fence that names `names` acquires this invocation's
// pending clock: 1 when it names the memory of every atomic read that
// pended to it, 0 when it names none and no barrier pended, 2 otherwise
// (some of the clock, which the engine cannot tell apart: not followed).
fn wgrace_hb_pended_for(cs: u32, names: u32) -> u32 {
    let pended = u32(atomicLoad(&wgrace_hb[wgrace_hb_own(cs, wgrace_hb_me()) + 7u]));
    let atomics = pended & ~WGRACE_HB_PENDED_BARRIER;
    if (atomics & ~names) == 0u {
        return 1u;
    }
    if (pended & (names | WGRACE_HB_PENDED_BARRIER)) == 0u {
        return 0u;
    }
    return 2u;
}

fn wgrace_hb_fence_in(cs: u32, scope: u32, acquire: bool, release: bool, names: u32) {
    let me = wgrace_hb_me();
    let own = wgrace_hb_own(cs, me);
    if release {
        wgrace_hb_copy(wgrace_hb_fences(cs, me), wgrace_hb_clock(cs, me));
        // The snapshot stands for every earlier release fence too: it holds
        // what they held, under the latest one's scope, so an earlier one of
        // a wider scope would be lost, and so would one that names memory
        // the latest does not.
        let fences = u32(atomicLoad(&wgrace_hb[own]));
        let earlier = max((fences >> 8u) & 0xffu, fences & WGRACE_HB_FENCE_LATEST);
        let earlier_names = ((fences >> 16u) | (fences >> 20u)) & 0xfu;
        atomicStore(&wgrace_hb[own], u64((scope + 1u) | (earlier << 8u) | (names << 16u) | (earlier_names << 20u)));
        wgrace_hb_tick(cs);
    }
    var acquires = acquire;
    if acquire {
        let pended = wgrace_hb_pended_for(cs, names);
        if pended == 2u {
            wgrace_hb_undecided(cs);
        }
        acquires = pended == 1u;
    }
    if acquires && WGRACE_HB_PENDING_SCOPES > 1u {
        // What an acquire of this scope acquires was decided when it was
        // pended; it stays pending for a fence of a wider scope.
        let flags = atomicLoad(&wgrace_hb[own + 1u]);
        if scope >= WGRACE_HB_SCOPE_SUBGROUP {
            if (flags & (1lu << (scope + 4u))) != 0lu {
                wgrace_hb_undecided(cs);
            }
            if (flags & (1lu << scope)) != 0lu {
                wgrace_hb_join(wgrace_hb_clock(cs, me), wgrace_hb_pending(cs, me) + (scope - 1u) * WGRACE_HB_N);
            }
        }
    } else if acquires {
        let s = atomicLoad(&wgrace_hb[own + 1u]);
        let v = wgrace_hb_verdict(wgrace_hb_sig_narrow(s, scope), scope);
        if v == 1u {
            let pending = wgrace_hb_pending(cs, me);
            wgrace_hb_join(wgrace_hb_clock(cs, me), pending);
            wgrace_hb_clear(pending);
            atomicStore(&wgrace_hb[own + 1u], 0lu);
            atomicStore(&wgrace_hb[own + 4u], 0lu);
            atomicStore(&wgrace_hb[own + 7u], 0lu);
        } else if v == 2u {
            wgrace_hb_undecided(cs);
        }
    }
}

// What this invocation's latest release fence releases through an atomic
// write of `scope` to `memory` (a WGRACE_ORDERS_* bit; a fence releases
// through an atomic of memory it names): its signature (none without such
// a fence).
fn wgrace_hb_fence_sig(cs: u32, scope: u32, memory: u32) -> u64 {
    let me = wgrace_hb_me();
    let fences = u32(atomicLoad(&wgrace_hb[wgrace_hb_own(cs, me)]));
    let latest = fences & WGRACE_HB_FENCE_LATEST;
    if latest == 0u {
        return 0lu;
    }
    if ((fences >> 16u) & memory) == 0u {
        // An earlier fence that names it released less: not one clock.
        if ((fences >> 20u) & memory) != 0u {
            wgrace_hb_undecided(cs);
        }
        return 0lu;
    }
    if ((fences >> 8u) & 0xffu) > latest {
        // An earlier fence of a wider scope released less: not one clock.
        wgrace_hb_undecided(cs);
    }
    return wgrace_hb_sig_of(me, min(latest - 1u, scope));
}

// Tries to take location `loc`'s lock, for an atomic and its bookkeeping to
// happen as one: the pass calls wgrace_hb_atomic and wgrace_hb_unlock in the
// branch where it returns true, and tries again otherwise (the winner of a
// compare-exchange finishes inside its branch, so invocations of one
// subgroup that run in lock-step cannot wait on each other). After
// WGRACE_HB_LOCK_SPIN failed tries it gives up: the atomic goes ahead
// without the lock, and the engine counts its bookkeeping as not followed.
var<private> wgrace_hb_tries: u32;
var<private> wgrace_hb_held: bool;
// Whether wgrace_hb_atomic ran since wgrace_hb_locked last looked.
var<private> wgrace_hb_done: bool;
// The invocation's latest engine event, when it was an atomic load that
// left every set holding its location's clock as of `version` (acquired or
// pended; the own words 3 and 4 of each set): its location + 1 (0: any
// other event), flags and scope (scope << 24), and the location's version.
// The same load again, the location not written since, would find that in
// every set and do nothing: wgrace_hb_atomic_data skips the loop over the
// sets, which keeps a spin on a flag to the lock's iteration per spin, not
// one more per set (each counts against lavapipe's 65,535, see
// wgrace_hb_ran). Every other event, which may change those words, clears
// it (an access of a word leaves them alone). The invocation's index is
// kept too: the engine's tests run many invocations' events in one.
var<private> wgrace_hb_repeat_loc: u32;
var<private> wgrace_hb_repeat_how: u32;
var<private> wgrace_hb_repeat_me: u32;
var<private> wgrace_hb_repeat_version: u64;

// After the loop around a locked atomic: whether its branch ran (lavapipe
// can end the loop before it does, and the atomic with it).
fn wgrace_hb_locked() {
    if !wgrace_hb_done {
        wgrace_hb_unchecked();
    }
    wgrace_hb_done = false;
}

fn wgrace_hb_try_lock(loc: u32) -> bool {
    let at = wgrace_hb_loc(WGRACE_HB_REAL, loc);
    if atomicCompareExchangeWeak(&wgrace_hb[at], 0lu, 1lu).exchanged {
        wgrace_hb_tries = 0u;
        wgrace_hb_held = true;
        return true;
    }
    wgrace_hb_tries += 1u;
    if wgrace_hb_tries < WGRACE_HB_LOCK_SPIN {
        return false;
    }
    wgrace_hb_tries = 0u;
    wgrace_hb_held = false;
    wgrace_hb_unchecked();
    return true;
}

fn wgrace_hb_unlock(loc: u32) {
    if wgrace_hb_held {
        atomicStore(&wgrace_hb[wgrace_hb_loc(WGRACE_HB_REAL, loc)], 0lu);
    }
    wgrace_hb_held = false;
}

// An atomic of location `loc` (WGRACE_HB_* flags, of `scope`), under the
// location's lock: an acquire joins the clock its read's release sequence
// published, a relaxed read pends it; a write publishes what it releases
// (its own clock when it releases, the latest release fence's snapshot),
// and replaces the published clock, or, read-modify-writes, adds to it (a
// release sequence goes on through them).
fn wgrace_hb_atomic(loc: u32, flags: u32, scope: u32) {
    wgrace_hb_atomic_data(loc, flags, scope, WGRACE_HB_NONE, 0u, 0u);
}

// wgrace_hb_atomic for an atomic whose location is also a word of data the
// engine checks (a buffer with words accessed both atomically and plainly):
// variable `v`'s word `word`, at `site`. Its own access of the word is
// checked against the word's other accesses after what it acquires and
// before what it releases, with the locks held before it: the Vulkan memory
// model orders an atomic after what its own acquire synchronizes with, and
// before what synchronizes with its own release.
fn wgrace_hb_atomic_data(loc: u32, flags: u32, scope: u32, v: u32, word: u32, site: u32) {
    wgrace_hb_done = true;
    let memory = wgrace_hb_loc_memory(loc);
    // What each set's read holds, for its write: 4 bits each.
    var holds = 0u;
    // A load that repeats this invocation's previous event, the location
    // unwritten since (a spin on a flag), acquires or pends nothing new in
    // any set (its access of a word, below, has a shortcut of its own).
    let load = (flags & WGRACE_HB_READ) != 0u && (flags & ~(WGRACE_HB_NAMES_MASK | WGRACE_HB_LOAD_FLAGS)) == 0u;
    let how = flags | (scope << 24u);
    let me = wgrace_hb_me();
    // The location's version (any set's: every write adds one in each).
    var version = 0lu;
    if load {
        version = atomicLoad(&wgrace_hb[wgrace_hb_loc(wgrace_hb_set(0u), loc) + 1u]);
    }
    let repeat = load && wgrace_hb_repeat_loc == loc + 1u && wgrace_hb_repeat_how == how && wgrace_hb_repeat_me == me
                 && wgrace_hb_repeat_version == version;
    if !repeat {
        wgrace_hb_repeat_loc = 0u;
        var every_set_holds = true;
        var p = 0u;
        for (; p < WGRACE_HB_ALL_SETS; p++) {
            let held = wgrace_hb_atomic_read(wgrace_hb_set(p), loc, wgrace_hb_set_flags(p, flags),
                                             wgrace_hb_set_scope(p, scope), memory);
            holds |= held << (4u * p);
            every_set_holds = every_set_holds && held != 0u;
        }
        wgrace_hb_ran(p, WGRACE_HB_ALL_SETS);
        if load && every_set_holds {
            wgrace_hb_repeat_loc = loc + 1u;
            wgrace_hb_repeat_how = how;
            wgrace_hb_repeat_me = me;
            wgrace_hb_repeat_version = version;
        }
    }
    if v != WGRACE_HB_NONE && wgrace_hb_owns(v) {
        let write = (flags & WGRACE_HB_WRITE) != 0u;
        let kind = wgrace_hb_atomic_kind(scope);
        wgrace_hb_access(wgrace_hb_var_word(v, word), word, site, write, wgrace_any, kind);
    }
    if (flags & (WGRACE_HB_LOCK_TAKE | WGRACE_HB_LOCK_FREE)) != 0u {
        wgrace_hb_hold(loc, (flags & WGRACE_HB_LOCK_TAKE) != 0u);
    }
    if (flags & WGRACE_HB_WRITE) != 0u {
        var p = 0u;
        for (; p < WGRACE_HB_ALL_SETS; p++) {
            wgrace_hb_atomic_write(wgrace_hb_set(p), loc, wgrace_hb_set_flags(p, flags),
                                   wgrace_hb_set_scope(p, scope), memory, (holds >> (4u * p)) & 0xfu);
        }
        wgrace_hb_ran(p, WGRACE_HB_ALL_SETS);
    }
}

// An atomic's flags in set p: the strong program's acquires what it reads
// and releases what it writes, whatever memory its semantics name; the
// others' acquire and release in a class only where its semantics name the
// class's memory.
fn wgrace_hb_set_flags(p: u32, flags: u32) -> u32 {
    if wgrace_hb_set_is_strong(p) {
        return wgrace_hb_strong_flags(flags);
    }
    return wgrace_hb_flags_in(wgrace_hb_set_class(p), flags);
}

// An atomic's flags in class c: it acquires and releases there only where
// its semantics name the class's memory.
fn wgrace_hb_flags_in(c: u32, flags: u32) -> u32 {
    if ((flags >> WGRACE_HB_NAMES_SHIFT) & wgrace_hb_class_bit(c)) != 0u {
        return flags;
    }
    return flags & ~(WGRACE_HB_ACQUIRE | WGRACE_HB_RELEASE);
}

fn wgrace_hb_strong_flags(flags: u32) -> u32 {
    var strong = flags;
    if (flags & WGRACE_HB_READ) != 0u {
        strong |= WGRACE_HB_ACQUIRE;
    }
    if (flags & WGRACE_HB_WRITE) != 0u {
        strong |= WGRACE_HB_RELEASE;
    }
    return strong;
}

// An atomic's read, in the set of clocks at `cs`, of a location of
// `memory` (a WGRACE_ORDERS_* bit): what it acquires, or pends for a later
// acquire fence. Returns which of this invocation's remembered versions
// (own + 3u: acquired, own + 4u: pended) hold the location's clock whole
// after the read, if any (0: none).
fn wgrace_hb_atomic_read(cs: u32, loc: u32, flags: u32, scope: u32, memory: u32) -> u32 {
    let me = wgrace_hb_me();
    let own = wgrace_hb_own(cs, me);
    let at = wgrace_hb_loc(cs, loc);
    var holds = 0u;
    if (flags & WGRACE_HB_READ) != 0u {
        // This clock as of the location's latest write: when this
        // invocation already joined (or pended) it whole, again adds nothing.
        let seen = (u64(loc + 1u) << 32u) | atomicLoad(&wgrace_hb[at + 1u]);
        if (flags & WGRACE_HB_ACQUIRE) != 0u {
            if atomicLoad(&wgrace_hb[own + 3u]) == seen {
                return 3u;
            }
            var whole = true;
            var p = 0u;
            for (; p < WGRACE_HB_LOC_PARTS; p++) {
                let part = wgrace_hb_loc_part(at, p);
                let s = atomicLoad(&wgrace_hb[part]);
                if (s & WGRACE_HB_SIG_ANY) != 0lu {
                    whole = wgrace_hb_acquire(cs, part + 1u, wgrace_hb_sig_narrow(s, scope), scope) && whole;
                }
            }
            wgrace_hb_ran(p, WGRACE_HB_LOC_PARTS);
            if whole {
                atomicStore(&wgrace_hb[own + 3u], seen);
                holds = 3u;
            }
        } else {
            if atomicLoad(&wgrace_hb[own + 4u]) != seen {
                var p = 0u;
                for (; p < WGRACE_HB_LOC_PARTS; p++) {
                    let part = wgrace_hb_loc_part(at, p);
                    wgrace_hb_pend(cs, part + 1u, wgrace_hb_sig_narrow(atomicLoad(&wgrace_hb[part]), scope), memory);
                }
                wgrace_hb_ran(p, WGRACE_HB_LOC_PARTS);
                atomicStore(&wgrace_hb[own + 4u], seen);
            }
            holds = 4u;
        }
    }
    return holds;
}

// An atomic's write, in the set of clocks at `cs`, after its read
// (`holds`, wgrace_hb_atomic_read's): what it releases.
fn wgrace_hb_atomic_write(cs: u32, loc: u32, flags: u32, scope: u32, memory: u32, holds: u32) {
    let me = wgrace_hb_me();
    let own = wgrace_hb_own(cs, me);
    let at = wgrace_hb_loc(cs, loc);
    if (flags & WGRACE_HB_WRITE) != 0u {
        let version = atomicAdd(&wgrace_hb[at + 1u], 1lu) + 1lu;
        // A read-modify-write adds only what this invocation releases,
        // which its clock holds: what it held of the clock it still holds.
        if holds != 0u {
            atomicStore(&wgrace_hb[own + holds], (u64(loc + 1u) << 32u) | version);
        }
        if (flags & WGRACE_HB_READ) == 0u {
            // A store starts a new release sequence: every part afresh (a
            // read-modify-write adds to what the sequence published).
            var p = 0u;
            for (; p < WGRACE_HB_LOC_PARTS; p++) {
                let part = wgrace_hb_loc_part(at, p);
                if atomicLoad(&wgrace_hb[part]) != 0lu {
                    wgrace_hb_clear(part + 1u);
                    atomicStore(&wgrace_hb[part], 0lu);
                }
            }
            wgrace_hb_ran(p, WGRACE_HB_LOC_PARTS);
        }
        // What it releases: a release publishes this invocation's clock,
        // which holds its fence snapshot, at the atomic's scope, which holds
        // the fence's part; otherwise the latest release fence's snapshot.
        var c = 0lu;
        var source = 0u;
        if (flags & WGRACE_HB_RELEASE) == 0u {
            c = wgrace_hb_fence_sig(cs, scope, memory);
            source = wgrace_hb_fences(cs, me);
        } else {
            c = wgrace_hb_sig_of(me, scope);
            source = wgrace_hb_clock(cs, me);
        }
        if c != 0lu {
            let part = wgrace_hb_loc_part(at, wgrace_hb_part_of(me, wgrace_hb_sig_min(c)));
            wgrace_hb_join(part + 1u, source);
            atomicStore(&wgrace_hb[part], wgrace_hb_sig_merge(atomicLoad(&wgrace_hb[part]), c));
        }
        if (flags & WGRACE_HB_RELEASE) != 0u {
            wgrace_hb_tick(cs);
        }
    }
}

// A control barrier, before the invocations wait at it: it publishes what
// it releases (its own clock where its semantics release the class's
// memory, `orders` holding the WGRACE_ORDERS_* bits they name; the latest
// release fence's snapshot) for the barrier's parity. `subgroup_execution`: only a subgroup waits at it (SPIR-V's
// subgroup execution scope); `subgroup_memory`: the workgroup waits, but its
// memory scope is a subgroup. Either way it synchronizes memory within a
// subgroup only, through the subgroup's clocks; the wide program gives the
// second the workgroup's memory scope.
fn wgrace_hb_barrier_arrive(subgroup_execution: bool, subgroup_memory: bool, orders: u32) {
    wgrace_hb_repeat_loc = 0u;
    var p = 0u;
    for (; p < WGRACE_HB_ALL_SETS; p++) {
        let release = (orders & wgrace_hb_class_bit(wgrace_hb_set_class(p))) != 0u;
        wgrace_hb_barrier_arrive_in(wgrace_hb_set(p), wgrace_hb_set_subgroup(p, subgroup_execution, subgroup_memory),
                                    release);
    }
    wgrace_hb_ran(p, WGRACE_HB_ALL_SETS);
}

// Whether a barrier synchronizes memory within a subgroup only in set p.
fn wgrace_hb_set_subgroup(p: u32, subgroup_execution: bool, subgroup_memory: bool) -> bool {
    return subgroup_execution || (subgroup_memory && !wgrace_hb_set_is_wide(p));
}

fn wgrace_hb_barrier_scope(subgroup: bool) -> u32 {
    return select(WGRACE_HB_SCOPE_WORKGROUP, WGRACE_HB_SCOPE_SUBGROUP, subgroup);
}

fn wgrace_hb_barrier_arrive_in(cs: u32, subgroup: bool, release: bool) {
    let me = wgrace_hb_me();
    let scope = wgrace_hb_barrier_scope(subgroup);
    let at = wgrace_hb_barrier_slot(cs, subgroup, false);
    // A release fence's scope is its own here: the acquire side checks the
    // barrier's (or an acquire fence's after it).
    var s = wgrace_hb_fence_sig(cs, WGRACE_HB_SCOPE_DEVICE, WGRACE_HB_ANY_MEMORY);
    if s != 0lu {
        wgrace_hb_join(at + 1u, wgrace_hb_fences(cs, me));
    }
    if release {
        wgrace_hb_join(at + 1u, wgrace_hb_clock(cs, me));
        s = wgrace_hb_sig_merge(s, wgrace_hb_sig_of(me, scope));
    }
    if s != 0lu {
        // Other invocations publish at the same time.
        for (var spin = 0u; spin < WGRACE_HB_SPIN; spin++) {
            let old = atomicLoad(&wgrace_hb[at]);
            if atomicCompareExchangeWeak(&wgrace_hb[at], old, wgrace_hb_sig_merge(old, s)).exchanged {
                break;
            }
        }
    }
    if release {
        wgrace_hb_tick(cs);
    }
}

// The same barrier once every invocation that waits at it arrived: an
// acquire joins what they released, otherwise it pends.
fn wgrace_hb_barrier_leave(subgroup_execution: bool, subgroup_memory: bool, orders: u32) {
    wgrace_hb_repeat_loc = 0u;
    var p = 0u;
    for (; p < WGRACE_HB_ALL_SETS; p++) {
        let acquire = (orders & wgrace_hb_class_bit(wgrace_hb_set_class(p))) != 0u;
        wgrace_hb_barrier_leave_in(wgrace_hb_set(p), wgrace_hb_set_subgroup(p, subgroup_execution, subgroup_memory),
                                   acquire);
    }
    wgrace_hb_ran(p, WGRACE_HB_ALL_SETS);
}

fn wgrace_hb_barrier_leave_in(cs: u32, subgroup: bool, acquire: bool) {
    let scope = wgrace_hb_barrier_scope(subgroup);
    let at = wgrace_hb_barrier_slot(cs, subgroup, true);
    if subgroup && acquire {
        let counter = wgrace_hb_own(cs, wgrace_hb_me()) + 6u;
        atomicStore(&wgrace_hb[counter], atomicLoad(&wgrace_hb[counter]) + (1lu << 32u));
    }
    let s = atomicLoad(&wgrace_hb[at]);
    if acquire {
        _ = wgrace_hb_acquire(cs, at + 1u, wgrace_hb_sig_narrow(s, scope), scope);
    } else {
        wgrace_hb_pend(cs, at + 1u, s, WGRACE_HB_PENDED_BARRIER);
    }
}

// ---------------------------------------------------------------- locks
//
// The spin locks an invocation holds, for the lockset check: a word of four
// 16-bit slots, each a lock's location + 1 (0: free). A race of accesses
// whose sets have no lock in common, one of them not empty, is the lockset
// check's (wgrace_hb_lockset): the lock does not order them. Locks are
// inferred from their atomics (ScoRD's idiom): a compare-exchange from 0
// that exchanged takes one, a store or exchange of 0 frees it.

fn wgrace_hb_locks() -> u64 {
    return atomicLoad(&wgrace_hb[wgrace_hb_own(WGRACE_HB_REAL, wgrace_hb_me()) + 5u]);
}

// Takes (`take`) or frees lock `loc` in this invocation's set. A fifth lock
// held at once is not remembered: its race classes are not followed.
fn wgrace_hb_hold(loc: u32, take: bool) {
    let at = wgrace_hb_own(WGRACE_HB_REAL, wgrace_hb_me()) + 5u;
    var held = atomicLoad(&wgrace_hb[at]);
    let id = u64(loc + 1u) & 0xfffflu;
    var free = 4u;
    for (var k = 0u; k < 4u; k++) {
        let slot = (held >> (16u * k)) & 0xfffflu;
        if slot == id {
            if !take {
                held &= ~(0xfffflu << (16u * k));
            }
            atomicStore(&wgrace_hb[at], held);
            return;
        }
        if slot == 0lu && free == 4u {
            free = k;
        }
    }
    if !take {
        return;
    }
    if free == 4u {
        // Only the lockset check's class rests on it.
        atomicAdd(&wgrace_log[WGRACE_LOG_HB_CLASS_UNSURE], 1u);
        return;
    }
    atomicStore(&wgrace_hb[at], held | (id << (16u * free)));
}

// Whether two sets of held locks have none in common and are not both
// empty.
fn wgrace_hb_disjoint(a: u64, b: u64) -> bool {
    if a == 0lu && b == 0lu {
        return false;
    }
    for (var k = 0u; k < 4u; k++) {
        let id = (a >> (16u * k)) & 0xfffflu;
        if id == 0lu {
            continue;
        }
        for (var j = 0u; j < 4u; j++) {
            if ((b >> (16u * j)) & 0xfffflu) == id {
                return false;
            }
        }
    }
    return true;
}

// ---------------------------------------------------------------- accesses

// An access of word `word` (of the engine's words; `var_word` is its word
// in its variable, for the report) at `site`, after `barriers` control
// barriers of any kind: checked against the word's history, then added to
// it, under the word's lock. `kind` is WGRACE_HB_PLAIN for a plain load or
// store, or an atomic's (wgrace_hb_atomic_kind). Two atomic accesses whose
// scopes do not both hold the other's invocation are ordered as plain
// accesses would be (the Vulkan memory model synchronizes them "as if they
// were non-atomic"), and race otherwise (the scope check's race); an atomic and a
// plain one race as two plain ones would, and also, where the earlier one
// wrote, when the atomic's scope does not hold both invocations: an atomic
// makes its write available, and the write it reads visible, only within
// its scope (a plain write of a later atomic write needs only to be
// available, which the plain write itself is).
fn wgrace_hb_access(word: u32, var_word: u32, site: u32, write: bool, barriers: u32, kind: u32) {
    let at = WGRACE_HB_HISTORIES + word * WGRACE_HB_WORD_WORDS;
    // The clocks of the word's class.
    let base = wgrace_hb_class(wgrace_hb_word_class(word));
    let entry = wgrace_hb_entry(base, site, write, barriers, kind);
    // A repeat of this invocation's latest access of the word, with no
    // access of it checked since (a spin's reads): the history holds its
    // twin, which races with whatever it would.
    if wgrace_hb_last.word == word && all(wgrace_hb_last.entry == entry)
       && atomicLoad(&wgrace_hb[at]) == wgrace_hb_last.version {
        return;
    }
    // The winner's branch ends inside the loop, so that invocations of one
    // subgroup meet after it before the others try again (see
    // wgrace_hb_try_lock's caller).
    var done = false;
    for (var spin = 0u; spin < WGRACE_HB_LOCK_SPIN && !done; spin++) {
        let version = atomicLoad(&wgrace_hb[at]);
        if (version & 1lu) == 0lu && atomicCompareExchangeWeak(&wgrace_hb[at], version, version | 1lu).exchanged {
            wgrace_hb_check(base, at + 1u, var_word, site, write, barriers, kind, entry);
            atomicStore(&wgrace_hb[at], version + 2lu);
            wgrace_hb_last = WgraceHbLast(word, version + 2lu, entry);
            done = true;
        }
    }
    if !done {
        wgrace_hb_unchecked();
    }
}

// An entry of a word's history, on the clocks of its class (at `base`):
// the invocation and its count (e0); the site, whether it wrote, the
// barriers before it, its kind and the subgroup barriers before it (e1,
// never 0); its counts in the strong and wide sets (e2); the locks it held
// (e3).
fn wgrace_hb_entry(base: u32, site: u32, write: bool, barriers: u32, kind: u32) -> vec4<u64> {
    let me = wgrace_hb_me();
    let count = wgrace_hb_count(base + WGRACE_HB_REAL);
    // Barriers that synchronize within the subgroup only and acquire, so
    // far, as an entry keeps them (16 bits).
    let subgroup_barriers =
        u32(atomicLoad(&wgrace_hb[wgrace_hb_own(base + WGRACE_HB_REAL, me) + 6u]) >> 32u) & 0xffffu;
    var counts = 0lu;
    if WGRACE_HB_STRONG {
        counts |= u64(wgrace_hb_count(base + WGRACE_HB_STRONG_SET));
    }
    if WGRACE_HB_WIDE {
        counts |= u64(wgrace_hb_count(base + WGRACE_HB_WIDE_SET)) << 32u;
    }
    let e1 = site | (u32(write) << 14u) | 0x8000u | ((barriers & 0xffffu) << 16u);
    return vec4<u64>(u64(count) | (u64(me) << 32u), u64(e1) | (u64(kind | (subgroup_barriers << 16u)) << 32u),
                     counts, wgrace_hb_locks());
}

// This invocation's latest access that went into a word's history: the
// engine word, the word's lock word after it (bit 0 set while an
// invocation checks an access of the word, above it the history's version,
// which each check adds 2 to), and its entry.
struct WgraceHbLast {
    word: u32,
    version: u64,
    entry: vec4<u64>,
}

var<private> wgrace_hb_last: WgraceHbLast;

// An access's kind: plain, or atomic of a scope.
const WGRACE_HB_PLAIN: u32 = 0u;

fn wgrace_hb_atomic_kind(scope: u32) -> u32 {
    return 1u + scope;
}

// Whether the instance of `scope` around invocation `i` holds `j`.
fn wgrace_hb_holds(scope: u32, i: u32, j: u32) -> bool {
    switch scope {
        case WGRACE_HB_SCOPE_INVOCATION: {
            return i == j;
        }
        case WGRACE_HB_SCOPE_SUBGROUP: {
            return wgrace_hb_subgroup_of(i) == wgrace_hb_subgroup_of(j);
        }
        case WGRACE_HB_SCOPE_WORKGROUP: {
            return wgrace_hb_workgroup_of(i) == wgrace_hb_workgroup_of(j);
        }
        default: {
            return true;
        }
    }
}

// Checks an access (its entry `mine`, on the clocks of its class at `base`)
// against a word's history, and adds it.
fn wgrace_hb_check(base: u32, history: u32, var_word: u32, site: u32, write: bool, barriers: u32, kind: u32,
                   mine: vec4<u64>) {
    let me = wgrace_hb_me();
    let locks = mine.w;
    let subgroup_barriers = u32(mine.y >> 48u);
    var free = WGRACE_HB_HISTORY;
    var k = 0u;
    for (; k < WGRACE_HB_HISTORY; k++) {
        let entry = history + WGRACE_HB_ENTRY_WORDS * k;
        let e0 = atomicLoad(&wgrace_hb[entry]);
        let e1 = atomicLoad(&wgrace_hb[entry + 1u]);
        if e1 == 0lu {
            free = min(free, k);
            continue;
        }
        let i = u32(e0 >> 32u);
        let e_site = u32(e1) & 0x3fffu;
        let e_write = (u32(e1) & 0x4000u) != 0u;
        let e_kind = u32(e1 >> 32u) & 0xffffu;
        let ordered = wgrace_hb_before(base + WGRACE_HB_REAL, i, u32(e0));
        // An atomic and a plain access, the earlier writing: its write must
        // be available to the later one's invocation (an atomic makes its
        // write available within its scope) and, when the later one only
        // reads, visible to it (an atomic read sees within its scope).
        let one_atomic = (kind == WGRACE_HB_PLAIN) != (e_kind == WGRACE_HB_PLAIN);
        let scoped = one_atomic && e_write && (e_kind != WGRACE_HB_PLAIN || !write);
        let held = !scoped || wgrace_hb_holds(max(kind, e_kind) - 1u, i, me);
        let before = ordered && held;
        // Two atomics not mutually ordered (scope instances nest, so the
        // narrower scope's instance around one invocation holds the other
        // exactly when each scope holds the other's invocation) are ordered
        // as plain accesses would be: the earlier happens before the later
        // and, where it wrote, its atomic made its write available to both
        // (within its scope) and, where the later one only reads, that one's
        // atomic made it visible (within its own).
        let both_atomic = kind != WGRACE_HB_PLAIN && e_kind != WGRACE_HB_PLAIN;
        let as_plain = ordered
            && (!e_write || (wgrace_hb_holds(e_kind - 1u, i, me) && (write || wgrace_hb_holds(kind - 1u, i, me))));
        // What it records, under which check's code (one record for every
        // check's races: drivers inline each call).
        let g = wgrace_hb_workgroup_of(i);
        let t = i % WGRACE_HB_WG_SIZE;
        var codes = vec2<u32>(WGRACE_HB_NOT_LINKED, WGRACE_LOCKSTEP_NEVER);
        if both_atomic && !as_plain && (write || e_write) && !wgrace_hb_holds(min(kind, e_kind) - 1u, i, me) {
            codes.x = wgrace_hb_atomic_scope_code(write);
        }
        if !before && (write || e_write) && (kind == WGRACE_HB_PLAIN || e_kind == WGRACE_HB_PLAIN) {
            var race_class = WGRACE_CLASS_INTER;
            if g == wgrace_g {
                race_class = select(WGRACE_CLASS_INTRA, WGRACE_CLASS_BARRIER_KIND, ((u32(e1) >> 16u) & 0xffffu) != barriers);
            }
            // What the race lacked, first that applies: synchronization of
            // a wider scope (a barrier of subgroup memory scope is of the
            // right kind, and too narrow), a barrier of the right kind,
            // release and acquire semantics, a lock in common.
            // Subgroup barriers between two subgroups' accesses (counted
            // apart by each subgroup: by the same barriers of the program
            // when their counts differ) are synchronization too narrow as
            // well.
            let e2 = atomicLoad(&wgrace_hb[entry + 2u]);
            let across_subgroup_barriers = g == wgrace_g && wgrace_hb_subgroup_of(i) != wgrace_hb_subgroup_of(me)
                && u32(e1 >> 48u) != subgroup_barriers;
            let of_kind = race_class != WGRACE_CLASS_BARRIER_KIND;
            if WGRACE_HB_WIDE && (across_subgroup_barriers
                                  || wgrace_hb_before(base + WGRACE_HB_WIDE_SET, i, u32(e2 >> 32u))) {
                codes.x = wgrace_hb_scope_code();
            } else if of_kind && WGRACE_HB_STRONG && held && wgrace_hb_before(base + WGRACE_HB_STRONG_SET, i, u32(e2)) {
                codes.x = wgrace_hb_missing_fence_code();
            } else if of_kind && wgrace_hb_disjoint(locks, atomicLoad(&wgrace_hb[entry + 3u])) {
                codes.x = wgrace_hb_lockset_code();
            } else if kind != e_kind {
                codes.x = wgrace_hb_atomic_plain_code(write);
            } else {
                codes = wgrace_race_codes(race_class, e_site, t, site);
            }
        }
        if codes.x != WGRACE_HB_NOT_LINKED {
            wgrace_record_as(codes.x, codes.y, var_word, e_site, g, t, e_write, site);
        }
        // An access of this site that happens before this one is no longer
        // needed: whatever races with it races with this one too. (Where
        // atomics of a narrow scope access data, only when the two are of
        // one invocation and scope: a later access may be in the scope of
        // one and not of the other.)
        let prunable = !WGRACE_HB_NARROW_ATOMIC_DATA || (i == me && e_kind == kind);
        if ordered && prunable && e_site == site && e_write == write {
            atomicStore(&wgrace_hb[entry + 1u], 0lu);
            free = min(free, k);
        }
    }
    wgrace_hb_ran(k, WGRACE_HB_HISTORY);
    if free == WGRACE_HB_HISTORY {
        wgrace_hb_unchecked();
        return;
    }
    let entry = history + WGRACE_HB_ENTRY_WORDS * free;
    atomicStore(&wgrace_hb[entry], mine.x);
    atomicStore(&wgrace_hb[entry + 2u], mine.z);
    atomicStore(&wgrace_hb[entry + 3u], mine.w);
    atomicStore(&wgrace_hb[entry + 1u], mine.y);
}
