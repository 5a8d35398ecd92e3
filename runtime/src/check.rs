//! `wgrace check`: the static analyzer alone, with no GPU.
//!
//! The analysis is specialised to the run spec (dispatch, buffer lengths,
//! uniform and read-only buffer contents), like `wgrace run`, so its verdicts
//! hold for that dispatch and input: a race it reports happens in every run
//! of it, and an access it proves race-free never races in it. What it
//! cannot decide is left to `wgrace run`.

use serde::Serialize;
use wgrace_instrument::report::{CheckedVariable, ShaderInfo};
use wgrace_instrument::{AccessKind, Location, SiteStatus, Space};

use crate::{Error, Plan, Race};

/// What `wgrace check` found.
#[derive(Clone, Debug, Serialize)]
pub struct StaticReport {
    /// The shader.
    pub shader: ShaderInfo,
    /// The entry point analysed.
    pub entry_point: String,
    /// Workgroup counts the analysis assumed.
    pub dispatch: [u32; 3],
    /// Races the analyzer proved.
    pub races: Vec<Race>,
    /// Every access site of tracked memory and the analyzer's verdict.
    pub sites: Vec<SiteVerdict>,
    /// The tracked variables.
    pub variables: Vec<CheckedVariable>,
    /// Why the analysis gave up, if it did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gave_up: Option<String>,
    /// Loop iterations the analysis unrolled, and loops it summarised.
    pub unrolled_iterations: u64,
    pub summarised_loops: u32,
}

/// One site and the analyzer's verdict.
#[derive(Clone, Debug, Serialize)]
pub struct SiteVerdict {
    pub id: u32,
    pub access: AccessKind,
    pub variable: String,
    pub space: Space,
    #[serde(flatten)]
    pub location: Location,
    #[serde(flatten)]
    pub status: SiteStatus,
    /// Instrumented sites only: its address is the same in every iteration
    /// of its loop, so each invocation records it once per loop.
    pub once_per_loop: bool,
}

impl StaticReport {
    /// Sites `wgrace run` would still instrument.
    pub fn instrumented(&self) -> usize {
        self.sites.iter().filter(|s| matches!(s.status, SiteStatus::Instrumented(_))).count()
    }
}

/// Runs the analyzer on `plan`.
///
/// # Errors
/// [`Error::Instrument`] for what wgrace cannot check.
pub fn check(plan: &Plan) -> Result<StaticReport, Error> {
    let analyzed = plan.analyze()?;
    let analysis = &analyzed.analysis;
    let races = analysis
        .static_races
        .iter()
        .filter_map(|r| {
            wgrace_instrument::checks::data_race::static_race(r, &plan.prepared.module, &analyzed.sites, &analyzed.vars)
        })
        .collect();
    let sites = analyzed
        .sites
        .sites
        .iter()
        .map(|s| SiteVerdict {
            id: s.id,
            access: s.kind,
            variable: s.variable.clone(),
            space: s.space,
            location: s.location.clone(),
            status: analysis.sites.get(s.id as usize).cloned().unwrap_or(SiteStatus::Unchecked),
            once_per_loop: analysis.loop_invariant.get(s.id as usize).copied().unwrap_or(false),
        })
        .collect();
    let variables = plan.checked_variables(&analyzed.vars);
    Ok(StaticReport {
        shader: plan.shader_info(),
        entry_point: plan.prepared.entry_point.clone(),
        dispatch: plan.spec.dispatch,
        races,
        sites,
        variables,
        gave_up: analysis.gave_up.clone(),
        unrolled_iterations: analysis.unrolled_iterations,
        summarised_loops: analysis.summarised_loops,
    })
}
