//! The static analyzer: what it proves race-free, what it proves racy (with
//! witnesses that really race), and what it must leave to the runtime.

use std::collections::HashMap;

use naga::valid::Capabilities;
use wgrace_instrument::report::RaceClass;
use wgrace_instrument::{AnalysisInput, Analyzed, BufferFacts, SiteStatus, analyze, prepare};

/// Analyses `source` for `dispatch`; `uniform` is the contents of the
/// binding named `params`, and every runtime-sized array has `len`
/// elements.
fn analysis(source: &str, dispatch: [u32; 3], uniform: &[u32], len: u64) -> Analyzed {
    let shader = wgrace_instrument::Shader::from_wgsl("t.wgsl", source).unwrap_or_else(|e| panic!("{e}"));
    let prepared = prepare(&shader, None, &[], Capabilities::all()).unwrap_or_else(|e| panic!("{e}"));
    let bytes: Vec<u8> = uniform.iter().flat_map(|w| w.to_le_bytes()).collect();
    let mut buffers = HashMap::new();
    for (h, g) in prepared.module.global_variables.iter() {
        let contents = (g.name.as_deref() == Some("params")).then_some(&bytes[..]);
        buffers.insert(h, BufferFacts { runtime_len: Some(len), contents });
    }
    let input = AnalysisInput { dispatch, buffers };
    analyze(&shader, &prepared.module, &prepared.info, &prepared.entry_point, &input).unwrap_or_else(|e| panic!("{e}"))
}

/// `(line, status)` of every checked site.
fn statuses(a: &Analyzed) -> Vec<(u32, SiteStatus)> {
    a.sites
        .sites
        .iter()
        .filter(|s| s.checked)
        .map(|s| (s.location.line.unwrap_or(0), a.analysis.sites[s.id as usize].clone()))
        .collect()
}

fn all_race_free(a: &Analyzed) -> bool {
    statuses(a).iter().all(|(_, s)| *s == SiteStatus::RaceFree)
}

const TREE_REDUCTION: &str = "
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
var<workgroup> s: array<u32, 256>;
@compute @workgroup_size(256)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
    s[lid] = lid;
    workgroupBarrier();
    for (var half = 128u; half > 0u; half = half >> 1u) {
        if lid < half {
            s[lid] = s[lid] + s[lid + half];
        }
        workgroupBarrier();
    }
    if lid == 0u {
        out[wid.x] = s[0];
    }
}";

#[test]
fn a_barrier_separated_tree_reduction_needs_no_instrumentation() {
    // Small dispatch (enumeration) and a large one (dependence tests for
    // the storage write, guarded by `lid == 0`).
    for dispatch in [[4, 1, 1], [65535, 1, 1]] {
        let a = analysis(TREE_REDUCTION, dispatch, &[], 1 << 16);
        assert!(all_race_free(&a), "{dispatch:?}: {:?}", statuses(&a));
        assert!(a.analysis.static_races.is_empty());
        assert_eq!(a.analysis.pruned(), 6);
    }
}

#[test]
fn a_missing_barrier_is_a_static_race_with_a_real_witness() {
    let source = "
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
var<workgroup> tile: array<u32, 64>;
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(global_invocation_id) gid: vec3<u32>) {
    tile[lid] = lid * 2u;
    out[gid.x] = tile[(lid + 1u) % 64u];
}";
    let a = analysis(source, [2, 1, 1], &[], 128);
    assert_eq!(a.analysis.static_races.len(), 1, "{:?}", a.analysis.static_races);
    let race = &a.analysis.static_races[0];
    assert_eq!(race.class, RaceClass::IntraWorkgroup);
    let site = |id: u32| &a.sites.sites[id as usize];
    let (write, read) = if site(race.first).kind == wgrace_instrument::AccessKind::Write {
        (race.first_invocation, race.second_invocation)
    } else {
        (race.second_invocation, race.first_invocation)
    };
    // The witness really touches the word: the writer writes tile[lid], the
    // reader reads tile[(lid + 1) % 64], in one workgroup.
    assert_eq!(u64::from(write.local_invocation_id[0]), race.word);
    assert_eq!(u64::from((read.local_invocation_id[0] + 1) % 64), race.word);
    assert_eq!(write.workgroup_id, read.workgroup_id);
    assert_ne!(write.local_invocation_id, read.local_invocation_id);
    // The store to `out` is race-free; the two tile sites race for certain.
    let st = statuses(&a);
    assert_eq!(st.iter().filter(|(_, s)| *s == SiteStatus::StaticRace).count(), 2, "{st:?}");
    assert_eq!(st.iter().filter(|(_, s)| *s == SiteStatus::RaceFree).count(), 1, "{st:?}");
}

#[test]
fn uniform_values_are_constants_of_the_dispatch() {
    let source = "
struct Params { stride: u32 }
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read_write> data: array<u32>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    data[gid.x * params.stride] = gid.x;
}";
    assert!(all_race_free(&analysis(source, [4, 1, 1], &[1], 256)));
    // Stride 0: every invocation writes data[0], within and across
    // workgroups (the pair is reported once, with one of the two classes).
    let racy = analysis(source, [4, 1, 1], &[0], 256);
    let races = &racy.analysis.static_races;
    assert_eq!(races.len(), 1, "{races:?}");
    assert!(matches!(races[0].class, RaceClass::IntraWorkgroup | RaceClass::InterWorkgroup));
    assert_eq!(races[0].word, 0);
    assert_ne!(races[0].first_invocation, races[0].second_invocation);
}

#[test]
fn indirect_and_nonlinear_indices_are_left_to_the_runtime() {
    let source = "
@group(0) @binding(0) var<storage, read> keys: array<u32>;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    out[keys[gid.x] % 64u] = gid.x;
}";
    let a = analysis(source, [1, 1, 1], &[], 64);
    assert!(
        matches!(&statuses(&a)[0].1, SiteStatus::Instrumented(why) if why.contains("not known")),
        "{:?}",
        statuses(&a)
    );
    // `gid.x / 2` pairs invocations: exact on a small dispatch, and the
    // dependence tests must not prove it race-free on a large one.
    let halves = "
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    out[gid.x / 2u] = gid.x;
}";
    let small = analysis(halves, [2, 1, 1], &[], 64);
    assert_eq!(small.analysis.static_races.len(), 1);
    assert_eq!(small.analysis.static_races[0].class, RaceClass::IntraWorkgroup);
    let large = analysis(halves, [65535, 1, 1], &[], 1 << 21);
    assert!(matches!(&statuses(&large)[0].1, SiteStatus::Instrumented(_)), "{:?}", statuses(&large));
}

#[test]
fn an_access_the_dependence_tests_cannot_place_keeps_its_partners_instrumented() {
    // The in-place stencil of samples/storage_stencil_2d_inplace.wgsl: each
    // invocation reads its neighbours and writes its own cell. Its `select`
    // indices are not affine; on a dispatch too large to enumerate, the
    // write (separated from the centre read alone) once went
    // uninstrumented, and the run reported no race.
    let source = "
@group(0) @binding(0) var<storage, read_write> grid: array<f32>;
@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let w = nwg.x * 8u;
    let x = gid.x;
    let y = gid.y;
    let c = grid[y * w + x];
    let l = grid[y * w + select(x - 1u, x, x == 0u)];
    grid[y * w + x] = c + l;
}";
    for dispatch in [[2, 2, 1], [2731, 1, 1], [255, 257, 1]] {
        let len = u64::from(dispatch[0] * dispatch[1]) * 64;
        let a = analysis(source, dispatch, &[], len);
        let write = statuses(&a).into_iter().find(|(line, _)| *line == 10).expect("the write is a checked site");
        assert!(!write.1.pruned(), "{dispatch:?}: {:?}", statuses(&a));
    }
}

#[test]
fn grid_stride_loops_are_followed_through_their_induction_variable() {
    let source = "
@group(0) @binding(0) var<storage, read_write> y: array<f32>;
@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let stride = nwg.x * 256u;
    for (var i = gid.x; i < arrayLength(&y); i = i + stride) {
        y[i] = y[i] * 2.0;
    }
}";
    for dispatch in [[4, 1, 1], [4096, 1, 1]] {
        let a = analysis(source, dispatch, &[], 1 << 24);
        assert!(all_race_free(&a), "{dispatch:?}: {:?}", statuses(&a));
    }
    // A stride one short of the grid makes neighbours meet.
    let short = source.replace("nwg.x * 256u", "nwg.x * 256u - 1u");
    let a = analysis(&short, [4, 1, 1], &[], 4096);
    assert!(
        !a.analysis.static_races.is_empty()
            || statuses(&a).iter().any(|(_, s)| matches!(s, SiteStatus::Instrumented(_)))
    );
    assert!(!all_race_free(&a));
}

#[test]
fn races_that_need_a_schedule_are_not_reported_statically() {
    // Whether the loop runs depends on memory: the conflict is only possible.
    let source = "
@group(0) @binding(0) var<storage, read_write> flags: array<u32>;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32) {
    if flags[lid] != 0u {
        out[0] = lid;
    }
}";
    let a = analysis(source, [1, 1, 1], &[], 64);
    assert!(a.analysis.static_races.is_empty(), "{:?}", a.analysis.static_races);
    let st = statuses(&a);
    assert!(st.iter().any(|(line, s)| *line == 7 && matches!(s, SiteStatus::Instrumented(_))), "{st:?}");
}

#[test]
fn a_barrier_in_divergent_control_flow_makes_the_analysis_give_up() {
    let source = "
var<workgroup> w: array<u32, 64>;
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32) {
    if lid < 32u {
        w[lid] = 1u;
        workgroupBarrier();
    }
    w[63u - lid] = 2u;
}";
    let a = analysis(source, [1, 1, 1], &[], 0);
    assert!(a.analysis.gave_up.is_some());
    assert_eq!(a.analysis.pruned(), 0);
}

#[test]
fn values_that_grow_without_bound_become_unknown() {
    // Each iteration doubles the expression's tree: the analysis must not
    // build (or evaluate) it, and leaves the access to the runtime.
    let source = "
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32) {
    var x = lid;
    for (var i = 0u; i < 60000u; i++) {
        x = x + x * 3u;
    }
    out[x % 64u] = 1u;
}";
    let a = analysis(source, [1, 1, 1], &[], 64);
    assert!(matches!(&statuses(&a)[0].1, SiteStatus::Instrumented(_)), "{:?}", statuses(&a));
}

#[test]
fn iteration_counts_are_per_invocation() {
    // w[lid + k] over a summarised loop with no barrier: invocation 0 at
    // k = 1 and invocation 1 at k = 0 write w[1]. Too many visits to
    // enumerate, so the dependence tests decide, and must not separate them.
    let source = "
var<workgroup> w: array<u32, 4096>;
@compute @workgroup_size(1024)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(num_workgroups) n: vec3<u32>) {
    let step = n.x;
    for (var i = lid; i < 2048u; i = i + step) {
        w[i] = lid;
    }
}";
    let a = analysis(source, [1, 1, 1], &[], 0);
    assert!(!all_race_free(&a), "{:?}", statuses(&a));
}

#[test]
fn a_continue_does_not_skip_the_continuing_block() {
    // Even invocations continue; every invocation still runs the continuing
    // block, where 2k and 2k + 1 write the same word.
    let source = "
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32) {
    var i = 0u;
    loop {
        i = i + 1u;
        if i > 4u { break; }
        if lid % 2u == 0u { continue; }
        continuing {
            out[lid / 2u] = 0u;
        }
    }
}";
    let a = analysis(source, [1, 1, 1], &[], 64);
    assert!(!all_race_free(&a), "{:?}", statuses(&a));
}

#[test]
fn loop_invariant_addresses_are_recorded_once_per_loop() {
    // A guard that reads memory leaves both accesses to the runtime; only
    // the one whose word does not change with `i` is loop-invariant.
    let source = "
@group(0) @binding(0) var<storage, read_write> flags: array<u32>;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32) {
    if flags[lid] != 0u {
        for (var i = 0u; i < 16u; i++) {
            out[0] = i;
            out[i] = lid;
        }
    }
}";
    let a = analysis(source, [1, 1, 1], &[], 64);
    let once: Vec<(u32, bool)> = a
        .sites
        .sites
        .iter()
        .filter(|s| s.variable == "out")
        .map(|s| (s.location.line.unwrap_or(0), a.analysis.loop_invariant[s.id as usize]))
        .collect();
    assert_eq!(once, [(8, true), (9, false)], "{:?}", statuses(&a));
}

/// Stream compaction: each kept element takes a ticket from a counter.
/// `{take}` takes the slot, `{store}` stores through it, `{extra}` is
/// appended to the entry point.
fn compaction(take: &str, store: &str, extra: &str) -> String {
    format!(
        "
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@group(0) @binding(1) var<storage, read_write> count: atomic<u32>;
var<workgroup> tile: array<u32, 256>;
var<workgroup> tile_count: atomic<u32>;
@compute @workgroup_size(256)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(global_invocation_id) gid: vec3<u32>) {{
    if (gid.x & 1u) == 0u {{
        let slot = {take};
        {store}
    }}
    {extra}
}}"
    )
}

const GLOBAL_TICKET: &str = "atomicAdd(&count, 1u)";
const GUARDED_STORE: &str = "if slot < arrayLength(&out) { out[slot] = gid.x; }";

#[test]
fn stores_through_unique_tickets_in_bounds_need_no_instrumentation() {
    for dispatch in [[4, 1, 1], [65535, 1, 1]] {
        let a = analysis(&compaction(GLOBAL_TICKET, GUARDED_STORE, ""), dispatch, &[], 1 << 16);
        assert!(all_race_free(&a), "{dispatch:?}: {:?}", statuses(&a));
    }
    // A workgroup counter starts at zero: 256 invocations take tickets
    // below 256, in bounds of a 256-element tile without a guard.
    let a = analysis(&compaction("atomicAdd(&tile_count, 1u)", "tile[slot] = lid;", ""), [8, 1, 1], &[], 1024);
    assert!(all_race_free(&a), "{:?}", statuses(&a));
    // In a loop the walk unrolls, every iteration's ticket is another one.
    let unrolled = compaction(
        GLOBAL_TICKET,
        "for (var k = 0u; k < 4u; k++) { let t = atomicAdd(&count, 1u); if t < arrayLength(&out) { out[t] = k; } }",
        "",
    );
    let a = analysis(&unrolled, [4, 1, 1], &[], 1 << 16);
    assert!(all_race_free(&a), "{:?}", statuses(&a));
}

#[test]
fn tickets_that_may_repeat_or_leave_bounds_stay_instrumented() {
    let instrumented = |source: String, len: u64| {
        let a = analysis(&source, [4, 1, 1], &[], len);
        let s = statuses(&a);
        assert!(s.iter().any(|(_, st)| matches!(st, SiteStatus::Instrumented(_))), "{source}\n{s:?}");
    };
    // No guard, and the counter's first value is not known.
    instrumented(compaction(GLOBAL_TICKET, "out[slot] = gid.x;", ""), 1 << 16);
    // A guard against more than the array holds.
    instrumented(compaction(GLOBAL_TICKET, "if slot < 100000u { out[slot] = gid.x; }", ""), 1 << 16);
    // Something else changes the counter: tickets may repeat.
    instrumented(compaction(GLOBAL_TICKET, GUARDED_STORE, "atomicSub(&count, 1u);"), 1 << 16);
    instrumented(compaction(GLOBAL_TICKET, GUARDED_STORE, "if lid == 0u { atomicStore(&count, 0u); }"), 1 << 16);
    instrumented(compaction(GLOBAL_TICKET, GUARDED_STORE, "atomicAdd(&count, 0u);"), 1 << 16);
    // A workgroup's tickets repeat in every workgroup: not for storage.
    instrumented(compaction("atomicAdd(&tile_count, 1u)", GUARDED_STORE, ""), 1 << 16);
    // More invocations than the tile has elements.
    let small_tile =
        compaction("atomicAdd(&tile_count, 1u)", "tile[slot] = lid;", "").replace("array<u32, 256>", "array<u32, 200>");
    instrumented(small_tile, 1 << 16);
    // An index computed from a ticket, and another index into the array.
    instrumented(compaction(GLOBAL_TICKET, "if slot < 100u { out[slot + 1u] = gid.x; }", ""), 1 << 16);
    instrumented(compaction(GLOBAL_TICKET, GUARDED_STORE, "out[gid.x] = 0u;"), 1 << 16);
    // A loop the walk summarises adds an unknown number of times.
    let summarised = compaction(
        GLOBAL_TICKET,
        "for (var k = 0u; k < gid.x; k++) { let t = atomicAdd(&count, 1u); if t < arrayLength(&out) { out[t] = k; } }",
        "",
    );
    instrumented(summarised, 1 << 16);
}

#[test]
fn both_sides_of_a_short_circuit_guard_narrow_the_invocations() {
    // naga lowers `a && b` into a branch that sets a local: the guard reads
    // `select(false, b, a)`. With `lid == 0u` known, one invocation per
    // workgroup stores: the dependence tests separate them by workgroup.
    let source = "
@group(0) @binding(0) var<storage, read_write> counts: array<u32>;
@compute @workgroup_size(256)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
    if lid == 0u && wid.x < arrayLength(&counts) {
        counts[wid.x] = lid;
    }
}";
    let a = analysis(source, [65535, 1, 1], &[], 65535);
    assert!(all_race_free(&a), "{:?}", statuses(&a));
}

/// The analyzer's bound on each loop's starts of its body, by loop id.
fn loop_starts(source: &str, uniform: &[u32]) -> Vec<Option<u64>> {
    analysis(source, [4, 1, 1], uniform, 1024).analysis.loop_starts
}

#[test]
fn loops_whose_exits_are_known_are_bounded_and_others_are_not() {
    // Loop 0: constant bounds, the same for every invocation (unrolled):
    // 8 iterations and the start that leaves. Loop 1: a grid-stride loop
    // from the invocation's index, bounded by its break (summarised):
    // invocation 0 starts it 1024 / 256 + 1 times, the most of any. Loop 2:
    // its bound comes from a read-write buffer.
    let source = "
@group(0) @binding(0) var<storage, read_write> data: array<u32>;
@group(0) @binding(1) var<uniform> params: vec4<u32>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    var sum = 0u;
    for (var k = 0u; k < 8u; k++) {
        sum += k;
    }
    for (var i = gid.x; i < arrayLength(&data); i += 256u) {
        sum += i;
    }
    for (var j = 0u; j < data[0]; j++) {
        sum += j;
    }
    data[gid.x] = sum;
}";
    assert_eq!(loop_starts(source, &[0; 4]), vec![Some(9), Some(5), None]);
}

#[test]
fn a_loop_that_can_skip_its_test_or_wrap_past_its_limit_is_not_bounded() {
    // A `continue` before the break's test: iterations that take it skip
    // the test (here every one does, so the loop never ends).
    let skips = "
@group(0) @binding(0) var<storage, read_write> data: array<u32>;
@group(0) @binding(1) var<uniform> params: vec4<u32>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    var sum = 0u;
    for (var i = gid.x; ; i += 1u) {
        if params.x == 0u {
            continue;
        }
        if i >= 100u {
            break;
        }
        sum += i;
    }
    data[gid.x] = sum;
}";
    assert_eq!(loop_starts(skips, &[0; 4]), vec![None]);
    // `i <= 0xffffffffu` holds for every u32: `i += 2u` wraps and the loop
    // never ends.
    let wraps = "
@group(0) @binding(0) var<storage, read_write> data: array<u32>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    var sum = 0u;
    for (var i = gid.x; i <= 0xffffffffu; i += 2u) {
        sum += i;
    }
    data[gid.x] = sum;
}";
    assert_eq!(loop_starts(wraps, &[]), vec![None]);
}

/// `(line, proven in bounds)` of every index site, by line.
fn indices_in_bounds(a: &Analyzed) -> Vec<(u32, bool)> {
    let mut out: Vec<(u32, bool)> =
        a.indices.iter().map(|s| (s.location.line.unwrap_or(0), a.analysis.index_in_bounds[s.id as usize])).collect();
    out.sort_unstable();
    out
}

#[test]
fn indices_are_proven_in_bounds_for_the_dispatch_and_the_buffer_sizes() {
    let source = "
@group(0) @binding(0) var<storage, read_write> data: array<f32>;
var<workgroup> tile: array<f32, 64>;
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(global_invocation_id) gid: vec3<u32>) {
    tile[lid] = data[gid.x];
    workgroupBarrier();
    let a = tile[(lid + 1u) % 64u];
    let b = tile[min(lid + 1u, 63u)];
    let c = tile[lid + 1u];
    var d = 0.0;
    if gid.x < 100u {
        d = data[gid.x + 28u];
    }
    for (var i = 0u; i < 4u; i++) {
        d += tile[lid / 4u * 4u + i];
    }
    data[gid.x] = a + b + c + d;
}";
    // 2 workgroups, 128 elements: every index but `lid + 1u` (64 for the
    // last invocation) stays in bounds; `gid.x + 28u` only under its guard.
    let a = analysis(source, [2, 1, 1], &[], 128);
    assert_eq!(
        indices_in_bounds(&a),
        [(6, true), (6, true), (8, true), (9, true), (10, false), (13, true), (16, true), (18, true)]
    );
    // 3 workgroups, 128 elements: `data[gid.x]` is out of bounds for the
    // third workgroup.
    let a = analysis(source, [3, 1, 1], &[], 128);
    assert_eq!(
        indices_in_bounds(&a),
        [(6, false), (6, true), (8, true), (9, true), (10, false), (13, true), (16, true), (18, false)]
    );
}

#[test]
fn indices_from_memory_or_unbounded_loops_are_left_to_the_runtime() {
    let source = "
@group(0) @binding(0) var<storage, read_write> data: array<u32>;
@group(0) @binding(1) var<storage, read> next: array<u32>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let j = next[gid.x];
    var k = gid.x;
    while data[k] != 0u {
        k = data[k];
    }
    data[j] = k;
}";
    let a = analysis(source, [1, 1, 1], &[], 64);
    let proven: Vec<(u32, bool)> = indices_in_bounds(&a);
    assert_eq!(proven, [(6, true), (8, false), (9, false), (11, false)]);
}

#[test]
fn indices_that_read_a_ticket_are_left_to_the_runtime() {
    // A ticket has no value to enumerate: its index is not proven, and a
    // guard that reads one does not stop the proof of another index.
    let source = "
@group(0) @binding(0) var<storage, read_write> counter: atomic<u32>;
@group(0) @binding(1) var<storage, read_write> marks: array<u32>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let ticket = atomicAdd(&counter, 1u);
    marks[ticket] = 1u;
    if ticket < 8u {
        marks[gid.x] = 2u;
    }
}";
    let a = analysis(source, [1, 1, 1], &[], 64);
    assert_eq!(indices_in_bounds(&a), [(7, false), (9, true)]);
}
