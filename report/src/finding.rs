//! Findings of every check other than the race check, in one generic shape
//! that the printers, the SARIF writer and the viewer render without knowing
//! the check.

use serde::{Deserialize, Serialize};

use crate::race::{Invocation, Memory};
use crate::site::Location;

/// How serious a finding is. Errors make `wgrace run` exit with status 1;
/// warnings and notes do not.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Worth knowing (a performance note).
    Note,
    /// Probably a bug, or something that breaks on other GPUs.
    Warning,
    /// A bug: the shader breaks the memory model or the language's rules.
    Error,
}

impl Severity {
    /// `"error"`, `"warning"` or `"note"`, as in JSON and in the text report.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note => "note",
        }
    }
}

/// What a check found, in the shape every consumer can render.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Finding {
    /// The id of the check that found it (see `wgrace checks`), e.g.
    /// `barrier-divergence`.
    pub check: String,
    /// How serious it is.
    pub severity: Severity,
    /// One line saying what happened, e.g. "invocations of workgroup (3,0,0)
    /// executed different barriers".
    pub message: String,
    /// Where in the source, each with what it is there ("the last barrier of
    /// invocation (0,0,0)"). The first primary one is the finding's location.
    #[serde(default)]
    pub locations: Vec<FindingLocation>,
    /// Invocations involved (examples when `occurrences` counts several).
    #[serde(default)]
    pub invocations: Vec<Invocation>,
    /// The memory involved, where there is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memory: Option<Memory>,
    /// How many times it happened in the dispatch (its unit is the check's:
    /// invocations, accesses, loops…).
    pub occurrences: u64,
    /// Further lines of detail, in the order the text report prints them.
    #[serde(default)]
    pub details: Vec<String>,
    /// The check's own structured data, documented with the check (e.g. the
    /// barrier counts of a divergence), for tools that want more than text.
    #[serde(default, skip_serializing_if = "serde_json::Map::is_empty")]
    pub data: serde_json::Map<String, serde_json::Value>,
    /// What it means, in one line.
    pub explanation: String,
    /// How to fix it, in one line.
    pub hint: String,
    /// What the finding left unchecked, when it made its run incomplete (a
    /// loop stopped past its budget): the run's `incomplete` has the same
    /// line, and `wgrace corpus` accepts the incompleteness of a finding its
    /// kernel's header lists.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub incomplete: Option<String>,
}

/// A source location of a finding, with its role.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FindingLocation {
    /// What is there, e.g. "the last barrier of invocation (8,0,0)".
    pub label: String,
    /// Whether this is where the finding is (else a related location).
    pub primary: bool,
    /// Where.
    #[serde(flatten)]
    pub location: Location,
}

/// A check, as reports describe it (and SARIF's `tool.driver.rules`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CheckInfo {
    /// Its id, kebab-case (`data-race`, `barrier-divergence`).
    pub id: String,
    /// A name in the style of SARIF rule names (`BarrierDivergence`).
    pub name: String,
    /// One line: what it finds.
    pub short_description: String,
    /// A paragraph: what it finds, by what rule, and how.
    pub full_description: String,
    /// How to fix what it finds.
    pub help: String,
    /// The severity of what it finds, unless a finding says otherwise.
    pub severity: Severity,
}
