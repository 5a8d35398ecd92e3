//! Reading suppressions: `// wgrace: allow(CHECK[, CLASS])` comments in the
//! shader, and suppressions files (`--suppressions FILE`). The report model
//! matches them ([`wgrace_instrument::report::Suppression`]).
//!
//! A comment suppresses what is on its line; a comment alone on its line
//! suppresses what is on the next line. The text after the closing
//! parenthesis is the reason:
//!
//! ```text
//! hist[0] = 1u; // wgrace: allow(data-race, inter-workgroup) every invocation writes 1
//! ```
//!
//! A suppressions file has one suppression per line, the same `allow(…)`
//! followed by conditions, and `#` starting a comment (the reason):
//!
//! ```text
//! # known and benign
//! allow(data-race, inter-workgroup) variable=hist lines=12,14-16 shader=kernels/hist.wgsl # same value
//! allow(barrier-divergence) shader=scan.wgsl
//! ```
//!
//! `variable=NAME` matches races and findings on that variable, `lines=…`
//! those with a line in the list (a race: either access), `shader=PATH`
//! shaders whose path ends with PATH. An unknown check or class, or a class
//! given to a check whose findings are not races, is an error.

use std::path::Path;

use wgrace_instrument::checks::CheckSet;
use wgrace_instrument::report::{RaceClass, Suppression};

use crate::Error;

/// The suppressions written in `text`, the source of the shader at `path`.
///
/// # Errors
/// [`Error::Spec`] for a malformed `allow(…)`, naming its line.
pub fn from_source(path: &str, text: &str) -> Result<Vec<Suppression>, Error> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let Some((code, comment)) = line.split_once("//") else { continue };
        let Some(allow) = comment.trim_start().strip_prefix("wgrace:").map(str::trim_start) else { continue };
        if !allow.starts_with("allow") {
            continue;
        }
        let origin = format!("{path}:{}", i + 1);
        let (check, class, reason) = parse_allow(allow).map_err(|e| Error::Spec(format!("{origin}: {e}")))?;
        // Alone on its line, it is about the next one.
        let target = if code.trim().is_empty() { i + 2 } else { i + 1 };
        let reason = Some(reason.trim()).filter(|r| !r.is_empty()).map(str::to_string);
        out.push(Suppression {
            origin,
            check,
            class,
            variable: None,
            lines: vec![u32::try_from(target).unwrap_or(u32::MAX)],
            shader: None,
            reason,
            matched: 0,
            same_value: false,
        });
    }
    Ok(out)
}

/// The suppressions of the file at `path`.
///
/// # Errors
/// [`Error::Io`] when it cannot be read, [`Error::Spec`] for a malformed
/// line, naming it.
pub fn from_file(path: &Path) -> Result<Vec<Suppression>, Error> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| Error::Io(format!("reading the suppressions file {}: {e}", path.display())))?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let origin = format!("{}:{}", path.display(), i + 1);
        let (rule, reason) = line.split_once('#').unwrap_or((line, ""));
        if rule.trim().is_empty() {
            continue;
        }
        let at = |e: String| Error::Spec(format!("{origin}: {e}"));
        let (check, class, conditions) = parse_allow(rule.trim()).map_err(at)?;
        let mut suppression = Suppression {
            origin: origin.clone(),
            check,
            class,
            variable: None,
            lines: Vec::new(),
            shader: None,
            reason: Some(reason.trim()).filter(|r| !r.is_empty()).map(str::to_string),
            matched: 0,
            same_value: false,
        };
        for condition in conditions.split_whitespace() {
            match condition.split_once('=') {
                Some(("variable", name)) if !name.is_empty() => suppression.variable = Some(name.to_string()),
                Some(("shader", shader)) if !shader.is_empty() => suppression.shader = Some(shader.to_string()),
                Some(("lines", lines)) => suppression.lines = parse_lines(lines).map_err(at)?,
                _ => {
                    return Err(at(format!(
                        "`{condition}` is not a condition: write variable=NAME, lines=N[-M][,…] or shader=PATH"
                    )));
                }
            }
        }
        out.push(suppression);
    }
    Ok(out)
}

/// `allow(CHECK[, CLASS]) REST` → the check, the class and REST.
fn parse_allow(text: &str) -> Result<(String, Option<RaceClass>, &str), String> {
    let usage = "write allow(CHECK) or allow(CHECK, CLASS)";
    let inner = text.strip_prefix("allow").map(str::trim_start).and_then(|t| t.strip_prefix('('));
    let (inner, rest) = inner.and_then(|t| t.split_once(')')).ok_or_else(|| format!("`{}`: {usage}", text.trim()))?;
    let mut parts = inner.split(',').map(str::trim);
    let check = parts.next().unwrap_or_default().to_string();
    let class = parts.next();
    if parts.next().is_some() {
        return Err(format!("`allow({inner})` has more than a check and a class: {usage}"));
    }
    let known = CheckSet::default().ids();
    if !known.contains(&check) {
        return Err(format!("unknown check `{check}` in `allow({inner})`; the checks are {}", known.join(", ")));
    }
    let classes: Vec<&str> = RaceClass::ALL.into_iter().filter(|c| c.check() == check).map(RaceClass::as_str).collect();
    let class =
        match class {
            None => None,
            Some(_) if classes.is_empty() => {
                return Err(format!("`{check}` findings have no class: write allow({check})"));
            }
            Some(name) => Some(name.parse::<RaceClass>().ok().filter(|c| c.check() == check).ok_or_else(|| {
                format!("`{name}` is not a class of `{check}`; its classes are {}", classes.join(", "))
            })?),
        };
    Ok((check, class, rest))
}

/// `12,14-16` → 12, 14, 15, 16.
fn parse_lines(text: &str) -> Result<Vec<u32>, String> {
    let bad = || format!("`lines={text}`: write lines=N, lines=N-M or a comma-separated list of them");
    let mut lines = Vec::new();
    for part in text.split(',') {
        let (a, b) = part.split_once('-').unwrap_or((part, part));
        let (a, b): (u32, u32) = (a.parse().map_err(|_| bad())?, b.parse().map_err(|_| bad())?);
        if a == 0 || b < a || b - a > 100_000 {
            return Err(bad());
        }
        lines.extend(a..=b);
    }
    Ok(lines)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_name_their_line_or_the_next() {
        let text = "a = 1; // wgrace: allow(data-race) benign\n// wgrace: allow(data-race, inter-workgroup)\nb = 2;\n";
        let s = from_source("k.wgsl", text).unwrap();
        assert_eq!(s.len(), 2);
        assert_eq!((s[0].lines.as_slice(), s[0].reason.as_deref(), s[0].class), (&[1][..], Some("benign"), None));
        assert_eq!((s[1].lines.as_slice(), s[1].class), (&[3][..], Some(RaceClass::InterWorkgroup)));
        assert_eq!(s[1].origin, "k.wgsl:2");
        // Flags lines are not suppressions.
        assert!(from_source("k.wgsl", "// wgrace: --dispatch 4\n").unwrap().is_empty());
    }

    #[test]
    fn bad_suppressions_say_what_is_wrong() {
        let err = |text: &str| from_source("k.wgsl", text).unwrap_err().to_string();
        assert!(err("x; // wgrace: allow(data-rcae)").starts_with("k.wgsl:1: unknown check `data-rcae`"));
        assert!(err("x; // wgrace: allow(data-race, scope)").contains("`scope` is not a class of `data-race`"));
        assert!(err("x; // wgrace: allow(loops, inter-workgroup)").contains("`loops` findings have no class"));
        assert!(err("x; // wgrace: allow data-race").contains("write allow(CHECK)"));
    }

    #[test]
    fn lines_take_ranges() {
        assert_eq!(parse_lines("12,14-16").unwrap(), [12, 14, 15, 16]);
        assert!(parse_lines("3-1").is_err());
        assert!(parse_lines("x").is_err());
    }
}
