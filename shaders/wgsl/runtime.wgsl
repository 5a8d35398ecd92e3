// wgrace runtime: what every instrumented shader links, whatever checks run.
//
// The instrumentation pass (wgrace-instrument) parses this file after a
// generated prelude of `const WGRACE_*` declarations (see `Prelude` in
// shaders/src/lib.rs), followed by the checks' WGSL (wgsl/checks/<id>/) and
// the generated functions that forward the runtime's events to them, links
// the result into the user's module at the naga IR level and calls:
//
//   wgrace_begin            once, at the start of the wrapped entry point;
//   wgrace_barrier          after every workgroup control barrier of the user's
//                           code (and workgroupUniformLoad), with its kind and id;
//   wgrace_wg_access        for every load/store of `var<workgroup>` memory and
//   wgrace_storage_access   for every load/store of writable storage memory
//                           (the data-race check's hooks, checks/data_race/);
//   wgrace_atomic_memory    after every atomic access of a variable that has
//                           atomics of a scope narrower than the device, or
//                           plain accesses of memory atomics access too;
//   wgrace_end              once, when the entry point's body returns.
//
// This file holds what the checks share: the bindings, the invocation's
// identity, the log's counters and the record table. Each check handles the
// events it needs: wgrace_begin, wgrace_barrier and wgrace_end call
// wgrace_checks_on_begin/_barrier/_end, generated for the checks linked into
// the shader (shaders/src/lib.rs, runtime_source), which call each check's
// wgrace_<check>_on_<event>. A check records what it finds with
// wgrace_record_pair under codes of its own (WGRACE_CODE_<CHECK>); records are
// deduplicated on the GPU by (code, unordered pair of ids), and the host
// decodes each by the check that owns its code.

// ---------------------------------------------------------------- bindings

struct WgraceVar {
    // First word of this variable in its shadow (storage variables), or in
    // a workgroup slot (workgroup variables).
    base: u32,
    // Size of the variable in 4-byte words.
    words: u32,
    // log2 of the words in one range of the variable's spread
    // (wgrace_spread_memory).
    range_shift: u32,
    // First 64-bit word, in wgrace_shadow_u64, of the per-word state that
    // the checks handling wgrace_atomic_memory keep for this variable.
    atomic_base: u32,
}

struct WgraceParams {
    // Linear index, in the original dispatch, of this chunk's first workgroup.
    chunk_base: u32,
    // Number of workgroups in the original dispatch.
    total_workgroups: u32,
    // Entries of the witness cache minus one (a power of two; identities
    // of at most 48 bits, WGRACE_ST_WITNESS_CACHE).
    witness_mask: u32,
    // log2 of the entries of the direct-mapped storage state cache (with
    // WGRACE_ST_TAG_BITS != 0).
    cache_bits: u32,
    // Workgroup counts of the original dispatch (w unused).
    dispatch: vec4<u32>,
    // Entries of the race pair table.
    pair_capacity: u32,
    // Tracked storage words (statement mode's storage check walks them).
    storage_words: u32,
    // log2 of the words that share a witness cache entry's place (half the
    // entries): the part of a word above it tags the entry.
    witness_shift: u32,
    // 8-byte entries each invocation's replay stream holds, besides the one
    // that takes the entries beyond them (the data-race check's record and
    // replay, checks/data_race/hooks/replay.wgsl).
    trace_capacity: u32,
    // Where workgroup slot 0's table of written values starts in the log
    // (with WGRACE_VALUE_SITES != 0; see wgrace_written).
    slot_values_at: u32,
    // The spread grid (wgrace_spread_cell): cells along x and y, and log2
    // of a cell's workgroups along x, y and z, 8 bits each.
    spread_cells_x: u32,
    spread_cells_y: u32,
    spread_shifts: u32,
    vars: array<WgraceVar, WGRACE_VARS>,
}

// Group and binding numbers are assigned when the runtime is linked.
@group(0) @binding(0) var<uniform> wgrace_params: WgraceParams;
// Addr mode: one state word per tracked storage word (or per entry of the
// direct-mapped cache).
@group(0) @binding(1) var<storage, read_write> wgrace_shadow: array<atomic<WgraceState>>;
// Counters, then the record table's keys and counts, then its spreads, then
// the written values' tables (with WGRACE_VALUE_SITES != 0: the sites',
// the storage words'), then (unless WGRACE_WG_RESIDENT) the data-race
// check's workgroup-memory shadow slots (from wgrace_log_slots_at()), then
// the workgroup slots' written values (from slot_values_at).
@group(0) @binding(2) var<storage, read_write> wgrace_log: array<atomic<u32>>;
// The record table's examples, one per entry: written once, by the
// invocation that claimed the entry, so a plain store suffices. Every access
// site inlines the recording code, so it is kept to three memory operations.
// After them, from WGRACE_EXAMPLES * pair_capacity, the host's spread table:
// the dispatch grid's cells and the dispatch (wgrace_spread_cell), then each
// site's variable, four sites to an element (wgrace_site_var).
@group(0) @binding(3) var<storage, read_write> wgrace_examples: array<vec4<u32>>;
// Addr mode: the storage witnesses (see wgrace_witness_store). Statement
// mode: its storage slots.
@group(0) @binding(4) var<storage, read_write> wgrace_shadow_u64: array<atomic<u64>>;

// ---------------------------------------------------------------- log layout

// Counters (mirrored by `LogHeader` in shaders/src/abi.rs). The number of
// detections is the sum of the table's counts plus WGRACE_LOG_DROPPED.
const WGRACE_LOG_DROPPED: u32 = 0u;         // detections whose pair found no table entry
const WGRACE_LOG_OUT_OF_BOUNDS: u32 = 1u;   // out-of-bounds accesses, not checked
const WGRACE_LOG_EPOCH_OVERFLOW: u32 = 2u;  // workgroups that stopped tracking storage
const WGRACE_LOG_SUBGROUP_SIZE: u32 = 3u;   // largest subgroup size seen (1 without subgroups)
const WGRACE_LOG_SLOT_OVERFLOW: u32 = 4u;   // statement mode: accesses that found no slot
const WGRACE_LOG_NONLINEAR: u32 = 5u;       // invocations whose subgroup is not a block of consecutive indices
const WGRACE_LOG_ACCESSES: u32 = 6u;        // instrumented accesses executed (low, high word), with WGRACE_COUNT_ACCESSES
const WGRACE_LOG_EVICTED: u32 = 8u;         // storage states of one word that the direct-mapped cache gave to another
const WGRACE_LOG_TRACE_NEEDED: u32 = 9u;    // most entries one invocation recorded for replay
const WGRACE_LOG_TRACE_LOST: u32 = 10u;     // recorded entries that did not fit the replay streams, not checked
const WGRACE_LOG_REPLAY_UNREACHED: u32 = 11u; // recorded entries the replay never reached (its loop was cut short), not checked
const WGRACE_LOG_LOWEST_WORKGROUP: u32 = 12u; // bitwise not of the lowest workgroup in a memory record (0: none)
const WGRACE_LOG_HB_UNCHECKED: u32 = 13u; // happens-before engine: synchronization or accesses it could not follow, not checked
const WGRACE_LOG_CHECKS_CUT: u32 = 14u; // statement mode: workgroup words whose check a driver ended early, not checked
const WGRACE_LOG_HB_CLASS_UNSURE: u32 = 15u; // happens-before engine: what its strong and wide programs and lockset could not follow (races' classes only)
const WGRACE_LOG_HEADER: u32 = 16u;

// The record table (`RecordEntry` in shaders/src/abi.rs): entry i is (key,
// count, aux, values) at WGRACE_LOG_HEADER + 4i in the log and its first
// WGRACE_EXAMPLES examples in wgrace_examples[WGRACE_EXAMPLES * i ..]. The key
// holds a check's record code and two ids (for races: the class and the two
// sites, hence the variable); an example holds (workgroup of the lower id's
// event, workgroup of the higher's, a word, invocation of the lower's | that
// of the higher's << 10 | 1 << 20 if the lower id's event came first | 1 << 21
// if the first one wrote). `aux` is the largest value recorded into it (for
// races, the lock-step code); `values` is what the written values' tables
// tell of its events (wgrace_link_values).
const WGRACE_PAIR_WORDS: u32 = 4u;
const WGRACE_EXAMPLES: u32 = 4u;

// Each entry's spread (`SPREAD_*` in shaders/src/abi.rs), after the table in
// the log: how many of its events happened in each cell of the dispatch grid
// (WGRACE_SPREAD_CELLS words), then, for records of memory, in each range of
// the variable's words (WGRACE_SPREAD_RANGES words). The views of where races
// happen read them (docs/viewer.md); only recording pays for them.
const WGRACE_SPREAD_CELLS: u32 = 256u;
const WGRACE_SPREAD_RANGES: u32 = 64u;
const WGRACE_SPREAD_WORDS: u32 = WGRACE_SPREAD_CELLS + WGRACE_SPREAD_RANGES;

// Barrier kinds passed to wgrace_barrier (0: a control barrier that orders
// neither, such as textureBarrier()), a flag for a SPIR-V control barrier
// of subgroup execution scope (GLSL's subgroupBarrier()), which only the
// invocations of one subgroup wait at: it may sit in control flow that is
// uniform in the subgroup only; and one for a SPIR-V control barrier of
// workgroup execution scope whose memory scope is a subgroup: it orders
// memory only between invocations of one subgroup.
const WGRACE_ORDERS_WORKGROUP: u32 = 1u;
const WGRACE_ORDERS_STORAGE: u32 = 2u;
const WGRACE_BARRIER_SUBGROUP: u32 = 4u;
const WGRACE_BARRIER_SUBGROUP_MEMORY: u32 = 8u;

// Flags passed to wgrace_atomic_memory: the access wrote (a compare-exchange
// only when it exchanged); it is an atomic of buffer memory whose scope is
// narrower than the device (the workgroup's, or a subgroup's or the
// invocation's); it is a plain load or store, not an atomic; it is an atomic
// whose scope is a subgroup (or the invocation); it accesses workgroup
// memory (of which each workgroup has its own); it is an atomic whose scope
// is the invocation.
const WGRACE_ACCESS_WRITE: u32 = 1u;
const WGRACE_ACCESS_NARROW: u32 = 2u;
const WGRACE_ACCESS_PLAIN: u32 = 4u;
const WGRACE_ACCESS_SUBGROUP: u32 = 8u;
const WGRACE_ACCESS_WORKGROUP_MEMORY: u32 = 16u;
const WGRACE_ACCESS_INVOCATION: u32 = 32u;

// ---------------------------------------------------------------- identity

var<private> wgrace_t: u32;          // local invocation index
var<private> wgrace_g: u32;          // linear workgroup index in the original dispatch
var<private> wgrace_slot: u32;       // workgroup slot in this chunk
var<private> wgrace_wid: vec3<u32>;  // workgroup id in the original dispatch
var<private> wgrace_dropped: u32;
// The bitwise not of the lowest workgroup in a memory record this
// invocation made (0: none), for WGRACE_LOG_LOWEST_WORKGROUP.
var<private> wgrace_lowest_workgroup: u32;
var<private> wgrace_sg_size: u32;    // subgroup size (1 where the adapter has no subgroups)
var<private> wgrace_stopped: bool;    // a loop ran past its budget: the invocation returns


fn wgrace_workgroup_id() -> vec3<u32> {
    return wgrace_wid;
}

fn wgrace_num_workgroups() -> vec3<u32> {
    return wgrace_params.dispatch.xyz;
}

// ---------------------------------------------------------------- events

// Called first thing in the entry point, in uniform control flow, with the
// invocation's subgroup size (1 where there are no subgroups).
fn wgrace_begin(local_index: u32, slot_id: vec3<u32>, subgroup_size: u32) {
    wgrace_sg_size = max(subgroup_size, 1u);
    // Read before writing: an atomicMax on this one word by every workgroup
    // cost 9% of a memory-bound kernel at 65,535 workgroups on an H100
    // (docs/performance.md, "Irregular kernels"); reads do not queue.
    if local_index == 0u && atomicLoad(&wgrace_log[WGRACE_LOG_SUBGROUP_SIZE]) < wgrace_sg_size {
        atomicMax(&wgrace_log[WGRACE_LOG_SUBGROUP_SIZE], wgrace_sg_size);
    }
    wgrace_set_identity(local_index, slot_id);
    wgrace_checks_on_begin();
}

// The invocation's place: its local index, its workgroup's slot in this
// chunk, and that workgroup's place in the original dispatch. (Also called
// by passes that run over the same chunk, such as the data-race check's
// replay pass.)
fn wgrace_set_identity(local_index: u32, slot_id: vec3<u32>) {
    wgrace_t = local_index;
    // Chunks are dispatched as (n, 1, 1) grids.
    wgrace_slot = slot_id.x;
    wgrace_g = wgrace_params.chunk_base + slot_id.x;
    // Every invocation pays for this: no division for a 1-D dispatch (the
    // common case, and a uniform branch), two otherwise.
    let d = wgrace_params.dispatch.xyz;
    if d.y == 1u && d.z == 1u {
        wgrace_wid = vec3<u32>(wgrace_g, 0u, 0u);
    } else {
        let plane = d.x * d.y;
        let z = wgrace_g / plane;
        let in_plane = wgrace_g - z * plane;
        let y = in_plane / d.x;
        wgrace_wid = vec3<u32>(in_plane - y * d.x, y, z);
    }
}

// Called right after each workgroup control barrier of the user's code, and
// after each workgroupUniformLoad, with what it orders (WGRACE_ORDERS_*) and
// its id (1-based). WGSL puts barriers in uniform control flow, but naga does
// not enforce it: the barrier-divergence check reports when invocations
// disagree.
fn wgrace_barrier(kind: u32, id: u32) {
    wgrace_checks_on_barrier(kind, id);
}

// Called right after each access of a variable that has atomics of a scope
// narrower than the device (a SPIR-V workgroup-scope atomic on buffer
// memory), or memory that both atomics and plain loads or stores access: by
// its atomic accesses, and by its plain ones of such memory. Variable `v`'s
// word `word` (in its variable's words), whether the index was in bounds,
// the access's site and WGRACE_ACCESS_* flags. Checks that handle the event
// keep WGRACE_ATOMIC_STATE_WORDS 64-bit words per word of such a variable in
// wgrace_shadow_u64, from its atomic_base.
fn wgrace_atomic_memory(v: u32, word: u32, in_bounds: bool, site: u32, flags: u32) {
    if !in_bounds {
        atomicAdd(&wgrace_log[WGRACE_LOG_OUT_OF_BOUNDS], 1u);
        return;
    }
    wgrace_checks_on_atomic_memory(v, word, site, flags);
}

// ---------------------------------------------------------------- loops

// The pass counts the iterations of each of the user's loops (`id` in the
// report's loop table) per invocation, when a linked check hooks loops.
//
// Called once when a loop starts iteration `n`, past its budget: the loop
// breaks, and the invocation returns from every function up to the entry
// point (wgrace_is_stopped), which still ends with wgrace_end.
fn wgrace_loop_budget(id: u32, n: u32) {
    wgrace_stopped = true;
    wgrace_checks_on_loop_budget(id, n);
}

// Called after a loop that ended neither by its break nor by its
// `break if`, after `n` iterations: the adapter cut it short (lavapipe ends
// an invocation's loops once they ran 65,535 iterations in all).
fn wgrace_loop_cut(id: u32, n: u32) {
    wgrace_checks_on_loop_cut(id, n);
}

// Called when an index of the user's code (`site` in the report's index
// table) is not below its bound `length`, when a linked check hooks
// out-of-bounds indices (the pass then tests them).
fn wgrace_index_out_of_bounds(site: u32, index: u32, length: u32) {
    wgrace_checks_on_out_of_bounds(site, index, length);
}

// Called after every load, store and atomic of workgroup memory by the
// user's code, when a linked check hooks workgroup accesses: `index` names
// the access in the shader's table of them, `byte` is its first byte in its
// variable.
fn wgrace_workgroup_access(index: u32, byte: u32, in_bounds: bool) {
    wgrace_checks_on_workgroup_access(index, byte, in_bounds);
}

// Called after a loop that waits for storage memory other invocations
// write (a spin-wait) ended by itself, after `n` iterations.
fn wgrace_loop_spin(id: u32, n: u32) {
    wgrace_checks_on_loop_spin(id, n);
}

// Whether a loop of this invocation ran past its budget.
fn wgrace_is_stopped() -> bool {
    return wgrace_stopped;
}

// Called last in the entry point.
fn wgrace_end() {
    wgrace_checks_on_end();
    // After the checks, which may have recorded.
    wgrace_flush_records();
}

// Adds what this invocation's records counted privately to the log: the
// detections it could not record, and the lowest workgroup of its memory
// records. Every entry point that records calls it last. (Kept in private
// variables: a storage atomic at each of a shader's many inlined records
// is a loop over the lanes each on lavapipe, which the driver's compile
// time grows with.)
fn wgrace_flush_records() {
    if wgrace_dropped != 0u {
        atomicAdd(&wgrace_log[WGRACE_LOG_DROPPED], wgrace_dropped);
    }
    if wgrace_lowest_workgroup > atomicLoad(&wgrace_log[WGRACE_LOG_LOWEST_WORKGROUP]) {
        atomicMax(&wgrace_log[WGRACE_LOG_LOWEST_WORKGROUP], wgrace_lowest_workgroup);
    }
}

// ---------------------------------------------------------------- records

// An id as the record table's key holds it, in 13 bits: ids are below
// 0x1fff, and the unknown site (0x3fff, the largest) becomes 0x1fff.
fn wgrace_key_id(id: u32) -> u32 {
    return min(id, 0x1fffu);
}

// Records an event of pair (A, B) under `record_code` in the record table:
// for races, access A (site, workgroup, invocation, whether it wrote) and
// access B, A the earlier one (statement mode's checks see no order, and pass
// either). `aux` (when not 0) is max-combined into the entry.
fn wgrace_record_pair(record_code: u32, word: u32, a_site: u32, a_g: u32, a_t: u32, a_write: bool, b_site: u32,
                      b_g: u32, b_t: u32, aux: u32) -> u32 {
    let a_is_lo = a_site <= b_site;
    let lo = min(a_site, b_site);
    let hi = max(a_site, b_site);
    let found = wgrace_record_entry(record_code, lo, hi);
    let capacity = wgrace_params.pair_capacity;
    if found == capacity {
        return capacity;
    }
    let entry = WGRACE_LOG_HEADER + found * WGRACE_PAIR_WORDS;
    let n = atomicAdd(&wgrace_log[entry + 1u], 1u);
    if n < WGRACE_EXAMPLES {
        let lo_g = select(b_g, a_g, a_is_lo);
        let hi_g = select(a_g, b_g, a_is_lo);
        let lo_t = select(b_t, a_t, a_is_lo);
        let hi_t = select(a_t, b_t, a_is_lo);
        let bits = lo_t | (hi_t << 10u) | (u32(a_is_lo) << 20u) | (u32(a_write) << 21u);
        wgrace_examples[found * WGRACE_EXAMPLES + n] = vec4<u32>(lo_g, hi_g, word, bits);
    }
    if aux != 0u {
        atomicMax(&wgrace_log[entry + 2u], aux);
    }
    wgrace_spread_workgroups(found, a_g, b_g);
    return found;
}

// Adds `n` events under `record_code` and ids (a, b), in that order, to the
// record table, each with `example` as its example (the check that records
// decides what its words hold) and `aux` (when not 0) max-combined into the
// entry; no spread. For checks that tally events and record the tallies
// when the invocation ends: it probes the table in a loop, which must not
// run inside the user's loops (lavapipe counts those iterations against
// the user's).
fn wgrace_record_events(record_code: u32, a: u32, b: u32, n: u32, aux: u32, example: vec4<u32>) {
    let found = wgrace_record_entry(record_code, a, b);
    if found == wgrace_params.pair_capacity {
        return;
    }
    let entry = WGRACE_LOG_HEADER + found * WGRACE_PAIR_WORDS;
    let first = atomicAdd(&wgrace_log[entry + 1u], n);
    for (var k = first; k < min(first + n, WGRACE_EXAMPLES); k++) {
        wgrace_examples[found * WGRACE_EXAMPLES + k] = example;
    }
    if aux != 0u {
        atomicMax(&wgrace_log[entry + 2u], aux);
    }
}

// The record table's entry of key (record_code, a, b): the first, from the
// key's hash, that is free (taken for the key) or has the key; the table's
// capacity when every entry has another's (the record is then counted as
// dropped).
fn wgrace_record_entry(record_code: u32, a: u32, b: u32) -> u32 {
    let key = ((record_code << 27u) | (wgrace_key_id(a) << 13u) | wgrace_key_id(b)) + 1u;
    let capacity = wgrace_params.pair_capacity;
    // The pair's entry: the first, from its hash, that is free or has its
    // key (capacity when every entry has another's).
    var slot = (key * 2654435761u) % capacity;
    var found = capacity;
    for (var probe = 0u; probe < capacity; probe++) {
        let r = atomicCompareExchangeWeak(&wgrace_log[WGRACE_LOG_HEADER + slot * WGRACE_PAIR_WORDS], 0u, key);
        if r.exchanged || r.old_value == key {
            found = slot;
            break;
        }
        if r.old_value != 0u {
            // Another pair's entry: probe the next one. (A spurious failure
            // of the weak exchange leaves old_value 0: retry this entry.)
            slot = (slot + 1u) % capacity;
        }
    }
    if found == capacity {
        wgrace_dropped += 1u;
    }
    return found;
}

// ---------------------------------------------------------------- spreads

// Where the record table's spreads start in the log.
fn wgrace_spread_at(slot: u32) -> u32 {
    return WGRACE_LOG_HEADER + wgrace_params.pair_capacity * WGRACE_PAIR_WORDS + slot * WGRACE_SPREAD_WORDS;
}

// Where the written values' tables start in the log: after the record
// table's spreads, two words per site, then three per tracked storage word
// (wgrace_written).
fn wgrace_values_at() -> u32 {
    return wgrace_spread_at(wgrace_params.pair_capacity);
}

// Where the storage words' table of written values starts in the log.
fn wgrace_word_values_at() -> u32 {
    return wgrace_values_at() + 2u * WGRACE_VALUE_SITES;
}

// Where what follows the record table, its spreads and the written values'
// tables starts in the log.
fn wgrace_log_slots_at() -> u32 {
    let storage = select(0u, 3u * wgrace_params.storage_words, WGRACE_VALUE_SITES != 0u);
    return wgrace_word_values_at() + storage;
}

// ---------------------------------------------------------------- written values
//
// With `--same-value-notes`, the pass calls wgrace_written after each
// checked store, once per 32-bit word of the stored value, and
// wgrace_written_unknown for a value it does not split into words (a
// struct, an array, a matrix, a 16- or 64-bit scalar). Two tables gather
// what was written, each entry the largest word and the largest complement
// of one, so that both start at 0 and one value was written iff the first
// is the complement of the second:
//
//   per site       (2 words) every word the site wrote in the dispatch;
//   per word       (3 words) every word written to one tracked word of
//                  storage memory in the dispatch, or of workgroup memory in
//                  one workgroup; the third word links the word to the
//                  record of the first race recorded on it (its entry + 1).
//
// A race recorded on a word is linked to it (wgrace_link_values), and the
// record's entry counts its events that were (its fourth word, below
// WGRACE_VALUES_DIFFER). After the dispatch, the same-value pass
// (passes/same_value.wgsl) marks the records linked to words that held two
// values: an event of a record whose every event was linked, and that is
// not marked, was between writes of one value. The host reads the site
// table and the marks with the records (a write-write race also counts as
// one of a single value when both its sites wrote one value, the same).
// An entry that already holds two values can learn nothing more: a store
// then costs two loads.
const WGRACE_VALUES_DIFFER: u32 = 1u << 31u;

// `word` is named as the access hooks name it: its place in the
// workgroup's slot (workgroup memory), or its index in variable `var_id`.
fn wgrace_written(site: u32, var_id: u32, word: u32, in_bounds: bool, workgroup_memory: bool, value: u32) {
    if WGRACE_VALUE_SITES == 0u || site >= WGRACE_VALUE_SITES {
        return;
    }
    wgrace_value_add(wgrace_values_at() + 2u * site, value);
    // An access out of bounds is not checked: it has no word.
    if in_bounds {
        let place = select(wgrace_params.vars[var_id].base + word, word, workgroup_memory);
        wgrace_value_add(wgrace_word_entry(place, workgroup_memory), value);
    }
}

fn wgrace_written_unknown(site: u32, var_id: u32, word: u32, words: u32, in_bounds: bool, workgroup_memory: bool) {
    for (var i = 0u; i < words; i++) {
        wgrace_written(site, var_id, word + i, in_bounds, workgroup_memory, 0u);
        wgrace_written(site, var_id, word + i, in_bounds, workgroup_memory, 0xffffffffu);
    }
}

// Adds `value` to the entry of a values table at log word `at`.
fn wgrace_value_add(at: u32, value: u32) {
    let most = atomicLoad(&wgrace_log[at]);
    let least = ~atomicLoad(&wgrace_log[at + 1u]);
    if most == value && least == value {
        return;
    }
    if least != 0xffffffffu && most != least {
        return;
    }
    atomicMax(&wgrace_log[at], value);
    atomicMax(&wgrace_log[at + 1u], ~value);
}

// The log word of the values entry of the word at place `place` in its
// shadow: the storage shadow, or the workgroup's slot.
fn wgrace_word_entry(place: u32, workgroup_memory: bool) -> u32 {
    if workgroup_memory {
        return wgrace_params.slot_values_at + 3u * (wgrace_slot * WGRACE_WG_WORDS + place);
    }
    return wgrace_word_values_at() + 3u * place;
}

// Links the word at `place` in its shadow to record `slot`, which an event
// on it was just recorded in: the first record linked to a word keeps it,
// and only the events linked count as compared.
fn wgrace_link_values(slot: u32, place: u32, workgroup_memory: bool) {
    let at = wgrace_word_entry(place, workgroup_memory) + 2u;
    let link = slot + 1u;
    if atomicLoad(&wgrace_log[at]) != link {
        let r = atomicCompareExchangeWeak(&wgrace_log[at], 0u, link);
        // A spurious failure of the weak exchange leaves the event
        // uncompared: it stays a race of two values.
        if !r.exchanged && r.old_value != link {
            return;
        }
    }
    atomicAdd(&wgrace_log[WGRACE_LOG_HEADER + slot * WGRACE_PAIR_WORDS + 3u], 1u);
}

// Where the host's spread table starts in wgrace_examples.
fn wgrace_spread_table_at() -> u32 {
    return WGRACE_EXAMPLES * wgrace_params.pair_capacity;
}

// The cell of the dispatch grid that holds workgroup `g` (a linear index). A
// cell holds a power of two of workgroups along each axis (the parameters'
// spread grid). Only recording an event runs this; race-free kernels never
// do.
fn wgrace_spread_cell(g: u32) -> u32 {
    let d = wgrace_params.dispatch.xyz;
    let row = g / d.x;
    let z = row / d.y;
    let s = (vec3<u32>(wgrace_params.spread_shifts) >> vec3<u32>(0u, 8u, 16u)) & vec3<u32>(255u);
    let cell = vec3<u32>(g - row * d.x, row - z * d.y, z) >> s;
    return cell.x + wgrace_params.spread_cells_x * (cell.y + wgrace_params.spread_cells_y * cell.z);
}

// Counts an event of entry `slot` in the cells of its two workgroups (once
// when they share one).
fn wgrace_spread_workgroups(slot: u32, a_g: u32, b_g: u32) {
    let at = wgrace_spread_at(slot);
    let b = wgrace_spread_cell(b_g);
    atomicAdd(&wgrace_log[at + b], 1u);
    if a_g != b_g {
        let a = wgrace_spread_cell(a_g);
        if a != b {
            atomicAdd(&wgrace_log[at + a], 1u);
        }
    }
}

// The spread table's entry of site `site`: the tracked variable it
// accesses, | WGRACE_SITE_WORKGROUP_MEMORY if that is workgroup memory.
const WGRACE_SITE_WORKGROUP_MEMORY: u32 = 1u << 31u;

fn wgrace_site_entry(site: u32) -> u32 {
    return wgrace_examples[wgrace_spread_table_at() + 2u + site / 4u][site % 4u];
}

// Counts an event of entry `slot` (wgrace_record_pair's result; the table's
// capacity when it found no entry) in the range of its variable that holds
// `word`, named as the record names it: its place in the shadow
// (`in_shadow`: statement mode's records) or its index in the variable.
// `site` is one of the event's sites (a known one), `a_g` and `b_g` its two
// workgroups: the lowest workgroup of any such event is the timeline's
// default focus (checks/data_race/timeline.wgsl). With written values
// gathered, links the word to the record (wgrace_link_values).
fn wgrace_spread_memory(slot: u32, site: u32, word: u32, in_shadow: bool, a_g: u32, b_g: u32) {
    wgrace_lowest_workgroup = max(wgrace_lowest_workgroup, ~min(a_g, b_g));
    if slot >= wgrace_params.pair_capacity {
        return;
    }
    let entry = wgrace_site_entry(site);
    let v = wgrace_params.vars[entry & ~WGRACE_SITE_WORKGROUP_MEMORY];
    let index = select(word, word - v.base, in_shadow);
    if WGRACE_VALUE_SITES != 0u {
        wgrace_link_values(slot, v.base + index, (entry & WGRACE_SITE_WORKGROUP_MEMORY) != 0u);
    }
    let range = min(index >> v.range_shift, WGRACE_SPREAD_RANGES - 1u);
    atomicAdd(&wgrace_log[wgrace_spread_at(slot) + WGRACE_SPREAD_CELLS + range], 1u);
}
