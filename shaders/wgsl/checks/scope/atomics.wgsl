// wgrace check: scope, for atomics.
//
// Under the Vulkan memory model two atomic accesses of one word are
// mutually ordered only if each one's scope includes the other's invocation;
// when they are not, they race as plain accesses would (SPIR-V's atomics of
// workgroup scope, used by two workgroups). This check runs after every
// atomic access of a variable that has atomics narrower than the device
// (the runtime's atomic-memory event, with WGRACE_ACCESS_* flags) and reports an
// atomic access of one workgroup that conflicts with one of another
// workgroup (at least one writing) when at least one of them is narrow.
// Nothing orders atomics of different workgroups for this check, which is
// exact where the module has no release/acquire synchronization between
// workgroups (a report note says when it has). It records through the
// runtime's table under WGRACE_CODE_SCOPE (+1 when the later access wrote);
// the host decodes the records in instrument/src/checks/scope/.
//
// Each word of such a variable has 9 64-bit words of this check's in
// wgrace_shadow_u64 (from WGRACE_ATOMIC_STATE_AT_SCOPE among the word's
// WGRACE_ATOMIC_STATE_WORDS, from the variable's atomic_base): a state word,
// then two witnesses per category. Plain accesses of the variable (which the
// atomic-memory event also reports) are the atomic-plain check's. The state holds, for each of four categories of
// the word's accesses (any atomic, atomic writes, narrow atomics, narrow
// atomic writes), whether it has accesses of no workgroup, of one, or of
// several, and one workgroup id:
//
//   bit  40      set: the word raced (recorded once, then left alone)
//   bits 32-39   the categories, two bits each (0 none, 1 one, 2 several)
//   bits 0-31    the workgroup (linear index) of every category with one
//
// One id suffices: until a word's first race, every category that holds one
// workgroup holds the same one (a category gaining a workgroup while another
// holds a different one would make the new access race with that other's,
// or take that other category to several). An access races exactly when the
// category it conflicts with holds a workgroup other than its own: for a
// narrow access, the writes (or, when it writes, every access); for a device
// one, the narrow writes (or, when it writes, every narrow access). The
// order of a word's accesses does not change the verdict, so the state
// word's compare-exchange needs no other ordering.
//
// A witness is the access that took its category from none to one (the
// first) or from one to several (the second): bit 63 set, bit 62 if it
// wrote, the site in bits 42-55, the invocation in bits 32-41 and the
// workgroup in bits 0-31. At a race one of the two is of another workgroup;
// one written too late to be read makes the record name an access it did
// not record.

const WGRACE_SCOPE_ANY: u32 = 0u;
const WGRACE_SCOPE_WRITES: u32 = 1u;
const WGRACE_SCOPE_NARROW: u32 = 2u;
const WGRACE_SCOPE_NARROW_WRITES: u32 = 3u;
const WGRACE_SCOPE_RACED: u64 = 0x10000000000lu; // bit 40
const WGRACE_SCOPE_UNKNOWN_SITE: u32 = 0x3fffu;

// How many workgroups category `c` of `state` holds: 0, 1 or 2 (several).
fn wgrace_scope_count(state: u64, c: u32) -> u32 {
    return u32(state >> (32u + 2u * c)) & 3u;
}

// Whether category `c` of `state` holds an access of a workgroup other than `g`.
fn wgrace_scope_other(state: u64, c: u32, g: u32) -> bool {
    let n = wgrace_scope_count(state, c);
    return n == 2u || (n == 1u && u32(state) != g);
}

// The witness of category `c` (from `at`) that is of a workgroup other than
// `g`, or 0.
fn wgrace_scope_witness(at: u32, c: u32, g: u32) -> u64 {
    for (var k = 1u; k <= 2u; k++) {
        let w = atomicLoad(&wgrace_shadow_u64[at + 2u * c + k]);
        if (w >> 63u) != 0lu && u32(w) != g {
            return w;
        }
    }
    return 0lu;
}

fn wgrace_scope_on_atomic_memory(v: u32, word: u32, site: u32, flags: u32) {
    if (flags & WGRACE_ACCESS_PLAIN) != 0u {
        return;
    }
    let at = wgrace_params.vars[v].atomic_base + word * WGRACE_ATOMIC_STATE_WORDS + WGRACE_ATOMIC_STATE_AT_SCOPE;
    let write = (flags & WGRACE_ACCESS_WRITE) != 0u;
    let narrow = (flags & WGRACE_ACCESS_NARROW) != 0u;
    // The categories the access belongs to (a bit each), and the one whose
    // accesses of other workgroups it races with.
    let mine = 1u | (u32(write) << 1u) | (u32(narrow) << 2u) | (u32(narrow && write) << 3u);
    var against = select(WGRACE_SCOPE_NARROW_WRITES, WGRACE_SCOPE_NARROW, write);
    if narrow {
        against = select(WGRACE_SCOPE_WRITES, WGRACE_SCOPE_ANY, write);
    }
    let g = wgrace_g;
    var old = atomicLoad(&wgrace_shadow_u64[at]);
    loop {
        if (old & WGRACE_SCOPE_RACED) != 0lu {
            return;
        }
        if wgrace_scope_other(old, against, g) {
            break;
        }
        var next = old;
        var first = 0u;
        var second = 0u;
        for (var c = 0u; c < 4u; c++) {
            if ((mine >> c) & 1u) == 0u {
                continue;
            }
            let shift = 32u + 2u * c;
            let n = wgrace_scope_count(old, c);
            if n == 0u {
                next = (next & ~(3lu << shift) & ~0xfffffffflu) | (1lu << shift) | u64(g);
                first |= 1u << c;
            } else if n == 1u && u32(old) != g {
                next = (next & ~(3lu << shift)) | (2lu << shift);
                second |= 1u << c;
            }
        }
        if next == old {
            return;
        }
        let r = atomicCompareExchangeWeak(&wgrace_shadow_u64[at], old, next);
        if r.exchanged {
            let me = (1lu << 63u) | (u64(write) << 62u) | (u64(site) << 42u) | (u64(wgrace_t) << 32u) | u64(g);
            for (var c = 0u; c < 4u; c++) {
                if ((first >> c) & 1u) != 0u {
                    atomicStore(&wgrace_shadow_u64[at + 2u * c + 1u], me);
                }
                if ((second >> c) & 1u) != 0u {
                    atomicStore(&wgrace_shadow_u64[at + 2u * c + 2u], me);
                }
            }
            return;
        }
        old = r.old_value;
    }
    // The word's first race: the invocation that marks it records it.
    if (atomicOr(&wgrace_shadow_u64[at], WGRACE_SCOPE_RACED) & WGRACE_SCOPE_RACED) != 0lu {
        return;
    }
    let w = wgrace_scope_witness(at, against, g);
    var w_site = WGRACE_SCOPE_UNKNOWN_SITE;
    var w_g = g;
    if w != 0lu {
        w_site = u32(w >> 42u) & 0x3fffu;
        w_g = u32(w);
    }
    wgrace_record_pair(WGRACE_CODE_SCOPE + u32(write), word, w_site, w_g, u32(w >> 32u) & 0x3ffu,
                       ((w >> 62u) & 1lu) != 0lu, site, g, wgrace_t, 0u);
}
