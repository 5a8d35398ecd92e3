// wgrace statement mode: the storage check, a pass of its own run after the
// instrumented dispatch (stmt.wgsl describes the slots). One invocation per
// tracked storage word, striding over them.

const WGRACE_CHECK_WORKGROUP: u32 = 64u;

@compute @workgroup_size(64)
fn wgrace_stmt_storage_check(@builtin(global_invocation_id) id: vec3<u32>,
                             @builtin(num_workgroups) groups: vec3<u32>) {
    let sg_size = max(atomicLoad(&wgrace_log[WGRACE_LOG_SUBGROUP_SIZE]), 1u);
    let stride = groups.x * WGRACE_CHECK_WORKGROUP;
    for (var word = id.x; word < wgrace_params.storage_words; word += stride) {
        wgrace_stmt_storage_check_word(word, sg_size);
    }
    wgrace_flush_records();
}

fn wgrace_stmt_storage_check_word(word: u32, sg_size: u32) {
    let first = word * WGRACE_ST_SLOT_WORDS * WGRACE_ST_SLOTS;
    for (var p = 0u; p < WGRACE_ST_SLOTS; p++) {
        let sp = first + WGRACE_ST_SLOT_WORDS * p;
        let kp = atomicLoad(&wgrace_shadow_u64[sp]);
        if kp == 0lu {
            break;
        }
        let p_lo = ~atomicLoad(&wgrace_shadow_u64[sp + 1u]);
        let p_hi = atomicLoad(&wgrace_shadow_u64[sp + 2u]);
        for (var q = p; q < WGRACE_ST_SLOTS; q++) {
            let sq = first + WGRACE_ST_SLOT_WORDS * q;
            let kq = atomicLoad(&wgrace_shadow_u64[sq]);
            if kq == 0lu {
                break;
            }
            if ((kp | kq) & (1lu << 15u)) == 0lu {
                continue;
            }
            let q_lo = ~atomicLoad(&wgrace_shadow_u64[sq + 1u]);
            let q_hi = atomicLoad(&wgrace_shadow_u64[sq + 2u]);
            let p_site = u32(kp & 0x7ffflu) - 1u;
            let q_site = u32(kq & 0x7ffflu) - 1u;
            let p_write = (kp & (1lu << 15u)) != 0lu;
            let g_lo = u32(min(p_lo, q_lo) >> 10u);
            let g_hi = u32(max(p_hi, q_hi) >> 10u);
            if g_lo != g_hi {
                // Invocations of two workgroups: one of the extreme pairs
                // has them.
                let candidates = array<vec2<u64>, 4>(vec2(p_lo, q_hi), vec2(p_hi, q_lo), vec2(p_lo, q_lo),
                                                     vec2(p_hi, q_hi));
                var pair = candidates[0];
                for (var i = 0u; i < 4u; i++) {
                    if (candidates[i].x >> 10u) != (candidates[i].y >> 10u) {
                        pair = candidates[i];
                        break;
                    }
                }
                let slot = wgrace_record_pair(WGRACE_CLASS_INTER, word, p_site, u32(pair.x >> 10u),
                                              u32(pair.x) & 1023u, p_write, q_site, u32(pair.y >> 10u),
                                              u32(pair.y) & 1023u, WGRACE_LOCKSTEP_NEVER);
                wgrace_spread_memory(slot, q_site, word, true, u32(pair.x >> 10u), u32(pair.y >> 10u));
                continue;
            }
            // One workgroup: only accesses of one storage epoch are unordered.
            if (kp >> 16u) != (kq >> 16u) {
                continue;
            }
            let fewest = min(~atomicLoad(&wgrace_shadow_u64[sp + 3u]), ~atomicLoad(&wgrace_shadow_u64[sq + 3u]));
            let most = max(atomicLoad(&wgrace_shadow_u64[sp + 4u]), atomicLoad(&wgrace_shadow_u64[sq + 4u]));
            let same_barriers = !WGRACE_ST_COUNT_BARRIERS || fewest == most;
            wgrace_stmt_pair_in_workgroup(word, g_lo, p_site, p_write, u32(p_lo) & 1023u, u32(p_hi) & 1023u, q_site,
                                          u32(q_lo) & 1023u, u32(q_hi) & 1023u, same_barriers, sg_size);
        }
    }
}
