// wgrace check: atomic-plain.
//
// SPIR-V lets a word be accessed both by atomics and by plain loads and
// stores (naga's reader then makes it atomic, and the plain accesses are
// still plain). An atomic and a plain access of one word, from different
// invocations, at least one writing, race unless something orders them; the
// plain one is not atomic, so the atomic's scope does not help. This check
// runs on the runtime's atomic-memory event (every atomic access, and every
// plain access flagged WGRACE_ACCESS_PLAIN, of memory that both kinds
// access) and reports such pairs:
//
// - of different workgroups (buffers), which nothing orders for this check:
//   exact where the module has no release/acquire synchronization between
//   workgroups (a report note says when it has);
// - of one workgroup (buffers and workgroup memory), when no control barrier
//   that orders that memory separates them (counted on the runtime's barrier
//   event).
//
// Where release and acquire synchronization can order such a pair, the
// data-race check's happens-before engine checks the memory instead
// (wgrace_hb_checks_atomics).
//
// It records under WGRACE_CODE_ATOMIC_PLAIN (+1 when the later access
// wrote); the host decodes the records in instrument/src/checks/atomic_plain/,
// and links after this file within/state.wgsl (the state within a
// workgroup, wgrace_ap_within), after a generated wgrace_ap_local_at (where
// a word's state within the workgroup lives) and WGRACE_AP_LOCAL_WORDS, or,
// when no memory has such a state, within/none.wgsl.
//
// Both kinds of state keep, for each of four categories of a word's
// accesses (plain accesses, plain writes, atomic accesses, atomic writes),
// whether it has accesses of no one, of one (a workgroup across workgroups,
// an invocation within one), or of several, and an id for each side (plain,
// atomic): a side's writes are among its accesses, so when both hold one
// it is the same one. An access races exactly when the other side's
// category it conflicts with holds someone other than itself: for a plain
// write, the atomics; a plain read, the atomic writes; an atomic write, the
// plain accesses; an atomic read, the plain writes. The verdict does not
// depend on the order in which the state word sees the accesses, so one
// compare-exchange per change suffices. Each category keeps two witnesses:
// the accesses that took it from none to one and from one to several.
//
// Across workgroups, each word has 9 64-bit words of this check's in
// wgrace_shadow_u64 (from WGRACE_ATOMIC_STATE_AT_ATOMIC_PLAIN among the
// word's WGRACE_ATOMIC_STATE_WORDS, from the variable's atomic_base): the
// state, then the witnesses (bit 63 set, bit 62 if it wrote, the site in bits
// 42-55, the invocation in bits 32-41, the workgroup in bits 0-31):
//
//   bits 56-63   the categories, two bits each (0 none, 1 one, 2 several;
//                3 in the first: the word raced, recorded once)
//   bits 28-55   the workgroup of the atomic side
//   bits 0-27    the workgroup of the plain side
//
// Workgroups are told apart by 28 bits: the host marks the report
// incomplete for larger dispatches.
//
// Within a workgroup, the words the host could fit have a state word and
// eight witnesses in workgroup memory (which WGSL zero-initialises for each
// workgroup); witnesses hold the storage-barrier epoch in bits 0-31 instead
// of the workgroup:
//
//   bits 32-63   the epoch: control barriers ordering the memory (buffer or
//                workgroup) the workgroup executed before these accesses (an
//                access of a later epoch starts afresh: everything before is
//                ordered)
//   bits 24-31   the categories, as above
//   bits 10-19   the invocation of the atomic side
//   bits 0-9     the invocation of the plain side

// The control barriers this invocation executed that order buffer memory,
// and workgroup memory.
var<private> wgrace_ap_epoch: u32;
var<private> wgrace_ap_shared_epoch: u32;

const WGRACE_AP_ID_MASK: u32 = 0x0fffffffu;
const WGRACE_AP_NONE: u32 = 0xffffffffu;

// A state, unpacked: the categories (two bits each, category c at 2c) and
// the id of each side (x: plain, y: atomic).
struct WgraceApState {
    categories: u32,
    ids: vec2<u32>,
}

// A state with an access added: the categories that went from none to one
// (`first`) and from one to several (`second`), a bit each.
struct WgraceApAdded {
    state: WgraceApState,
    first: u32,
    second: u32,
}

fn wgrace_ap_count(s: WgraceApState, c: u32) -> u32 {
    return (s.categories >> (2u * c)) & 3u;
}

fn wgrace_ap_raced(s: WgraceApState) -> bool {
    return wgrace_ap_count(s, 0u) == 3u;
}

// Whether category `c` holds an access of someone other than `me`.
fn wgrace_ap_races(s: WgraceApState, c: u32, me: u32) -> bool {
    let n = wgrace_ap_count(s, c);
    return n == 2u || (n == 1u && s.ids[c / 2u] != me);
}

// `s` with an access of `me` to the categories from `side` (its accesses)
// to `side + 1` (its writes) when it wrote.
fn wgrace_ap_add(s: WgraceApState, side: u32, write: bool, me: u32) -> WgraceApAdded {
    var out = WgraceApAdded(s, 0u, 0u);
    for (var c = side; c <= side + u32(write); c++) {
        let n = wgrace_ap_count(s, c);
        if n == 0u {
            out.state.categories |= 1u << (2u * c);
            out.state.ids[side / 2u] = me;
            out.first |= 1u << c;
        } else if n == 1u && s.ids[side / 2u] != me {
            out.state.categories = (out.state.categories & ~(3u << (2u * c))) | (2u << (2u * c));
            out.second |= 1u << c;
        }
    }
    return out;
}

fn wgrace_ap_unpack_across(w: u64) -> WgraceApState {
    return WgraceApState(u32(w >> 56u), vec2<u32>(u32(w) & WGRACE_AP_ID_MASK, u32(w >> 28u) & WGRACE_AP_ID_MASK));
}

fn wgrace_ap_pack_across(s: WgraceApState) -> u64 {
    return (u64(s.categories) << 56u) | (u64(s.ids.y & WGRACE_AP_ID_MASK) << 28u) | u64(s.ids.x & WGRACE_AP_ID_MASK);
}

fn wgrace_ap_unpack_within(w: u64) -> WgraceApState {
    let low = u32(w);
    return WgraceApState((low >> 24u) & 255u, vec2<u32>(low & 1023u, (low >> 10u) & 1023u));
}

fn wgrace_ap_pack_within(s: WgraceApState, epoch: u32) -> u64 {
    return (u64(epoch) << 32u) | u64((s.categories << 24u) | (s.ids.y << 10u) | s.ids.x);
}

// A witness of this invocation's access: `place` is its workgroup (across
// workgroups) or its epoch (within one).
fn wgrace_ap_witness(site: u32, write: bool, place: u32) -> u64 {
    return (1lu << 63u) | (u64(write) << 62u) | (u64(site) << 42u) | (u64(wgrace_t) << 32u) | u64(place);
}

// Records a race of the access (site, write) with witness `w` of
// workgroup `w_g` (0 for none found).
fn wgrace_ap_record(word: u32, site: u32, write: bool, w: u64, w_g: u32) {
    var w_site = 0x3fffu;
    if w != 0lu {
        w_site = u32(w >> 42u) & 0x3fffu;
    }
    wgrace_record_pair(WGRACE_CODE_ATOMIC_PLAIN + u32(write), word, w_site, w_g, u32(w >> 32u) & 0x3ffu,
                       ((w >> 62u) & 1lu) != 0lu, site, wgrace_g, wgrace_t, 0u);
}

fn wgrace_atomic_plain_on_barrier(kind: u32, id: u32) {
    if (kind & WGRACE_ORDERS_STORAGE) != 0u {
        wgrace_ap_epoch += 1u;
    }
    if (kind & WGRACE_ORDERS_WORKGROUP) != 0u {
        wgrace_ap_shared_epoch += 1u;
    }
}

fn wgrace_atomic_plain_on_atomic_memory(v: u32, word: u32, site: u32, flags: u32) {
    // The happens-before engine checks the atomics of the memory it follows
    // where release and acquire synchronization can order them
    // (engine/record.wgsl).
    if wgrace_hb_checks_atomics(v) {
        return;
    }
    let write = (flags & WGRACE_ACCESS_WRITE) != 0u;
    let plain = (flags & WGRACE_ACCESS_PLAIN) != 0u;
    // The access's side (its categories from there) and the other side's
    // category it conflicts with.
    let side = select(2u, 0u, plain);
    let other = select(2u, 0u, !plain) + u32(!write);
    // Every workgroup has its own workgroup memory.
    let workgroup_memory = (flags & WGRACE_ACCESS_WORKGROUP_MEMORY) != 0u;
    if !workgroup_memory {
        wgrace_ap_across(v, word, site, write, side, other);
    }
    let local = wgrace_ap_local_at(v, word);
    if local != WGRACE_AP_NONE {
        // Memory no barrier orders (private plain accesses under SPIR-V's
        // Vulkan memory model; wgrace_atomic_plain_barriers_order, generated
        // by the host): all of its accesses are of the workgroup's first
        // epoch.
        let epoch = select(wgrace_ap_epoch, wgrace_ap_shared_epoch, workgroup_memory);
        wgrace_ap_within(local, word, site, write, side, other,
                         select(0u, epoch, wgrace_atomic_plain_barriers_order(v)));
    }
}

fn wgrace_ap_across(v: u32, word: u32, site: u32, write: bool, side: u32, other: u32) {
    let at = wgrace_params.vars[v].atomic_base + word * WGRACE_ATOMIC_STATE_WORDS
        + WGRACE_ATOMIC_STATE_AT_ATOMIC_PLAIN;
    let me = wgrace_g & WGRACE_AP_ID_MASK;
    var old = atomicLoad(&wgrace_shadow_u64[at]);
    loop {
        let s = wgrace_ap_unpack_across(old);
        if wgrace_ap_raced(s) {
            return;
        }
        if wgrace_ap_races(s, other, me) {
            break;
        }
        let added = wgrace_ap_add(s, side, write, me);
        let next = wgrace_ap_pack_across(added.state);
        if next == old {
            return;
        }
        let r = atomicCompareExchangeWeak(&wgrace_shadow_u64[at], old, next);
        if r.exchanged {
            let w = wgrace_ap_witness(site, write, wgrace_g);
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
    let raced = 3lu << 56u;
    if (atomicOr(&wgrace_shadow_u64[at], raced) & raced) == raced {
        return;
    }
    // A witness of the conflicting category, of another workgroup.
    var w = 0lu;
    for (var k = 1u; k <= 2u; k++) {
        let candidate = atomicLoad(&wgrace_shadow_u64[at + 2u * other + k]);
        if w == 0lu && (candidate >> 63u) != 0lu && u32(candidate) != wgrace_g {
            w = candidate;
        }
    }
    wgrace_ap_record(word, site, write, w, select(wgrace_g, u32(w), w != 0lu));
}
