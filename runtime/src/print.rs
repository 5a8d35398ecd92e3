//! Rendering reports: text in the style of naga's (codespan) diagnostics, and
//! JSON (the schema is documented in `wgrace_instrument::report`; SARIF is in
//! [`crate::sarif`], which shares the grouping of races into pairs).

use codespan_reporting::diagnostic::{Diagnostic, Label};
use codespan_reporting::files::SimpleFile;
use codespan_reporting::term::{self, termcolor};
use wgrace_instrument::report::{
    Access, CheckedVariable, DetectedBy, Finding, Invocation, Language, Lockstep, Race, Report, Run, Severity,
    ShaderInfo, Site, SiteStatus, Verdict,
};

/// The report as pretty-printed JSON.
///
/// # Panics
/// Never: the report model serializes infallibly.
pub fn json(report: &Report) -> String {
    serde_json::to_string_pretty(report).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
}

fn invocation(a: &Access) -> String {
    match a.invocation {
        Some(i) => format!(
            "invocation ({},{},{}) of workgroup ({},{},{})",
            i.local_invocation_id[0],
            i.local_invocation_id[1],
            i.local_invocation_id[2],
            i.workgroup_id[0],
            i.workgroup_id[1],
            i.workgroup_id[2]
        ),
        None => "an invocation that was not recorded".into(),
    }
}

pub(crate) fn access_label(a: &Access) -> String {
    format!("{} by {}", a.access.as_str(), invocation(a))
}

pub(crate) fn headline(race: &Race) -> String {
    if race.memory.texel.is_some() {
        return format!("data race ({}) on storage texture `{}`", race.kind.as_str(), race.memory.variable);
    }
    format!("data race ({}) on {} variable `{}`", race.kind.as_str(), race.memory.space.as_str(), race.memory.variable)
}

fn times(n: u64) -> &'static str {
    if n == 1 { "time" } else { "times" }
}

/// `[0,0,0]/[1,0,0]`: workgroup/invocation.
fn short(i: &Option<Invocation>) -> String {
    match i {
        Some(i) => format!("{:?}/{:?}", i.workgroup_id, i.local_invocation_id).replace(' ', ""),
        None => "?".into(),
    }
}

/// The notes of one racing pair: where and how often, per class, the
/// lock-step portability, and each class's explanation and fix.
fn notes(group: &[&Race], language: Language) -> Vec<String> {
    let mut notes = Vec::new();
    let [race] = group else { return pair_notes(group, language) };
    notes.push(match race.detected_by {
        DetectedBy::Runtime => format!(
            "at {} (byte offset {}); detected {} {}",
            race.memory.element,
            race.memory.byte_offset,
            race.occurrences,
            times(race.occurrences)
        ),
        DetectedBy::Analyzer => format!(
            "at {} (byte offset {}); proved by the static analyzer: it happens in every run of this dispatch and input",
            race.memory.element, race.memory.byte_offset
        ),
    });
    if race.examples.len() > 1 {
        let more: Vec<String> = race.examples[1..]
            .iter()
            .map(|e| format!("{} ({} and {})", e.element, short(&e.first), short(&e.second)))
            .collect();
        notes.push(format!("also at {} (workgroup/invocation)", more.join(", ")));
    }
    if race.class.within_workgroup() && race.detected_by == DetectedBy::Runtime {
        notes.push(format!("lock-step: {}", race.lockstep.describe_for(language)));
    }
    notes.push(format!("note: {}", race.explanation));
    notes.push(format!("help: {}", race.hint));
    notes
}

/// The notes of a pair that took several classes: a line per class, one
/// lock-step line for the pair, and the classes' explanations and (distinct)
/// fixes.
fn pair_notes(group: &[&Race], language: Language) -> Vec<String> {
    let mut notes: Vec<String> = group
        .iter()
        .map(|r| {
            let example = r.examples.first();
            let who = example.map_or(String::new(), |e| {
                format!(", e.g. {} and {} (workgroup/invocation)", short(&e.first), short(&e.second))
            });
            format!(
                "{}: at {} (byte offset {}); detected {} {}{who}",
                r.class.as_str(),
                r.memory.element,
                r.memory.byte_offset,
                r.occurrences,
                times(r.occurrences)
            )
        })
        .collect();
    if let Some(lockstep) = pair_lockstep(group) {
        notes.push(format!("lock-step: {}", lockstep.describe_for(language)));
    }
    for r in group {
        notes.push(format!("note: {}: {}", r.class.as_str(), r.explanation));
    }
    let mut hints: Vec<&str> = Vec::new();
    for r in group {
        if !hints.contains(&r.hint.as_str()) {
            hints.push(&r.hint);
        }
    }
    notes.extend(hints.iter().map(|h| format!("help: {h}")));
    notes
}

/// The lock-step portability of a racing pair, over its races within one
/// workgroup that a run found (`None` without any).
pub(crate) fn pair_lockstep(group: &[&Race]) -> Option<Lockstep> {
    let same_workgroup: Vec<&Lockstep> = group
        .iter()
        .filter(|r| r.class.within_workgroup() && r.detected_by == DetectedBy::Runtime)
        .map(|r| &r.lockstep)
        .collect();
    (!same_workgroup.is_empty()).then(|| Lockstep::of_all(&same_workgroup))
}

/// Races grouped by racing pair: the variable and the unordered pair of
/// accesses, in the order of their first race.
pub(crate) fn pairs(races: &[Race]) -> Vec<Vec<&Race>> {
    let mut groups: Vec<Vec<&Race>> = Vec::new();
    for race in races {
        let key = |r: &Race| (r.memory.variable.clone(), r.first.site, r.second.site, r.detected_by);
        match groups.iter_mut().find(|g| key(g[0]) == key(race)) {
            Some(group) => group.push(race),
            None => groups.push(vec![race]),
        }
    }
    groups
}

/// `intra-subgroup, intra-workgroup`: the diagnostic code of a pair.
pub(crate) fn code(group: &[&Race]) -> String {
    group.iter().map(|r| r.class.as_str()).collect::<Vec<_>>().join(", ")
}

/// The report as text; `color` adds ANSI colours. Each run in turn (under a
/// heading when there are several), what the runs show together, and with
/// several adapters a matrix of the runs.
pub fn text(report: &Report, color: bool) -> String {
    let mut out = String::new();
    let several = report.runs.len() > 1;
    for run in &report.runs {
        if several {
            out.push_str(&format!("── entry point `{}` on {} ──\n", run.entry_point, run.adapter_label()));
        }
        out.push_str(&run_text(report, run, color));
        if several {
            out.push('\n');
        }
    }
    out.push_str(&findings_text(&report.findings, &report.shader, color));
    out.push_str(&unused_suppressions(report));
    if report.adapters().len() > 1 {
        out.push_str(&matrix(report));
    }
    if several {
        out.push_str(&overall(report));
    }
    out
}

/// One run's diagnostics, notes and summary line.
fn run_text(report: &Report, run: &Run, color: bool) -> String {
    let mut out = String::new();
    let mut buffer = if color { termcolor::Buffer::ansi() } else { termcolor::Buffer::no_color() };
    let declaration = |variable: &str| declaration_span(&run.checked.variables, variable);
    out.push_str(&races(&run.races, &report.shader, &declaration, &mut buffer));
    out.push_str(&String::from_utf8_lossy(buffer.as_slice()));
    out.push_str(&findings_text(&run.findings, &report.shader, color));
    for warning in &run.warnings {
        out.push_str(&format!("warning: {warning}\n"));
    }
    for reason in &run.incomplete {
        out.push_str(&format!("warning: incomplete report: {reason}\n"));
    }
    for note in &run.notes {
        out.push_str(&format!("note: {note}\n"));
    }
    out.push_str(&suppressed(report, run));
    if let Some(i) = &run.checked.instrumentation {
        out.push_str(&instrumentation(i));
        out.push_str(&shadow(&run.checked.shadow));
    }
    out.push_str(&summary(run));
    out.push('\n');
    out
}

/// A note per suppression that kept something of `run` out: what it kept.
fn suppressed(report: &Report, run: &Run) -> String {
    let mut out = String::new();
    for (i, s) in report.suppressions.iter().enumerate() {
        let kept: Vec<String> = run
            .suppressed
            .iter()
            .filter(|k| k.suppression == i)
            .map(|k| match (&k.race, &k.finding) {
                (Some(r), _) => {
                    let (a, b) = (line_or_unknown(r.first.location.line), line_or_unknown(r.second.location.line));
                    let lines = if a == b { format!("line {a}") } else { format!("lines {a} and {b}") };
                    format!("the {} race on `{}` ({lines})", r.class.as_str(), r.memory.variable)
                }
                (None, Some(f)) => format!("the {} finding \"{}\"", f.check, f.message),
                (None, None) => "nothing".into(),
            })
            .collect();
        if kept.is_empty() {
            continue;
        }
        let reason = s.reason.as_ref().map_or(String::new(), |r| format!(" ({r})"));
        out.push_str(&format!("note: suppressed by {} at {}{reason}: {}\n", s.describe(), s.origin, kept.join("; ")));
    }
    out
}

fn line_or_unknown(line: Option<u32>) -> String {
    line.map_or_else(|| "?".into(), |l| l.to_string())
}

/// A warning per suppression that matched nothing in the report.
fn unused_suppressions(report: &Report) -> String {
    report
        .unused_suppressions()
        .map(|s| format!("warning: unused suppression: {} at {} matched nothing\n", s.describe(), s.origin))
        .collect()
}

/// Findings as diagnostics (plain text where the source is not at hand).
fn findings_text(findings: &[Finding], shader: &ShaderInfo, color: bool) -> String {
    let mut out = String::new();
    let source = shader.source.as_deref();
    let file = SimpleFile::new(shader.source_name(), source.unwrap_or(""));
    let config = term::Config::default();
    let mut buffer = if color { termcolor::Buffer::ansi() } else { termcolor::Buffer::no_color() };
    for finding in findings {
        let diagnostic = Diagnostic::new(severity(finding.severity))
            .with_code(finding.check.as_str())
            .with_message(finding.message.as_str())
            .with_labels(finding_labels(finding))
            .with_notes(finding_notes(finding));
        if source.is_none() || term::emit_to_write_style(&mut buffer, &config, &file, &diagnostic).is_err() {
            out.push_str(&plain_finding(finding, shader.source_name()));
        }
    }
    String::from_utf8_lossy(buffer.as_slice()).into_owned() + &out
}

/// The cross-vendor matrix ([`Report::matrix`]): for each entry point and
/// adapter, the verdict, the classes of its races, the lock-step width that
/// hides them all, and the digests of its writable buffers.
fn matrix(report: &Report) -> String {
    let mut rows = vec![[
        "entry point".to_string(),
        "adapter".to_string(),
        "verdict".to_string(),
        "classes".to_string(),
        "hidden from".to_string(),
        "outputs (sha256)".to_string(),
    ]];
    for row in report.matrix() {
        let outputs: Vec<String> = row.outputs.iter().map(|o| format!("{} {}", o.variable, o.digest)).collect();
        rows.push([
            row.run.entry_point.clone(),
            row.run.adapter_label(),
            row.verdict.to_string(),
            if row.classes.is_empty() { "-".to_string() } else { row.classes.join(", ") },
            row.hidden_from,
            if outputs.is_empty() { "-".to_string() } else { outputs.join(", ") },
        ]);
    }
    let widths: Vec<usize> = (0..6).map(|c| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0)).collect();
    let mut out = String::from("adapters:\n");
    for row in &rows {
        let cells: Vec<String> = row.iter().zip(&widths).map(|(cell, w)| format!("{cell:<w$}")).collect();
        out.push_str(&format!("  {}\n", cells.join("  ").trim_end()));
    }
    out
}

/// The last line of a report with several runs.
fn overall(report: &Report) -> String {
    let failed: Vec<String> = report
        .runs
        .iter()
        .filter(|r| r.failed())
        .map(|r| format!("`{}` on {}", r.entry_point, r.adapter_name()))
        .collect();
    let findings = findings_summary(&report.findings);
    let mut line = format!("wgrace: {} runs", report.runs.len());
    if failed.is_empty() {
        line.push_str(", no race observed for this dispatch and input");
    } else {
        line.push_str(&format!("; races or errors in {}: {}", failed.len(), failed.join(", ")));
    }
    if !findings.is_empty() {
        line.push_str(&format!("; across them: {findings}"));
    }
    line + "\n"
}

/// `--stats`: GRace's Table 3 for this dispatch.
fn instrumentation(i: &wgrace_instrument::report::InstrumentationStats) -> String {
    let row = |what: &str, c: &wgrace_instrument::report::InstrumentationCount| {
        format!("  {what:<28} {:>6} {:>20}\n", c.sites, c.accesses)
    };
    let mut out = format!("instrumentation:\n  {:<28} {:>6} {:>20}\n", "", "sites", "executed accesses");
    out.push_str(&row("without the static analyzer", &i.without_analyzer));
    out.push_str(&row("with the static analyzer", &i.with_analyzer));
    out
}

/// `--stats`: the storage shadow.
fn shadow(s: &wgrace_instrument::report::ShadowSummary) -> String {
    if s.storage_words == 0 {
        return "storage shadow: none (no storage access is checked)\n".into();
    }
    let per_word = s.state_bytes as f64 / s.storage_words as f64;
    let cache = s.cache_ratio.map_or(String::new(), |r| format!(", a direct-mapped cache of one entry per {r} words"));
    format!(
        "storage shadow: {} tracked words; state {} bytes ({per_word:.2} per word{cache}); witnesses {} bytes\n",
        s.storage_words, s.state_bytes, s.witness_bytes
    )
}

/// Renders races as diagnostics into `buffer`; returns the plain text of
/// those that cannot be (no source text).
pub fn races(
    races: &[Race],
    shader: &ShaderInfo,
    declaration: &dyn Fn(&str) -> Option<std::ops::Range<usize>>,
    buffer: &mut termcolor::Buffer,
) -> String {
    let mut out = String::new();
    let source = shader.source.as_deref();
    let file = SimpleFile::new(shader.source_name(), source.unwrap_or(""));
    let config = term::Config::default();
    for group in pairs(races) {
        let race = group[0];
        let code = code(&group);
        let spans = [&race.first, &race.second].map(|a| a.location.span);
        if let (Some(_), [Some(_), _] | [_, Some(_)]) = (source, spans) {
            let mut labels = Vec::new();
            if let Some(decl) = declaration(&race.memory.variable) {
                labels.push(
                    Label::primary((), decl).with_message(format!("`{}` is declared here", race.memory.variable)),
                );
            }
            for a in [&race.first, &race.second] {
                if let Some((start, end)) = a.location.span {
                    labels.push(Label::secondary((), start as usize..end as usize).with_message(access_label(a)));
                }
            }
            let diagnostic = Diagnostic::error()
                .with_code(code)
                .with_message(headline(race))
                .with_labels(labels)
                .with_notes(notes(&group, shader.language));
            if term::emit_to_write_style(buffer, &config, &file, &diagnostic).is_err() {
                out.push_str(&plain_race(&group, shader));
            }
        } else {
            out.push_str(&plain_race(&group, shader));
        }
    }
    out
}

/// A racing pair without source text (SPIR-V without debug information).
fn plain_race(group: &[&Race], shader: &ShaderInfo) -> String {
    let path = shader.source_name();
    let race = group[0];
    let mut s = format!("error[{}]: {}\n", code(group), headline(race));
    for a in [&race.first, &race.second] {
        let at = match (a.location.line, a.location.column) {
            (Some(l), Some(c)) => format!("{path}:{l}:{c}"),
            (Some(l), None) => format!("{path}:{l}"),
            _ => path.to_string(),
        };
        s.push_str(&format!("  --> {at}: {}\n      {}\n", access_label(a), a.location.snippet));
    }
    for n in notes(group, shader.language) {
        s.push_str(&format!("  = {n}\n"));
    }
    s.push('\n');
    s
}

fn severity(s: Severity) -> codespan_reporting::diagnostic::Severity {
    match s {
        Severity::Error => codespan_reporting::diagnostic::Severity::Error,
        Severity::Warning => codespan_reporting::diagnostic::Severity::Warning,
        Severity::Note => codespan_reporting::diagnostic::Severity::Note,
    }
}

fn plural(n: u32, what: &str) -> String {
    format!("{n} {what}{}", if n == 1 { "" } else { "s" })
}

/// A finding's located labels that have a span in the source.
fn finding_labels(f: &Finding) -> Vec<Label<()>> {
    f.locations
        .iter()
        .filter_map(|l| {
            let (start, end) = l.location.span?;
            let label = if l.primary {
                Label::primary((), start as usize..end as usize)
            } else {
                Label::secondary((), start as usize..end as usize)
            };
            Some(label.with_message(l.label.as_str()))
        })
        .collect()
}

fn finding_notes(f: &Finding) -> Vec<String> {
    let mut notes = f.details.clone();
    notes.push(format!("note: {}", f.explanation));
    notes.push(format!("help: {}", f.hint));
    notes
}

/// A finding without source text.
fn plain_finding(f: &Finding, path: &str) -> String {
    let mut s = format!("{}[{}]: {}\n", f.severity.as_str(), f.check, f.message);
    for l in &f.locations {
        let at = match (l.location.line, l.location.column) {
            (Some(line), Some(c)) => format!("{path}:{line}:{c}"),
            (Some(line), None) => format!("{path}:{line}"),
            _ => path.to_string(),
        };
        s.push_str(&format!("  --> {at}: {}\n      {}\n", l.label, l.location.snippet));
    }
    if f.locations.is_empty() {
        s.push_str(&format!("  --> {path}\n"));
    }
    for n in finding_notes(f) {
        s.push_str(&format!("  = {n}\n"));
    }
    s.push('\n');
    s
}

/// Where `variable` is declared.
pub fn declaration_span(variables: &[CheckedVariable], variable: &str) -> Option<std::ops::Range<usize>> {
    let v = variables.iter().find(|v| v.name == variable)?;
    v.declaration.span.map(|(start, end)| start as usize..end as usize)
}

/// The last line: the verdict and what was checked.
pub fn summary(run: &Run) -> String {
    let c = &run.checked;
    let pruned = c.analyzer.as_ref().map_or(0, |a| a.pruned_sites);
    let unchecked = c.sites - c.checked_sites - pruned - c.atomic_checked_sites;
    let mut sites = format!("{} checked", plural(c.checked_sites as u32, "access site"));
    if pruned > 0 {
        sites.push_str(&format!(", {pruned} more proven race-free by the static analyzer"));
    }
    if c.atomic_checked_sites > 0 {
        let atomic = plural(c.atomic_checked_sites as u32, "atomic site");
        sites.push_str(&format!(", {atomic} checked"));
    }
    if unchecked > 0 {
        sites.push_str(&format!(
            ", {unchecked} atomic or uniform-load site{} that cannot race",
            if unchecked == 1 { "" } else { "s" }
        ));
    }
    let workgroups = run.dispatch.iter().map(|&d| u64::from(d)).product::<u64>();
    let what = format!(
        "entry point `{}`, {} invocations in {workgroups} workgroup{}, {sites}, on {}",
        run.entry_point,
        c.invocations,
        if workgroups == 1 { "" } else { "s" },
        run.adapter_label()
    );
    let findings = findings_summary(&run.findings);
    if run.incomplete.iter().any(|l| l == crate::session::RACES_NOT_CHECKED) {
        let findings = if findings.is_empty() { "no finding".to_string() } else { findings };
        return format!(
            "wgrace: {findings}; races not checked (--checks) (entry point `{}`, {} invocations, on {})",
            run.entry_point,
            c.invocations,
            run.adapter_label()
        );
    }
    let races = races_summary(&run.races);
    let suppressed = match run.suppressed.len() {
        0 => String::new(),
        n => format!(", {n} suppressed"),
    };
    match (run.verdict, findings.is_empty()) {
        (Verdict::Race, true) => format!("wgrace: {races} found{suppressed} ({what})"),
        (Verdict::Race, false) => format!("wgrace: {races} and {findings} found{suppressed} ({what})"),
        (Verdict::NoRace, true) => {
            format!("wgrace: no race observed for this dispatch and input{suppressed} ({what})")
        }
        (Verdict::NoRace, false) => {
            format!("wgrace: {findings}; no race observed for this dispatch and input{suppressed} ({what})")
        }
    }
}

/// "2 races", or "1 race (2 by class)" when a racing pair took several
/// classes.
fn races_summary(races: &[Race]) -> String {
    let pairs = pairs(races).len();
    let mut s = plural(pairs as u32, "race");
    if races.len() != pairs {
        s.push_str(&format!(" ({} by class)", races.len()));
    }
    s
}

/// "1 barrier-divergence finding, 2 bounds findings", by check, in order of
/// first appearance.
fn findings_summary(findings: &[Finding]) -> String {
    let mut counts: Vec<(&str, u32)> = Vec::new();
    for f in findings {
        match counts.iter_mut().find(|(check, _)| *check == f.check) {
            Some((_, n)) => *n += 1,
            None => counts.push((&f.check, 1)),
        }
    }
    counts.iter().map(|(check, n)| plural(*n, &format!("{check} finding"))).collect::<Vec<_>>().join(", ")
}

/// `wgrace check`'s report as text: for each entry point, the proved races,
/// the sites left to the runtime and why, and a summary line.
pub fn static_text(report: &Report, color: bool) -> String {
    let mut out = String::new();
    for run in &report.runs {
        if report.runs.len() > 1 {
            out.push_str(&format!("── entry point `{}` ──\n", run.entry_point));
        }
        out.push_str(&static_run_text(report, run, color));
    }
    out
}

fn static_run_text(report: &Report, run: &Run, color: bool) -> String {
    let mut buffer = if color { termcolor::Buffer::ansi() } else { termcolor::Buffer::no_color() };
    let declaration = |variable: &str| declaration_span(&run.checked.variables, variable);
    let mut out = races(&run.races, &report.shader, &declaration, &mut buffer);
    out.insert_str(0, &String::from_utf8_lossy(buffer.as_slice()));
    for warning in &run.warnings {
        out.push_str(&format!("warning: {warning}\n"));
    }
    // The analyzer's giving up has a note of its own below.
    for note in run.notes.iter().filter(|n| !n.starts_with("the analysis gave up")) {
        out.push_str(&format!("note: {note}\n"));
    }
    // A suppression that matches nothing here may match at run time: only
    // `wgrace run` reports unused ones.
    out.push_str(&suppressed(report, run));
    fn status(s: &Site) -> Option<&SiteStatus> {
        s.analysis.as_ref().map(|a| &a.status)
    }
    let left: Vec<(&Site, &String)> = run
        .sites
        .sites
        .iter()
        .filter_map(|s| match status(s) {
            Some(SiteStatus::Instrumented(why)) => Some((s, why)),
            _ => None,
        })
        .collect();
    if let Some(reason) = run.checked.analyzer.as_ref().and_then(|a| a.gave_up.as_ref()) {
        out.push_str(&format!("note: the analysis gave up: {reason}; every access is left to `wgrace run`\n"));
    } else if !left.is_empty() {
        out.push_str("note: left to the runtime check (`wgrace run`):\n");
        for (s, why) in &left {
            let at = s.location.line.map_or_else(|| format!("site {}", s.id), |l| format!("line {l}"));
            let once = if s.analysis.as_ref().is_some_and(|a| a.once_per_loop) {
                " (recorded once per loop: its address does not change)"
            } else {
                ""
            };
            out.push_str(&format!("  {at}: {} of `{}`: {why}{once}\n", s.kind.as_str(), s.variable));
        }
    }
    let count = |f: &dyn Fn(&SiteStatus) -> bool| run.sites.sites.iter().filter(|s| status(s).is_some_and(f)).count();
    let checked = count(&|s| *s != SiteStatus::Unchecked);
    let proven = count(&|s| *s == SiteStatus::RaceFree);
    let idle = count(&|s| *s == SiteStatus::NotExecuted);
    let d = run.dispatch;
    let mut what = format!(
        "entry point `{}`, dispatch {}x{}x{}: {proven} of {checked} access sites proven race-free",
        run.entry_point, d[0], d[1], d[2]
    );
    if idle > 0 {
        what.push_str(&format!(", {idle} not executed"));
    }
    what.push_str(&format!(", {} left to `wgrace run`", left.len()));
    let verdict = match run.races.len() {
        0 => "no race proven".to_string(),
        n => plural(n as u32, "race") + " proven",
    };
    out.push_str(&format!("wgrace check: {verdict} ({what}; static analysis only, nothing ran)\n"));
    out
}
