// The data-race check's happens-before engine: races on buffer memory under
// the Vulkan memory model's synchronization (release and acquire atomics,
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
//   WGRACE_HB_BASE       its first 64-bit word in wgrace_shadow_u64
//
// Vector clocks, one entry per invocation (the invocation's count of release
// points: an access made while the count was c is ordered before any
// invocation whose clock holds c or more for it). Each invocation keeps, in
// wgrace_shadow_u64 (private variables do not survive fences in loops on
// every driver), its clock; a snapshot of it at its latest release fence
// (what an atomic write after the fence releases); and the clocks it read
// through relaxed atomics or barriers that do not acquire, which an acquire
// fence later joins ("pending"). Each atomic location keeps the clock its
// release sequence publishes; each workgroup, for each parity of its barrier
// count, what its invocations released at their barriers. Each word keeps
// its last WGRACE_HB_HISTORY accesses; an access races with each of them
// that conflicts and does not happen before it.
//
// Scopes. A release synchronizes with an acquire only when each is in the
// other's scope instance (and, through an atomic, the atomic write and read
// too). A published clock joins contributions from several invocations, so
// it carries a *signature*: the narrowest and widest scope of its
// contributions and where they come from (one subgroup, one workgroup, or
// several). An acquire joins the clock when every contribution passes,
// leaves it when none does, and otherwise cannot decide: it counts
// WGRACE_LOG_HB_UNCHECKED, which makes the report incomplete, as does a
// full history or a lock that was never taken.
//
// docs/detector.md ("Release and acquire") describes the design;
// shaders/tests/happens_before.rs holds it to the reference model
// (shaders/tests/common/vulkan_model.rs) on random traces.

// Scopes, narrowest first (not SPIR-V's numbering).
const WGRACE_HB_SCOPE_INVOCATION: u32 = 0u;
const WGRACE_HB_SCOPE_SUBGROUP: u32 = 1u;
const WGRACE_HB_SCOPE_WORKGROUP: u32 = 2u;
const WGRACE_HB_SCOPE_DEVICE: u32 = 3u;

// Flags of an atomic (wgrace_hb_atomic): it reads, it writes (a
// compare-exchange only when it exchanged), its semantics acquire or release
// buffer memory.
const WGRACE_HB_READ: u32 = 1u;
const WGRACE_HB_WRITE: u32 = 2u;
const WGRACE_HB_ACQUIRE: u32 = 4u;
const WGRACE_HB_RELEASE: u32 = 8u;

// How long an invocation tries for a word's or a location's lock.
const WGRACE_HB_SPIN: u32 = 65535u;

// The layout, in 64-bit words of wgrace_shadow_u64.
const WGRACE_HB_NN: u32 = WGRACE_HB_N * WGRACE_HB_N;
const WGRACE_HB_WORKGROUPS: u32 = WGRACE_HB_N / WGRACE_HB_WG_SIZE;
// Each invocation's clock, fence snapshot and pending clock.
const WGRACE_HB_CLOCKS: u32 = WGRACE_HB_BASE;
const WGRACE_HB_FENCES: u32 = WGRACE_HB_CLOCKS + WGRACE_HB_NN;
const WGRACE_HB_PENDING: u32 = WGRACE_HB_FENCES + WGRACE_HB_NN;
// Each invocation's own words: the scopes of its release fences
// (WGRACE_HB_FENCE_*), the pending clock's signature, its barrier count.
const WGRACE_HB_OWN: u32 = WGRACE_HB_PENDING + WGRACE_HB_NN;
const WGRACE_HB_OWN_WORDS: u32 = 4u;
// Each workgroup's barrier clocks, two (by the parity of the barrier
// count), each a signature and a clock.
const WGRACE_HB_BARRIERS: u32 = WGRACE_HB_OWN + WGRACE_HB_OWN_WORDS * WGRACE_HB_N;
// Each location: a lock, the signature, the clock.
const WGRACE_HB_LOCS: u32 = WGRACE_HB_BARRIERS + 2u * WGRACE_HB_WORKGROUPS * (WGRACE_HB_N + 1u);
const WGRACE_HB_LOC_WORDS: u32 = WGRACE_HB_N + 2u;
// Each word: a lock, then its accesses, two words each (an empty one is 0):
// (count | invocation << 32) and (site | write << 14 | 1 << 15 | barriers
// << 16 | subgroup << 32).
const WGRACE_HB_HISTORIES: u32 = WGRACE_HB_LOCS + WGRACE_HB_LOCATIONS * WGRACE_HB_LOC_WORDS;
const WGRACE_HB_WORD_WORDS: u32 = 1u + 2u * WGRACE_HB_HISTORY;
// The layout's end: what the host allocates.
const WGRACE_HB_END: u32 = WGRACE_HB_HISTORIES + WGRACE_HB_WORDS * WGRACE_HB_WORD_WORDS;

// The fence word: the scope of the latest release fence plus one (0: none),
// and the widest scope of the earlier ones plus one, << 8.
const WGRACE_HB_FENCE_LATEST: u32 = 0xffu;

// Signatures (a u64): bit 0 when there is a contribution; the narrowest
// scope in bits 1-2, the widest in bits 3-4; bit 5 when the contributions
// come from several workgroups, bit 6 from several subgroups; the first
// contributing invocation in bits 32-63.
const WGRACE_HB_SIG_ANY: u64 = 1lu;
const WGRACE_HB_SIG_MANY_WG: u64 = 32lu;
const WGRACE_HB_SIG_MANY_SG: u64 = 64lu;

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

fn wgrace_hb_unchecked() {
    atomicAdd(&wgrace_log[WGRACE_LOG_HB_UNCHECKED], 1u);
}

// ---------------------------------------------------------------- clocks

fn wgrace_hb_clock(i: u32) -> u32 {
    return WGRACE_HB_CLOCKS + i * WGRACE_HB_N;
}

fn wgrace_hb_own(i: u32) -> u32 {
    return WGRACE_HB_OWN + i * WGRACE_HB_OWN_WORDS;
}

fn wgrace_hb_join(into: u32, source: u32) {
    for (var i = 0u; i < WGRACE_HB_N; i++) {
        let v = atomicLoad(&wgrace_shadow_u64[source + i]);
        if v != 0lu {
            atomicMax(&wgrace_shadow_u64[into + i], v);
        }
    }
}

fn wgrace_hb_clear(at: u32) {
    for (var i = 0u; i < WGRACE_HB_N; i++) {
        atomicStore(&wgrace_shadow_u64[at + i], 0lu);
    }
}

// The end of a release: later accesses of this invocation are not part of
// what it released.
fn wgrace_hb_tick() {
    let me = wgrace_hb_me();
    atomicAdd(&wgrace_shadow_u64[wgrace_hb_clock(me) + me], 1lu);
}

// Whether this invocation's access of count `count` by invocation `i`
// happens before this invocation's next access.
fn wgrace_hb_before(i: u32, count: u32) -> bool {
    let me = wgrace_hb_me();
    return i == me || u32(atomicLoad(&wgrace_shadow_u64[wgrace_hb_clock(me) + i])) >= count;
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
    let lo = min(wgrace_hb_sig_min(a), wgrace_hb_sig_min(b));
    let hi = max(wgrace_hb_sig_max(a), wgrace_hb_sig_max(b));
    return WGRACE_HB_SIG_ANY | (u64(lo) << 1u) | (u64(hi) << 3u) | flags | (u64(ia) << 32u);
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
    let first = u32(s >> 32u);
    // The scope two invocations need, at most and at least, over the
    // contributions: 1 for one subgroup, 2 for one workgroup, 3 for the
    // device.
    var worst = 3u;
    var best = 3u;
    if (s & WGRACE_HB_SIG_MANY_WG) != 0lu {
        best = 1u;
    } else if wgrace_hb_workgroup_of(first) == wgrace_hb_workgroup_of(me) {
        if (s & WGRACE_HB_SIG_MANY_SG) != 0lu {
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
// clock, for an acquire fence to come.
fn wgrace_hb_pend(source: u32, s: u64) {
    if (s & WGRACE_HB_SIG_ANY) == 0lu {
        return;
    }
    let me = wgrace_hb_me();
    wgrace_hb_join(WGRACE_HB_PENDING + me * WGRACE_HB_N, source);
    let at = wgrace_hb_own(me) + 1u;
    atomicStore(&wgrace_shadow_u64[at], wgrace_hb_sig_merge(atomicLoad(&wgrace_shadow_u64[at]), s));
}

// Joins a clock (at `source`) into this invocation's when it synchronizes
// with all of it (`s`, seen through an acquire of `scope`).
fn wgrace_hb_acquire(source: u32, s: u64, scope: u32) {
    let v = wgrace_hb_verdict(s, scope);
    if v == 1u {
        wgrace_hb_join(wgrace_hb_clock(wgrace_hb_me()), source);
    } else if v == 2u {
        wgrace_hb_unchecked();
    }
}

// ---------------------------------------------------------------- events

// First thing in the entry point: the invocation's first count.
fn wgrace_hb_begin() {
    let me = wgrace_hb_me();
    atomicStore(&wgrace_shadow_u64[wgrace_hb_clock(me) + me], 1lu);
}

// A fence (OpMemoryBarrier) whose semantics name buffer memory: `acquire`
// and `release` from its semantics, of `scope`.
fn wgrace_hb_fence(scope: u32, acquire: bool, release: bool) {
    let me = wgrace_hb_me();
    let own = wgrace_hb_own(me);
    if release {
        let clock = wgrace_hb_clock(me);
        for (var i = 0u; i < WGRACE_HB_N; i++) {
            atomicStore(&wgrace_shadow_u64[WGRACE_HB_FENCES + me * WGRACE_HB_N + i],
                        atomicLoad(&wgrace_shadow_u64[clock + i]));
        }
        // The snapshot stands for every earlier release fence too: it holds
        // what they held, under the latest one's scope, so an earlier one of
        // a wider scope would be lost.
        let fences = u32(atomicLoad(&wgrace_shadow_u64[own]));
        let earlier = max(fences >> 8u, fences & WGRACE_HB_FENCE_LATEST);
        atomicStore(&wgrace_shadow_u64[own], u64((scope + 1u) | (earlier << 8u)));
        wgrace_hb_tick();
    }
    if acquire {
        let s = atomicLoad(&wgrace_shadow_u64[own + 1u]);
        let v = wgrace_hb_verdict(wgrace_hb_sig_narrow(s, scope), scope);
        if v == 1u {
            let pending = WGRACE_HB_PENDING + me * WGRACE_HB_N;
            wgrace_hb_join(wgrace_hb_clock(me), pending);
            wgrace_hb_clear(pending);
            atomicStore(&wgrace_shadow_u64[own + 1u], 0lu);
        } else if v == 2u {
            wgrace_hb_unchecked();
        }
    }
}

// What this invocation's latest release fence releases through an atomic
// write of `scope`: its signature (none without such a fence).
fn wgrace_hb_fence_sig(scope: u32) -> u64 {
    let me = wgrace_hb_me();
    let fences = u32(atomicLoad(&wgrace_shadow_u64[wgrace_hb_own(me)]));
    let latest = fences & WGRACE_HB_FENCE_LATEST;
    if latest == 0u {
        return 0lu;
    }
    if (fences >> 8u) > latest {
        // An earlier fence of a wider scope released less: not one clock.
        wgrace_hb_unchecked();
    }
    return wgrace_hb_sig_of(me, min(latest - 1u, scope));
}

// Tries to take location `loc`'s lock, for an atomic and its bookkeeping to
// happen as one: call wgrace_hb_atomic and wgrace_hb_unlock in the branch
// where it returns true, and try again otherwise (the winner of a
// compare-exchange finishes inside its branch, so invocations of one
// subgroup that run in lock-step cannot wait on each other).
fn wgrace_hb_try_lock(loc: u32) -> bool {
    let at = WGRACE_HB_LOCS + loc * WGRACE_HB_LOC_WORDS;
    return atomicCompareExchangeWeak(&wgrace_shadow_u64[at], 0lu, 1lu).exchanged;
}

fn wgrace_hb_unlock(loc: u32) {
    atomicStore(&wgrace_shadow_u64[WGRACE_HB_LOCS + loc * WGRACE_HB_LOC_WORDS], 0lu);
}

// An atomic of location `loc` (WGRACE_HB_* flags, of `scope`), under the
// location's lock: an acquire joins the clock its read's release sequence
// published, a relaxed read pends it; a write publishes what it releases
// (its own clock when it releases, the latest release fence's snapshot),
// and replaces the published clock, or, read-modify-writes, adds to it (a
// release sequence goes on through them).
fn wgrace_hb_atomic(loc: u32, flags: u32, scope: u32) {
    let me = wgrace_hb_me();
    let at = WGRACE_HB_LOCS + loc * WGRACE_HB_LOC_WORDS;
    let clock = at + 2u;
    if (flags & WGRACE_HB_READ) != 0u {
        let s = wgrace_hb_sig_narrow(atomicLoad(&wgrace_shadow_u64[at + 1u]), scope);
        if (flags & WGRACE_HB_ACQUIRE) != 0u {
            wgrace_hb_acquire(clock, s, scope);
        } else {
            wgrace_hb_pend(clock, s);
        }
    }
    if (flags & WGRACE_HB_WRITE) != 0u {
        var s = 0lu;
        if (flags & WGRACE_HB_READ) == 0u {
            wgrace_hb_clear(clock);
        } else {
            s = atomicLoad(&wgrace_shadow_u64[at + 1u]);
        }
        let fence = wgrace_hb_fence_sig(scope);
        if fence != 0lu {
            wgrace_hb_join(clock, WGRACE_HB_FENCES + me * WGRACE_HB_N);
            s = wgrace_hb_sig_merge(s, fence);
        }
        if (flags & WGRACE_HB_RELEASE) != 0u {
            wgrace_hb_join(clock, wgrace_hb_clock(me));
            s = wgrace_hb_sig_merge(s, wgrace_hb_sig_of(me, scope));
            wgrace_hb_tick();
        }
        atomicStore(&wgrace_shadow_u64[at + 1u], s);
    }
}

// A workgroup control barrier whose memory scope is `scope`, before the
// invocations wait at it: it publishes what it releases (its own clock when
// its semantics release buffer memory, the latest release fence's snapshot)
// for the barrier's parity.
fn wgrace_hb_barrier_arrive(scope: u32, release: bool) {
    let me = wgrace_hb_me();
    let own = wgrace_hb_own(me);
    let k = u32(atomicLoad(&wgrace_shadow_u64[own + 2u]));
    let at = WGRACE_HB_BARRIERS + ((k & 1u) * WGRACE_HB_WORKGROUPS + wgrace_hb_workgroup_of(me)) * (WGRACE_HB_N + 1u);
    // A release fence's scope is its own here: the acquire side checks the
    // barrier's (or an acquire fence's after it).
    var s = wgrace_hb_fence_sig(WGRACE_HB_SCOPE_DEVICE);
    if s != 0lu {
        wgrace_hb_join(at + 1u, WGRACE_HB_FENCES + me * WGRACE_HB_N);
    }
    if release {
        wgrace_hb_join(at + 1u, wgrace_hb_clock(me));
        s = wgrace_hb_sig_merge(s, wgrace_hb_sig_of(me, scope));
    }
    if s != 0lu {
        // Other invocations publish at the same time.
        for (var spin = 0u; spin < WGRACE_HB_SPIN; spin++) {
            let old = atomicLoad(&wgrace_shadow_u64[at]);
            if atomicCompareExchangeWeak(&wgrace_shadow_u64[at], old, wgrace_hb_sig_merge(old, s)).exchanged {
                break;
            }
        }
    }
    if release {
        wgrace_hb_tick();
    }
}

// The same barrier once every invocation of the workgroup arrived: an
// acquire joins what they released, otherwise it pends.
fn wgrace_hb_barrier_leave(scope: u32, acquire: bool) {
    let me = wgrace_hb_me();
    let own = wgrace_hb_own(me);
    let k = u32(atomicLoad(&wgrace_shadow_u64[own + 2u]));
    atomicStore(&wgrace_shadow_u64[own + 2u], u64(k + 1u));
    let at = WGRACE_HB_BARRIERS + ((k & 1u) * WGRACE_HB_WORKGROUPS + wgrace_hb_workgroup_of(me)) * (WGRACE_HB_N + 1u);
    let s = atomicLoad(&wgrace_shadow_u64[at]);
    if acquire {
        wgrace_hb_acquire(at + 1u, wgrace_hb_sig_narrow(s, scope), scope);
    } else {
        wgrace_hb_pend(at + 1u, s);
    }
}

// ---------------------------------------------------------------- accesses

// A plain load or store of word `word` (of the engine's words; `var_word`
// is its word in its variable, for the report) at `site`, after `barriers`
// control barriers of any kind: checked against the word's history, then
// added to it, under the word's lock.
fn wgrace_hb_access(word: u32, var_word: u32, site: u32, write: bool, barriers: u32) {
    let at = WGRACE_HB_HISTORIES + word * WGRACE_HB_WORD_WORDS;
    for (var spin = 0u; spin < WGRACE_HB_SPIN; spin++) {
        if atomicCompareExchangeWeak(&wgrace_shadow_u64[at], 0lu, 1lu).exchanged {
            wgrace_hb_check(at + 1u, var_word, site, write, barriers);
            atomicStore(&wgrace_shadow_u64[at], 0lu);
            return;
        }
    }
    wgrace_hb_unchecked();
}

fn wgrace_hb_check(history: u32, var_word: u32, site: u32, write: bool, barriers: u32) {
    let me = wgrace_hb_me();
    let count = u32(atomicLoad(&wgrace_shadow_u64[wgrace_hb_clock(me) + me]));
    var free = WGRACE_HB_HISTORY;
    for (var k = 0u; k < WGRACE_HB_HISTORY; k++) {
        let e0 = atomicLoad(&wgrace_shadow_u64[history + 2u * k]);
        let e1 = atomicLoad(&wgrace_shadow_u64[history + 2u * k + 1u]);
        if e1 == 0lu {
            free = min(free, k);
            continue;
        }
        let i = u32(e0 >> 32u);
        let e_site = u32(e1) & 0x3fffu;
        let e_write = (u32(e1) & 0x4000u) != 0u;
        let before = wgrace_hb_before(i, u32(e0));
        if !before && (write || e_write) {
            let g = wgrace_hb_workgroup_of(i);
            var race_class = WGRACE_CLASS_INTER;
            if g == wgrace_g {
                race_class = select(WGRACE_CLASS_INTRA, WGRACE_CLASS_BARRIER_KIND, ((u32(e1) >> 16u) & 0xffffu) != barriers);
            }
            wgrace_record(race_class, var_word, e_site, g, i % WGRACE_HB_WG_SIZE, e_write, site);
        }
        // An access of this site that happens before this one is no longer
        // needed: whatever races with it races with this one too.
        if before && e_site == site && e_write == write {
            atomicStore(&wgrace_shadow_u64[history + 2u * k + 1u], 0lu);
            free = min(free, k);
        }
    }
    if free == WGRACE_HB_HISTORY {
        wgrace_hb_unchecked();
        return;
    }
    atomicStore(&wgrace_shadow_u64[history + 2u * free], u64(count) | (u64(me) << 32u));
    let e1 = site | (u32(write) << 14u) | 0x8000u | ((barriers & 0xffffu) << 16u);
    atomicStore(&wgrace_shadow_u64[history + 2u * free + 1u], u64(e1));
}
