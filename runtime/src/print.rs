//! Rendering reports: text in the style of naga's (codespan) diagnostics, and
//! JSON (the schema is documented in `wgrace_instrument::report`).

use codespan_reporting::diagnostic::{Diagnostic, Label};
use codespan_reporting::files::SimpleFile;
use codespan_reporting::term::{self, termcolor};
use wgrace_instrument::report::{Access, Race, Report, Verdict};

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
    vec![
        format!(
            "at {} (byte offset {}); detected {} {times}",
            race.memory.element, race.memory.byte_offset, race.occurrences
        ),
        format!("note: {}", race.explanation),
        format!("help: {}", race.hint),
    ]
}

/// The report as text; `color` adds ANSI colours.
pub fn text(report: &Report, color: bool) -> String {
    let mut out = String::new();
    let source = report.shader.source.as_deref();
    let file = SimpleFile::new(report.shader.path.as_str(), source.unwrap_or(""));
    let config = term::Config::default();
    let mut buffer = if color { termcolor::Buffer::ansi() } else { termcolor::Buffer::no_color() };
    for race in &report.races {
        let code = race.class.as_str();
        let spans = [&race.first, &race.second].map(|a| a.location.span);
        if let (Some(_), [Some(_), _] | [_, Some(_)]) = (source, spans) {
            let mut labels = Vec::new();
            if let Some(decl) = declaration_span(report, &race.memory.variable) {
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
            if term::emit_to_write_style(&mut buffer, &config, &file, &diagnostic).is_err() {
                out.push_str(&plain_race(race, &report.shader.path));
            }
        } else {
            out.push_str(&plain_race(race, &report.shader.path));
        }
    }
    out.push_str(&String::from_utf8_lossy(buffer.as_slice()));
    for reason in &report.incomplete {
        out.push_str(&format!("warning: incomplete report: {reason}\n"));
    }
    for note in &report.notes {
        out.push_str(&format!("note: {note}\n"));
    }
    out.push_str(&summary(report));
    out.push('\n');
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

/// Where `variable` is declared.
fn declaration_span(report: &Report, variable: &str) -> Option<std::ops::Range<usize>> {
    let v = report.checked.variables.iter().find(|v| v.name == variable)?;
    v.declaration.span.map(|(start, end)| start as usize..end as usize)
}

/// The last line: the verdict and what was checked.
pub fn summary(report: &Report) -> String {
    let c = &report.checked;
    let unchecked = c.sites - c.checked_sites;
    let sites = match unchecked {
        0 => format!("{} access sites checked", c.sites),
        n => format!(
            "{} access sites checked, {n} more atomic or uniform-load site{} that cannot race with them",
            c.checked_sites,
            if n == 1 { "" } else { "s" }
        ),
    };
    let workgroups = report.dispatch.iter().map(|&d| u64::from(d)).product::<u64>();
    let what = format!(
        "entry point `{}`, {} invocations in {workgroups} workgroup{}, {sites}, on {} ({})",
        report.shader.entry_point,
        c.invocations,
        if workgroups == 1 { "" } else { "s" },
        report.adapter.name,
        report.adapter.backend
    );
    match report.verdict {
        Verdict::Race => {
            let n = report.races.len();
            format!("wgrace: {n} race{} found ({what})", if n == 1 { "" } else { "s" })
        }
        Verdict::NoRace => format!("wgrace: no race observed for this dispatch and input ({what})"),
    }
}
