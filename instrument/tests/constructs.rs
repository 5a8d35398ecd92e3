//! Every shader naga validates must come out of the pass valid. These shaders
//! exercise the constructs an instrumentation pass most easily gets wrong;
//! each is instrumented and the result validated (by `instrument` itself),
//! and the tests check which sites were found.

use naga::valid::Capabilities;
use wgrace_instrument::{AccessKind, BarrierKind, InstrumentOptions, Instrumented, Shader, instrument, prepare};

fn run(source: &str) -> Instrumented {
    run_with(source, &[])
}

fn run_with(source: &str, overrides: &[(String, f64)]) -> Instrumented {
    let shader = Shader::from_wgsl("t.wgsl", source).unwrap_or_else(|e| panic!("{e}"));
    let prepared = prepare(&shader, None, overrides, Capabilities::all()).unwrap_or_else(|e| panic!("{e}"));
    instrument(&shader, &prepared.module, &prepared.info, &prepared.entry_point, &InstrumentOptions::default())
        .unwrap_or_else(|e| panic!("{e}"))
}

fn kinds(i: &Instrumented) -> Vec<(AccessKind, String, u32)> {
    i.sites.sites.iter().map(|s| (s.kind, s.variable.clone(), s.location.line.unwrap_or(0))).collect()
}

#[test]
fn control_flow_of_every_kind() {
    let i = run("
@group(0) @binding(0) var<storage, read_write> d: array<i32>;
var<workgroup> w: array<i32, 16>;
@compute @workgroup_size(16)
fn main(@builtin(local_invocation_index) l: u32) {
    var i = 0;
    loop {
        if i >= 4 { break; }
        switch i {
            case 0: { w[l] = d[l]; }
            case 1, 2: { d[l] += w[(l + 1u) % 16u]; }
            default: { continue; }
        }
        continuing {
            i += 1;
            workgroupBarrier();
            break if d[0] > 100;
        }
    }
    for (var j = 0u; j < 2u && d[j] > 0; j++) { d[j + 16u] = i; }
    while w[0] < 0 { w[0] += 1; }
}");
    let k = kinds(&i);
    assert!(k.contains(&(AccessKind::Write, "w".into(), 10)));
    assert!(k.contains(&(AccessKind::Read, "d".into(), 10)));
    // `d[l] += …` reads and writes.
    assert!(k.contains(&(AccessKind::Read, "d".into(), 11)));
    assert!(k.contains(&(AccessKind::Write, "d".into(), 11)));
    // Loads in the continuing block's break-if and in loop conditions.
    assert!(k.contains(&(AccessKind::Read, "d".into(), 17)));
    assert!(k.contains(&(AccessKind::Read, "d".into(), 20)));
    assert!(k.contains(&(AccessKind::Read, "w".into(), 21)));
}

#[test]
fn pointers_structs_matrices_vectors_and_runtime_arrays() {
    let i = run("
struct Particle { pos: vec3<f32>, mass: f32, m: mat3x3<f32>, tags: array<u32, 4> }
struct Buf { count: u32, items: array<Particle> }
@group(0) @binding(0) var<storage, read_write> b: Buf;
@group(1) @binding(3) var<storage, read> ro: array<f32>;
@group(0) @binding(1) var<uniform> u: vec4<u32>;
var<private> p_count: u32;
fn bump(p: ptr<function, f32>) { *p += 1.0; }
@compute @workgroup_size(8, 2)
fn main(@builtin(global_invocation_id) g: vec3<u32>) {
    let p = &b.items[g.x];
    (*p).pos.y = ro[g.x];
    var local = (*p).mass;
    bump(&local);
    (*p).m[1] = vec3<f32>(local);
    b.items[g.x].tags[g.y] = u.x + arrayLength(&b.items);
    let whole = b.items[g.x + 1u];
    p_count = b.count;
    b.items[g.x].pos[i32(g.y)] = whole.mass;
}");
    let vars: Vec<&str> = i.vars.iter().map(|v| v.name.as_str()).collect();
    assert_eq!(vars, ["b"], "only the writable storage binding is tracked");
    // Particle: vec3 at 0, f32 at 12, mat3x3 at 16 (48 bytes), array<u32, 4> at 64: 80 bytes.
    assert_eq!(i.vars[0].runtime_stride_words, Some(80 / 4));
    assert_eq!(i.vars[0].fixed_words, 4);
    // Read-only storage, uniform, private and function memory have no sites.
    assert!(i.sites.sites.iter().all(|s| s.variable == "b"));
    assert_eq!(i.sites.checked(), i.sites.len());
}

#[test]
fn atomics_and_uniform_loads_are_sites_without_checks() {
    let i = run("
struct C { hits: atomic<u32>, total: u32 }
@group(0) @binding(0) var<storage, read_write> c: C;
var<workgroup> flag: atomic<u32>;
var<workgroup> shared_v: u32;
@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) l: u32) {
    atomicAdd(&c.hits, 1u);
    let v = atomicLoad(&flag);
    atomicStore(&flag, v + l);
    if l == 0u { shared_v = 7u; }
    let s = workgroupUniformLoad(&shared_v);
    let f = workgroupUniformLoad(&flag);
    c.total = s + f;
}");
    let k = kinds(&i);
    assert!(k.contains(&(AccessKind::Atomic, "c".into(), 8)));
    assert!(k.contains(&(AccessKind::Atomic, "flag".into(), 9)));
    assert!(k.contains(&(AccessKind::Atomic, "flag".into(), 10)));
    assert!(k.contains(&(AccessKind::UniformLoad, "shared_v".into(), 12)));
    assert!(k.contains(&(AccessKind::Write, "c".into(), 14)));
    for s in &i.sites.sites {
        assert_eq!(s.checked, matches!(s.kind, AccessKind::Read | AccessKind::Write), "{s:?}");
    }
}

#[test]
fn builtins_in_structs_and_every_remapped_builtin() {
    run("
struct In {
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) n: vec3<u32>,
    @builtin(local_invocation_id) lid: vec3<u32>,
}
@group(0) @binding(0) var<storage, read_write> d: array<u32>;
@compute @workgroup_size(4, 4)
fn main(input: In, @builtin(global_invocation_id) gid: vec3<u32>, @builtin(local_invocation_index) li: u32) {
    d[gid.x + gid.y * input.n.x * 4u] = input.wid.x + input.lid.y + li;
}");
}

#[test]
fn overrides_are_resolved_before_instrumenting() {
    let src = "
override size: u32 = 64;
override scale: f32;
var<workgroup> tile: array<f32, size>;
@group(0) @binding(0) var<storage, read_write> d: array<f32>;
@compute @workgroup_size(size)
fn main(@builtin(local_invocation_index) l: u32) {
    tile[l] = f32(l) * scale;
    workgroupBarrier();
    d[l] = tile[size - 1u - l];
}";
    let i = run_with(src, &[("size".into(), 32.0), ("scale".into(), 2.0)]);
    assert_eq!(i.workgroup_size, [32, 1, 1]);
    let tile = i.vars.iter().find(|v| v.name == "tile").expect("tile");
    assert_eq!(tile.fixed_words, 32);
}

#[test]
fn user_names_starting_with_wgrace_do_not_collide_with_the_runtime() {
    run("
@group(0) @binding(0) var<storage, read_write> wgrace_log: array<u32>;
var<private> wgrace_t: u32;
fn wgrace_begin(x: u32) -> u32 { return x + wgrace_t; }
fn wgrace_barrier(k: u32) { wgrace_log[k] = 1u; }
@compute @workgroup_size(2)
fn main(@builtin(local_invocation_index) l: u32) {
    wgrace_t = l;
    wgrace_log[l] = wgrace_begin(l);
    wgrace_barrier(l + 2u);
    storageBarrier();
}");
}

#[test]
fn entry_point_choice_and_errors_are_reported() {
    let src = "@compute @workgroup_size(1) fn a() {} @compute @workgroup_size(1) fn b() {}";
    let shader = Shader::from_wgsl("t.wgsl", src).expect("parse");
    let e = prepare(&shader, None, &[], Capabilities::all()).expect_err("ambiguous");
    assert!(e.to_string().contains("several compute entry points (a, b)"), "{e}");
    let e = prepare(&shader, Some("c"), &[], Capabilities::all()).expect_err("missing");
    assert!(e.to_string().contains("no compute entry point named `c`; the shader has: a, b"), "{e}");
    assert_eq!(prepare(&shader, Some("b"), &[], Capabilities::all()).expect("b").entry_point, "b");
    let e = prepare(&shader, Some("a"), &[("k".into(), 1.0)], Capabilities::all()).expect_err("override");
    assert!(e.to_string().contains("no override named `k`"), "{e}");
}

#[test]
fn functions_unreachable_from_the_entry_point_have_no_sites() {
    let i = run("
@group(0) @binding(0) var<storage, read_write> d: array<u32>;
fn unused() { d[0] = 1u; }
fn used() -> u32 { return d[1]; }
@compute @workgroup_size(1)
fn main() { d[2] = used(); }");
    let functions: Vec<&str> = i.sites.sites.iter().map(|s| s.function.as_str()).collect();
    assert_eq!(functions, ["used", "main"]);
}

#[test]
fn bools_and_f16_are_tracked_in_their_own_units() {
    let i = run("
enable f16;
struct Pair { a: bool, b: bool, n: u32 }
var<workgroup> flags: array<bool, 64>;
var<workgroup> pairs: array<Pair, 8>;
@group(0) @binding(0) var<storage, read_write> h: array<f16>;
@compute @workgroup_size(8)
fn main(@builtin(local_invocation_index) l: u32) {
    flags[l] = true;
    pairs[l].b = false;
    h[l] = h[l + 1u];
}");
    let unit =
        |name: &str| i.vars.iter().find(|v| v.name == name).map(|v| (v.unit, v.fixed_words, v.runtime_stride_words));
    // naga gives a bool one byte: tracked by the byte, so neighbours stay apart.
    assert_eq!(unit("flags"), Some((1, 64, None)));
    assert_eq!(unit("pairs").map(|u| u.0), Some(1));
    assert_eq!(unit("h"), Some((2, 0, Some(1))));
}

#[test]
fn every_workgroup_barrier_gets_an_id_in_source_order() {
    let i = run("
var<workgroup> w: array<u32, 16>;
fn helper() {
    storageBarrier();
}
@compute @workgroup_size(16)
fn main(@builtin(local_invocation_index) l: u32) {
    w[l] = l;
    workgroupBarrier();
    let v = workgroupUniformLoad(&w[0]);
    if v > 3u {
        helper();
    }
    subgroupBarrier();
    workgroupBarrier();
}");
    let barriers: Vec<(u32, BarrierKind, String, u32)> =
        i.barriers.iter().map(|b| (b.id, b.kind, b.function.clone(), b.location.line.unwrap_or(0))).collect();
    // Functions are walked callees first; subgroupBarrier() does not
    // synchronise the workgroup and gets no id.
    assert_eq!(
        barriers,
        vec![
            (1, BarrierKind::Storage, "helper".into(), 4),
            (2, BarrierKind::Workgroup, "main".into(), 9),
            (3, BarrierKind::UniformLoad, "main".into(), 10),
            (4, BarrierKind::Workgroup, "main".into(), 15),
        ]
    );
}

#[test]
fn a_shader_filling_workgroup_memory_is_refused_with_the_numbers() {
    // The barrier-divergence check keeps 16 bytes of workgroup memory in a
    // shader with a barrier. (The data-race check's replay would take 48
    // more: without room for them, accesses are checked in place.)
    let source = "
var<workgroup> w: array<u32, 16>;
@compute @workgroup_size(16)
fn main(@builtin(local_invocation_index) l: u32) { w[l] = l; workgroupBarrier(); }";
    let shader = Shader::from_wgsl("t.wgsl", source).unwrap_or_else(|e| panic!("{e}"));
    let prepared = prepare(&shader, None, &[], Capabilities::all()).unwrap_or_else(|e| panic!("{e}"));
    let options = InstrumentOptions { workgroup_memory_limit: 64, ..InstrumentOptions::default() };
    let e = instrument(&shader, &prepared.module, &prepared.info, &prepared.entry_point, &options)
        .expect_err("64 bytes leave no room for the runtime");
    assert_eq!(
        e.to_string(),
        "the shader uses 64 bytes of workgroup memory; checking it needs 16 more, beyond the adapter's limit of 64"
    );

    // Without a barrier there is no divergence to check, and the shadow
    // moves to storage memory: it fits.
    let source = source.replace(" workgroupBarrier();", "");
    let shader = Shader::from_wgsl("t.wgsl", &source).unwrap_or_else(|e| panic!("{e}"));
    let prepared = prepare(&shader, None, &[], Capabilities::all()).unwrap_or_else(|e| panic!("{e}"));
    let i = instrument(&shader, &prepared.module, &prepared.info, &prepared.entry_point, &options)
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(!i.prelude.workgroup_shadow_resident);
    assert_eq!(i.prelude.checks_workgroup_bytes(), 0, "{:?}", i.prelude.checks);
}

/// A storage array accessed only in whole elements is tracked one element
/// per word; any access to part of an element keeps word units.
#[test]
fn whole_element_arrays_are_tracked_per_element() {
    let unit = |body: &str| {
        let source = format!(
            "struct P {{ a: vec2<f32>, b: u32 }}
@group(0) @binding(0) var<storage, read_write> v: array<vec4<f32>>;
@group(0) @binding(1) var<storage, read_write> p: array<P, 64>;
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) l: u32) {{
    {body}
}}"
        );
        let i = run(&source);
        i.vars.iter().map(|v| (v.name.clone(), v.unit, v.fixed_words, v.runtime_stride_words)).collect::<Vec<_>>()
    };
    assert_eq!(
        unit("v[l] = v[(l + 1u) % 64u] * 2.0; p[l] = p[63u - l];"),
        [("v".to_string(), 16, 0, Some(1)), ("p".to_string(), 16, 64, None)]
    );
    // A loaded component, and a member: words. (A store to a component
    // writes the whole vector, as WGSL implementations may.)
    assert_eq!(
        unit("v[l].y = v[l + 1u].x; p[l].b = 2u;"),
        [("v".to_string(), 4, 0, Some(4)), ("p".to_string(), 4, 256, None)]
    );
    // A constant element is a whole element too, but names no index.
    assert_eq!(unit("v[0] = vec4(1.0); p[l] = p[0];")[0].1, 4);
}

/// `(line, the variable it waits on)` of every spin-wait among the loops.
fn spin_waits(i: &Instrumented) -> Vec<(u32, String)> {
    i.loops.iter().filter_map(|l| Some((l.location.line.unwrap_or(0), l.spin.clone()?))).collect()
}

#[test]
fn loops_whose_every_exit_waits_for_written_storage_are_spin_waits() {
    let i = run("
@group(0) @binding(0) var<storage, read_write> flags: array<atomic<u32>, 4>;
@group(0) @binding(1) var<storage, read_write> data: array<u32>;
@group(0) @binding(2) var<storage, read> input: array<u32>;
fn ready(k: u32) -> bool { return atomicLoad(&flags[k]) != 0u; }
@compute @workgroup_size(1)
fn main(@builtin(workgroup_id) wid: vec3<u32>) {
    atomicStore(&flags[wid.x], 1u);
    while atomicLoad(&flags[0]) == 0u {}
    var seen = 0u;
    loop {
        seen = atomicLoad(&flags[1]);
        if seen != 0u { break; }
    }
    loop {
        if ready(2u) { break; }
    }
    for (var k = 0u; k < 4u; k++) {
        if atomicLoad(&flags[3]) != 0u { break; }
    }
    var j = 0u;
    while input[j] != 0u { j++; }
    var x = wid.x;
    while data[x] != x { x = data[x]; }
    for (var k = 0u; k < 1000u && atomicLoad(&flags[2]) == 0u; k++) {}
    let n = data[0];
    for (var k = 0u; k < n; k++) { data[k + 1u] = k; }
}");
    // A condition on a load, through a local, through a call; not a loop
    // that ends by its counter too, nor loads of memory nothing writes, nor
    // a walk along a chain (its loads move), nor a bound loaded before the
    // loop.
    // A bounded poll is one too: it may give up before the flag is set.
    assert_eq!(spin_waits(&i), [(9, "flags".into()), (11, "flags".into()), (15, "flags".into()), (25, "flags".into())]);
}
