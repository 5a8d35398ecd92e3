//! Report formats on real reports: every JSON report validates against
//! `report/schema/report.v2.json` (whose objects allow no unknown property,
//! so the schema and the report structs cannot drift apart), and every SARIF
//! log against the official SARIF 2.1.0 schema (`tests/schemas/`); the SARIF
//! results say what the text report says, diagnostic by diagnostic.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use serde_json::{Value, json};
use wgrace::report::{DetectedBy, FindingLocation, Location, Report, Run};
use wgrace::spec::{ModeArg, RunArgs};
use wgrace::{Finding, Severity, session};
use wgrace_instrument::checks::CheckSet;
use wgrace_tests::samples_dir;

use crate::support::require_gpu;

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn read_json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A validator of `schema` (its draft from its `$schema`), checking formats.
fn validator(schema: &Value) -> jsonschema::Validator {
    jsonschema::options().should_validate_formats(true).build(schema).unwrap_or_else(|e| panic!("schema: {e}"))
}

pub(crate) fn report_schema() -> &'static jsonschema::Validator {
    static SCHEMA: OnceLock<jsonschema::Validator> = OnceLock::new();
    SCHEMA.get_or_init(|| validator(&read_json(&workspace().join("report/schema/report.v2.json"))))
}

pub(crate) fn sarif_schema() -> &'static jsonschema::Validator {
    static SCHEMA: OnceLock<jsonschema::Validator> = OnceLock::new();
    SCHEMA.get_or_init(|| validator(&read_json(&workspace().join("tests/schemas/sarif-schema-2.1.0.json"))))
}

fn errors(validator: &jsonschema::Validator, instance: &Value) -> Vec<String> {
    validator.iter_errors(instance).map(|e| format!("{e} (at {})", e.instance_path())).collect()
}

pub(crate) fn assert_valid(validator: &jsonschema::Validator, instance: &Value, what: &str) {
    let errors = errors(validator, instance);
    assert!(errors.is_empty(), "{what} does not match its schema:\n{}\n{instance:#}", errors.join("\n"));
}

/// The report of `wgrace run SHADER FLAGS` (with the shader's own flags),
/// on the tests' adapter.
fn report(path: &Path, flags: RunArgs) -> Report {
    let (shader, _, spec) = wgrace::load_with_flags(path, flags).expect("load");
    crate::support::check_shader(&shader, &spec, &CheckSet::default()).expect("run").report
}

fn sample_report(name: &str, flags: RunArgs) -> Report {
    report(&samples_dir().join(name), flags)
}

/// The report's JSON and SARIF, each validated against its schema, and the
/// SARIF log checked against the report for what every log must hold.
fn formats(report: &Report) -> (Value, Value) {
    let json: Value = serde_json::from_str(&wgrace::print::json(report)).expect("the JSON report parses");
    assert_valid(report_schema(), &json, "the JSON report");
    let sarif: Value = serde_json::from_str(&wgrace::sarif::sarif(report)).expect("the SARIF log parses");
    assert_valid(sarif_schema(), &sarif, "the SARIF log");
    check_log(report, &sarif);
    (json, sarif)
}

/// The racing pairs of a run: races of one variable and pair of sites (and
/// finder) are one diagnostic, whatever their classes.
fn pairs(run: &Run) -> usize {
    let keys: HashSet<_> = run
        .races
        .iter()
        .map(|r| (r.memory.variable.clone(), r.first.site, r.second.site, r.detected_by == DetectedBy::Runtime))
        .collect();
    keys.len()
}

/// The results a report's log has, in order: each run's racing pairs and
/// findings, then the report's findings; as (rule, level, finding).
fn expected_results(report: &Report) -> Vec<(&str, &'static str, Option<&Finding>)> {
    fn finding(f: &Finding) -> (&str, &'static str, Option<&Finding>) {
        (f.check.as_str(), level(f.severity), Some(f))
    }
    let mut expected = Vec::new();
    for run in &report.runs {
        expected.extend(std::iter::repeat_n(("data-race", "error", None), pairs(run)));
        expected.extend(run.findings.iter().map(finding));
    }
    expected.extend(report.findings.iter().map(finding));
    expected
}

fn level(severity: Severity) -> &'static str {
    severity.as_str()
}

/// The `](N)` link targets of a message.
fn links(text: &str) -> Vec<i64> {
    text.match_indices("](")
        .filter_map(|(i, _)| {
            let rest = &text[i + 2..];
            rest[..rest.find(')')?].parse().ok()
        })
        .collect()
}

/// What every log of a report holds: one run, the tool and its rules, a
/// result per racing pair and per finding with the level of its rule or
/// finding, links that resolve, and the shader as every artifact.
fn check_log(report: &Report, sarif: &Value) {
    assert_eq!(sarif["version"], "2.1.0");
    assert_eq!(sarif["$schema"], wgrace::sarif::SARIF_SCHEMA);
    let runs = sarif["runs"].as_array().expect("runs");
    assert_eq!(runs.len(), 1, "one SARIF run for the whole report");
    let run = &runs[0];
    assert_eq!(run["columnKind"], "unicodeCodePoints");
    let driver = &run["tool"]["driver"];
    assert_eq!(driver["name"], "wgrace");
    assert_eq!(driver["version"], env!("CARGO_PKG_VERSION"));
    assert_eq!(driver["informationUri"], env!("CARGO_PKG_REPOSITORY"));

    // The rules are the report's checks: those on by default for a run,
    // the data race check alone for static analysis (`wgrace check`).
    let rules = driver["rules"].as_array().expect("rules");
    let ids: Vec<&str> = rules.iter().filter_map(|r| r["id"].as_str()).collect();
    let checks: Vec<&str> = report.checks.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(ids, checks, "{driver:#}");
    if report.runs.iter().all(|r| r.adapter.is_some()) {
        assert_eq!(ids, CheckSet::default().enabled_by_default().ids(), "{driver:#}");
    }
    for (rule, check) in rules.iter().zip(&report.checks) {
        assert_eq!(rule["name"], check.name.as_str());
        assert_eq!(rule["shortDescription"]["text"], check.short_description.as_str());
        assert_eq!(rule["fullDescription"]["text"], check.full_description.as_str());
        assert_eq!(rule["help"]["text"], check.help.as_str());
        assert_eq!(rule["defaultConfiguration"]["level"], level(check.severity), "{rule:#}");
    }
    assert_eq!(rules[0]["id"], "data-race");
    assert_eq!(rules[0]["defaultConfiguration"]["level"], "error");

    let results = run["results"].as_array().expect("results");
    let expected = expected_results(report);
    assert_eq!(results.len(), expected.len(), "{run:#}");
    for (result, (rule, level, finding)) in results.iter().zip(expected) {
        assert_eq!(result["ruleId"], rule, "{result:#}");
        assert_eq!(result["level"], level, "{result:#}");
        if let Some(f) = finding {
            assert!(result["message"]["text"].as_str().is_some_and(|m| m.starts_with(&f.message)), "{result:#}");
        }
    }
    let uri = report.shader.path.replace('\\', "/").replace(' ', "%20");
    for result in results {
        let index = result["ruleIndex"].as_u64().expect("ruleIndex") as usize;
        assert_eq!(rules[index]["id"], result["ruleId"], "{result:#}");
        // Every link names exactly one related location.
        let text = result["message"]["text"].as_str().expect("message");
        let related = result["relatedLocations"].as_array().cloned().unwrap_or_default();
        for id in links(text) {
            assert_eq!(related.iter().filter(|l| l["id"] == id).count(), 1, "link {id} of {result:#}");
        }
        let locations = result["locations"].as_array().expect("locations");
        assert_eq!(locations.len(), 1, "{result:#}");
        for location in locations.iter().chain(&related) {
            assert_eq!(location["physicalLocation"]["artifactLocation"]["uri"], uri.as_str(), "{result:#}");
        }
    }
}

fn region(location: &Value) -> [Option<u64>; 4] {
    let region = &location["physicalLocation"]["region"];
    ["startLine", "startColumn", "endLine", "endColumn"].map(|k| region[k].as_u64())
}

fn related(result: &Value, id: i64) -> &Value {
    result["relatedLocations"]
        .as_array()
        .and_then(|l| l.iter().find(|l| l["id"] == id))
        .unwrap_or_else(|| panic!("no related location {id}: {result:#}"))
}

#[test]
fn a_racing_pair_of_two_classes_is_one_sarif_result_linking_the_second_access() {
    require_gpu!();
    let report = sample_report("wg_missing_barrier.wgsl", RunArgs::default());
    let (json, sarif) = formats(&report);
    let classes: Vec<&str> =
        json["runs"][0]["races"].as_array().expect("races").iter().filter_map(|r| r["class"].as_str()).collect();
    assert_eq!(classes, ["intra-subgroup", "intra-workgroup"], "the JSON keeps a race per class");

    let results = sarif["runs"][0]["results"].as_array().expect("results");
    assert_eq!(results.len(), 1, "one result for the pair: {results:#?}");
    let result = &results[0];
    assert_eq!(result["ruleId"], "data-race");
    assert_eq!(result["level"], "error");
    assert_eq!(
        result["message"]["text"],
        "data race (read-write) on workgroup variable `tile`: the write at line 13 races with \
         [the read at line 14](1) (intra-subgroup, intra-workgroup)"
    );
    // The write's target `tile[lid]` at 13:5, and `tile[(lid + 1u) % 64u]` at
    // 14:18; region ends are one past the last character.
    let primary = &result["locations"][0];
    assert_eq!(region(primary), [Some(13), Some(5), Some(13), Some(14)], "{primary:#}");
    assert!(primary["message"]["text"].as_str().is_some_and(|m| m.starts_with("write by invocation")));
    let second = related(result, 1);
    assert_eq!(region(second), [Some(14), Some(18), Some(14), Some(40)], "{second:#}");
    assert!(second["message"]["text"].as_str().is_some_and(|m| m.starts_with("read by invocation")));
    let declaration = related(result, 2);
    assert_eq!(region(declaration)[0], Some(8));
    assert_eq!(declaration["message"]["text"], "`tile` is declared here");

    let p = &result["properties"];
    assert_eq!(p["classes"], json!(["intra-subgroup", "intra-workgroup"]));
    assert_eq!(p["kind"], "read-write");
    assert_eq!(p["detected_by"], "runtime");
    assert_eq!(p["memory"]["variable"], "tile");
    assert_eq!(p["memory"]["space"], "workgroup");
    assert!(p["memory"]["element"].as_str().is_some_and(|e| e.starts_with("tile[")));
    assert_eq!(p["memory"]["byte_offset"], json["runs"][0]["races"][0]["memory"]["byte_offset"]);
    let occurrences: u64 = report.races().map(|r| r.occurrences).sum();
    assert_eq!(p["occurrences"], occurrences);
    assert_eq!(p["invocations"].as_array().map(Vec::len), Some(2));
    // Lock-step execution hides the pair only where it hides both classes.
    assert_eq!(p["lockstep"]["hidden_from"], 64);
    assert_eq!(p["lockstep"]["visible_at"], json!([4, 8, 16, 32]));
    assert_eq!(p["races"].as_array().map(Vec::len), Some(2));
    assert_eq!(p["races"][0]["class"], "intra-subgroup");
    assert_eq!(p["races"][1]["hint"], json["runs"][0]["races"][1]["hint"]);
    assert_eq!(p["entry_point"], "main");
    assert_eq!(p["adapter"]["name"], report.runs[0].adapter_name());
    assert_eq!(p["dispatch"], json!([2, 1, 1]));
    assert_eq!(sarif["runs"][0]["properties"]["verdict"], "race");
}

#[test]
fn a_static_report_validates_and_its_proven_race_is_a_result() {
    let (shader, _, spec) =
        wgrace::load_with_flags(&samples_dir().join("wg_missing_barrier.wgsl"), RunArgs::default()).expect("load");
    let report = session::analyze(&shader, &spec).expect("check");
    let (json, sarif) = formats(&report);
    assert!(json["runs"][0]["adapter"].is_null(), "{json:#}");
    // The write of line 13 races in every run: a static race.
    assert_eq!(json["runs"][0]["sites"]["sites"][0]["analysis"]["status"], "static-race", "{json:#}");
    let results = sarif["runs"][0]["results"].as_array().expect("results");
    assert_eq!(results.len(), 1, "{sarif:#}");
    assert_eq!(results[0]["locations"][0]["physicalLocation"]["region"]["startLine"], 13);
    assert_eq!(related(&results[0], 1)["physicalLocation"]["region"]["startLine"], 14);
}

#[test]
fn a_race_free_run_has_the_rules_and_no_result() {
    require_gpu!();
    let report = sample_report("wg_barrier.wgsl", RunArgs::default());
    let (json, sarif) = formats(&report);
    assert_eq!(json["verdict"], "no-race");
    assert_eq!(sarif["runs"][0]["results"], json!([]));
    assert_eq!(sarif["runs"][0]["properties"]["verdict"], "no-race");
    assert_eq!(sarif["runs"][0]["properties"]["complete"], true);
}

#[test]
fn barrier_divergence_is_a_result_of_its_rule_at_the_last_barrier() {
    require_gpu!();
    let report = sample_report("wg_barrier_after_early_return.wgsl", RunArgs::default());
    let (json, sarif) = formats(&report);
    assert_eq!(json["runs"][0]["findings"][0]["check"], "barrier-divergence");
    let results = sarif["runs"][0]["results"].as_array().expect("results");
    let divergence: Vec<&Value> = results.iter().filter(|r| r["ruleId"] == "barrier-divergence").collect();
    assert_eq!(divergence.len(), 1, "{results:#?}");
    let result = divergence[0];
    assert_eq!(result["level"], "error", "the check's severity");
    let rules = &sarif["runs"][0]["tool"]["driver"]["rules"];
    assert_eq!(rules[result["ruleIndex"].as_u64().expect("index") as usize]["id"], "barrier-divergence");
    let text = result["message"]["text"].as_str().expect("message");
    assert!(text.starts_with("invocations of workgroup (3,0,0) executed different barriers: "), "{text}");
    // Invocations 8 to 63 of workgroup 3 are past the end; which of them
    // is the example depends on the adapter's subgroups (8 on lavapipe,
    // 32 on NVIDIA), and so does the order of the two.
    let example = text
        .split("invocation (")
        .find(|t| t.contains(",0,0) executed no barrier"))
        .and_then(|t| t.split(',').next())
        .and_then(|i| i.parse::<u32>().ok());
    assert!(example.is_some_and(|i| (8..64).contains(&i)), "the details follow the message: {text}");
    let primary = &result["locations"][0];
    assert_eq!(region(primary)[..2], [Some(20), Some(5)], "{primary:#}");
    assert_eq!(primary["message"]["text"], "the last barrier of invocation (0,0,0)");
    let p = &result["properties"];
    assert_eq!(p["data"]["workgroup_id"], json!([3, 0, 0]));
    assert_eq!(p["data"]["second"]["barriers"], 0);
    assert_eq!(p["invocations"].as_array().map(Vec::len), Some(2));
    assert_eq!(p["occurrences"], json["runs"][0]["findings"][0]["occurrences"]);
    assert_eq!(p["entry_point"], "main");
    assert!(p["adapter"]["backend"].is_string());
}

#[test]
fn inter_workgroup_races_on_storage_name_the_binding() {
    require_gpu!();
    let report = sample_report("storage_inter_workgroup_sum.wgsl", RunArgs::default());
    let (_, sarif) = formats(&report);
    let results = sarif["runs"][0]["results"].as_array().expect("results");
    assert!(!results.is_empty());
    for result in results {
        let text = result["message"]["text"].as_str().expect("message");
        assert!(text.contains("on storage variable `total`"), "{text}");
        assert!(text.ends_with("(inter-workgroup)"), "{text}");
        assert_eq!(region(&result["locations"][0])[0], Some(15));
        assert_eq!(region(related(result, 1))[0], Some(15));
        let p = &result["properties"];
        assert_eq!(p["classes"], json!(["inter-workgroup"]));
        assert_eq!(p["memory"]["space"], "storage");
        assert_eq!(p["memory"]["group"], 0);
        assert_eq!(p["memory"]["binding"], 1);
        assert!(p.get("lockstep").is_none(), "lock-step cannot hide races between workgroups: {p:#}");
    }
}

#[test]
fn each_entry_point_is_a_run_of_the_report_and_results_name_theirs() {
    require_gpu!();
    // A directory and file name with spaces: the artifact URI encodes them.
    let dir = std::env::temp_dir().join(format!("wgrace formats {}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("two entry points.wgsl");
    std::fs::write(
        &path,
        "@group(0) @binding(0) var<storage, read_write> d: array<u32>;\n\
         @compute @workgroup_size(64) fn a(@builtin(local_invocation_index) l: u32) { d[0] = l; }\n\
         @compute @workgroup_size(64) fn b(@builtin(local_invocation_index) l: u32) { d[l] = l; }\n",
    )
    .expect("write shader");
    let report = report(&path, RunArgs::default());
    let _ = std::fs::remove_dir_all(&dir);
    let (json, sarif) = formats(&report);
    let entries: Vec<&str> =
        json["runs"].as_array().expect("runs").iter().filter_map(|r| r["entry_point"].as_str()).collect();
    assert_eq!(entries, ["a", "b"]);
    assert_eq!(json["runs"][1]["verdict"], "no-race");

    let run = &sarif["runs"][0];
    let uri = run["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].as_str().expect("uri");
    assert!(uri.ends_with("/two%20entry%20points.wgsl") && !uri.contains(' '), "{uri}");
    for result in run["results"].as_array().expect("results") {
        assert_eq!(result["properties"]["entry_point"], "a", "{result:#}");
        let text = result["message"]["text"].as_str().expect("message");
        assert!(text.ends_with(" in entry point `a`"), "{text}");
        assert_eq!(region(&result["locations"][0])[..2], [Some(2), Some(78)]);
    }
    let runs: Vec<&Value> = run["properties"]["runs"].as_array().expect("runs").iter().collect();
    assert_eq!(runs.iter().map(|r| r["entry_point"].as_str()).collect::<Vec<_>>(), [Some("a"), Some("b")]);
    assert_eq!(runs[1]["verdict"], "no-race");
}

#[test]
fn statement_mode_gives_a_result_per_racing_statement_pair() {
    require_gpu!();
    let stmt = RunArgs { mode: Some(ModeArg::Stmt), ..RunArgs::default() };
    let report = sample_report("wg_unrolled_warp_tail.wgsl", stmt);
    let (json, sarif) = formats(&report);
    assert_eq!(json["runs"][0]["checked"]["mode"], "stmt");
    assert!(json["runs"][0]["checked"]["slots"].is_u64(), "{:#}", json["runs"][0]["checked"]);
    let results = sarif["runs"][0]["results"].as_array().expect("results");
    // The header lists pairs of line 38's write with the reads of lines 39 to 43.
    let mut lines = HashSet::new();
    for result in results {
        assert_eq!(result["ruleId"], "data-race");
        lines.insert((region(&result["locations"][0])[0], region(related(result, 1))[0]));
    }
    for second in 39..=43 {
        assert!(lines.contains(&(Some(38), Some(second))), "38 and {second} missing: {lines:?}");
    }
    assert!(results.len() > 5, "statement mode reports every racing pair, not one per word");
    assert_eq!(sarif["runs"][0]["properties"]["runs"][0]["mode"], "stmt");
}

/// A report without source positions, as SPIR-V without `OpLine` gives:
/// results keep the artifact, without a region.
#[test]
fn results_without_lines_keep_the_artifact_without_a_region() {
    require_gpu!();
    let mut report = sample_report("wg_missing_barrier.wgsl", RunArgs::default());
    report.shader.source = None;
    let unlocate = |l: &mut Location, word: u32| {
        *l = Location {
            line: None,
            column: None,
            span: None,
            spirv_word: Some(word),
            snippet: format!("OpStore (SPIR-V word {word})"),
        };
    };
    for run in &mut report.runs {
        for (i, race) in run.races.iter_mut().enumerate() {
            unlocate(&mut race.first.location, 100 + i as u32);
            unlocate(&mut race.second.location, 200);
        }
        for variable in &mut run.checked.variables {
            unlocate(&mut variable.declaration, 10);
        }
    }
    let (_, sarif) = formats(&report);
    let result = &sarif["runs"][0]["results"][0];
    assert_eq!(
        result["message"]["text"],
        "data race (read-write) on workgroup variable `tile`: the write at SPIR-V word 100 races with \
         [the read at SPIR-V word 200](1) (intra-subgroup, intra-workgroup)"
    );
    for location in [&result["locations"][0], related(result, 1)] {
        let physical = &location["physicalLocation"];
        assert!(physical["artifactLocation"]["uri"].as_str().is_some_and(|u| u.ends_with("wg_missing_barrier.wgsl")));
        assert!(physical.get("region").is_none(), "{location:#}");
    }
    assert_eq!(result["locations"][0]["properties"]["spirv_word"], 100);
}

/// Findings about the runs together (the report's own) and findings whose
/// first location is not the primary one.
#[test]
fn report_findings_and_related_locations_of_findings() {
    require_gpu!();
    let mut report = sample_report("wg_barrier.wgsl", RunArgs::default());
    let at = |line: u32, label: &str, primary: bool| FindingLocation {
        label: label.into(),
        primary,
        location: Location { line: Some(line), column: Some(5), span: None, spirv_word: None, snippet: String::new() },
    };
    let finding = |check: &str, severity: Severity, locations: Vec<FindingLocation>| Finding {
        check: check.into(),
        severity,
        message: format!("{check} happened"),
        locations,
        invocations: Vec::new(),
        memory: None,
        occurrences: 2,
        details: vec!["first detail".into(), "second detail".into()],
        data: serde_json::Map::new(),
        explanation: "why".into(),
        hint: "fix".into(),
        incomplete: None,
    };
    report.runs[0].findings.push(finding(
        "barrier-divergence",
        Severity::Warning,
        vec![at(14, "a barrier [0]", false), at(20, "the barrier", true), at(22, "another", false)],
    ));
    report.findings.push(finding("output-difference", Severity::Warning, Vec::new()));
    let (_, sarif) = formats(&report);
    let results = sarif["runs"][0]["results"].as_array().expect("results");
    assert_eq!(results.len(), 2);

    let located = &results[0];
    assert_eq!(located["level"], "warning", "a finding's severity, not its rule's");
    assert_eq!(
        located["message"]["text"],
        "barrier-divergence happened ([a barrier \\[0\\]](1), [another](2)): first detail; second detail"
    );
    assert_eq!(region(&located["locations"][0])[..2], [Some(20), Some(5)], "the primary location");
    assert_eq!(region(related(located, 1))[0], Some(14));
    assert_eq!(region(related(located, 2))[0], Some(22));
    assert_eq!(located["properties"]["entry_point"], "main");

    let across = &results[1];
    assert_eq!(across["ruleId"], "output-difference");
    assert_eq!(across["level"], "warning");
    let physical = &across["locations"][0]["physicalLocation"];
    assert!(physical["artifactLocation"]["uri"].is_string() && physical.get("region").is_none(), "{across:#}");
    assert!(across["properties"].get("entry_point").is_none(), "a finding across runs has no run: {across:#}");
    assert_eq!(across["properties"]["occurrences"], 2);
}

/// The report schema is a valid JSON Schema, and it rejects what the
/// structs would not write: unknown fields, missing fields, unknown names.
/// The SARIF schema rejects broken logs (the validator is not vacuous).
#[test]
fn the_report_schema_rejects_drift() {
    require_gpu!();
    let schema = read_json(&workspace().join("report/schema/report.v2.json"));
    jsonschema::meta::validate(&schema).unwrap_or_else(|e| panic!("report.v2.json is not a valid JSON Schema: {e}"));
    assert_eq!(schema["$schema"], "https://json-schema.org/draft/2020-12/schema");

    let report = sample_report("wg_missing_barrier.wgsl", RunArgs::default());
    let (json, sarif) = formats(&report);
    type Edit = fn(&mut Value);
    let edits: [(&str, Edit); 6] = [
        ("an unknown field of the report", |j| j["extra"] = json!(1)),
        ("an unknown field of a flattened access", |j| j["runs"][0]["races"][0]["first"]["extra"] = json!(1)),
        ("an unknown field of the stats", |j| j["runs"][0]["stats"]["extra"] = json!(1)),
        ("a missing field", |j| {
            if let Some(stats) = j["runs"][0]["stats"].as_object_mut() {
                stats.remove("chunks");
            }
        }),
        ("an unknown class", |j| j["runs"][0]["races"][0]["class"] = json!("intra-warp")),
        ("an unknown severity", |j| j["checks"][0]["severity"] = json!("fatal")),
    ];
    for (what, edit) in edits {
        let mut changed = json.clone();
        edit(&mut changed);
        assert!(!errors(report_schema(), &changed).is_empty(), "the schema accepts {what}");
    }

    // The SARIF schema is enforced too, and is the vendored OASIS one.
    let sarif_edits: [(&str, Edit); 3] = [
        ("an unknown level", |s| s["runs"][0]["results"][0]["level"] = json!("fatal")),
        ("an unknown property of the log", |s| s["extra"] = json!(1)),
        ("a rule without an id", |s| {
            if let Some(rule) = s["runs"][0]["tool"]["driver"]["rules"][0].as_object_mut() {
                rule.remove("id");
            }
        }),
    ];
    for (what, edit) in sarif_edits {
        let mut changed = sarif.clone();
        edit(&mut changed);
        assert!(!errors(sarif_schema(), &changed).is_empty(), "the SARIF schema accepts {what}");
    }
    let vendored = read_json(&workspace().join("tests/schemas/sarif-schema-2.1.0.json"));
    assert_eq!(vendored["id"], wgrace::sarif::SARIF_SCHEMA);
    assert_eq!(vendored["title"], "Static Analysis Results Format (SARIF) Version 2.1.0 JSON Schema");
}
