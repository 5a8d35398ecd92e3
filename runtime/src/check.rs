//! `wgrace check`: the static analyzer alone, with no GPU.
//!
//! The analysis is specialised to the run spec (dispatch, buffer lengths,
//! uniform and read-only buffer contents), like `wgrace run`, so its verdicts
//! hold for that dispatch and input: a race it reports happens in every run
//! of it, and an access it proves race-free never races in it. What it
//! cannot decide is left to `wgrace run`. A static run is a [`Run`] without
//! an adapter, whose races are the analyzer's and whose sites carry its
//! verdicts ([`SiteAnalysis`]).

use wgrace_instrument::checks::data_race::static_race;
use wgrace_instrument::report::{
    AnalyzerSummary, Checked, Race, RaceKind, Run, SiteAnalysis, SiteStatus, Stats, Verdict,
};

use crate::{Error, Plan};

/// With `--same-value-notes`, a note that the analyzer's write-write races
/// stay errors: only a run learns the values written.
fn same_value_note(plan: &Plan, races: &[Race]) -> Option<String> {
    (plan.spec.same_value_notes && races.iter().any(|r| r.kind == RaceKind::WriteWrite)).then(|| {
        "--same-value-notes needs the values written, which only `wgrace run` learns: the write-write races \
         proven here stay errors"
            .to_string()
    })
}

/// Runs the analyzer on `plan`'s entry point.
///
/// # Errors
/// [`Error::Instrument`] for what wgrace cannot check.
pub fn static_run(plan: &Plan) -> Result<Run, Error> {
    let analyzed = plan.analyze()?;
    let analysis = &analyzed.analysis;
    let races: Vec<_> = analysis
        .static_races
        .iter()
        .filter_map(|r| static_race(r, &plan.prepared.module, &analyzed.sites, &analyzed.vars, plan.shader.language))
        .collect();
    let same_value = same_value_note(plan, &races);
    let mut sites = analyzed.sites.clone();
    for site in &mut sites.sites {
        site.analysis = Some(SiteAnalysis {
            status: analysis.sites.get(site.id as usize).cloned().unwrap_or(SiteStatus::Unchecked),
            once_per_loop: analysis.loop_invariant.get(site.id as usize).copied().unwrap_or(false),
        });
    }
    let left = sites
        .sites
        .iter()
        .filter(|s| matches!(&s.analysis, Some(SiteAnalysis { status: SiteStatus::Instrumented(_), .. })))
        .count();
    Ok(Run {
        entry_point: plan.prepared.entry_point.clone(),
        workgroup_size: plan.prepared.workgroup_size,
        adapter: None,
        dispatch: plan.spec.dispatch,
        verdict: if races.is_empty() { Verdict::NoRace } else { Verdict::Race },
        races,
        findings: Vec::new(),
        // What the analysis leaves to the runtime is not checked here.
        complete: left == 0 && plan.shader.unchecked.is_empty(),
        incomplete: plan
            .shader
            .unchecked
            .iter()
            .cloned()
            .chain((left > 0).then(|| format!("{left} access sites are left to the runtime check (`wgrace run`)")))
            .collect(),
        suppressed: Vec::new(),
        warnings: plan.warnings.clone(),
        notes: analysis
            .gave_up
            .iter()
            .map(|reason| format!("the analysis gave up: {reason}"))
            .chain(same_value)
            .collect(),
        checked: Checked {
            mode: "static".into(),
            variables: plan.checked_variables(&analyzed.vars),
            checked_sites: sites.checked(),
            atomic_checked_sites: 0,
            sites: sites.len(),
            invocations: crate::invocations(&plan.prepared, plan.spec.dispatch),
            analyzer: Some(AnalyzerSummary {
                pruned_sites: analysis.pruned(),
                static_races: analysis.static_races.len(),
                gave_up: analysis.gave_up.clone(),
            }),
            ..Checked::default()
        },
        sites,
        barriers: analyzed.barriers.clone(),
        stats: Stats::default(),
        outputs: Vec::new(),
        timeline: None,
    })
}
