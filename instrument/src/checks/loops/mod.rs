//! `loops`: loops that run away, and loops the adapter cut short.
//!
//! A loop that never ends (a spin-wait on a flag nothing sets, a bound read
//! from the wrong buffer) hangs the GPU; WGSL promises no forward progress
//! between workgroups, so a spin-wait on another workgroup may never end.
//! The pass counts each loop's iterations per invocation (`crate::loops`);
//! an invocation that starts an iteration past the budget
//! (`--loop-budget`) leaves the loop and stops, and this check reports it:
//! an error, and the run is incomplete, since what the invocation would
//! have done after is not checked. A loop that ended without its exit was
//! ended by the adapter (lavapipe ends an invocation's loops once they ran
//! 65,535 iterations in all): a warning, and the run is incomplete too.
//! A spin-wait (a loop that waits for storage memory other invocations
//! write: `crate::spin`) that ended by itself is a warning of its own: WGSL
//! gives no forward-progress guarantee between workgroups, so it ended
//! because the workgroup it waited for happened to run.
//!
//! The WGSL half (`shaders/wgsl/checks/loops/`) records one entry per loop
//! and kind (code 0: past the budget; 1: cut short; 2: a spin-wait that
//! ended; each invocation's first of each kind), keyed by the loop's id,
//! counting invocations, with the most iterations in `aux` and each
//! example's iteration count in its word.
//!
//! The finding's `data` holds `loop` (its id in the loop table) and
//! `iterations` (the most any invocation started).

use wgrace_report::{CheckInfo, Finding, FindingLocation, Severity};
use wgrace_shaders::{Hooks, LinkedCheck};

use super::{
    Check, DecodeContext, Decoded, Record, ShaderFacts, example_invocations, invocation_text, linked, plural,
    wgsl_prefix,
};
use crate::sites::LoopSite;

/// The check.
pub struct Loops;

const ID: &str = "loops";

/// The most loops a shader may have for the check to bound them (a record
/// names a loop by an id as it names a site).
const MAX_LOOPS: usize = wgrace_shaders::Prelude::MAX_SITES as usize;

const BUDGET_EXPLANATION: &str = "the loop kept iterating past the budget wgrace gives every loop; on a GPU a loop \
    that does not end hangs the device, and WGSL promises no forward progress between workgroups, so a loop that \
    waits for another workgroup may never end";

const BUDGET_HINT: &str = "check what ends the loop (a bound read from the wrong buffer, a flag that nothing sets, an \
    index that never reaches its limit); if it needs more iterations, raise --loop-budget";

const CUT_EXPLANATION: &str = "the adapter ended the loop before its exit condition held: lavapipe (llvmpipe) ends \
    an invocation's loops once they have run 65,535 iterations in all (wgrace's own loops count too), so what the \
    shader computed after it, and the checking of it, are not the shader's";

const SPIN_EXPLANATION: &str = "WGSL promises no forward progress between workgroups: a workgroup that waits for a \
    value another workgroup writes may wait forever (or, where the wait is bounded, give up without the value) when \
    the GPU does not run that workgroup meanwhile (more workgroups than it runs at once, or a scheduler that runs \
    them in turn); this run's wait ended because the workgroups it waited for happened to run";

const SPIN_HINT: &str = "split the work at the wait into two dispatches (the second reads what the first wrote), or \
    let each workgroup compute what it waits for itself; a wait within one workgroup needs a barrier, not a loop";

const CUT_HINT: &str = "check the shader on another adapter (--adapter), or give each invocation fewer iterations \
    (more workgroups, fewer elements per invocation)";

impl Check for Loops {
    fn info(&self) -> CheckInfo {
        CheckInfo {
            id: ID.into(),
            name: "RunawayLoop".into(),
            short_description:
                "A loop ran past its iteration budget, the adapter cut it short, or it waits for another workgroup"
                    .into(),
            full_description: format!(
                "{BUDGET_EXPLANATION}. wgrace counts every loop's iterations per invocation; an invocation that \
                 starts more than the budget (--loop-budget) leaves the loop and stops, so the run ends instead \
                 of hanging, and the report is marked incomplete. A loop that ended without its exit condition \
                 was cut short by the adapter (a warning): {CUT_EXPLANATION}. A spin-wait, a loop that waits for \
                 storage memory other invocations write, is a warning even when it ends: {SPIN_EXPLANATION}."
            ),
            help: BUDGET_HINT.into(),
            severity: Severity::Error,
        }
    }

    fn record_codes(&self) -> u32 {
        3
    }

    fn link(&self, facts: &ShaderFacts<'_>, first_code: u32) -> Option<LinkedCheck> {
        if facts.loops == 0 {
            return None;
        }
        // Records name a loop by its index in the loop table, in 13 bits.
        if facts.loop_table > MAX_LOOPS {
            return Some(LinkedCheck {
                unchecked: vec![format!(
                    "the shader has {} loops, more than the {MAX_LOOPS} the loops check can tell apart: no loop \
                     is bounded, and a loop that runs away hangs the run",
                    facts.loop_table
                )],
                ..linked(ID, first_code, Hooks::default(), String::new())
            });
        }
        let source = wgrace_shaders::check_source(&wgsl_prefix(ID)).unwrap_or_default();
        Some(linked(ID, first_code, Hooks { loops: true, end: true, ..Hooks::default() }, source))
    }

    fn decode(&self, record: &Record, ctx: &DecodeContext<'_>) -> Result<Decoded, String> {
        let id = record.ids[0];
        let site =
            ctx.loops.get(id as usize).ok_or_else(|| format!("a loops record names loop {id}, not in the table"))?;
        match record.code {
            0 => Ok(Decoded::Finding(budget_spent(record, site, ctx))),
            1 => Ok(Decoded::Finding(cut_short(record, site, ctx))),
            2 => Ok(Decoded::Finding(spin_wait(record, site, ctx))),
            code => Err(format!("a loops record has code {code}")),
        }
    }
}

fn line_of(site: &LoopSite) -> String {
    site.location.line.map_or_else(|| format!("`{}`", site.location.snippet.trim()), |l| format!("line {l}"))
}

/// What both kinds of finding hold: the loop, its invocations and data.
fn about_the_loop(record: &Record, site: &LoopSite, ctx: &DecodeContext<'_>) -> Finding {
    let mut data = serde_json::Map::new();
    data.insert("loop".into(), serde_json::json!(site.id));
    data.insert("iterations".into(), serde_json::json!(record.aux));
    Finding {
        check: ID.into(),
        severity: Severity::Error,
        message: String::new(),
        locations: vec![FindingLocation {
            label: format!("the loop, in `{}`", site.function),
            primary: true,
            location: site.location.clone(),
        }],
        invocations: example_invocations(record, ctx).iter().map(|(i, _)| *i).collect(),
        memory: None,
        occurrences: record.count,
        details: Vec::new(),
        data,
        explanation: String::new(),
        hint: String::new(),
        incomplete: None,
    }
}

/// Invocations that started an iteration past the budget: each started
/// budget + 1 iterations.
fn budget_spent(record: &Record, site: &LoopSite, ctx: &DecodeContext<'_>) -> Finding {
    let budget = record.aux.saturating_sub(1);
    let invocations = plural(record.count, "invocation", "invocations");
    let mut details: Vec<String> = example_invocations(record, ctx)
        .iter()
        .map(|(i, n)| format!("{} started iteration {n}", invocation_text(i)))
        .collect();
    if site.barrier {
        details
            .push("the loop runs a workgroup barrier: its invocations left it together, at the same iteration".into());
    }
    let incomplete = format!(
        "{invocations} stopped in the loop at {} after {budget} iterations (--loop-budget): what they would have \
         done after is not checked",
        line_of(site)
    );
    Finding {
        severity: Severity::Error,
        message: format!("a loop ran past its budget of {budget} iterations: {invocations} stopped"),
        details,
        explanation: BUDGET_EXPLANATION.into(),
        hint: BUDGET_HINT.into(),
        incomplete: Some(incomplete),
        ..about_the_loop(record, site, ctx)
    }
}

/// Invocations whose loop ended without its exit.
fn cut_short(record: &Record, site: &LoopSite, ctx: &DecodeContext<'_>) -> Finding {
    let invocations = plural(record.count, "invocation", "invocations");
    let details = example_invocations(record, ctx)
        .iter()
        .map(|(i, n)| format!("{} left it after {n} iterations", invocation_text(i)))
        .collect();
    let incomplete = format!(
        "the adapter cut the loop at {} short for {invocations}: the shader's results after it, and what wgrace \
         checked there, are not the shader's",
        line_of(site)
    );
    Finding {
        severity: Severity::Warning,
        message: format!("the adapter ended a loop before its exit condition held, for {invocations}"),
        details,
        explanation: CUT_EXPLANATION.into(),
        hint: CUT_HINT.into(),
        incomplete: Some(incomplete),
        ..about_the_loop(record, site, ctx)
    }
}

/// Invocations whose spin-wait ended by itself.
fn spin_wait(record: &Record, site: &LoopSite, ctx: &DecodeContext<'_>) -> Finding {
    let invocations = plural(record.count, "invocation", "invocations");
    let polled = site.spin.as_deref().unwrap_or("storage memory");
    let details = example_invocations(record, ctx)
        .iter()
        .map(|(i, n)| format!("{} left it after {n} iterations", invocation_text(i)))
        .collect();
    Finding {
        severity: Severity::Warning,
        message: format!(
            "a spin-wait: the loop waits for `{polled}`, which other invocations write, and WGSL does not promise \
             that they run while it waits ({invocations} ran it, up to {})",
            plural(u64::from(record.aux), "iteration", "iterations")
        ),
        details,
        explanation: SPIN_EXPLANATION.into(),
        hint: SPIN_HINT.into(),
        incomplete: None,
        ..about_the_loop(record, site, ctx)
    }
}
