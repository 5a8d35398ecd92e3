// wgrace check: banks.
//
// Workgroup memory is split into WGRACE_BANKS banks of 4-byte words (word w
// on bank w % WGRACE_BANKS); distinct words of one bank that a subgroup
// accesses together are served one after another. The pass calls this
// check after every load, store and atomic of workgroup memory, with the
// access's index in the shader's table of them, its first byte in its
// variable and whether it is in bounds (an access out of bounds is left
// out: which word it touches is the adapter's choice). Every active
// invocation learns the degree of its word's bank (distinct words on it)
// from wgrace_banks_degree, which the host generates unrolled for the
// adapter's largest subgroup so that no loop runs inside the user's loops
// (lavapipe counts those iterations against the user's); the subgroup's
// leader tallies the worst bank's degree for the access site, in private
// memory: subgroup accesses, degrees summed, accesses that conflicted, the
// worst degree and an example of it (its bank and two lowest words).
//
// When the invocation ends, each site it tallied becomes records keyed by
// the site's id (wgrace_banks_site_ids): code 0 counts the subgroup
// accesses (aux: the worst degree), 1 their degrees summed (aux: the bank
// count), 2 those with a conflict, and 3, keyed by (site, the invocation's
// worst degree), the invocations whose worst it was, with the example. The
// host decodes them in instrument/src/checks/banks/.
//
// The generated part before this file declares WGRACE_BANKS,
// WGRACE_BANKS_SITES and wgrace_banks_site_ids; after it,
// wgrace_banks_degree.

const WGRACE_BANKS_NONE: u32 = 0xffffffffu;

// What wgrace_banks_count finds for one invocation's words w + c (c < 4):
// how many distinct words of the subgroup's access lie on each one's bank,
// and which of them (bit c) no invocation of lower local index accessed.
struct WgraceBanksCount {
    n: vec4<u32>,
    first: u32,
}

// Per access site: subgroup accesses led, degrees summed, accesses that
// conflicted, the worst degree.
var<private> wgrace_banks_tally: array<vec4<u32>, WGRACE_BANKS_SITES>;
// Per access site, the worst access: its bank | the least degree its words
// allow << 16, its lowest word on that bank, the next (WGRACE_BANKS_NONE
// for none).
var<private> wgrace_banks_worst: array<vec3<u32>, WGRACE_BANKS_SITES>;

// Whether lane `lane` is set in ballot `has`.
fn wgrace_banks_present(has: vec4<u32>, lane: u32) -> bool {
    return ((has[lane / 32u] >> (lane % 32u)) & 1u) != 0u;
}

// An access of one word whose words step evenly over the subgroup's active
// invocations that access one, in lane order (w0, w0 + s, w0 + 2s, ...;
// a row, a column, a broadcast): x = 1, y this invocation's bank's degree
// and z whether its word is the first access of it, in closed form. The
// active lanes' ranks r take banks (w0 + r·s) % WGRACE_BANKS, which repeat
// every WGRACE_BANKS / gcd(s, WGRACE_BANKS) ranks, each once per period
// (distinct words: s is not 0); s = 0 is one word. x = 0 for an access
// that does not step evenly, or when the bank count is not a power of two
// (whose gcd this does not compute).
fn wgrace_banks_progression(w: u32) -> vec3<u32> {
    let word = w != WGRACE_BANKS_NONE;
    let r = subgroupExclusiveAdd(u32(word));
    let n = subgroupAdd(u32(word));
    let w0 = subgroupMin(select(WGRACE_BANKS_NONE, w, word && r == 0u));
    let w1 = subgroupMin(select(WGRACE_BANKS_NONE, w, word && r == 1u));
    let s = select(0u, w1 - w0, n > 1u);
    let even = subgroupAll(!word || w == w0 + r * s);
    if !even || (WGRACE_BANKS & (WGRACE_BANKS - 1u)) != 0u {
        return vec3<u32>(0u);
    }
    if !word {
        return vec3<u32>(1u, 0u, 0u);
    }
    if s == 0u {
        return vec3<u32>(1u, 1u, u32(r == 0u));
    }
    let period = WGRACE_BANKS / min(1u << min(countTrailingZeros(s), 31u), WGRACE_BANKS);
    return vec3<u32>(1u, (n - 1u - r % period) / period + 1u, 1u);
}

// Which of this invocation's words w + c (bit c, c < k) an access of the k
// words from `x` also covers.
fn wgrace_banks_covers(x: u32, w: u32, k: u32) -> u32 {
    let c = vec4<u32>(0u, 1u, 2u, 3u);
    let covered = (vec4<u32>(w) + c - vec4<u32>(x)) < vec4<u32>(k) & c < vec4<u32>(k);
    return dot(select(vec4<u32>(0u), vec4<u32>(1u, 2u, 4u, 8u), covered), vec4<u32>(1u));
}

// For each of this invocation's words w + c: how many of the words x + c2
// whose bit c2 `first` has lie on its bank.
fn wgrace_banks_same_banks(x: u32, first: u32, w: u32) -> vec4<u32> {
    let mine = (vec4<u32>(w) + vec4<u32>(0u, 1u, 2u, 3u)) % WGRACE_BANKS;
    var n = vec4<u32>(0u);
    n += select(vec4<u32>(0u), vec4<u32>(1u), mine == vec4<u32>(x % WGRACE_BANKS) & vec4<bool>((first & 1u) != 0u));
    n += select(vec4<u32>(0u), vec4<u32>(1u), mine == vec4<u32>((x + 1u) % WGRACE_BANKS) & vec4<bool>((first & 2u) != 0u));
    n += select(vec4<u32>(0u), vec4<u32>(1u), mine == vec4<u32>((x + 2u) % WGRACE_BANKS) & vec4<bool>((first & 4u) != 0u));
    n += select(vec4<u32>(0u), vec4<u32>(1u), mine == vec4<u32>((x + 3u) % WGRACE_BANKS) & vec4<bool>((first & 8u) != 0u));
    return n;
}

// The lowest of this invocation's words w + c (c < k) on bank `bank` other
// than `except`; WGRACE_BANKS_NONE for none.
fn wgrace_banks_lowest_on(w: u32, k: u32, bank: u32, except: u32) -> u32 {
    let words = vec4<u32>(w) + vec4<u32>(0u, 1u, 2u, 3u);
    let on = words % WGRACE_BANKS == vec4<u32>(bank) & words != vec4<u32>(except)
        & vec4<u32>(0u, 1u, 2u, 3u) < vec4<u32>(k) & vec4<bool>(w != WGRACE_BANKS_NONE);
    let chosen = select(vec4<u32>(WGRACE_BANKS_NONE), words, on);
    return min(min(chosen.x, chosen.y), min(chosen.z, chosen.w));
}

fn wgrace_banks_on_workgroup_access(index: u32, byte: u32, in_bounds: bool) {
    if index >= WGRACE_BANKS_SITES {
        return;
    }
    let k = wgrace_banks_words[index];
    if k > 4u {
        return;
    }
    let w = select(WGRACE_BANKS_NONE, byte / 4u, in_bounds);
    // How many distinct words of the subgroup's access lie on the bank of
    // each of this invocation's words, which it accessed first.
    let counted = wgrace_banks_count(w, k);
    let degrees = select(vec4<u32>(0u), counted.n, vec4<u32>(0u, 1u, 2u, 3u) < vec4<u32>(k));
    let degree = max(max(degrees.x, degrees.y), max(degrees.z, degrees.w));
    // The bank of the first of its words with that degree.
    let c = select(select(select(3u, 2u, degrees.z == degree), 1u, degrees.y == degree), 0u, degrees.x == degree);
    let bank = (w + c) % WGRACE_BANKS;
    // The worst bank's degree, and the bank (the highest of the worst).
    let worst = subgroupMax(select(0u, (degree << 16u) | bank, degree != 0u));
    if worst == 0u {
        return;
    }
    let d = worst >> 16u;
    let worst_bank = worst & 0xffffu;
    // The least degree the subgroup's distinct words allow.
    let least = (subgroupAdd(countOneBits(counted.first)) + WGRACE_BANKS - 1u) / WGRACE_BANKS;
    let w0 = subgroupMin(wgrace_banks_lowest_on(w, k, worst_bank, WGRACE_BANKS_NONE));
    let w1 = subgroupMin(wgrace_banks_lowest_on(w, k, worst_bank, w0));
    if wgrace_subgroup_leader() {
        var t = wgrace_banks_tally[index];
        t += vec4<u32>(1u, d, u32(d > least), 0u);
        if d > t.w {
            t.w = d;
            wgrace_banks_worst[index] = vec3<u32>(worst_bank | (least << 16u), w0, w1);
        }
        wgrace_banks_tally[index] = t;
    }
}

fn wgrace_banks_on_end() {
    for (var k = 0u; k < WGRACE_BANKS_SITES; k++) {
        let t = wgrace_banks_tally[k];
        if t.x == 0u {
            continue;
        }
        let site = wgrace_banks_site_ids[k];
        let e = wgrace_banks_worst[k];
        let example = vec4<u32>(wgrace_g, e.z, e.y, wgrace_t | ((e.x & 0x3ffu) << 10u) | ((e.x >> 16u) << 20u));
        wgrace_record_events(WGRACE_CODE_BANKS, site, site, t.x, t.w, example);
        wgrace_record_events(WGRACE_CODE_BANKS + 1u, site, site, t.y, WGRACE_BANKS, example);
        if t.z != 0u {
            wgrace_record_events(WGRACE_CODE_BANKS + 2u, site, site, t.z, 0u, example);
            wgrace_record_events(WGRACE_CODE_BANKS + 3u, site, t.w, 1u, 0u, example);
        }
    }
}
