//! `barrier-divergence`: invocations of one workgroup that executed different
//! sequences of workgroup barriers.
//!
//! WGSL requires every invocation of a workgroup to execute the same
//! barriers (a barrier only in uniform control flow); Tint rejects shaders
//! that break the rule, naga accepts some (wgpu#4006), and GPUs then hang or
//! synchronise the wrong invocations. The WGSL half
//! (`shaders/wgsl/checks/barrier_divergence/`) folds each invocation's
//! barrier ids into a signature and compares it, when the invocation ends,
//! with the first invocation of its workgroup to end; a difference is one
//! record whose ids are the two invocations' last barriers.
//!
//! The finding's `data` holds `workgroup_id`, and `first` and `second` (the
//! first finisher and an invocation that differs from it), each with
//! `local_invocation_id`, `barriers` (executed, counted up to 4095) and
//! `last_barrier` (its id in the report's barrier table, or null).

use serde::Serialize;
use wgrace_report::{BarrierSite, CheckInfo, Finding, FindingLocation, Invocation, Severity};
use wgrace_shaders::{Hooks, LinkedCheck};

use super::{Check, DecodeContext, Decoded, Record, ShaderFacts, delinearize, wgsl_prefix};

/// The check.
pub struct BarrierDivergence;

const ID: &str = "barrier-divergence";

const EXPLANATION: &str = "WGSL requires every invocation of a workgroup to execute the same barriers (a barrier \
    only in uniform control flow); naga accepts this shader, but GPUs may hang on it or synchronise the wrong \
    invocations";

const HINT: &str = "move the barrier out of the non-uniform branch or loop (let every invocation reach it), or make \
    the condition uniform, e.g. with workgroupUniformLoad()";

impl Check for BarrierDivergence {
    fn info(&self) -> CheckInfo {
        CheckInfo {
            id: ID.into(),
            name: "BarrierDivergence".into(),
            short_description: "Invocations of a workgroup executed different barriers".into(),
            full_description: format!(
                "{EXPLANATION}. wgrace compares, for every workgroup, the sequence of workgroup barriers each \
                 invocation executed with that of the first invocation to finish."
            ),
            help: HINT.into(),
            severity: Severity::Error,
        }
    }

    fn link(&self, facts: &ShaderFacts<'_>, first_code: u32) -> Option<LinkedCheck> {
        // Without a barrier no two invocations can execute different ones.
        (facts.barriers > 0).then(|| LinkedCheck {
            prefix: wgsl_prefix(ID),
            source: wgrace_shaders::check_source(&wgsl_prefix(ID)).unwrap_or_default(),
            hooks: Hooks { barrier: true, end: true, ..Hooks::default() },
            first_code,
            // One atomic<u64>, rounded as WebGPU counts it.
            workgroup_bytes: 16,
            atomic_state_words: 0,
            unchecked: Vec::new(),
        })
    }

    fn decode(&self, record: &Record, ctx: &DecodeContext<'_>) -> Result<Decoded, String> {
        let example = record.examples.first().ok_or("a barrier-divergence record without its example")?;
        Ok(Decoded::Finding(finding(record, example, ctx.barriers, ctx.dispatch, ctx.workgroup_size)))
    }
}

/// The barriers one invocation executed.
#[derive(Serialize)]
struct Path {
    local_invocation_id: [u32; 3],
    barriers: u32,
    last_barrier: Option<u32>,
}

/// The finding of one record: its ids are the last barriers of the two
/// invocations, its word their barrier counts (the first finisher's in the
/// low half).
fn finding(
    record: &Record,
    example: &[u32; 4],
    barriers: &[BarrierSite],
    dispatch: [u32; 3],
    workgroup_size: [u32; 3],
) -> Finding {
    let [lo, hi] = record.ids;
    let bits = example[3];
    let first_is_lo = bits & (1 << 20) != 0;
    let (first_last, second_last) = if first_is_lo { (lo, hi) } else { (hi, lo) };
    let (lo_t, hi_t) = (bits & 0x3ff, (bits >> 10) & 0x3ff);
    let (first_t, second_t) = if first_is_lo { (lo_t, hi_t) } else { (hi_t, lo_t) };
    let path = |t: u32, count: u32, last: u32| Path {
        local_invocation_id: delinearize(t, workgroup_size),
        barriers: count,
        last_barrier: barriers.iter().any(|b| b.id == last).then_some(last),
    };
    let first = path(first_t, example[2] & 0xffff, first_last);
    let second = path(second_t, example[2] >> 16, second_last);
    let workgroup_id = delinearize(example[0], dispatch);
    let [x, y, z] = workgroup_id;
    let barrier = |p: &Path| p.last_barrier.and_then(|id| barriers.iter().find(|b| b.id == id));
    let same = first.last_barrier.is_some() && first.last_barrier == second.last_barrier;

    let mut locations = Vec::new();
    if let Some(b) = barrier(&second) {
        let whose = if same {
            format!("invocations {} and {}", local(&second), local(&first))
        } else {
            format!("invocation {}", local(&second))
        };
        locations.push(FindingLocation {
            label: format!("the last barrier of {whose}"),
            primary: true,
            location: b.location.clone(),
        });
    }
    if let Some(b) = barrier(&first).filter(|_| !same) {
        locations.push(FindingLocation {
            label: format!("the last barrier of invocation {}", local(&first)),
            primary: locations.is_empty(),
            location: b.location.clone(),
        });
    }
    let invocations = if record.count == 1 { "invocation" } else { "invocations" };
    let paths = if first.barriers == second.barriers && same { ", by a different path" } else { "" };
    let details = vec![format!(
        "{}; {}{paths}; {} {invocations} of the dispatch differed like this from the first of their workgroup",
        describe(&first, barriers),
        describe(&second, barriers),
        record.count
    )];
    let mut data = serde_json::Map::new();
    data.insert("workgroup_id".into(), serde_json::json!(workgroup_id));
    data.insert("first".into(), serde_json::to_value(&first).unwrap_or_default());
    data.insert("second".into(), serde_json::to_value(&second).unwrap_or_default());
    Finding {
        check: ID.into(),
        severity: Severity::Error,
        message: format!("invocations of workgroup ({x},{y},{z}) executed different barriers"),
        locations,
        invocations: [&first, &second]
            .map(|p| Invocation { workgroup_id, local_invocation_id: p.local_invocation_id })
            .to_vec(),
        memory: None,
        occurrences: record.count,
        details,
        data,
        explanation: EXPLANATION.into(),
        hint: HINT.into(),
        incomplete: None,
    }
}

fn local(p: &Path) -> String {
    let [x, y, z] = p.local_invocation_id;
    format!("({x},{y},{z})")
}

/// "invocation (1,0,0) executed 2 barriers, the last at line 9".
fn describe(p: &Path, barriers: &[BarrierSite]) -> String {
    let who = format!("invocation {}", local(p));
    let last = p.last_barrier.and_then(|id| barriers.iter().find(|b| b.id == id));
    match (last, p.barriers) {
        (None, _) | (_, 0) => format!("{who} executed no barrier"),
        (Some(last), n) => {
            let count = match n {
                4095.. => "4095 or more barriers".to_string(),
                1 => "1 barrier".to_string(),
                n => format!("{n} barriers"),
            };
            match last.location.line {
                Some(line) => format!("{who} executed {count}, the last at line {line}"),
                None => format!("{who} executed {count}, the last `{}`", last.location.snippet.trim()),
            }
        }
    }
}
