// The data-race check's use of subgroups, for adapters with subgroup
// operations (warp_none.wgsl replaces this file where there are none):
// checking how subgroups are formed, statement mode's warp check, and the
// subgroup-wide reads of addr mode.
//
// Races are classed intra-subgroup when both invocations fall in one block
// of subgroup-size consecutive local indices, the usual way adapters form
// subgroups; wgrace_subgroup_begin counts invocations whose subgroup is not
// such a block, so that the report can say the classification is off.
//
// The warp check is GRace's intra-warp detection (Algorithm 2): after a
// writing statement, the active invocations of a subgroup compare the words
// they touched; two that wrote the same word in the same execution of the
// statement race, and no lock-step execution hides it. GRace writes each
// lane's address to a table in shared memory and relies on the warp running
// in lock-step for the lanes to see each other's entries; WGSL promises no
// such thing, and a barrier cannot be placed in the non-uniform code an
// access may sit in. So the table is the subgroup's registers: the active
// invocations take turns broadcasting their (word, site) with
// subgroupBroadcastFirst, which is defined over the active invocations and
// needs no lane numbers (naga offers none for multi-dimensional workgroups).

// Called by wgrace_begin, in uniform control flow.
fn wgrace_subgroup_begin() {
    let base = wgrace_t - wgrace_t % wgrace_sg_size;
    if subgroupMin(wgrace_t) != base || subgroupMax(wgrace_t) >= base + wgrace_sg_size {
        atomicAdd(&wgrace_log[WGRACE_LOG_NONLINEAR], 1u);
    }
}

// `at`: the word's index in its shadow; `workgroup_memory` says which shadow.
fn wgrace_warp_check(at: u32, site: u32, workgroup_memory: bool) {
    if wgrace_warp_words_differ(at, site, workgroup_memory) {
        return;
    }
    let mine = vec4<u32>(at, site, u32(workgroup_memory), wgrace_t);
    // Each turn, the lowest pending invocation broadcasts and leaves; the
    // others compare with it. Every pair is compared once.
    for (var turn = 0u; turn < wgrace_sg_size; turn++) {
        let first = subgroupBroadcastFirst(mine);
        if first.w == wgrace_t {
            break;
        }
        if all(first.xyz == mine.xyz) {
            // Both wrote; the one that broadcast is reported first.
            let slot = wgrace_record_pair(WGRACE_CLASS_INTRA_SUBGROUP, at, site, wgrace_g, first.w, true, site,
                                          wgrace_g, wgrace_t, WGRACE_LOCKSTEP_NEVER);
            wgrace_spread_memory(slot, site, at, true, wgrace_g, wgrace_g);
        }
    }
}

// True when the active invocations execute one statement (site and
// shadow) and no two of them wrote the same word: the turns of
// wgrace_warp_check would then find nothing. Only the bits of `at` that
// differ between invocations are compared, one ballot each (the lanes whose
// bit is the same as this invocation's are those of the ballot or of its
// complement), so that an access whose invocations write words apart costs
// a few subgroup operations instead of a turn per invocation. When more
// bits differ than the subgroup has invocations, the turns are fewer.
fn wgrace_warp_words_differ(at: u32, site: u32, workgroup_memory: bool) -> bool {
    let statement = vec2<u32>(site, u32(workgroup_memory));
    if !subgroupAll(all(subgroupBroadcastFirst(statement) == statement)) {
        return false;
    }
    var differing = subgroupOr(at) ^ subgroupAnd(at);
    if countOneBits(differing) >= wgrace_sg_size {
        return false;
    }
    var same = subgroupBallot(true);
    while differing != 0u {
        let bit = (at & differing & (0u - differing)) != 0u;
        differing &= differing - 1u;
        let ballot = subgroupBallot(bit);
        same &= select(~ballot, ballot, bit);
    }
    // `same` holds this invocation and those that wrote its word.
    let lanes = countOneBits(same);
    return !subgroupAny(lanes.x + lanes.y + lanes.z + lanes.w > 1u);
}

// GRace's thread-invariant addresses: when every active invocation of the
// subgroup makes the same access (`key`: the word, the site and the barrier
// counts), returns the lowest and highest of their local indices, for the
// lowest to check the access on behalf of all; otherwise (1, 0).
fn wgrace_subgroup_span(key: vec4<u32>) -> vec2<u32> {
    let first = subgroupBroadcastFirst(key);
    if !subgroupAll(all(first == key)) {
        return vec2<u32>(1u, 0u);
    }
    return vec2<u32>(subgroupMin(wgrace_t), subgroupMax(wgrace_t));
}
