//! The data-race check's happens-before engine
//! (`wgsl/checks/data_race/happens_before/engine.wgsl`) held to the
//! reference model of the Vulkan memory model (`common/vulkan_model.rs`) on
//! random traces of `coherent` buffer accesses, atomics of any scope with and
//! without release and acquire semantics, fences and control barriers:
//! workgroup barriers, subgroup barriers, and workgroup barriers of subgroup
//! memory scope.
//!
//! A one-invocation harness feeds each trace through the engine's events,
//! forging the workgroup and invocation of every event, so the trace order
//! is the order the engine sees them in (an atomic and its bookkeeping
//! happen as one, as under the location's lock). A barrier is an arrival of
//! each invocation of its workgroup (of its subgroup, for a subgroup
//! barrier), then, once all arrived, their leaving.
//!
//! The engine runs with its wide and strong sets (the scope and the
//! missing-fence checks'): a race is of the scope check's class when the
//! reference does not have it in the same trace with every atomic and fence
//! at device scope (and every barrier of subgroup memory scope at the
//! workgroup's), or when a subgroup barrier that orders memory lies between
//! accesses of two subgroups, and otherwise of missing-fence when it does not have it
//! with every atomic acquiring what it reads and releasing what it writes,
//! and otherwise of the lockset check's when the invocations held no lock
//! in common, one holding one (some read-modify-writes take a lock at their
//! location, some stores free it).
//!
//! The test asserts that, on every trace where the engine says it followed
//! everything, it records exactly the racing statement pairs of the
//! reference, each under a class one of its racing pairs of accesses has
//! (the engine forgets an access once a later one of the same statement
//! happens after it, and reports that one's pairs: the same statements,
//! but other invocations), and that it follows most traces.

use crate::common::rng::Rng;
use crate::common::{self, trace_harness, vulkan_model};
use std::collections::BTreeSet;

use vulkan_model::{Agent, Class, Event, Location, Op, Scope, Semantics};
use wgrace_shaders::abi;
use wgrace_shaders::{Hooks, runtime_source};

const HARNESS: &str = r#"
struct Step { kind: u32, g: u32, t: u32, a: u32, b: u32, c: u32, d: u32, _pad: u32 }
@group(1) @binding(0) var<storage, read> steps: array<Step>;

@compute @workgroup_size(1)
fn main() {
    wgrace_sg_size = 2u; // SUBGROUP_SIZE
    for (var i = 0u; i < arrayLength(&steps); i++) {
        let s = steps[i];
        wgrace_g = s.g;
        wgrace_t = s.t;
        switch s.kind {
            case 0u: { wgrace_hb_begin(); }
            case 1u: { wgrace_hb_access(s.a, s.a, s.b, s.c != 0u, s.d, 0u); }
            case 2u: { wgrace_hb_atomic(s.a, s.b, s.c); }
            case 6u: {
                wgrace_any = s.d >> 16u;
                wgrace_hb_atomic_data(s.a, s.b, s.c, 0u, s.a - 2u, s.d & 0xffffu);
            }
            case 3u: {
                wgrace_hb_fence(s.c, (s.b & WGRACE_HB_ACQUIRE) != 0u, (s.b & WGRACE_HB_RELEASE) != 0u,
                                s.b >> WGRACE_HB_NAMES_SHIFT);
            }
            case 4u: { wgrace_hb_barrier_arrive((s.c & 1u) != 0u, (s.c & 2u) != 0u, s.b >> WGRACE_HB_NAMES_SHIFT); }
            default: { wgrace_hb_barrier_leave((s.c & 1u) != 0u, (s.c & 2u) != 0u, s.b >> WGRACE_HB_NAMES_SHIFT); }
        }
    }
    wgrace_hb_end();
}
"#;

const WORKGROUP_SIZE: u32 = 4;
/// Invocations 0-1 and 2-3 of each workgroup are two subgroups.
const SUBGROUP_SIZE: u32 = 2;
const WORKGROUPS: u32 = 2;
const INVOCATIONS: u32 = WORKGROUP_SIZE * WORKGROUPS;
/// Words of data, and atomic locations: two of their own (flags, locks),
/// then one for each word of data, for atomics that access data words.
const WORDS: u32 = 3;
const FLAGS: u32 = 2;
const LOCATIONS: u32 = FLAGS + WORDS;
const HISTORY: u32 = 8;
/// With two storage classes, the last word of data and the second flag
/// are shared memory, the rest buffer memory.
const SHARED_WORD: u32 = WORDS - 1;
const SHARED_FLAG: u32 = 1;
/// Sites: four of loads (even) and four of stores (odd); then those of
/// atomics that access data words, one for each kind of atomic.
const SITES: u32 = 8;
const MAX_EVENTS: u32 = 40;

/// The engine's layout, as the host generates it, with `parts` parts of
/// each location's clock (1, or four per workgroup: one per scope, and then
/// three pending clocks, one per scope of an acquire fence), and buffer
/// memory's class, or (`classes`) buffer and shared memory's.
fn layout(atomic_data: bool, parts: u32, classes: bool) -> String {
    let pending = if parts > 1 { 3 } else { 1 };
    let (count, shared) = if classes { (2, 1) } else { (1, 0) };
    let data = FLAGS + SHARED_WORD;
    format!(
        "const WGRACE_HB_CLASSES: u32 = {count}u;\nconst WGRACE_HB_CLASS0: u32 = 2u;\n\
         const WGRACE_HB_CLASS1: u32 = {shared}u;\n\
         fn wgrace_hb_word_class(word: u32) -> u32 {{ return select(0u, 1u, {classes} && word == {SHARED_WORD}u); }}\n\
         fn wgrace_hb_loc_memory(loc: u32) -> u32 {{\n    \
         return select(2u, 1u, {classes} && (loc == {SHARED_FLAG}u || loc == {data}u));\n}}\n"
    ) + &format!(
        "const WGRACE_HB_N: u32 = {INVOCATIONS}u;\nconst WGRACE_HB_WG_SIZE: u32 = {WORKGROUP_SIZE}u;\n\
         const WGRACE_HB_LOCATIONS: u32 = {LOCATIONS}u;\nconst WGRACE_HB_WORDS: u32 = {WORDS}u;\n\
         const WGRACE_HB_HISTORY: u32 = {HISTORY}u;\nconst WGRACE_HB_SETS: u32 = 3u;\n\
         const WGRACE_HB_STRONG_INDEX: u32 = 1u;\nconst WGRACE_HB_WIDE_INDEX: u32 = 2u;\n\
         const WGRACE_HB_NARROW_ATOMIC_DATA: bool = {atomic_data};\n\
         const WGRACE_HB_SUBGROUP_SLOTS: u32 = {INVOCATIONS}u;\n\
         const WGRACE_HB_LOC_PARTS: u32 = {parts}u;\nconst WGRACE_HB_PENDING_SCOPES: u32 = {pending}u;\n\
         const WGRACE_HB_LOCK_SPIN: u32 = 60000u;\n"
    )
}

/// 64-bit words the engine uses (`WGRACE_HB_END`).
fn engine_words(parts: u32, classes: bool) -> u64 {
    let (n, w) = (u64::from(INVOCATIONS), u64::from(WORKGROUPS));
    let location = 2 + u64::from(parts) * (n + 1);
    let pending = if parts > 1 { 3 } else { 1 };
    let set = (2 + pending) * n * n + 8 * n + 2 * (w + n) * (n + 1) + u64::from(LOCATIONS) * location;
    (1 + u64::from(classes)) * 3 * set + u64::from(WORDS) * (1 + 4 * u64::from(HISTORY))
}

/// The storage class of data word `word` (of `WORDS + loc` for flag
/// `loc`).
fn class_of(word: u32, classes: bool) -> Class {
    if classes && (word == SHARED_WORD || word == WORDS + SHARED_FLAG) { Class::Shared } else { Class::Buffer }
}

/// Semantics that acquire and release as told, naming buffer memory, or
/// (with `classes`) a random choice of buffer memory, shared memory or
/// both; and their flags for the engine (`WGRACE_HB_NAMES_SHIFT`).
fn semantics(rng: &mut Rng, acquire: bool, release: bool, classes: bool) -> (Semantics, u32) {
    let (buffer, shared) =
        if classes { [(true, false), (false, true), (true, true)][rng.below(3) as usize] } else { (true, false) };
    let semantics = Semantics { acquire, release, buffer, shared, ..Semantics::RELAXED };
    (semantics, names(semantics))
}

/// The engine's bits of the memory `semantics` name, shifted into place
/// (`WGRACE_ORDERS_*` << `WGRACE_HB_NAMES_SHIFT`).
fn names(semantics: Semantics) -> u32 {
    (flag(semantics.shared, 1) | flag(semantics.buffer, 2)) << 6
}

/// Engine events (`kind`: 0 begin, 1 access, 2 atomic, 3 fence, 4 barrier
/// arrival, 5 barrier leaving, 6 an atomic that accesses a data word: its
/// access, then the atomic).
#[repr(C)]
#[derive(Clone, Copy, Debug, bytemuck::Pod, bytemuck::Zeroable)]
struct Step {
    kind: u32,
    g: u32,
    t: u32,
    a: u32,
    b: u32,
    c: u32,
    d: u32,
    _pad: u32,
}

const READ: u32 = 1;
const WRITE: u32 = 2;
const ACQUIRE: u32 = 4;
const RELEASE: u32 = 8;
const LOCK_TAKE: u32 = 16;
const LOCK_FREE: u32 = 32;

fn flag(on: bool, flag: u32) -> u32 {
    if on { flag } else { 0 }
}

fn agents() -> Vec<Agent> {
    (0..INVOCATIONS)
        .map(|i| Agent { workgroup: i / WORKGROUP_SIZE, subgroup: (i % WORKGROUP_SIZE) / SUBGROUP_SIZE })
        .collect()
}

fn scope_of(n: u32) -> Scope {
    [Scope::Invocation, Scope::Subgroup, Scope::Workgroup, Scope::Device][n as usize]
}

/// A trace: the reference's events, the engine's steps, and each plain
/// access's site and the workgroup barriers its invocation had passed, the
/// locks it held (a bit per location), and the barriers that synchronize
/// within a subgroup only and order memory it had passed, by event (of
/// buffer memory, and of shared memory).
struct Trace {
    events: Vec<Event>,
    steps: Vec<Step>,
    sites: Vec<(u32, u32)>,
    locks: Vec<u32>,
    subgroup_barriers: Vec<[u32; 2]>,
}

/// The kinds of control barrier a trace has (one kind a trace, as the
/// invocations of one subgroup must meet the same barriers): `c` of the
/// barrier steps.
const WORKGROUP_BARRIER: u32 = 0;
const SUBGROUP_BARRIER: u32 = 1;
const SUBGROUP_MEMORY_BARRIER: u32 = 2;

/// A random trace. Some traces make writes, narrow scopes or relaxed
/// semantics rare, so that race-free ones are common too. With
/// `atomic_data`, some atomics access the words plain accesses do; with
/// `classes`, some words and flags are shared memory, and semantics name
/// buffer memory, shared memory or both.
fn trace(rng: &mut Rng, atomic_data: bool, classes: bool) -> Trace {
    let len = 4 + rng.below(MAX_EVENTS - 3);
    let invocations = 2 + rng.below(INVOCATIONS - 1);
    let write_in = 2 + rng.below(6);
    let narrow_in = 1 + rng.below(6);
    let relaxed_in = 1 + rng.below(6);
    // Every barrier of a trace has the same semantics (the engine keeps
    // what they released across barriers).
    let barrier_orders = rng.below(2) == 0;
    let (barrier_semantics, barrier_names) = semantics(rng, barrier_orders, barrier_orders, classes);
    let barrier_kind = [WORKGROUP_BARRIER, SUBGROUP_BARRIER, SUBGROUP_MEMORY_BARRIER][rng.below(3) as usize];
    let (execution, memory) = match barrier_kind {
        WORKGROUP_BARRIER => (Scope::Workgroup, Scope::Workgroup),
        SUBGROUP_BARRIER => (Scope::Subgroup, Scope::Subgroup),
        _ => (Scope::Workgroup, Scope::Subgroup),
    };
    let mut t = Trace {
        events: Vec::new(),
        steps: Vec::new(),
        sites: Vec::new(),
        locks: Vec::new(),
        subgroup_barriers: Vec::new(),
    };
    let mut held = vec![0u32; INVOCATIONS as usize];
    let mut subgroup_barriers = vec![[0u32; 2]; INVOCATIONS as usize];
    let step =
        |kind, i: u32, a, b, c, d| Step { kind, g: i / WORKGROUP_SIZE, t: i % WORKGROUP_SIZE, a, b, c, d, _pad: 0 };
    for i in 0..INVOCATIONS {
        t.steps.push(step(0, i, 0, 0, 0, 0));
    }
    let mut waiting = vec![false; INVOCATIONS as usize];
    let mut barriers = vec![0u32; INVOCATIONS as usize];
    let scope = |rng: &mut Rng| if rng.below(narrow_in) == 0 { 1 + rng.below(2) } else { 3 };
    for _ in 0..len {
        let free: Vec<u32> = (0..invocations).filter(|&i| !waiting[i as usize]).collect();
        if free.is_empty() {
            // Each waits at a barrier an invocation that never runs is
            // part of.
            break;
        }
        let i = free[rng.below(free.len() as u32) as usize];
        let agent = i as usize;
        t.subgroup_barriers.push(subgroup_barriers[agent]);
        let roll = rng.below(20);
        let ordered = rng.below(relaxed_in) != 0;
        if roll < 9 {
            let write = rng.below(write_in) == 0;
            let word = rng.below(WORDS);
            let site = 2 * rng.below(SITES / 2) + u32::from(write);
            let at = Location { class: class_of(word, classes), word };
            t.sites.push((site, barriers[agent]));
            t.locks.push(held[agent]);
            t.events.push(Event { agent, op: Op::Plain { at, write, non_private: true, made: Some(Scope::Device) } });
            t.steps.push(step(1, i, word, site, u32::from(write), barriers[agent]));
        } else if roll < 15 {
            let (read, write) = [(true, false), (false, true), (true, true)][rng.below(3) as usize];
            let s = scope(rng);
            let (semantics, names) = semantics(rng, read && ordered, write && ordered, classes);
            let loc = rng.below(if atomic_data { LOCATIONS } else { FLAGS });
            let on_data = loc >= FLAGS;
            let word = if on_data { loc - FLAGS } else { WORDS + loc };
            let at = Location { class: class_of(word, classes), word };
            // Some read-modify-writes take a lock at their location, some
            // stores free it.
            let lock = rng.below(2) == 0;
            let (take, free) = (lock && read && write, lock && write && !read);
            // An access of data: checked with the locks held before it.
            if on_data {
                // Loads, stores and read-modify-writes.
                t.sites.push((SITES + u32::from(write) + u32::from(read && write), barriers[agent]));
                t.locks.push(held[agent]);
            } else {
                t.sites.push((0, 0));
                t.locks.push(0);
            }
            if take {
                held[agent] |= 1 << loc;
            }
            if free {
                held[agent] &= !(1 << loc);
            }
            let flags = flag(read, READ)
                | flag(write, WRITE)
                | flag(semantics.acquire, ACQUIRE)
                | flag(semantics.release, RELEASE)
                | flag(take, LOCK_TAKE)
                | flag(free, LOCK_FREE)
                | names;
            t.events.push(Event { agent, op: Op::Atomic { at, read, write, scope: scope_of(s), semantics } });
            if on_data {
                let (site, passed) = *t.sites.last().expect("its site");
                t.steps.push(step(6, i, loc, flags, s, site | (passed << 16)));
            } else {
                t.steps.push(step(2, i, loc, flags, s, 0));
            }
        } else if roll < 18 {
            let s = scope(rng);
            let (acquire, release) = [(true, false), (false, true), (true, true)][rng.below(3) as usize];
            let (semantics, names) = semantics(rng, acquire, release, classes);
            let flags = flag(acquire, ACQUIRE) | flag(release, RELEASE) | names;
            t.sites.push((0, 0));
            t.events.push(Event { agent, op: Op::Fence { scope: scope_of(s), semantics } });
            t.locks.push(0);
            t.steps.push(step(3, i, 0, flags, s, 0));
        } else {
            let flags = if barrier_orders { barrier_names } else { 0 };
            t.sites.push((0, 0));
            t.locks.push(0);
            t.events.push(Event { agent, op: Op::Barrier { execution, memory, semantics: barrier_semantics } });
            t.steps.push(step(4, i, 0, flags, barrier_kind, 0));
            waiting[agent] = true;
            // The data-race check counts the barriers the workgroup waits
            // at; the engine, those that order memory within a subgroup
            // only.
            if barrier_kind != SUBGROUP_BARRIER {
                barriers[agent] += 1;
            }
            if barrier_kind != WORKGROUP_BARRIER && barrier_orders {
                subgroup_barriers[agent][0] += u32::from(barrier_semantics.buffer);
                subgroup_barriers[agent][1] += u32::from(barrier_semantics.shared);
            }
            let group = |j: u32| match barrier_kind {
                SUBGROUP_BARRIER => j / SUBGROUP_SIZE,
                _ => j / WORKGROUP_SIZE,
            };
            let members: Vec<u32> = (0..INVOCATIONS).filter(|&j| group(j) == group(i)).collect();
            if members.iter().all(|&j| waiting[j as usize]) {
                for &j in &members {
                    waiting[j as usize] = false;
                    t.steps.push(step(5, j, 0, flags, barrier_kind, 0));
                }
            }
        }
    }
    // Invocations from `invocations` on never run, so barriers they are
    // members of never complete, in the reference and the engine alike.
    t
}

/// The data-race check's classes (`WGRACE_CLASS_*`).
const INTRA: u32 = 0;
const BARRIER_KIND: u32 = 1;
const INTER: u32 = 2;
const INTRA_SUBGROUP: u32 = 3;
/// The missing-fence check's code; the scope check's first code, its races
/// of memory, and the engine's races of two atomics (the later access read,
/// wrote), as the harness links them.
const MISSING_FENCE: u32 = 4;
const SCOPE_CODES: u32 = 5;
const SCOPE: u32 = SCOPE_CODES + 2;
const SCOPE_ATOMICS: u32 = SCOPE_CODES + 3;
const LOCKSET: u32 = 10;
/// The atomic-plain check's codes: the later access read, wrote.
const ATOMIC_PLAIN: u32 = 11;

/// The trace with every atomic and fence at device scope, and every
/// workgroup barrier at workgroup memory scope: the wide program.
fn widened(events: &[Event]) -> Vec<Event> {
    let op = |op| match op {
        Op::Atomic { at, read, write, semantics, .. } => {
            Op::Atomic { at, read, write, scope: Scope::Device, semantics }
        }
        Op::Fence { semantics, .. } => Op::Fence { scope: Scope::Device, semantics },
        Op::Barrier { execution: Scope::Workgroup, semantics, .. } => {
            Op::Barrier { execution: Scope::Workgroup, memory: Scope::Workgroup, semantics }
        }
        op => op,
    };
    events.iter().map(|e| Event { agent: e.agent, op: op(e.op) }).collect()
}

/// The trace with every atomic acquiring what it reads and releasing what
/// it writes, of every memory: the strong program (GLSL's atomics without
/// semantics name no memory).
fn strengthened(events: &[Event]) -> Vec<Event> {
    events
        .iter()
        .map(|e| match e.op {
            Op::Atomic { at, read, write, scope, semantics } => Event {
                agent: e.agent,
                op: Op::Atomic {
                    at,
                    read,
                    write,
                    scope,
                    semantics: Semantics { acquire: read, release: write, buffer: true, shared: true, ..semantics },
                },
            },
            _ => *e,
        })
        .collect()
}

/// The racing statement pairs of the reference, with the class the check
/// records them under: (class, lower site, higher site).
fn expected(t: &Trace) -> BTreeSet<(u32, u32, u32)> {
    let agents = agents();
    let strong: BTreeSet<(usize, usize)> = vulkan_model::races(&agents, &strengthened(&t.events)).into_iter().collect();
    let wide: BTreeSet<(usize, usize)> = vulkan_model::races(&agents, &widened(&t.events)).into_iter().collect();
    let plain = |k: usize| matches!(t.events[k].op, Op::Plain { .. });
    let writes = |k: usize| match t.events[k].op {
        Op::Plain { write, .. } | Op::Atomic { write, .. } => write,
        _ => false,
    };
    // Two atomics of a data word: the engine checks them for the scope
    // check (of flags, the scope check's state machines judge them).
    let on_data = |k: usize| matches!(t.events[k].op, Op::Atomic { at, .. } if at.word < WORDS);
    vulkan_model::races(&agents, &t.events)
        .into_iter()
        .filter(|&(i, j)| plain(i) || plain(j) || (on_data(i) && on_data(j)))
        .map(|(i, j)| {
            let (a, b) = (agents[t.events[i].agent], agents[t.events[j].agent]);
            let ((si, bi), (sj, bj)) = (t.sites[i], t.sites[j]);
            if !plain(i) && !plain(j) {
                return (SCOPE_ATOMICS + u32::from(writes(j)), si.min(sj), si.max(sj));
            }
            let class = if plain(i) != plain(j) {
                ATOMIC_PLAIN + u32::from(writes(j))
            } else if a.workgroup != b.workgroup {
                INTER
            } else if a.subgroup == b.subgroup {
                INTRA_SUBGROUP
            } else if bi != bj {
                BARRIER_KIND
            } else {
                INTRA
            };
            // Synchronization too narrow first: what the wide program
            // orders, or a subgroup barrier between two subgroups. Then a
            // barrier of the wrong kind between them is the barrier's
            // fault, whatever the atomics do (also in one subgroup, where
            // the class is intra-subgroup).
            let class_index = match t.events[i].op {
                Op::Plain { at, .. } | Op::Atomic { at, .. } => usize::from(at.class == Class::Shared),
                _ => 0,
            };
            let across_subgroup_barriers = a.workgroup == b.workgroup
                && a.subgroup != b.subgroup
                && t.subgroup_barriers[i][class_index] != t.subgroup_barriers[j][class_index];
            let across_barrier = a.workgroup == b.workgroup && bi != bj;
            let (li, lj) = (t.locks[i], t.locks[j]);
            let no_common_lock = li & lj == 0 && li | lj != 0;
            let class = if across_subgroup_barriers || !wide.contains(&(i, j)) {
                SCOPE
            } else if across_barrier {
                class
            } else if !strong.contains(&(i, j)) {
                MISSING_FENCE
            } else if no_common_lock {
                LOCKSET
            } else {
                class
            };
            (class, si.min(sj), si.max(sj))
        })
        .collect()
}

/// The harness: the data-race check as the pass links it, with the engine.
fn harness(atomic_data: bool, parts: u32, classes: bool) -> Option<trace_harness::Harness> {
    let mut checks = common::linked_checks(false, false);
    checks.truncate(1);
    let engine = wgrace_shaders::check_file("data_race/happens_before/engine.wgsl").expect("the engine");
    let none = wgrace_shaders::check_file("data_race/happens_before/none.wgsl").expect("no engine");
    checks[0].source = checks[0].source.replace(none, "");
    checks[0].source.push_str(&layout(atomic_data, parts, classes));
    checks[0].source.push_str(engine);
    checks[0].source.push_str("fn wgrace_hb_var_word(v: u32, word: u32) -> u32 { return word; }\n");
    checks[0].source.push_str("fn wgrace_hb_owns(v: u32) -> bool { return true; }\n");
    // The harness runs one invocation: nothing to wait for.
    checks[0].source.push_str("fn wgrace_hb_subgroup_sync() {}\n");
    checks[0].source.push_str(&format!("const WGRACE_CODE_MISSING_FENCE: u32 = {MISSING_FENCE}u;\n"));
    checks[0].source.push_str(&format!("const WGRACE_CODE_SCOPE: u32 = {SCOPE_CODES}u;\n"));
    checks[0].source.push_str(wgrace_shaders::check_file("scope/engine/sync.wgsl").expect("the scope check's"));
    checks[0].source.push_str(wgrace_shaders::check_file("scope/engine/atomics.wgsl").expect("the scope check's"));
    checks[0].source.push_str(&format!("const WGRACE_CODE_LOCKSET: u32 = {LOCKSET}u;\n"));
    checks[0].source.push_str(&wgrace_shaders::check_source("lockset").expect("the lockset check"));
    checks[0].source.push_str(&wgrace_shaders::check_source("missing_fence").expect("the missing-fence check"));
    checks[0].source.push_str(&format!("const WGRACE_CODE_ATOMIC_PLAIN: u32 = {ATOMIC_PLAIN}u;\n"));
    checks[0]
        .source
        .push_str(wgrace_shaders::check_file("atomic_plain/engine/record.wgsl").expect("the atomic-plain check's"));
    checks[0].hooks = Hooks::default();
    let source = runtime_source(&trace_harness::prelude(checks, WORKGROUP_SIZE, WORKGROUPS)) + HARNESS;
    let shape = trace_harness::Shape {
        workgroups: WORKGROUPS,
        words: WORDS,
        atomic_base: 0,
        state_binding: 6,
        state_words: engine_words(parts, classes),
    };
    trace_harness::Harness::new(source, &shape)
}

/// What the engine recorded: (class, lower site, higher site), whether it
/// followed everything, and whether it followed everything in the programs
/// that class races too.
fn recorded(harness: &trace_harness::Harness, t: &Trace) -> (BTreeSet<(u32, u32, u32)>, bool, bool) {
    let log = harness.run(&t.steps);
    let header: &abi::LogHeader = bytemuck::from_bytes(bytemuck::cast_slice(&log[..trace_harness::HEADER]));
    assert_eq!(header.dropped, 0, "dropped detections");
    let races = trace_harness::table(&log)
        .into_iter()
        .map(|(key, _, _)| {
            let (code, [i, j]) = abi::decode_record_key(key).expect("a used entry");
            (code, i, j)
        })
        .collect();
    (races, header.hb_unchecked == 0, header.hb_class_unsure == 0)
}

/// How far down the classes that the engine's other programs and lock sets
/// name a class is: scope (the wide program orders the race), missing-fence
/// (the strong one), lockset, then the classes of the data race itself.
fn class_rank(class: u32) -> u32 {
    match class {
        SCOPE => 0,
        MISSING_FENCE => 1,
        LOCKSET => 2,
        _ => 3,
    }
}

/// Racy traces, and how many of them have a race of each of the classes
/// the engine's other programs and lock sets name, and of the atomic-plain
/// check's.
#[derive(Default)]
struct Counts {
    followed: usize,
    /// Followed traces whose wide or strong program, or lock sets, could
    /// not follow everything: their races' classes may be further down.
    classes_unsure: usize,
    racy: usize,
    missing_fence: usize,
    scope: usize,
    lockset: usize,
    atomic_plain: usize,
    scope_atomics: usize,
}

/// Runs `traces` random traces through the engine and asserts that each
/// one it follows has the reference's racing statement pairs, each under
/// one of the classes the reference allows.
fn matches_the_model(atomic_data: bool, parts: u32, classes: bool, seed: u64, traces: usize) -> Option<Counts> {
    let harness = harness(atomic_data, parts, classes)?;
    let mut rng = Rng(seed);
    let mut n = Counts::default();
    for _ in 0..traces {
        let t = trace(&mut rng, atomic_data, classes);
        let (races, complete, classes_sure) = recorded(&harness, &t);
        if !complete {
            continue;
        }
        n.followed += 1;
        n.classes_unsure += usize::from(!classes_sure);
        let expected = expected(&t);
        n.racy += usize::from(!expected.is_empty());
        let pairs = |s: &BTreeSet<(u32, u32, u32)>| s.iter().map(|&(_, a, b)| (a, b)).collect::<BTreeSet<_>>();
        assert_eq!(pairs(&races), pairs(&expected), "racing statement pairs of {:#?}, sites {:?}", t.events, t.sites);
        // Where the other programs could not follow everything, a race
        // may get a class further down than the reference's (what they
        // could not decide, they leave out), never one further up.
        let allowed = |&(class, a, b): &(u32, u32, u32)| {
            expected.contains(&(class, a, b))
                || (!classes_sure
                    && expected.iter().any(|&(e, ea, eb)| {
                        (ea, eb) == (a, b) && class_rank(e) < 3 && class_rank(class) > class_rank(e)
                    }))
        };
        assert!(races.iter().all(allowed), "classes: {races:?}, of {expected:?}, in {:#?}", t.events);
        n.missing_fence += usize::from(races.iter().any(|r| r.0 == MISSING_FENCE));
        n.scope += usize::from(races.iter().any(|r| r.0 == SCOPE));
        n.lockset += usize::from(races.iter().any(|r| r.0 == LOCKSET));
        n.atomic_plain += usize::from(races.iter().any(|r| r.0 >= ATOMIC_PLAIN));
        n.scope_atomics += usize::from(races.iter().any(|r| r.0 == SCOPE_ATOMICS || r.0 == SCOPE_ATOMICS + 1));
    }
    // The figures docs/detector.md quotes (`--nocapture`).
    eprintln!(
        "{traces} traces, atomics on data words {atomic_data}, {parts} part(s) a location, shared memory {classes}: \
         {} followed ({} of them with classes unsure), {} racy, {} with a missing-fence race, {} scope, {} lockset, {} \
         atomic-plain, {} scope of two atomics",
        n.followed, n.classes_unsure, n.racy, n.missing_fence, n.scope, n.lockset, n.atomic_plain, n.scope_atomics
    );
    Some(n)
}

#[test]
fn the_engine_matches_the_vulkan_memory_model_on_random_traces() {
    let traces = 3000;
    // Each location's clock in a part per workgroup and scope, as the host
    // lays it out where atomics or fences are narrower than the device.
    let Some(n) = matches_the_model(false, 4 * WORKGROUPS, false, 0x4ab5_0b1e_d000_0001, traces) else { return };
    // And whole: exact too, and it cannot decide some acquires the parts
    // decide (of release sequences that several workgroups' narrow atomics
    // contribute to).
    let Some(whole) = matches_the_model(false, 1, false, 0x4ab5_0b1e_d000_0001, traces) else { return };
    assert!(whole.followed < n.followed, "whole: {} followed, in parts: {}", whole.followed, n.followed);
    let racy = n.racy;
    // The wide and strong sets name some of them.
    assert!((racy / 100..racy * 9 / 10).contains(&n.scope), "{} of {racy} racy traces: scope", n.scope);
    assert!((racy / 50..racy * 9 / 10).contains(&n.lockset), "{} of {racy} racy traces: lockset", n.lockset);
    assert!(
        (racy / 50..racy * 9 / 10).contains(&n.missing_fence),
        "{} of {racy} racy traces: missing-fence",
        n.missing_fence
    );
    assert!(n.followed >= traces * 3 / 4, "the engine followed {} of {traces} traces", n.followed);
    assert!((n.followed / 10..n.followed * 9 / 10).contains(&racy), "{racy} of {} traces race", n.followed);
}

#[test]
fn atomics_that_access_data_words_race_with_plain_accesses_as_the_model_says() {
    // Some atomics access the words plain accesses do: an atomic and a
    // plain access race unless ordered, and where the earlier one wrote,
    // unless the atomic's scope holds both (availability and visibility);
    // so do two atomics that are not mutually ordered.
    let traces = 3000;
    // Each location's clock whole, as the host lays it out where the parts
    // do not fit.
    let Some(n) = matches_the_model(true, 1, false, 0x4ab5_0b1e_d000_0002, traces) else { return };
    let racy = n.racy;
    assert!(
        (racy / 20..racy * 9 / 10).contains(&n.atomic_plain),
        "{} of {racy} racy traces: atomic-plain",
        n.atomic_plain
    );
    assert!((racy / 100..racy * 9 / 10).contains(&n.scope), "{} of {racy} racy traces: scope", n.scope);
    // Two atomics of a data word whose scopes do not both hold the other's
    // invocation race unless ordered as plain accesses would be.
    assert!(
        (racy / 50..racy * 9 / 10).contains(&n.scope_atomics),
        "{} of {racy} racy traces: scope of two atomics",
        n.scope_atomics
    );
    assert!(n.followed >= traces * 3 / 4, "the engine followed {} of {traces} traces", n.followed);
}

/// One event of a trace written by hand: a plain access of a data word, or
/// an atomic (read, write, or both) of scope `scope` (1 subgroup, 2
/// workgroup, 3 device) at location `loc` (from `FLAGS` on: data word
/// `loc - FLAGS`), acquiring what it reads and releasing what it writes
/// when `ordered`.
#[derive(Clone, Copy)]
enum Step2 {
    Plain { word: u32, write: bool },
    Atomic { loc: u32, read: bool, write: bool, scope: u32, ordered: bool },
}

/// The trace of `events`, each by an invocation of the dispatch.
fn written(events: &[(u32, Step2)]) -> Trace {
    let mut t = Trace {
        events: Vec::new(),
        steps: Vec::new(),
        sites: Vec::new(),
        locks: Vec::new(),
        subgroup_barriers: vec![[0; 2]; events.len()],
    };
    let step =
        |kind, i: u32, a, b, c, d| Step { kind, g: i / WORKGROUP_SIZE, t: i % WORKGROUP_SIZE, a, b, c, d, _pad: 0 };
    for i in 0..INVOCATIONS {
        t.steps.push(step(0, i, 0, 0, 0, 0));
    }
    for &(i, e) in events {
        let agent = i as usize;
        match e {
            Step2::Plain { word, write } => {
                let site = u32::from(write);
                t.sites.push((site, 0));
                t.locks.push(0);
                let at = Location { class: Class::Buffer, word };
                t.events
                    .push(Event { agent, op: Op::Plain { at, write, non_private: true, made: Some(Scope::Device) } });
                t.steps.push(step(1, i, word, site, u32::from(write), 0));
            }
            Step2::Atomic { loc, read, write, scope, ordered } => {
                let semantics = Semantics {
                    acquire: read && ordered,
                    release: write && ordered,
                    buffer: true,
                    ..Semantics::RELAXED
                };
                let flags = flag(read, READ)
                    | flag(write, WRITE)
                    | flag(semantics.acquire, ACQUIRE)
                    | flag(semantics.release, RELEASE)
                    | names(semantics);
                let on_data = loc >= FLAGS;
                let word = if on_data { loc - FLAGS } else { WORDS + loc };
                let at = Location { class: Class::Buffer, word };
                t.events.push(Event { agent, op: Op::Atomic { at, read, write, scope: scope_of(scope), semantics } });
                t.locks.push(0);
                if on_data {
                    let site = SITES + u32::from(write) + u32::from(read && write);
                    t.sites.push((site, 0));
                    t.steps.push(step(6, i, loc, flags, scope, site));
                } else {
                    t.sites.push((0, 0));
                    t.steps.push(step(2, i, loc, flags, scope, 0));
                }
            }
        }
    }
    t
}

#[test]
fn a_word_keeps_both_accesses_of_a_statement_that_a_narrow_atomic_can_tell_apart() {
    // Invocation 0 (workgroup 0) writes word 0 and releases a flag at device
    // scope; invocation 4 (workgroup 1) acquires it, writes word 0 at the
    // same statement (ordered after the first write), then reads the word
    // with a workgroup-scope atomic. The atomic read sees the second write
    // (its scope holds it) but not the first: it races with that one only,
    // although the second write happened after it.
    use Step2::{Atomic, Plain};
    let t = written(&[
        (0, Plain { word: 0, write: true }),
        (0, Atomic { loc: 0, read: false, write: true, scope: 3, ordered: true }),
        (4, Atomic { loc: 0, read: true, write: false, scope: 3, ordered: true }),
        (4, Plain { word: 0, write: true }),
        (4, Atomic { loc: FLAGS, read: true, write: false, scope: 2, ordered: false }),
    ]);
    let expected = expected(&t);
    assert_eq!(expected, BTreeSet::from([(SCOPE, 1, SITES)]), "the reference");
    let Some(harness) = harness(true, 1, false) else { return };
    let (races, complete, classes_sure) = recorded(&harness, &t);
    assert!(complete && classes_sure);
    assert_eq!(races, expected);
}

#[test]
fn the_engine_matches_the_model_where_semantics_name_buffer_or_shared_memory() {
    // A word of data and a flag are shared memory, and each atomic's,
    // fence's and barrier's semantics name buffer memory, shared memory or
    // both: each class's memory is ordered by synchronization that names
    // it, and a fence releases and acquires through an atomic only where it
    // names the atomic's memory too.
    let traces = 3000;
    let Some(n) = matches_the_model(true, 4 * WORKGROUPS, true, 0x4ab5_0b1e_d000_0003, traces) else { return };
    let racy = n.racy;
    assert!(n.followed >= traces * 2 / 3, "the engine followed {} of {traces} traces", n.followed);
    assert!((n.followed / 10..n.followed * 9 / 10).contains(&racy), "{racy} of {} traces race", n.followed);
    assert!((racy / 50..racy * 9 / 10).contains(&n.scope), "{} of {racy} racy traces: scope", n.scope);
}
