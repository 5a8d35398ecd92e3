//! A check added from outside the core: a toy that counts the workgroups
//! that finished, written here against the public check API only (its WGSL
//! hooks the runtime's `end` event and records through the runtime's table;
//! its decoder turns the record into a generic finding). It must show in the
//! text, JSON and SARIF reports with no edit to the pass, the runtime or the
//! printers.

use std::sync::Arc;

use wgrace::spec::{RunArgs, RunSpec};
use wgrace_instrument::checks::{Check, CheckSet, DecodeContext, Decoded, Record, ShaderFacts};
use wgrace_instrument::report::{CheckInfo, Finding, Severity};
use wgrace_shaders::{Hooks, LinkedCheck};
use wgrace_tests::samples_dir;

use serde_json::json;

use crate::formats::{assert_valid, report_schema, sarif_schema};
use crate::support::require_gpu;

/// Its WGSL: invocation 0 of each workgroup records one event, all under
/// the same ids, so the table holds one record counting the workgroups.
const TOY_WGSL: &str = "
fn wgrace_toy_workgroups_on_end() {
    if wgrace_t == 0u {
        wgrace_record_pair(WGRACE_CODE_TOY_WORKGROUPS, 7u, 0u, wgrace_g, 0u, false, 0u, wgrace_g, 0u, 0u);
    }
}
";

struct ToyWorkgroups;

impl Check for ToyWorkgroups {
    fn info(&self) -> CheckInfo {
        CheckInfo {
            id: "toy-workgroups".into(),
            name: "ToyWorkgroups".into(),
            short_description: "Counts the workgroups that finished".into(),
            full_description: "A test check: one record per finished workgroup.".into(),
            help: "Nothing to fix.".into(),
            severity: Severity::Note,
        }
    }

    fn link(&self, _: &ShaderFacts<'_>, first_code: u32) -> Option<LinkedCheck> {
        Some(LinkedCheck {
            prefix: "toy_workgroups".into(),
            source: TOY_WGSL.into(),
            hooks: Hooks { end: true, ..Hooks::default() },
            first_code,
            workgroup_bytes: 0,
            atomic_state_words: 0,
            unchecked: Vec::new(),
        })
    }

    fn decode(&self, record: &Record, _: &DecodeContext<'_>) -> Result<Decoded, String> {
        let word = record.examples.first().map(|e| e[2]).ok_or("no example")?;
        Ok(Decoded::Finding(Finding {
            check: "toy-workgroups".into(),
            severity: Severity::Note,
            message: format!("{} workgroups finished", record.count),
            locations: Vec::new(),
            invocations: Vec::new(),
            memory: None,
            occurrences: record.count,
            details: vec![format!("the record's word is {word}")],
            data: serde_json::Map::new(),
            explanation: "the toy check counts workgroups".into(),
            hint: "nothing to do".into(),
            incomplete: None,
        }))
    }
}

#[test]
fn a_check_added_outside_the_core_reports_in_text_and_json() {
    require_gpu!();
    let shader = wgrace::Shader::load(&samples_dir().join("wg_barrier.wgsl")).expect("sample");
    let args = RunArgs::parse_flags(&["--dispatch".into(), "3".into()]).expect("flags");
    let spec = RunSpec::from_args(&args).expect("spec");
    let checks = CheckSet::default().with(Arc::new(ToyWorkgroups));
    assert!(checks.ids().contains(&"toy-workgroups".to_string()), "the toy's record codes fit beside the registry's");
    let report = crate::support::check_shader(&shader, &spec, &checks).expect("run").report;

    // The registered checks still ran: the sample is race-free.
    assert_eq!(report.verdict, wgrace::Verdict::NoRace);
    assert!(!report.failed(), "a note does not fail the run");
    let toy: Vec<_> = report.all_findings().filter(|f| f.check == "toy-workgroups").collect();
    assert_eq!(toy.len(), 1, "{:?}", report.runs[0].findings);
    assert_eq!(toy[0].occurrences, 3);
    assert!(report.checks.iter().any(|c| c.id == "toy-workgroups"), "{:?}", report.checks);

    let text = wgrace::print::text(&report, false);
    assert!(text.contains("note[toy-workgroups]: 3 workgroups finished"), "{text}");
    assert!(text.contains("= the record's word is 7"), "{text}");
    assert!(text.contains("wgrace: 1 toy-workgroups finding; no race observed"), "{text}");

    let json: serde_json::Value = serde_json::from_str(&wgrace::print::json(&report)).expect("json");
    assert_valid(report_schema(), &json, "the JSON report");
    let finding = &json["runs"][0]["findings"][0];
    assert_eq!(finding["check"], "toy-workgroups");
    assert_eq!(finding["severity"], "note");
    assert_eq!(finding["occurrences"], 3);

    let sarif: serde_json::Value = serde_json::from_str(&wgrace::sarif::sarif(&report)).expect("sarif");
    assert_valid(sarif_schema(), &sarif, "the SARIF log");
    let run = &sarif["runs"][0];
    let rules = run["tool"]["driver"]["rules"].as_array().expect("rules");
    let rule = rules.iter().position(|r| r["id"] == "toy-workgroups").expect("the toy's rule");
    assert_eq!(rules[rule]["shortDescription"]["text"], "Counts the workgroups that finished");
    assert_eq!(rules[rule]["defaultConfiguration"]["level"], "note");
    let result = &run["results"][0];
    assert_eq!((&result["ruleId"], &result["level"]), (&json!("toy-workgroups"), &json!("note")), "{result:#}");
    assert_eq!(result["ruleIndex"], rule, "{result:#}");
    assert!(result["message"]["text"].as_str().is_some_and(|m| m.starts_with("3 workgroups finished")), "{result:#}");
}
