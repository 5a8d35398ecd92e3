//! Rendering reports: text in the style of naga's (codespan) diagnostics, and
//! JSON (the schema is documented in `wgrace_instrument::report`).

use codespan_reporting::diagnostic::{Diagnostic, Label};
use codespan_reporting::files::SimpleFile;
use codespan_reporting::term::{self, termcolor};
use wgrace_instrument::report::{
    Access, BarrierPath, CheckedVariable, DetectedBy, Finding, Invocation, Race, RaceClass, Report, ShaderInfo, Verdict,
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

fn access_label(a: &Access) -> String {
    format!("{} by {}", a.access.as_str(), invocation(a))
}

fn headline(race: &Race) -> String {
    format!("data race ({}) on {} variable `{}`", race.kind.as_str(), race.memory.space.as_str(), race.memory.variable)
}

fn notes(race: &Race) -> Vec<String> {
    let times = if race.occurrences == 1 { "time".to_string() } else { "times".to_string() };
    let mut notes = vec![match race.detected_by {
        DetectedBy::Runtime => format!(
            "at {} (byte offset {}); detected {} {times}",
            race.memory.element, race.memory.byte_offset, race.occurrences
        ),
        DetectedBy::Analyzer => format!(
            "at {} (byte offset {}); proved by the static analyzer: it happens in every run of this dispatch and input",
            race.memory.element, race.memory.byte_offset
        ),
    }];
    if race.examples.len() > 1 {
        let more: Vec<String> = race.examples[1..]
            .iter()
            .map(|e| {
                let who = |i: &Option<Invocation>| match i {
                    Some(i) => format!("{:?}/{:?}", i.workgroup_id, i.local_invocation_id).replace(' ', ""),
                    None => "?".into(),
                };
                format!("{} ({} and {})", e.element, who(&e.first), who(&e.second))
            })
            .collect();
        notes.push(format!("also at {} (workgroup/invocation)", more.join(", ")));
    }
    if race.class != RaceClass::InterWorkgroup && race.detected_by == DetectedBy::Runtime {
        notes.push(format!("lock-step: {}", race.lockstep.describe()));
    }
    notes.push(format!("note: {}", race.explanation));
    notes.push(format!("help: {}", race.hint));
    notes
}

/// The report as text; `color` adds ANSI colours.
pub fn text(report: &Report, color: bool) -> String {
    let mut out = String::new();
    let source = report.shader.source.as_deref();
    let file = SimpleFile::new(report.shader.path.as_str(), source.unwrap_or(""));
    let config = term::Config::default();
    let mut buffer = if color { termcolor::Buffer::ansi() } else { termcolor::Buffer::no_color() };
    let declaration = |variable: &str| declaration_span(&report.checked.variables, variable);
    out.push_str(&races(&report.races, &report.shader, &declaration, &mut buffer));
    for finding in &report.findings {
        let diagnostic = Diagnostic::error()
            .with_code(finding.check.as_str())
            .with_message(finding_headline(finding))
            .with_labels(finding_labels(finding))
            .with_notes(finding_notes(finding));
        if source.is_none() || term::emit_to_write_style(&mut buffer, &config, &file, &diagnostic).is_err() {
            out.push_str(&plain_finding(finding, &report.shader.path));
        }
    }
    out.push_str(&String::from_utf8_lossy(buffer.as_slice()));
    for reason in &report.incomplete {
        out.push_str(&format!("warning: incomplete report: {reason}\n"));
    }
    for note in &report.notes {
        out.push_str(&format!("note: {note}\n"));
    }
    if let Some(i) = &report.checked.instrumentation {
        out.push_str(&instrumentation(i));
        out.push_str(&shadow(&report.checked.shadow));
    }
    out.push_str(&summary(report));
    out.push('\n');
    out
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
    let file = SimpleFile::new(shader.path.as_str(), source.unwrap_or(""));
    let config = term::Config::default();
    for race in races {
        let code = race.class.as_str();
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
                .with_notes(notes(race));
            if term::emit_to_write_style(buffer, &config, &file, &diagnostic).is_err() {
                out.push_str(&plain_race(race, &shader.path));
            }
        } else {
            out.push_str(&plain_race(race, &shader.path));
        }
    }
    out
}

/// A race without source text (SPIR-V without debug information).
fn plain_race(race: &Race, path: &str) -> String {
    let mut s = format!("error[{}]: {}\n", race.class.as_str(), headline(race));
    for a in [&race.first, &race.second] {
        let at = match (a.location.line, a.location.column) {
            (Some(l), Some(c)) => format!("{path}:{l}:{c}"),
            _ => path.to_string(),
        };
        s.push_str(&format!("  --> {at}: {}\n      {}\n", access_label(a), a.location.snippet));
    }
    for n in notes(race) {
        s.push_str(&format!("  = {n}\n"));
    }
    s.push('\n');
    s
}

fn finding_headline(f: &Finding) -> String {
    let [x, y, z] = f.workgroup_id;
    format!("invocations of workgroup ({x},{y},{z}) executed different barriers")
}

fn local_id(p: &BarrierPath) -> String {
    let [x, y, z] = p.local_invocation_id;
    format!("({x},{y},{z})")
}

/// "invocation (1,0,0) executed 2 barriers, the last at line 9".
fn barrier_path(p: &BarrierPath) -> String {
    let who = format!("invocation {}", local_id(p));
    match (&p.last_barrier, p.barriers) {
        (None, _) | (_, 0) => format!("{who} executed no barrier"),
        (Some(last), n) => {
            let count = if n >= 4095 { "4095 or more barriers".to_string() } else { plural(n, "barrier") };
            match last.location.line {
                Some(line) => format!("{who} executed {count}, the last at line {line}"),
                None => format!("{who} executed {count}, the last `{}`", last.location.snippet.trim()),
            }
        }
    }
}

fn plural(n: u32, what: &str) -> String {
    format!("{n} {what}{}", if n == 1 { "" } else { "s" })
}

/// Labels on the two invocations' last barriers (one label when it is the
/// same barrier).
fn finding_labels(f: &Finding) -> Vec<Label<()>> {
    let span = |p: &BarrierPath| {
        let (start, end) = p.last_barrier.as_ref()?.location.span?;
        Some(start as usize..end as usize)
    };
    let same = matches!((&f.first.last_barrier, &f.second.last_barrier), (Some(a), Some(b)) if a.id == b.id);
    let mut labels = Vec::new();
    if let Some(range) = span(&f.second) {
        let whose = if same {
            format!("invocations {} and {}", local_id(&f.second), local_id(&f.first))
        } else {
            format!("invocation {}", local_id(&f.second))
        };
        labels.push(Label::primary((), range).with_message(format!("the last barrier of {whose}")));
    }
    if let Some(range) = span(&f.first).filter(|_| !same) {
        labels.push(
            Label::secondary((), range).with_message(format!("the last barrier of invocation {}", local_id(&f.first))),
        );
    }
    labels
}

fn finding_notes(f: &Finding) -> Vec<String> {
    let invocations = if f.occurrences == 1 { "invocation" } else { "invocations" };
    let same_last = f.first.last_barrier.as_ref().map(|b| b.id) == f.second.last_barrier.as_ref().map(|b| b.id);
    let paths = if f.first.barriers == f.second.barriers && same_last { ", by a different path" } else { "" };
    vec![
        format!(
            "{}; {}{paths}; {} {invocations} of the dispatch differed like this from the first of their workgroup",
            barrier_path(&f.first),
            barrier_path(&f.second),
            f.occurrences
        ),
        format!("note: {}", f.explanation),
        format!("help: {}", f.hint),
    ]
}

/// A finding without source text.
fn plain_finding(f: &Finding, path: &str) -> String {
    let mut s = format!("error[{}]: {}\n  --> {path}\n", f.check.as_str(), finding_headline(f));
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
pub fn summary(report: &Report) -> String {
    let c = &report.checked;
    let pruned = c.analyzer.as_ref().map_or(0, |a| a.pruned_sites);
    let unchecked = c.sites - c.checked_sites - pruned;
    let mut sites = format!("{} checked", plural(c.checked_sites as u32, "access site"));
    if pruned > 0 {
        sites.push_str(&format!(", {pruned} more proven race-free by the static analyzer"));
    }
    if unchecked > 0 {
        sites.push_str(&format!(
            ", {unchecked} atomic or uniform-load site{} that cannot race",
            if unchecked == 1 { "" } else { "s" }
        ));
    }
    let workgroups = report.dispatch.iter().map(|&d| u64::from(d)).product::<u64>();
    let what = format!(
        "entry point `{}`, {} invocations in {workgroups} workgroup{}, {sites}, on {} ({})",
        report.shader.entry_point,
        c.invocations,
        if workgroups == 1 { "" } else { "s" },
        report.adapter.name,
        report.adapter.backend
    );
    let divergences = match report.findings.len() {
        0 => String::new(),
        1 => "1 barrier divergence".to_string(),
        n => format!("{n} barrier divergences"),
    };
    match (report.verdict, divergences.is_empty()) {
        (Verdict::Race, true) => format!("wgrace: {} found ({what})", plural(report.races.len() as u32, "race")),
        (Verdict::Race, false) => {
            format!("wgrace: {} and {divergences} found ({what})", plural(report.races.len() as u32, "race"))
        }
        (Verdict::NoRace, true) => format!("wgrace: no race observed for this dispatch and input ({what})"),
        (Verdict::NoRace, false) => {
            format!("wgrace: {divergences} found; no race observed for this dispatch and input ({what})")
        }
    }
}

/// `wgrace check`'s report as text: the proved races, the sites left to the
/// runtime and why, and a summary line.
pub fn static_text(report: &crate::check::StaticReport, color: bool) -> String {
    use wgrace_instrument::SiteStatus;
    let mut buffer = if color { termcolor::Buffer::ansi() } else { termcolor::Buffer::no_color() };
    let declaration = |variable: &str| declaration_span(&report.variables, variable);
    let mut out = races(&report.races, &report.shader, &declaration, &mut buffer);
    out.insert_str(0, &String::from_utf8_lossy(buffer.as_slice()));
    let left: Vec<_> = report
        .sites
        .iter()
        .filter_map(|s| match &s.status {
            SiteStatus::Instrumented(why) => Some((s, why)),
            _ => None,
        })
        .collect();
    if let Some(reason) = &report.gave_up {
        out.push_str(&format!("note: the analysis gave up: {reason}; every access is left to `wgrace run`\n"));
    } else if !left.is_empty() {
        out.push_str("note: left to the runtime check (`wgrace run`):\n");
        for (s, why) in &left {
            let at = s.location.line.map_or_else(|| format!("site {}", s.id), |l| format!("line {l}"));
            let once = if s.once_per_loop { " (recorded once per loop: its address does not change)" } else { "" };
            out.push_str(&format!("  {at}: {} of `{}`: {why}{once}\n", s.access.as_str(), s.variable));
        }
    }
    let checked = report.sites.iter().filter(|s| s.status != SiteStatus::Unchecked).count();
    let proven = report.sites.iter().filter(|s| matches!(s.status, SiteStatus::RaceFree)).count();
    let idle = report.sites.iter().filter(|s| matches!(s.status, SiteStatus::NotExecuted)).count();
    let d = report.dispatch;
    let mut what = format!(
        "entry point `{}`, dispatch {}x{}x{}: {proven} of {checked} access sites proven race-free",
        report.shader.entry_point, d[0], d[1], d[2]
    );
    if idle > 0 {
        what.push_str(&format!(", {idle} not executed"));
    }
    what.push_str(&format!(", {} left to `wgrace run`", left.len()));
    let verdict = match report.races.len() {
        0 => "no race proven".to_string(),
        n => plural(n as u32, "race") + " proven",
    };
    out.push_str(&format!("wgrace check: {verdict} ({what}; static analysis only, nothing ran)\n"));
    out
}
