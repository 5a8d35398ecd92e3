//! The cross-vendor matrix: the runs of a report side by side, for a shader
//! checked on several adapters (`wgrace run --adapter all`). The text
//! printer and the viewer both draw it from here.

use crate::race::Lockstep;
use crate::{AdapterInfo, Report, Run, Verdict};

/// One run in the matrix.
#[derive(Clone, Debug, PartialEq)]
pub struct MatrixRow<'a> {
    /// The run.
    pub run: &'a Run,
    /// `race`, `error` (an error-level finding without a race) or `no race`.
    pub verdict: &'static str,
    /// The classes of its races, sorted, each once.
    pub classes: Vec<&'static str>,
    /// The smallest lock-step width that would hide all its races: `-`
    /// without races, `never` when none would.
    pub hidden_from: String,
    /// Its writable buffers' digests, in order.
    pub outputs: Vec<MatrixOutput>,
}

/// One writable buffer's contents after a run, compared with the other
/// runs of its entry point.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatrixOutput {
    /// The buffer's variable.
    pub variable: String,
    /// The first 12 hexadecimal digits of its SHA-256.
    pub digest: String,
    /// Whether another run of the same entry point left different contents
    /// in it.
    pub differs: bool,
}

impl Report {
    /// The adapters of the report's runs, in order of first appearance.
    pub fn adapters(&self) -> Vec<&AdapterInfo> {
        let mut list: Vec<&AdapterInfo> = Vec::new();
        for adapter in self.runs.iter().filter_map(|r| r.adapter.as_ref()) {
            if !list.contains(&adapter) {
                list.push(adapter);
            }
        }
        list
    }

    /// The cross-vendor matrix: a row per run, in the report's order.
    pub fn matrix(&self) -> Vec<MatrixRow<'_>> {
        self.runs.iter().map(|run| matrix_row(self, run)).collect()
    }
}

fn matrix_row<'a>(report: &'a Report, run: &'a Run) -> MatrixRow<'a> {
    let mut classes: Vec<&'static str> = run.races.iter().map(|r| r.class.as_str()).collect();
    classes.sort_unstable();
    classes.dedup();
    let same_workgroup: Vec<&Lockstep> =
        run.races.iter().filter(|r| r.class.within_workgroup()).map(|r| &r.lockstep).collect();
    let hidden_from = match (run.races.is_empty(), run.races.len() == same_workgroup.len()) {
        (true, _) => "-".to_string(),
        (false, false) => "never".to_string(),
        (false, true) => Lockstep::of_all(&same_workgroup).hidden_from.map_or("never".into(), |w| format!("{w}")),
    };
    let verdict = match (run.verdict, run.failed()) {
        (Verdict::Race, _) => "race",
        (Verdict::NoRace, true) => "error",
        (Verdict::NoRace, false) => "no race",
    };
    let outputs = run
        .outputs
        .iter()
        .map(|o| MatrixOutput {
            variable: o.variable.clone(),
            digest: o.sha256.chars().take(12).collect(),
            differs: report.runs.iter().filter(|other| other.entry_point == run.entry_point).any(|other| {
                other.outputs.iter().any(|p| p.variable == o.variable && p.binding == o.binding && p.sha256 != o.sha256)
            }),
        })
        .collect();
    MatrixRow { run, verdict, classes, hidden_from, outputs }
}
