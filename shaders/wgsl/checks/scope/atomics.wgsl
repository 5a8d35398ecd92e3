// wgrace check: scope, for atomics.
//
// Under the Vulkan memory model two atomic accesses of one word are
// mutually ordered only if each one's scope includes the other's
// invocation; when they are not, they race as plain accesses would. This
// check runs on the runtime's atomic-memory event (every atomic access of
// memory with atomics narrower than its extent, with WGRACE_ACCESS_* flags)
// and reports conflicting atomic accesses (at least one writing) that are
// not mutually ordered and that nothing else orders:
//
// - of different workgroups, at least one narrower than the device (a
//   SPIR-V workgroup-scope atomic on buffer memory): nothing orders
//   accesses of different workgroups for this check, which is exact where
//   the module has no release/acquire synchronization between workgroups
//   (where it has, the happens-before engine checks the atomics of the
//   buffers it follows, which this check leaves to it; a report note says
//   when the engine does not run);
// - of different subgroups of one workgroup, at least one of subgroup scope,
//   with no workgroup control barrier between them that orders their memory
//   (a subgroup barrier orders neither: it orders its own subgroup, within
//   which subgroup-scope atomics are mutually ordered anyway).
//
// It records under WGRACE_CODE_SCOPE (+1 when the later access wrote); the
// host decodes the records in instrument/src/checks/scope/, and links after
// this file within/state.wgsl (the state within a workgroup,
// wgrace_scope_within), after a generated wgrace_scope_local_at (where a
// word's state within the workgroup lives) and WGRACE_SCOPE_LOCAL_WORDS, or,
// when no memory has such a state, within/none.wgsl.
//
// Both kinds of state hold, for each of four categories of a word's
// accesses (any atomic, atomic writes, narrow atomics, narrow atomic writes;
// narrow: narrower than the device across workgroups, of subgroup scope
// within one), whether it has accesses of no one, of one (a workgroup
// across workgroups, a subgroup within one), or of several, and one id. One
// id suffices: until a word's first race, every category that holds one
// accessor holds the same one (a category gaining an accessor while another
// holds a different one would make the new access race with that other's,
// or take that other category, which the new access belongs to as well, to
// several). An access races exactly when the category it conflicts with
// holds an accessor other than its own: for a narrow access, the writes
// (every access when it writes itself); for a wide one, the narrow writes
// (every narrow access when it writes). The verdict does not depend on the
// order in which the state word sees the accesses, so one compare-exchange
// per change suffices, and an access that changes nothing costs one load.
// Each category keeps two witnesses, the accesses that took it from none to
// one and from one to several: at a race one of the two is of another
// accessor.
//
// Across workgroups, each word of buffer memory has 9 64-bit words of this
// check's in wgrace_shadow_u64 (from WGRACE_ATOMIC_STATE_AT_SCOPE among the
// word's WGRACE_ATOMIC_STATE_WORDS, from the variable's atomic_base): the
// state, then the witnesses (bit 63 set, bit 62 if it wrote, the site in bits
// 42-55, the invocation in bits 32-41, the workgroup in bits 0-31):
//
//   bit  40      set: the word raced (recorded once, then left alone)
//   bits 32-39   the categories, two bits each (0 none, 1 one, 2 several)
//   bits 0-31    the workgroup (linear index) of every category with one
//
// Within a workgroup, the words of memory with subgroup-scope atomics that
// the host could fit have a state word and eight witnesses in workgroup
// memory (which WGSL zero-initialises for each workgroup); witnesses hold
// the barrier epoch in bits 0-31 instead of the workgroup:
//
//   bits 32-63   the epoch: workgroup control barriers ordering the memory's
//                kind that the workgroup executed before these accesses (an
//                access of a later epoch starts afresh)
//   bit  24      set: the word raced in this epoch
//   bits 16-23   the categories, as above
//   bits 0-9     the subgroup (local invocation index / subgroup size)

// Workgroup barriers ordering buffer memory (x) and workgroup memory (y);
// and those and subgroup barriers, for the state of invocation-scope
// atomics (within/state.wgsl, level 1).
var<private> wgrace_scope_epochs: vec2<u32>;
var<private> wgrace_scope_lane_epochs: vec2<u32>;

const WGRACE_SCOPE_ANY: u32 = 0u;
const WGRACE_SCOPE_WRITES: u32 = 1u;
const WGRACE_SCOPE_NARROW: u32 = 2u;
const WGRACE_SCOPE_NARROW_WRITES: u32 = 3u;
const WGRACE_SCOPE_NONE: u32 = 0xffffffffu;

// A state, unpacked: the categories (two bits each, category c at 2c), the
// id, and whether the word raced.
struct WgraceScopeState {
    categories: u32,
    id: u32,
    raced: bool,
}

// A state with an access added, and the categories that went from none to
// one (`first`) and from one to several (`second`), a bit each.
struct WgraceScopeAdded {
    state: WgraceScopeState,
    first: u32,
    second: u32,
}

fn wgrace_scope_count(s: WgraceScopeState, c: u32) -> u32 {
    return (s.categories >> (2u * c)) & 3u;
}

// Whether category `c` holds an access of an accessor other than `me`.
fn wgrace_scope_other(s: WgraceScopeState, c: u32, me: u32) -> bool {
    let n = wgrace_scope_count(s, c);
    return n == 2u || (n == 1u && s.id != me);
}

// `s` with an access of `me` to the categories in the bits of `mine`.
fn wgrace_scope_add(s: WgraceScopeState, mine: u32, me: u32) -> WgraceScopeAdded {
    var out = WgraceScopeAdded(s, 0u, 0u);
    for (var c = 0u; c < 4u; c++) {
        if ((mine >> c) & 1u) == 0u {
            continue;
        }
        let n = wgrace_scope_count(s, c);
        if n == 0u {
            out.state.categories |= 1u << (2u * c);
            out.state.id = me;
            out.first |= 1u << c;
        } else if n == 1u && s.id != me {
            out.state.categories = (out.state.categories & ~(3u << (2u * c))) | (2u << (2u * c));
            out.second |= 1u << c;
        }
    }
    return out;
}

fn wgrace_scope_on_barrier(kind: u32, id: u32) {
    let orders = vec2<u32>(u32((kind & WGRACE_ORDERS_STORAGE) != 0u), u32((kind & WGRACE_ORDERS_WORKGROUP) != 0u));
    wgrace_scope_lane_epochs += orders;
    // A subgroup barrier orders only its subgroup.
    if (kind & WGRACE_BARRIER_SUBGROUP) != 0u {
        return;
    }
    wgrace_scope_epochs += orders;
}

// The witness of this invocation's access: `place` is its workgroup (across
// workgroups) or its epoch (within one).
fn wgrace_scope_witness_of(site: u32, write: bool, place: u32) -> u64 {
    return (1lu << 63u) | (u64(write) << 62u) | (u64(site) << 42u) | (u64(wgrace_t) << 32u) | u64(place);
}

// Records a race of the access (site, write) with witness `w` (0 for none
// found) of workgroup `w_g`.
fn wgrace_scope_record(word: u32, site: u32, write: bool, w: u64, w_g: u32) {
    var w_site = 0x3fffu;
    if w != 0lu {
        w_site = u32(w >> 42u) & 0x3fffu;
    }
    wgrace_record_pair(WGRACE_CODE_SCOPE + u32(write), word, w_site, w_g, u32(w >> 32u) & 0x3ffu,
                       ((w >> 62u) & 1lu) != 0lu, site, wgrace_g, wgrace_t, 0u);
}

fn wgrace_scope_on_atomic_memory(v: u32, word: u32, site: u32, flags: u32) {
    // Plain accesses (which the event also reports) are the atomic-plain
    // check's.
    if (flags & WGRACE_ACCESS_PLAIN) != 0u {
        return;
    }
    let write = (flags & WGRACE_ACCESS_WRITE) != 0u;
    let workgroup_memory = (flags & WGRACE_ACCESS_WORKGROUP_MEMORY) != 0u;
    // The happens-before engine checks the atomics of the buffers it
    // follows where release and acquire synchronization can order them
    // (engine/atomics.wgsl).
    if !workgroup_memory && wgrace_hb_checks_atomics(v) {
        return;
    }
    if !workgroup_memory {
        wgrace_scope_across(v, word, site, write, (flags & WGRACE_ACCESS_NARROW) != 0u);
    }
    let local = wgrace_scope_local_at(v, word);
    if local != WGRACE_SCOPE_NONE {
        wgrace_scope_within(local, word, site, write, flags, workgroup_memory);
    }
}

// The categories an access belongs to (a bit each), and the one whose
// accesses of other accessors it races with.
fn wgrace_scope_mine(write: bool, narrow: bool) -> u32 {
    return 1u | (u32(write) << 1u) | (u32(narrow) << 2u) | (u32(narrow && write) << 3u);
}

fn wgrace_scope_against(write: bool, narrow: bool) -> u32 {
    if narrow {
        return select(WGRACE_SCOPE_WRITES, WGRACE_SCOPE_ANY, write);
    }
    return select(WGRACE_SCOPE_NARROW_WRITES, WGRACE_SCOPE_NARROW, write);
}

fn wgrace_scope_across(v: u32, word: u32, site: u32, write: bool, narrow: bool) {
    let at = wgrace_params.vars[v].atomic_base + word * WGRACE_ATOMIC_STATE_WORDS + WGRACE_ATOMIC_STATE_AT_SCOPE;
    let mine = wgrace_scope_mine(write, narrow);
    let against = wgrace_scope_against(write, narrow);
    let g = wgrace_g;
    var old = atomicLoad(&wgrace_shadow_u64[at]);
    loop {
        let s = WgraceScopeState(u32(old >> 32u) & 255u, u32(old), ((old >> 40u) & 1lu) != 0lu);
        if s.raced {
            return;
        }
        if wgrace_scope_other(s, against, g) {
            break;
        }
        let added = wgrace_scope_add(s, mine, g);
        let next = (u64(added.state.categories) << 32u) | u64(added.state.id);
        if next == old {
            return;
        }
        let r = atomicCompareExchangeWeak(&wgrace_shadow_u64[at], old, next);
        if r.exchanged {
            let w = wgrace_scope_witness_of(site, write, g);
            for (var c = 0u; c < 4u; c++) {
                if ((added.first >> c) & 1u) != 0u {
                    atomicStore(&wgrace_shadow_u64[at + 2u * c + 1u], w);
                }
                if ((added.second >> c) & 1u) != 0u {
                    atomicStore(&wgrace_shadow_u64[at + 2u * c + 2u], w);
                }
            }
            return;
        }
        old = r.old_value;
    }
    // The word's first race: the invocation that marks it records it.
    let raced = 1lu << 40u;
    if (atomicOr(&wgrace_shadow_u64[at], raced) & raced) != 0lu {
        return;
    }
    // A witness of the conflicting category, of another workgroup.
    var w = 0lu;
    for (var k = 1u; k <= 2u; k++) {
        let candidate = atomicLoad(&wgrace_shadow_u64[at + 2u * against + k]);
        if w == 0lu && (candidate >> 63u) != 0lu && u32(candidate) != g {
            w = candidate;
        }
    }
    wgrace_scope_record(word, site, write, w, select(g, u32(w), w != 0lu));
}
