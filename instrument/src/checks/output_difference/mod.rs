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
        incomplete: None,
    })
}

#[cfg(test)]
mod tests {
    use wgrace_report::{OutputDigest, Run, Verdict};

    use super::*;

    fn run(entry: &str, adapter: &str, verdict: Verdict, digest: &str) -> Run {
        let json = serde_json::json!({
            "entry_point": entry, "workgroup_size": [1, 1, 1], "dispatch": [1, 1, 1],
            "adapter": {"name": adapter, "backend": "vulkan", "device_type": "cpu", "driver": "", "subgroup_size": [8, 8]},
            "verdict": verdict, "races": [], "findings": [], "complete": true, "incomplete": [], "notes": [],
            "checked": {"mode": "addr", "variables": [], "checked_sites": 0, "sites": 0, "invocations": 1},
            "sites": {"sites": []},
            "stats": {"detections": 0, "dropped_detections": 0, "detections_without_witness": 0,
                      "out_of_bounds_accesses": 0, "epoch_overflows": 0, "chunks": 1, "shadow_bytes": 0, "elapsed_ms": 0.0},
        });
        let mut run: Run = serde_json::from_value(json).unwrap_or_else(|e| panic!("{e}"));
        run.outputs =
            vec![OutputDigest { variable: "out".into(), group: 0, binding: 0, bytes: 4, sha256: digest.into() }];
        run
    }

    #[test]
    fn only_clean_runs_with_different_outputs_are_reported() {
        let check = OutputDifference;
        let same = [run("main", "a", Verdict::NoRace, "11"), run("main", "b", Verdict::NoRace, "11")];
        assert!(check.compare_runs(&same).is_empty());
        let differ = [run("main", "a", Verdict::NoRace, "11"), run("main", "b", Verdict::NoRace, "22")];
        let found = check.compare_runs(&differ);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].message, "entry point `main` left different contents in `out` on different adapters");
        assert_eq!(found[0].severity, Severity::Warning);
        // A race explains the difference; one adapter has nothing to compare.
        let racy = [run("main", "a", Verdict::Race, "11"), run("main", "b", Verdict::NoRace, "22")];
        assert!(check.compare_runs(&racy).is_empty());
        assert!(check.compare_runs(&differ[..1]).is_empty());
        // Entry points are compared separately.
        let two = [run("a", "x", Verdict::NoRace, "11"), run("b", "x", Verdict::NoRace, "22")];
        assert!(check.compare_runs(&two).is_empty());
    }
}
