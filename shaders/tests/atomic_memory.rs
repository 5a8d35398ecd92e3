//! The state machines of the checks of atomic memory, `scope`
//! (`wgsl/checks/scope/atomics.wgsl`) and `atomic-plain`
//! (`wgsl/checks/atomic_plain/`), checked against the Vulkan memory model's
//! rules on random traces.
//!
//! A one-invocation harness feeds each trace of accesses through the
//! runtime's atomic-memory event, with both checks linked as the pass links
//! them, forging the workgroup and invocation of every access, so the trace
//! order is the order in which the state words see them. The references,
//! with no synchronization between workgroups:
//!
//! - `scope`: two atomic accesses of one word race when at least one writes
//!   and they are not mutually ordered (one's scope leaves out the other's
//!   invocation): they come from different workgroups and at least one has a
//!   scope narrower than the device, or (with the harness that keeps state
//!   within the workgroup) from different subgroups of one workgroup with
//!   no barrier between them, and at least one has subgroup scope;
//! - `atomic-plain`: an atomic and a plain access of one word race when at
//!   least one writes and they come from different workgroups, or from
//!   different invocations of one workgroup with no barrier that orders
//!   that memory between them (with the harness that keeps the check's
//!   state within the workgroup, on traces of one workgroup, of buffer or
//!   of workgroup memory).
//!
//! The test asserts that each check records exactly the words that race
//! under its rule, each once, at the access that first makes the word race,
//! against an earlier access it races with, with both invocations and
//! whether each wrote.
//!
//! Site ids are trace positions, so a recorded pair names two accesses.

use crate::common::rng::Rng;
use crate::common::trace_harness::{self, table};
use wgrace_shaders::{Hooks, LinkedCheck, runtime_source};

const HARNESS: &str = r#"
struct Step { g: u32, t: u32, site: u32, flags: u32, word: u32, epoch: u32, _pad0: u32, _pad1: u32 }
@group(1) @binding(0) var<storage, read> steps: array<Step>;

@compute @workgroup_size(1)
fn main() {
    wgrace_sg_size = 2u; // SUBGROUP_SIZE
    for (var i = 0u; i < arrayLength(&steps); i++) {
        let s = steps[i];
        wgrace_g = s.g;
        wgrace_t = s.t;
        wgrace_ap_epoch = s.epoch;
        wgrace_ap_shared_epoch = s.epoch;
        wgrace_scope_epochs = vec2<u32>(s.epoch);
        wgrace_scope_lane_epochs = vec2<u32>(s.epoch);
        wgrace_atomic_memory(0u, s.word, true, s.site, s.flags);
    }
    wgrace_end();
}
"#;

const WORDS: u32 = 4;
const INVOCATIONS: u32 = 4;
/// Invocations per subgroup: the harness's invocations 0-1 and 2-3 are two
/// subgroups.
const SUBGROUP_SIZE: u32 = 2;
const WORKGROUPS: u32 = 3;
const MAX_STEPS: usize = 40;
/// 64-bit words of state per word of each check.
const STATE_WORDS: u32 = 9;
/// The checks, with their first record codes.
const CHECKS: [(&str, u32); 2] = [("scope", 0), ("atomic_plain", 2)];

#[repr(C)]
#[derive(Clone, Copy, Debug, bytemuck::Pod, bytemuck::Zeroable)]
struct Step {
    g: u32,
    t: u32,
    site: u32,
    /// `WGRACE_ACCESS_WRITE | WGRACE_ACCESS_NARROW | WGRACE_ACCESS_PLAIN`,
    /// with `WGRACE_ACCESS_WORKGROUP_MEMORY` in some traces within a
    /// workgroup.
    flags: u32,
    word: u32,
    /// Control barriers ordering the memory its workgroup executed.
    epoch: u32,
    _pad: [u32; 2],
}

impl Step {
    fn write(&self) -> bool {
        self.flags & wgrace_shaders::ACCESS_WRITE != 0
    }
    fn narrow(&self) -> bool {
        self.flags & wgrace_shaders::ACCESS_NARROW != 0
    }
    fn plain(&self) -> bool {
        self.flags & wgrace_shaders::ACCESS_PLAIN != 0
    }
    fn subgroup_scope(&self) -> bool {
        self.flags & wgrace_shaders::ACCESS_SUBGROUP != 0
    }
}

/// Whether two accesses race under the Vulkan memory model (with no other
/// synchronization between workgroups), by the rule of check `check` of
/// [`CHECKS`]; `within` adds the pairs of one workgroup that no barrier
/// separates (the harness that keeps state within a workgroup).
fn race(check: usize, a: &Step, b: &Step, within: bool) -> bool {
    let conflict = a.word == b.word && (a.write() || b.write());
    let unordered = a.g != b.g || (within && a.epoch == b.epoch && a.t != b.t);
    match check {
        0 => {
            let atomics = !a.plain() && !b.plain();
            let across = a.g != b.g && (a.narrow() || b.narrow());
            // Within one workgroup: different subgroups, one of subgroup scope.
            let subgroups = within
                && a.g == b.g
                && a.epoch == b.epoch
                && a.t / SUBGROUP_SIZE != b.t / SUBGROUP_SIZE
                && (a.subgroup_scope() || b.subgroup_scope());
            conflict && atomics && (across || subgroups)
        }
        _ => conflict && unordered && a.plain() != b.plain(),
    }
}

/// A random trace; narrow atomics, plain accesses and writes are made rare
/// in some traces so that race-free ones are common too.
fn trace(rng: &mut Rng, within: bool) -> Vec<Step> {
    let len = 2 + rng.below(MAX_STEPS as u32 - 1) as usize;
    // Within a workgroup: one workgroup, whose barriers raise the epoch.
    let workgroups = if within { 1 } else { 1 + rng.below(WORKGROUPS) };
    let words = 1 + rng.below(WORDS);
    let narrow_in = 2 + rng.below(8);
    let plain_in = 2 + rng.below(8);
    let write_in = 2 + rng.below(8);
    // Within a workgroup, half the traces are of workgroup memory, whose
    // atomics are never narrower than the workgroup (the pass flags none
    // narrow) but may have a subgroup's scope.
    let shared = within && rng.below(2) == 0;
    let memory = if shared { wgrace_shaders::ACCESS_WORKGROUP_MEMORY } else { 0 };
    let narrow = if shared { 0 } else { wgrace_shaders::ACCESS_NARROW };
    let mut epoch = 0;
    (0..len)
        .map(|i| {
            if within && rng.below(8) == 0 {
                epoch += 1;
            }
            let write = if rng.below(write_in) == 0 { wgrace_shaders::ACCESS_WRITE } else { 0 };
            let kind = if rng.below(plain_in) == 0 {
                wgrace_shaders::ACCESS_PLAIN
            } else if rng.below(narrow_in) == 0 {
                // Workgroup scope, or a subgroup's.
                narrow | if rng.below(2) == 0 { wgrace_shaders::ACCESS_SUBGROUP } else { 0 }
            } else {
                0
            };
            Step {
                g: rng.below(workgroups),
                t: rng.below(INVOCATIONS),
                site: i as u32,
                flags: write | kind | memory,
                word: rng.below(words),
                epoch,
                _pad: [0; 2],
            }
        })
        .collect()
}

struct Harness {
    gpu: trace_harness::Harness,
    /// Whether the atomic-plain check keeps its state within the workgroup.
    within: bool,
}

impl Harness {
    /// `within`: the atomic-plain check keeps state within the workgroup for
    /// every word of variable 0, as the host places it.
    fn new(within: bool) -> Option<Harness> {
        let checks = CHECKS
            .iter()
            .map(|&(prefix, first_code)| LinkedCheck {
                prefix: prefix.into(),
                source: wgrace_shaders::check_source(prefix).expect("the check's WGSL")
                    + &local_state(prefix, within)
                    + &barriers_order(prefix),
                hooks: Hooks { atomic_memory: true, barrier: true, ..Hooks::default() },
                first_code,
                workgroup_bytes: 0,
                atomic_state_words: STATE_WORDS,
                unchecked: Vec::new(),
            })
            .collect();
        let source = runtime_source(&trace_harness::prelude(checks, INVOCATIONS, WORKGROUPS)) + HARNESS;
        // The state starts after a word the data-race check would own, as
        // in a real run.
        let atomic_base = 1;
        let shape = trace_harness::Shape {
            workgroups: WORKGROUPS,
            words: WORDS,
            atomic_base,
            state_binding: 4,
            state_words: u64::from(atomic_base + WORDS * STATE_WORDS * CHECKS.len() as u32),
        };
        Some(Harness { gpu: trace_harness::Harness::new(source, &shape)?, within })
    }

    /// Feeds `steps` through the hook and returns the log followed by the
    /// examples.
    fn replay(&self, steps: &[Step]) -> Vec<u32> {
        self.gpu.run(steps)
    }
}

/// A check's placement of its state within a workgroup (the host generates
/// it; see `checks/atomic_memory.rs`): every word of variable 0 when
/// `within`, else none.
fn local_state(prefix: &str, within: bool) -> String {
    let file = |name: &str| wgrace_shaders::check_file(&format!("{prefix}/within/{name}")).expect("within WGSL");
    if !within {
        return file("none.wgsl").to_string();
    }
    let tag = if prefix == "atomic_plain" { "ap" } else { "scope" };
    format!(
        "const WGRACE_{upper}_LOCAL_WORDS: u32 = {WORDS}u;\nconst WGRACE_{upper}_LEVEL_WORDS: u32 = {WORDS}u;\n\
         const WGRACE_{upper}_LOCAL_WITNESSES: u32 = {}u;\n\
         fn wgrace_{tag}_local_at(v: u32, word: u32) -> u32 {{ if v == 0u && word < {WORDS}u {{ return word; }} \
         return 0xffffffffu; }}\n{}",
        8 * WORDS,
        file("state.wgsl"),
        upper = tag.to_uppercase()
    )
}

/// What the host generates beside a check's WGSL for a shader whose barriers
/// order every variable, and which the happens-before engine does not
/// check (the data-race check's `happens_before/none.wgsl`).
fn barriers_order(prefix: &str) -> String {
    if prefix == "atomic_plain" {
        "fn wgrace_atomic_plain_barriers_order(v: u32) -> bool { return true; }\n".to_string()
            + wgrace_shaders::check_file("data_race/happens_before/none.wgsl").expect("no engine")
    } else {
        String::new()
    }
}

/// For each word that races by the rule of check `check`, the first access
/// that makes it race (within each epoch of a workgroup as well, for the
/// state kept within it).
fn first_races(check: usize, steps: &[Step], within: bool) -> Vec<(u32, usize)> {
    let mut out: Vec<(u32, usize)> = Vec::new();
    for (j, b) in steps.iter().enumerate() {
        let recorded = |w: u32| {
            out.iter().any(|&(word, k)| {
                // Across workgroups a word is recorded once; within one, once
                // per epoch.
                word == w && (!within || steps[k].epoch == b.epoch)
            })
        };
        if !recorded(b.word) && steps[..j].iter().any(|a| race(check, a, b, within)) {
            out.push((b.word, j));
        }
    }
    out
}

fn check_trace(harness: &Harness, steps: &[Step]) {
    let within = harness.within;
    let log = harness.replay(steps);
    assert_eq!(log[0], 0, "dropped detections");
    let mut seen = vec![Vec::new(); CHECKS.len()];
    for (key, count, examples) in table(&log) {
        let (code, [i, j]) = wgrace_shaders::abi::decode_record_key(key).expect("a used entry");
        let (i, j) = (i as usize, j as usize);
        let check = CHECKS.iter().rposition(|&(_, first)| first <= code).expect("a check's code");
        let name = CHECKS[check].0;
        assert!(j < steps.len(), "{name}: a race without its witness ({i}, {j}) in {steps:#?}");
        let expected = first_races(check, steps, within);
        for example in examples.chunks_exact(4).take(count as usize) {
            let word = example[2];
            let bits = example[3];
            // The later access found the race; the earlier one is the witness.
            assert_ne!(bits & (1 << 20), 0, "{name}: order of ({i}, {j})");
            assert!(race(check, &steps[i], &steps[j], within), "{name}: recorded ({i}, {j}) do not race in {steps:#?}");
            assert_eq!(word, steps[j].word, "{name}: word of ({i}, {j})");
            assert!(
                expected.contains(&(word, j)),
                "{name}: ({i}, {j}) is not the first race of word {word} in {steps:#?}"
            );
            let wrote = code - CHECKS[check].1;
            assert_eq!(wrote, u32::from(steps[j].write()), "{name}: code says whether access {j} wrote");
            assert_eq!((bits >> 21) & 1, u32::from(steps[i].write()), "{name}: whether access {i} wrote");
            assert_eq!((example[0], bits & 0x3ff), (steps[i].g, steps[i].t), "{name}: invocation of access {i}");
            assert_eq!(
                (example[1], (bits >> 10) & 0x3ff),
                (steps[j].g, steps[j].t),
                "{name}: invocation of access {j}"
            );
            seen[check].push((word, j));
        }
    }
    for (check, seen) in seen.iter_mut().enumerate() {
        seen.sort_unstable();
        let mut expected = first_races(check, steps, within);
        expected.sort_unstable();
        assert_eq!(*seen, expected, "{}: racing words and where they first race, in {steps:#?}", CHECKS[check].0);
    }
}

fn harness(within: bool) -> Option<Harness> {
    Harness::new(within)
}

#[test]
fn the_state_machines_match_the_vulkan_rules_for_atomics() {
    for within in [false, true] {
        let Some(harness) = harness(within) else { return };
        let mut rng = Rng(0x5c0b_e5ee_d000_0001);
        let mut racy = [0; CHECKS.len()];
        for _ in 0..600 {
            let steps = trace(&mut rng, within);
            for (check, n) in racy.iter_mut().enumerate() {
                *n += usize::from(!first_races(check, &steps, within).is_empty());
            }
            check_trace(&harness, &steps);
        }
        // Both verdicts were exercised, for each check that applies.
        for (check, n) in racy.iter().enumerate() {
            let range = 60..540;
            assert!(range.contains(n), "{} (within: {within}): {n} of 600 traces race", CHECKS[check].0);
        }
    }
}

#[test]
fn classic_patterns() {
    let Some(harness) = harness(false) else { return };
    let step = |g, site, flags| Step { g, t: site % INVOCATIONS, site, flags, word: 0, epoch: 0, _pad: [0; 2] };
    let (w, n, p) = (wgrace_shaders::ACCESS_WRITE, wgrace_shaders::ACCESS_NARROW, wgrace_shaders::ACCESS_PLAIN);
    for (steps, scope, atomic_plain) in [
        // Device-scope counters of many workgroups: no race.
        (vec![step(0, 0, w), step(1, 1, w), step(2, 2, w)], false, false),
        // Workgroup-scope counters of two workgroups: a scope race.
        (vec![step(0, 0, w | n), step(0, 1, w | n), step(1, 2, w | n)], true, false),
        // Workgroup-scope reads of many workgroups, then a device-scope
        // write of another: a scope race.
        (vec![step(0, 0, n), step(1, 1, n), step(2, 2, n)], false, false),
        (vec![step(1, 0, n), step(1, 1, w), step(0, 2, 0), step(2, 3, n), step(0, 4, w)], true, false),
        // A device read of another workgroup after a narrow write.
        (vec![step(0, 0, w | n), step(1, 1, 0)], true, false),
        // A plain read of a counter other workgroups add to: atomic-plain.
        (vec![step(0, 0, w), step(1, 1, w), step(1, 2, p)], false, true),
        // An atomic read, a plain read of another workgroup, a plain write
        // of the first one: no two workgroups conflict.
        (vec![step(0, 0, 0), step(1, 1, p), step(0, 2, p | w)], false, false),
        // Then an atomic read of the second workgroup.
        (vec![step(0, 0, 0), step(1, 1, p), step(0, 2, p | w), step(1, 3, 0)], false, true),
        // An atomic write, an atomic read of another workgroup, a plain
        // write of a third.
        (vec![step(0, 0, w), step(1, 1, 0), step(2, 2, p | w)], false, true),
    ] {
        assert_eq!(!first_races(0, &steps, false).is_empty(), scope, "scope: {steps:#?}");
        assert_eq!(!first_races(1, &steps, false).is_empty(), atomic_plain, "atomic-plain: {steps:#?}");
        check_trace(&harness, &steps);
    }
}
