//! `output-difference`: an entry point that ran race-free on several
//! adapters but left different contents in its writable buffers.
//!
//! A race-free kernel computes the same thing everywhere unless it relies on
//! something the languages leave to the implementation: the order of
//! floating-point atomics or reductions, subgroup sizes, uninitialised
//! memory, out-of-bounds clamping. It needs no instrumentation: it compares
//! the runs' output digests once every adapter has run (`--adapter all`).
//! Runs with races or errors are left out, since those explain a difference.
//!
//! The finding's `data` holds `entry_point` and `buffers[]` {`variable`,
//! `digests[]` {`adapter`, `sha256`}}.

use wgrace_report::{CheckInfo, Finding, Run, Severity};
use wgrace_shaders::LinkedCheck;

use super::{Check, DecodeContext, Decoded, Record, ShaderFacts};

/// The check.
pub struct OutputDifference;

const ID: &str = "output-difference";

const EXPLANATION: &str = "the entry point ran without a race on each adapter, yet its outputs differ: it relies on \
    behaviour that differs between GPUs (the order of floating-point atomics or reductions, subgroup size, \
    uninitialised or out-of-bounds memory)";

const HINT: &str = "compare the buffers with --dump on each adapter; make the result independent of the order of \
    floating-point operations and of the subgroup size, and initialise what the shader reads";

impl Check for OutputDifference {
    fn info(&self) -> CheckInfo {
        CheckInfo {
            id: ID.into(),
            name: "OutputDifference".into(),
            short_description: "A race-free entry point left different outputs on different adapters".into(),
            full_description: format!(
                "With --adapter all, wgrace runs each entry point on every usable adapter and compares SHA-256 \
                 digests of its writable buffers; {EXPLANATION}."
            ),
            help: HINT.into(),
            severity: Severity::Warning,
        }
    }

    fn record_codes(&self) -> u32 {
        0
    }

    fn link(&self, _: &ShaderFacts, _: u32) -> Option<LinkedCheck> {
        None
    }

    fn decode(&self, record: &Record, _: &DecodeContext<'_>) -> Result<Decoded, String> {
        Err(format!("{ID} records nothing, yet got a record with code {}", record.code))
    }

    fn compare_runs(&self, runs: &[Run]) -> Vec<Finding> {
        let mut entry_points: Vec<&str> = Vec::new();
        for run in runs {
            if !entry_points.contains(&run.entry_point.as_str()) {
                entry_points.push(&run.entry_point);
            }
        }
        entry_points.into_iter().filter_map(|entry| compare(entry, runs)).collect()
    }
}

/// The finding for `entry`'s runs, if they are clean and differ.
fn compare(entry: &str, runs: &[Run]) -> Option<Finding> {
    let runs: Vec<&Run> = runs.iter().filter(|r| r.entry_point == entry).collect();
    if runs.len() < 2 || runs.iter().any(|r| r.failed()) {
        return None;
    }
    let mut differing = Vec::new();
    let mut data_buffers = Vec::new();
    for output in &runs[0].outputs {
        let digests: Vec<(&str, &str)> = runs
            .iter()
            .filter_map(|r| {
                let d = r.outputs.iter().find(|o| o.variable == output.variable)?;
                Some((r.adapter_name(), d.sha256.as_str()))
            })
            .collect();
        if digests.iter().any(|(_, d)| *d != digests[0].1) {
            differing.push(format!("`{}`", output.variable));
            data_buffers.push(serde_json::json!({
                "variable": output.variable,
                "digests": digests.iter().map(|(a, d)| serde_json::json!({"adapter": a, "sha256": d})).collect::<Vec<_>>(),
            }));
        }
    }
    if differing.is_empty() {
        return None;
    }
    let adapters: Vec<&str> = runs.iter().map(|r| r.adapter_name()).collect();
    let mut data = serde_json::Map::new();
    data.insert("entry_point".into(), entry.into());
    data.insert("buffers".into(), data_buffers.into());
    Some(Finding {
        check: ID.into(),
        severity: Severity::Warning,
        message: format!(
            "entry point `{entry}` left different contents in {} on different adapters",
            differing.join(", ")
        ),
        locations: Vec::new(),
        invocations: Vec::new(),
        memory: None,
        occurrences: differing.len() as u64,
        details: vec![format!("adapters: {}", adapters.join("; "))],
        data,
        explanation: EXPLANATION.into(),
        hint: HINT.into(),
    })
}
