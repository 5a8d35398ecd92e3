//! SARIF 2.1.0 output (`wgrace run --format sarif`, and `wgrace check`'s),
//! for GitHub code scanning
//! and the other tools that read the OASIS Static Analysis Results
//! Interchange Format.
//!
//! A report becomes one SARIF run:
//!
//! - `tool.driver` is wgrace (name, version, `informationUri`), with a rule
//!   per check of the report (`report.checks`: id, name, descriptions, help,
//!   and the check's severity as `defaultConfiguration.level`);
//! - a result per diagnostic of the text report: one per racing pair of
//!   accesses (the classes of a pair together, as [`crate::print`] groups
//!   them), rule `data-race`, level `error`, located at the pair's first
//!   access, with the second access as related location 1, linked from the
//!   message, and the variable's declaration as related location 2; and one
//!   per finding of the other checks (the runs' and the report's), rule its
//!   check's id, level its severity, located at its first primary location,
//!   its other locations related and linked;
//! - a result per race or finding a suppression kept out (each race on its
//!   own), with SARIF's `suppressions`: `inSource` for the shader's
//!   `// wgrace: allow(…)` comments, `external` for a suppressions file's
//!   lines, status `accepted`, the reason as `justification`;
//! - what the text report says beyond one line (classes, memory,
//!   invocations, counts, lock-step portability, the entry point and
//!   adapter, a finding's `data`) in each result's `properties`, with the
//!   JSON report's field names.
//!
//! Artifact URIs are the shader's path as given (relative paths stay
//! relative, so a path relative to the repository's root is what code
//! scanning needs), with forward slashes. Lines and columns are the report's
//! (columns in Unicode code points: `columnKind` says so); a location without
//! a line (SPIR-V without `OpLine`) has the artifact and no region.

use serde::Serialize;
use serde_json::{Map, Value};
use serde_sarif::sarif::{
    ArtifactLocation, Location as SarifLocation, Message, MultiformatMessageString, PhysicalLocation, PropertyBag,
    Region, ReportingConfiguration, ReportingDescriptor, Result as SarifResult, ResultColumnKind, ResultLevel,
    Run as SarifRun, Sarif, Suppression, Tool, ToolComponent, Version,
};
use wgrace_instrument::report::{
    Access, AccessKind, CheckInfo, Finding, Language, Location, Race, Report, Run, Severity,
    Suppression as ReportSuppression,
};

use crate::print;

/// The URI of the SARIF 2.1.0 schema (OASIS Standard, errata 01), written
/// as the log's `$schema`.
pub const SARIF_SCHEMA: &str =
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";

/// The report as a SARIF 2.1.0 log, pretty-printed JSON.
pub fn sarif(report: &Report) -> String {
    serde_json::to_string_pretty(&log(report)).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
}

/// The report as a SARIF 2.1.0 log (`serde_sarif`'s types), one run for the
/// whole report.
pub fn log(report: &Report) -> Sarif {
    let writer = Writer::new(report);
    let mut results = Vec::new();
    for run in &report.runs {
        for group in print::pairs(&run.races) {
            results.push(writer.race(run, &group));
        }
        for finding in &run.findings {
            results.push(writer.finding(Some(run), finding));
        }
        for kept in &run.suppressed {
            let mut result = match (&kept.race, &kept.finding) {
                (Some(race), _) => writer.race(run, &[race]),
                (None, Some(finding)) => writer.finding(Some(run), finding),
                (None, None) => continue,
            };
            if let Some(s) = report.suppressions.get(kept.suppression) {
                result.suppressions = Some(vec![writer.suppression(s)]);
            }
            results.push(result);
        }
    }
    for finding in &report.findings {
        results.push(writer.finding(None, finding));
    }

    let driver = ToolComponent::builder()
        .name("wgrace")
        .version(env!("CARGO_PKG_VERSION"))
        .information_uri(env!("CARGO_PKG_REPOSITORY"))
        .rules(report.checks.iter().map(rule).collect::<Vec<_>>())
        .build();
    let mut run = SarifRun::builder().tool(Tool::builder().driver(driver).build()).results(results).build();
    run.column_kind = Some(value(&ResultColumnKind::UnicodeCodePoints));
    run.properties = Some(bag(run_properties(report)));
    Sarif::builder().schema(SARIF_SCHEMA).version(Version::V2_1_0.to_string()).runs(vec![run]).build()
}

/// A check as a SARIF rule.
fn rule(check: &CheckInfo) -> ReportingDescriptor {
    ReportingDescriptor::builder()
        .id(&check.id)
        .name(&check.name)
        .short_description(multiformat(&check.short_description))
        .full_description(multiformat(&check.full_description))
        .help(multiformat(&check.help))
        .default_configuration(ReportingConfiguration::builder().level(check.severity.as_str()).build())
        .build()
}

fn multiformat(text: &str) -> MultiformatMessageString {
    MultiformatMessageString::builder().text(text).build()
}

fn message(text: impl Into<String>) -> Message {
    Message::builder().text(text).build()
}

/// SARIF's levels are named as wgrace's severities.
fn level(severity: Severity) -> ResultLevel {
    match severity {
        Severity::Error => ResultLevel::Error,
        Severity::Warning => ResultLevel::Warning,
        Severity::Note => ResultLevel::Note,
    }
}

/// Serializes report data for a property bag. The report model serializes
/// infallibly; `null` stands in for the impossible failure.
fn value<T: Serialize>(v: &T) -> Value {
    serde_json::to_value(v).unwrap_or(Value::Null)
}

fn bag(properties: Map<String, Value>) -> PropertyBag {
    PropertyBag { tags: None, additional_properties: properties.into_iter().collect() }
}

/// Text inside an embedded link `[text](id)`: SARIF requires its brackets
/// (and the backslash that escapes them) escaped.
fn link_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if matches!(c, '\\' | '[' | ']') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// A path as a URI reference: forward slashes, and percent-encoded bytes
/// where a URI allows none (spaces, `%`, `#`, `?`, non-ASCII …).
fn uri(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for b in path.replace('\\', "/").bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/!$&'()*+,;=:@".contains(&b) {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// Line and column (1-based, in characters) of byte `offset` of `source`.
fn position(source: &str, offset: usize) -> Option<(i64, i64)> {
    let before = source.get(..offset)?;
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let column = before[line_start..].chars().count() + 1;
    Some((i64::try_from(line).ok()?, i64::try_from(column).ok()?))
}

/// What an access is, for messages: "the write at line 13".
fn describe(access: &Access) -> String {
    let what = match access.access {
        AccessKind::Read => "read",
        AccessKind::Write => "write",
        AccessKind::Atomic => "atomic access",
        AccessKind::UniformLoad => "uniform load",
    };
    match (access.location.line, access.location.spirv_word) {
        (Some(line), _) => format!("the {what} at line {line}"),
        (None, Some(word)) => format!("the {what} at SPIR-V word {word}"),
        (None, None) => format!("the {what}"),
    }
}

/// What the results have in common: the artifact and where results of
/// several runs need to say which run.
struct Writer<'a> {
    report: &'a Report,
    uri: String,
    several_entry_points: bool,
    several_adapters: bool,
}

impl<'a> Writer<'a> {
    fn new(report: &'a Report) -> Writer<'a> {
        let differ = |f: &dyn Fn(&Run) -> String| report.runs.iter().any(|r| f(r) != f(&report.runs[0]));
        Writer {
            report,
            uri: uri(report.shader.source_name()),
            several_entry_points: differ(&|r| r.entry_point.clone()),
            several_adapters: differ(&|r| r.adapter_label()),
        }
    }

    /// The shader, and the region of `location` in it when it has a line.
    fn physical(&self, location: Option<&Location>) -> PhysicalLocation {
        PhysicalLocation {
            artifact_location: Some(ArtifactLocation { uri: Some(self.uri.clone()), ..ArtifactLocation::default() }),
            region: location.and_then(|l| self.region(l)),
            ..PhysicalLocation::default()
        }
    }

    /// Start line and column as the report has them; the end from the span
    /// in the source, where both are at hand (and the end is not before the
    /// start).
    fn region(&self, location: &Location) -> Option<Region> {
        let start = (i64::from(location.line?), location.column.map(i64::from));
        let end = match (location.span, self.report.shader.source.as_deref()) {
            (Some((_, end)), Some(source)) => position(source, end as usize),
            _ => None,
        }
        .filter(|&end| end >= (start.0, start.1.unwrap_or(1)));
        Some(Region {
            start_line: Some(start.0),
            start_column: start.1,
            end_line: end.map(|(line, _)| line),
            end_column: end.map(|(_, column)| column),
            ..Region::default()
        })
    }

    /// A SARIF location: `id` (for related locations), the place, and what
    /// is there.
    fn location(&self, id: Option<i64>, location: Option<&Location>, label: &str) -> SarifLocation {
        let properties = location.and_then(|l| l.spirv_word).map(|word| {
            let mut map = Map::new();
            map.insert("spirv_word".into(), word.into());
            bag(map)
        });
        SarifLocation {
            id,
            physical_location: Some(self.physical(location)),
            message: (!label.is_empty()).then(|| message(label)),
            properties,
            ..SarifLocation::default()
        }
    }

    /// " in entry point `a` on ADAPTER", where the report has several.
    fn which_run(&self, run: &Run) -> String {
        let mut s = String::new();
        if self.several_entry_points {
            s.push_str(&format!(" in entry point `{}`", run.entry_point));
        }
        if self.several_adapters {
            s.push_str(&format!(" on {}", run.adapter_label()));
        }
        s
    }

    fn rule_index(&self, id: &str) -> Option<i64> {
        self.report.checks.iter().position(|c| c.id == id).and_then(|i| i64::try_from(i).ok())
    }

    fn result(&self, rule: &str, level: ResultLevel, text: String) -> SarifResult {
        let mut result = SarifResult::builder().rule_id(rule).level(level).message(message(text)).build();
        result.rule_index = self.rule_index(rule);
        result
    }

    /// One racing pair of accesses (its races of every class).
    fn race(&self, run: &Run, group: &[&Race]) -> SarifResult {
        let race = group[0];
        let text = format!(
            "{}: {} races with [{}](1) ({}){}",
            print::headline(race),
            describe(&race.first),
            link_text(&describe(&race.second)),
            print::code(group),
            self.which_run(run)
        );
        let mut result = self.result(race.class.check(), ResultLevel::Error, text);
        result.locations =
            Some(vec![self.location(None, Some(&race.first.location), &print::access_label(&race.first))]);
        let mut related = vec![self.location(Some(1), Some(&race.second.location), &print::access_label(&race.second))];
        if let Some(variable) = run.checked.variables.iter().find(|v| v.name == race.memory.variable) {
            let label = format!("`{}` is declared here", variable.name);
            related.push(self.location(Some(2), Some(&variable.declaration), &label));
        }
        result.related_locations = Some(related);
        result.properties = Some(bag(race_properties(run, group, self.report.shader.language)));
        result
    }

    /// A suppression of a result: `inSource` for the shader's comments,
    /// `external` for a suppressions file's lines, with its reason and
    /// where it is written.
    fn suppression(&self, s: &ReportSuppression) -> Suppression {
        let in_source = s.origin.strip_prefix(self.report.shader.source_name()).is_some_and(|r| r.starts_with(':'));
        let mut properties = Map::new();
        properties.insert("origin".into(), s.origin.clone().into());
        properties.insert("suppression".into(), s.describe().into());
        let mut suppression = Suppression::builder()
            .kind(if in_source { "inSource" } else { "external" })
            .status("accepted")
            .properties(bag(properties))
            .build();
        suppression.justification = s.reason.clone();
        suppression
    }

    /// A finding of a run (`run`), or of the runs together.
    fn finding(&self, run: Option<&Run>, finding: &Finding) -> SarifResult {
        let primary = finding.locations.iter().position(|l| l.primary).unwrap_or(0);
        let related: Vec<_> =
            finding.locations.iter().enumerate().filter(|(i, _)| *i != primary).map(|(_, l)| l).collect();
        let mut text = finding.message.clone();
        if !related.is_empty() {
            let links: Vec<String> =
                related.iter().zip(1..).map(|(l, id)| format!("[{}]({id})", link_text(&l.label))).collect();
            text.push_str(&format!(" ({})", links.join(", ")));
        }
        if let Some(run) = run {
            text.push_str(&self.which_run(run));
        }
        if !finding.details.is_empty() {
            text.push_str(&format!(": {}", finding.details.join("; ")));
        }
        let mut result = self.result(&finding.check, level(finding.severity), text);
        result.locations = Some(vec![match finding.locations.get(primary) {
            Some(l) => self.location(None, Some(&l.location), &l.label),
            None => self.location(None, None, ""),
        }]);
        if !related.is_empty() {
            result.related_locations = Some(
                related.iter().zip(1..).map(|(l, id)| self.location(Some(id), Some(&l.location), &l.label)).collect(),
            );
        }
        result.properties = Some(bag(finding_properties(run, finding)));
        result
    }
}

/// The entry point, adapter and dispatch of a run, for a result's
/// properties.
fn run_fields(run: &Run, properties: &mut Map<String, Value>) {
    properties.insert("entry_point".into(), run.entry_point.clone().into());
    properties.insert("adapter".into(), value(&run.adapter));
    properties.insert("dispatch".into(), value(&run.dispatch));
}

/// A racing pair's properties: its classes, kind, memory, invocations,
/// detections, lock-step portability, and each class's race.
fn race_properties(run: &Run, group: &[&Race], language: Language) -> Map<String, Value> {
    let race = group[0];
    let mut p = Map::new();
    p.insert("classes".into(), group.iter().map(|r| Value::from(r.class.as_str())).collect());
    p.insert("kind".into(), race.kind.as_str().into());
    p.insert("detected_by".into(), value(&race.detected_by));
    p.insert("memory".into(), value(&race.memory));
    let invocations: Vec<Value> =
        [&race.first, &race.second].iter().filter_map(|a| a.invocation).map(|i| value(&i)).collect();
    p.insert("invocations".into(), invocations.into());
    p.insert("occurrences".into(), group.iter().map(|r| r.occurrences).sum::<u64>().into());
    if let Some(lockstep) = print::pair_lockstep(group) {
        let mut l = Map::new();
        l.insert("hidden_from".into(), value(&lockstep.hidden_from));
        l.insert("visible_at".into(), value(&lockstep.visible_at));
        l.insert("description".into(), lockstep.describe_for(language).into());
        p.insert("lockstep".into(), l.into());
    }
    let by_class: Vec<Value> = group
        .iter()
        .map(|r| {
            let mut c = Map::new();
            c.insert("class".into(), r.class.as_str().into());
            c.insert("memory".into(), value(&r.memory));
            c.insert("occurrences".into(), r.occurrences.into());
            c.insert("first".into(), value(&r.first.invocation));
            c.insert("second".into(), value(&r.second.invocation));
            c.insert("lockstep".into(), value(&r.lockstep));
            c.insert("examples".into(), value(&r.examples));
            c.insert("explanation".into(), r.explanation.clone().into());
            c.insert("hint".into(), r.hint.clone().into());
            Value::Object(c)
        })
        .collect();
    p.insert("races".into(), by_class.into());
    run_fields(run, &mut p);
    p
}

/// A finding's properties: invocations, count, memory, the check's data,
/// and the run's entry point and adapter.
fn finding_properties(run: Option<&Run>, finding: &Finding) -> Map<String, Value> {
    let mut p = Map::new();
    p.insert("invocations".into(), value(&finding.invocations));
    p.insert("occurrences".into(), finding.occurrences.into());
    if let Some(memory) = &finding.memory {
        p.insert("memory".into(), value(memory));
    }
    if !finding.data.is_empty() {
        p.insert("data".into(), Value::Object(finding.data.clone()));
    }
    p.insert("explanation".into(), finding.explanation.clone().into());
    p.insert("hint".into(), finding.hint.clone().into());
    if let Some(run) = run {
        run_fields(run, &mut p);
    }
    p
}

/// The SARIF run's properties: the report's verdict and completeness, and
/// what each of its runs checked.
fn run_properties(report: &Report) -> Map<String, Value> {
    let mut p = Map::new();
    p.insert("report_version".into(), report.version.into());
    p.insert("verdict".into(), value(&report.verdict));
    p.insert("complete".into(), report.complete.into());
    p.insert("language".into(), value(&report.shader.language));
    let runs: Vec<Value> = report
        .runs
        .iter()
        .map(|r| {
            let mut m = Map::new();
            run_fields(r, &mut m);
            m.insert("workgroup_size".into(), value(&r.workgroup_size));
            m.insert("mode".into(), r.checked.mode.clone().into());
            m.insert("verdict".into(), value(&r.verdict));
            m.insert("complete".into(), r.complete.into());
            m.insert("incomplete".into(), value(&r.incomplete));
            m.insert("warnings".into(), value(&r.warnings));
            m.insert("notes".into(), value(&r.notes));
            Value::Object(m)
        })
        .collect();
    p.insert("runs".into(), runs.into());
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn link_text_escapes_brackets_and_backslashes() {
        assert_eq!(link_text(r"the read of tile[3] at a\b"), r"the read of tile\[3\] at a\\b");
    }

    #[test]
    fn paths_become_uri_references() {
        assert_eq!(uri("samples/wg_barrier.wgsl"), "samples/wg_barrier.wgsl");
        assert_eq!(uri(r"shaders\my kernels\a#1.wgsl"), "shaders/my%20kernels/a%231.wgsl");
        assert_eq!(uri("/tmp/é.wgsl"), "/tmp/%C3%A9.wgsl");
    }

    #[test]
    fn positions_count_lines_and_characters() {
        let source = "ab\nçd = 1;\nx";
        assert_eq!(position(source, 0), Some((1, 1)));
        assert_eq!(position(source, 3), Some((2, 1)));
        // `ç` is two bytes and one column.
        assert_eq!(position(source, 5), Some((2, 2)));
        assert_eq!(position(source, source.len()), Some((3, 2)));
        assert_eq!(position(source, 4), None, "inside a character");
    }
}
