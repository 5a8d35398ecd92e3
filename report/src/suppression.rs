//! Suppressions: the races and findings a user has marked as known, which
//! the report keeps apart from the ones that fail a run.
//!
//! A suppression comes from a comment in the shader
//! (`// wgrace: allow(CHECK[, CLASS])`) or a line of a suppressions file
//! (`wgrace run --suppressions FILE`); the runtime matches them against each
//! run and moves what they match to the run's `suppressed`. The report lists
//! every suppression with how much it matched, so that one that matches
//! nothing (stale after a fix, or mistyped) shows.

use serde::{Deserialize, Serialize};

use crate::{Finding, Race, RaceClass};

/// One suppression, and what it matched.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Suppression {
    /// Where it is written: `path:line` of the comment or of the
    /// suppressions file's line.
    pub origin: String,
    /// The check whose races or findings it matches (`data-race`,
    /// `barrier-divergence`, …).
    pub check: String,
    /// The race class it matches; `None`: every race and finding of the
    /// check.
    pub class: Option<RaceClass>,
    /// The variable the race or finding must concern; `None`: any.
    pub variable: Option<String>,
    /// Source lines one of which the race (either access) or finding (any
    /// location) must be on; empty: any line.
    pub lines: Vec<u32>,
    /// A text the shader's path must end with; `None`: any shader.
    pub shader: Option<String>,
    /// Why the user keeps it (the text after the suppression).
    pub reason: Option<String>,
    /// How many races and findings it matched, in all runs of the report.
    pub matched: u64,
    /// The suppression `--same-value-notes` adds: it matches the races
    /// whose two statements each wrote one value, the same for both
    /// ([`Race::same_value`]), of any check, and nothing else.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub same_value: bool,
}

impl Suppression {
    /// The suppression of `--same-value-notes`: same-value write-write
    /// races become notes.
    pub fn same_value_writes() -> Suppression {
        Suppression {
            origin: "--same-value-notes".into(),
            check: "data-race".into(),
            class: None,
            variable: None,
            lines: Vec::new(),
            shader: None,
            reason: Some("the two writes of each stored the same value".into()),
            matched: 0,
            same_value: true,
        }
    }

    /// Whether it matches `race` of a shader at `path`.
    pub fn matches_race(&self, path: &str, race: &Race) -> bool {
        if self.same_value {
            return race.same_value && self.in_shader(path);
        }
        let lines = [race.first.location.line, race.second.location.line];
        self.check == race.class.check()
            && self.class.is_none_or(|c| c == race.class)
            && self.variable.as_ref().is_none_or(|v| *v == race.memory.variable)
            && self.on_lines(lines.into_iter().flatten())
            && self.in_shader(path)
    }

    /// Whether it matches `finding` of a shader at `path`.
    pub fn matches_finding(&self, path: &str, finding: &Finding) -> bool {
        !self.same_value
            && self.check == finding.check
            && self.class.is_none()
            && self.variable.as_ref().is_none_or(|v| finding.memory.as_ref().is_some_and(|m| m.variable == *v))
            && self.on_lines(finding.locations.iter().filter_map(|l| l.location.line))
            && self.in_shader(path)
    }

    fn on_lines(&self, mut lines: impl Iterator<Item = u32>) -> bool {
        self.lines.is_empty() || lines.any(|l| self.lines.contains(&l))
    }

    fn in_shader(&self, path: &str) -> bool {
        self.shader.as_ref().is_none_or(|s| path.ends_with(s.as_str()))
    }

    /// How it reads in messages: `allow(data-race, inter-workgroup)` with
    /// its conditions, e.g. `variable=hist lines=12,14`.
    pub fn describe(&self) -> String {
        if self.same_value {
            return "same-value writes".into();
        }
        let mut text = match self.class {
            Some(class) => format!("allow({}, {})", self.check, class.as_str()),
            None => format!("allow({})", self.check),
        };
        if let Some(v) = &self.variable {
            text.push_str(&format!(" variable={v}"));
        }
        if !self.lines.is_empty() {
            let lines: Vec<String> = self.lines.iter().map(u32::to_string).collect();
            text.push_str(&format!(" lines={}", lines.join(",")));
        }
        if let Some(s) = &self.shader {
            text.push_str(&format!(" shader={s}"));
        }
        text
    }
}

/// A race or finding a suppression kept out of its run's verdict.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Suppressed {
    /// The suppression's index in the report's `suppressions`.
    pub suppression: usize,
    /// The race, when it is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub race: Option<Race>,
    /// The finding, when it is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub finding: Option<Finding>,
}
