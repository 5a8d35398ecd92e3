//! The report model of wgrace: what a run found, as plain serializable data.
//!
//! The runtime fills a [`Report`]; the text, JSON and SARIF printers, the
//! corpus runner and the desktop viewer only read it. Nothing here depends on
//! naga or wgpu, so a consumer of reports (the viewer, a CI tool written in
//! Rust) needs this crate alone.
//!
//! - [`race`]: races, one per racing pair of accesses and class, the richest
//!   finding (both accesses, invocations, memory, lock-step portability);
//! - [`finding`]: what every other check found, in one generic shape (check
//!   id, severity, message, located labels, invocations, memory, counts,
//!   explanation, hint);
//! - [`site`]: source locations and the site and barrier tables;
//! - [`matrix`]: the runs side by side, for reports of several adapters;
//! - [`timeline`]: one workgroup's accesses to the racing sites by barrier
//!   interval.
//!
//! # JSON schema (version 2)
//!
//! `--format json` writes one [`Report`] object: the serde rendering of the
//! structs below, described by the JSON Schema (draft 2020-12)
//! `report/schema/report.v2.json`, written from these structs: every field,
//! which are always written, and the names of every enum. No object of the
//! schema allows a property it does not list, and the tests
//! (`tests/tests/formats.rs`) validate every report they produce against it,
//! so a field added here must be added there. `--format sarif` renders the
//! same report as SARIF 2.1.0 (`wgrace::sarif`). The fields tools usually
//! read:
//!
//! - `verdict`: `"race"` if any run observed one, else `"no-race"`;
//!   `complete`: whether every run was;
//! - `shader` {`path`, `language`, `source`}; `checks[]`: the checks that ran
//!   ([`CheckInfo`]);
//! - `runs[]`: one per entry point and adapter ([`Run`]): `entry_point`,
//!   `workgroup_size`, `adapter`, `dispatch`, `verdict`, `races`, `findings`,
//!   `complete`, `incomplete`, `notes`, `checked`, `sites`, `barriers`,
//!   `stats`, `outputs[]` {`variable`, `group`, `binding`, `bytes`,
//!   `sha256`};
//! - a run's `races[]`: `class` (`intra-subgroup`, `intra-workgroup`,
//!   `barrier-kind`, `inter-workgroup`), `kind` (`write-write`,
//!   `read-write`), `memory` {`space`, `variable`, `group`, `binding`,
//!   `byte_offset`, `element`}, `first`/`second` {`access`, `line`,
//!   `column`, `snippet`, `invocation` {`workgroup_id`,
//!   `local_invocation_id`}}, `occurrences`, `lockstep` {`hidden_from`,
//!   `visible_at`}, `examples[]` {`element`, `byte_offset`, `first`,
//!   `second`}, `explanation`, `hint`, `spread` {`cells`,
//!   `workgroups_per_cell`, `workgroups`, `range_bytes`, `ranges`}: where
//!   it happened, counted on the GPU ([`Spread`]);
//! - a run's `findings[]`, and the report's for what concerns runs together:
//!   what the other checks found ([`Finding`]): `check` (the check's id),
//!   `severity` (`error`, `warning`, `note`), `message`, `locations[]`
//!   {`label`, `primary`, `line`, `column`, `snippet`}, `invocations[]`,
//!   `memory`, `occurrences`, `details[]`, `data` (the check's own fields),
//!   `explanation`, `hint`;
//! - `suppressions[]`: the user's suppressions ([`Suppression`]) with what
//!   they matched, and a run's `suppressed[]` ([`Suppressed`]): the races
//!   and findings they kept out of `races`, `findings` and the verdict.
//!
//! Version 2 replaced version 1's single run by `runs[]` and its
//! divergence-only findings by the generic [`Finding`].

pub mod finding;
pub mod matrix;
pub mod race;
pub mod site;
pub mod suppression;
pub mod timeline;

use serde::{Deserialize, Serialize};

pub use finding::{CheckInfo, Finding, FindingLocation, Severity};
pub use matrix::{MatrixOutput, MatrixRow};
pub use race::{
    Access, DetectedBy, Invocation, LOCKSTEP_WIDTHS, Lockstep, Memory, Race, RaceClass, RaceExample, RaceKind, Spread,
    Texel,
};
pub use site::{
    AccessKind, BarrierKind, BarrierSite, Language, Location, Site, SiteAnalysis, SiteStatus, SiteTable, Space,
};
pub use suppression::{Suppressed, Suppression};
pub use timeline::{Focus, Timeline, TimelineAccess};

/// Version of the JSON schema; bumped on incompatible changes.
pub const REPORT_VERSION: u32 = 2;

/// Everything wgrace found in one shader: a run per entry point and adapter.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// [`REPORT_VERSION`].
    pub version: u32,
    /// `"race"` if any run observed a race, else `"no-race"`.
    pub verdict: Verdict,
    /// Whether every run checked every access and recorded every race.
    pub complete: bool,
    /// The shader.
    pub shader: ShaderInfo,
    /// The checks that ran.
    #[serde(default)]
    pub checks: Vec<CheckInfo>,
    /// One run per entry point and adapter, in that order.
    pub runs: Vec<Run>,
    /// Findings about the runs together (a race-free entry point whose
    /// outputs differ between adapters).
    #[serde(default)]
    pub findings: Vec<Finding>,
    /// The suppressions of the shader's comments and the suppressions file,
    /// each with how much it matched; the runs' `suppressed` point here.
    #[serde(default)]
    pub suppressions: Vec<Suppression>,
}

impl Report {
    /// The report of `runs` of `shader`: its verdict and completeness are
    /// those of the runs together.
    pub fn new(shader: ShaderInfo, checks: Vec<CheckInfo>, runs: Vec<Run>, findings: Vec<Finding>) -> Report {
        Report {
            version: REPORT_VERSION,
            verdict: if runs.iter().any(|r| r.verdict == Verdict::Race) { Verdict::Race } else { Verdict::NoRace },
            complete: runs.iter().all(|r| r.complete),
            shader,
            checks,
            runs,
            findings,
            suppressions: Vec::new(),
        }
    }

    /// Moves the races and findings that `suppressions` match out of each
    /// run ([`Run::suppress`]) and sets the report's verdict again; the
    /// report then lists the suppressions with what they matched. Findings
    /// about the runs together are kept: they name no line.
    pub fn suppress(&mut self, mut suppressions: Vec<Suppression>) {
        for run in &mut self.runs {
            run.suppress(&self.shader.path, &mut suppressions);
        }
        self.verdict =
            if self.runs.iter().any(|r| r.verdict == Verdict::Race) { Verdict::Race } else { Verdict::NoRace };
        self.suppressions = suppressions;
    }

    /// The suppressions that matched nothing (but `--same-value-notes`'s,
    /// which claims nothing about the shader).
    pub fn unused_suppressions(&self) -> impl Iterator<Item = &Suppression> {
        self.suppressions.iter().filter(|s| s.matched == 0 && !s.same_value)
    }

    /// Whether something fails the report: a race, or a finding of severity
    /// error, in any run or across them. `wgrace run` exits with status 1
    /// then.
    pub fn failed(&self) -> bool {
        self.runs.iter().any(Run::failed) || self.findings.iter().any(|f| f.severity == Severity::Error)
    }

    /// Every race of every run.
    pub fn races(&self) -> impl Iterator<Item = &Race> {
        self.runs.iter().flat_map(|r| &r.races)
    }

    /// Every finding, of the runs and across them.
    pub fn all_findings(&self) -> impl Iterator<Item = &Finding> {
        self.runs.iter().flat_map(|r| &r.findings).chain(&self.findings)
    }
}

/// One entry point of the shader, checked on one adapter.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Run {
    /// The entry point.
    pub entry_point: String,
    /// Its workgroup size.
    pub workgroup_size: [u32; 3],
    /// The adapter it ran on; `None` for static analysis alone
    /// (`wgrace check`: nothing ran, its races are the analyzer's).
    pub adapter: Option<AdapterInfo>,
    /// Workgroup counts of the dispatch.
    pub dispatch: [u32; 3],
    /// `"race"` if any race was observed, else `"no-race"`.
    pub verdict: Verdict,
    /// The races, deduplicated by (class, variable, unordered site pair),
    /// sorted by source position.
    pub races: Vec<Race>,
    /// Findings of the other checks; one of severity `error` fails the run
    /// like a race.
    #[serde(default)]
    pub findings: Vec<Finding>,
    /// Whether every access was checked and every race recorded.
    pub complete: bool,
    /// Why the run is incomplete (empty when `complete`).
    pub incomplete: Vec<String>,
    /// What in the run spec did not apply to this run (a flag naming a
    /// binding the entry point does not use).
    #[serde(default)]
    pub warnings: Vec<String>,
    /// Other things worth knowing about this run.
    pub notes: Vec<String>,
    /// What was checked.
    pub checked: Checked,
    /// Every access site, by id.
    pub sites: SiteTable,
    /// Every barrier, by id (ids start at 1).
    #[serde(default)]
    pub barriers: Vec<BarrierSite>,
    /// Counters from the run.
    pub stats: Stats,
    /// SHA-256 digests of the writable buffers' contents after the run.
    #[serde(default)]
    pub outputs: Vec<OutputDigest>,
    /// One workgroup's accesses to the sites that raced, by barrier
    /// interval, when the run found races and `--timeline` was not `off`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeline: Option<Timeline>,
    /// The races and findings that suppressions kept out of `races`,
    /// `findings` and the verdict.
    #[serde(default)]
    pub suppressed: Vec<Suppressed>,
}

impl Run {
    /// Moves the races and findings that `suppressions` match (of a shader
    /// at `path`) out of `races` and `findings` into `suppressed`, counting
    /// in each suppression what it matched (the first that matches takes
    /// it); the verdict is `no-race` when every race was suppressed.
    pub fn suppress(&mut self, path: &str, suppressions: &mut [Suppression]) {
        let mut first_match = |matches: &dyn Fn(&Suppression) -> bool| {
            let i = suppressions.iter().position(matches)?;
            suppressions[i].matched += 1;
            Some(i)
        };
        let had_races = !self.races.is_empty();
        for race in std::mem::take(&mut self.races) {
            match first_match(&|s| s.matches_race(path, &race)) {
                Some(i) => self.suppressed.push(Suppressed { suppression: i, race: Some(race), finding: None }),
                None => self.races.push(race),
            }
        }
        for finding in std::mem::take(&mut self.findings) {
            match first_match(&|s| s.matches_finding(path, &finding)) {
                Some(i) => self.suppressed.push(Suppressed { suppression: i, race: None, finding: Some(finding) }),
                None => self.findings.push(finding),
            }
        }
        if had_races && self.races.is_empty() {
            self.verdict = Verdict::NoRace;
        }
    }

    /// Whether the run found a race or an error-level finding.
    pub fn failed(&self) -> bool {
        self.verdict == Verdict::Race || self.findings.iter().any(|f| f.severity == Severity::Error)
    }

    /// Where it ran, for messages: the adapter's name, or `static analysis`.
    pub fn adapter_name(&self) -> &str {
        self.adapter.as_ref().map_or("static analysis", |a| a.name.as_str())
    }

    /// The adapter's name and backend, e.g. `llvmpipe (…) (vulkan)`, or
    /// `static analysis`.
    pub fn adapter_label(&self) -> String {
        self.adapter.as_ref().map_or_else(|| "static analysis".into(), |a| format!("{} ({})", a.name, a.backend))
    }
}

/// The final contents of one writable buffer, as a digest, to compare runs
/// on different adapters.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OutputDigest {
    /// The buffer's variable.
    pub variable: String,
    /// Its `group`.
    pub group: u32,
    /// Its `binding`.
    pub binding: u32,
    /// Its size in bytes.
    pub bytes: u64,
    /// SHA-256 of its contents, in hexadecimal.
    pub sha256: String,
}

/// Whether races were observed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// At least one race was observed.
    Race,
    /// No race was observed for this dispatch and input.
    NoRace,
}

/// The shader a report is about.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ShaderInfo {
    /// Path as given.
    pub path: String,
    /// Input language.
    pub language: Language,
    /// The source text, when available: WGSL's, or for SPIR-V the text of
    /// the source file its debug information names (from `OpSource`,
    /// `DebugSource` or the file beside the module).
    pub source: Option<String>,
    /// For SPIR-V, the name of the source file its debug information gives
    /// (`reduce.comp`): `source` is its text, and locations' lines and spans
    /// point into it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source_file: Option<String>,
}

impl ShaderInfo {
    /// The name of the file that locations' lines point into: the source
    /// file of a SPIR-V module with debug information, else the shader.
    pub fn source_name(&self) -> &str {
        self.source_file.as_deref().unwrap_or(&self.path)
    }
}

/// The adapter a run used.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct AdapterInfo {
    /// Adapter name, e.g. `llvmpipe (LLVM 15.0.6, 256 bits)`.
    pub name: String,
    /// Backend, e.g. `vulkan`.
    pub backend: String,
    /// Device type, e.g. `cpu`, `discrete-gpu`.
    pub device_type: String,
    /// Driver and its version.
    pub driver: String,
    /// Smallest and largest subgroup size the adapter reports.
    pub subgroup_size: [u32; 2],
}

/// A tracked variable, as listed in the report.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CheckedVariable {
    /// Its name.
    pub name: String,
    /// Its address space.
    pub space: Space,
    /// `group` of a storage binding.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group: Option<u32>,
    /// `binding` of a storage binding.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub binding: Option<u32>,
    /// Size in bytes (per workgroup, for workgroup variables).
    pub bytes: u64,
    /// Where it is declared.
    pub declaration: Location,
}

/// What a run checked.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Checked {
    /// Detection mode (`addr` or `stmt`).
    pub mode: String,
    /// Statement mode: statements tracked per word and scope.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slots: Option<u32>,
    /// `--assume-lockstep`: the lock-step width whose hidden races were left
    /// out of `races`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub assume_lockstep: Option<u32>,
    /// Subgroup size the checked run saw (1 without subgroups).
    #[serde(default)]
    pub subgroup_size: u32,
    /// The variables whose accesses were checked.
    pub variables: Vec<CheckedVariable>,
    /// Number of sites the runtime checks.
    pub checked_sites: usize,
    /// Number of sites in total.
    pub sites: usize,
    /// Atomic sites the checks of atomic memory (`scope`, `atomic-plain`)
    /// checked across workgroups (the atomics of buffers with atomics
    /// narrower than the device, or with plain and atomic accesses; SPIR-V);
    /// among the sites the data-race check does not check.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub atomic_checked_sites: usize,
    /// Invocations that ran.
    pub invocations: u64,
    /// The static analyzer's part, when it ran.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub analyzer: Option<AnalyzerSummary>,
    /// Instrumented sites and accesses with and without the analyzer
    /// (`wgrace run --stats`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instrumentation: Option<InstrumentationStats>,
    /// The storage shadow the run allocated.
    #[serde(default)]
    pub shadow: ShadowSummary,
}

/// The storage shadow of a run (`docs/detector.md`, "Shadow state").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShadowSummary {
    /// Tracked storage words (of variables with an instrumented access).
    pub storage_words: u64,
    /// Bytes of per-word state: addr mode's state words (4 bytes each, 8
    /// for dispatches too large for a 32-bit identity, fewer entries with
    /// `--shadow-cache`), or statement mode's slots.
    pub state_bytes: u64,
    /// Bytes of addr mode's storage witnesses: a bounded cache (at most 8
    /// MiB), or two 8-byte words per tracked word with a 64-bit identity.
    pub witness_bytes: u64,
    /// `--shadow-cache`: tracked words per state entry.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cache_ratio: Option<u32>,
}

/// GRace's Table 3 for one dispatch: what the static analyzer saves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct InstrumentationStats {
    /// Every checked access instrumented.
    pub without_analyzer: InstrumentationCount,
    /// Only what the analyzer left.
    pub with_analyzer: InstrumentationCount,
}

/// Instrumentation of one run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct InstrumentationCount {
    /// Sites with a call to the runtime.
    pub sites: usize,
    /// Calls the dispatch executed, over all invocations.
    pub accesses: u64,
}

/// What the static analyzer did to a run.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AnalyzerSummary {
    /// Checked sites it proved race-free (or never executed) and left
    /// uninstrumented.
    pub pruned_sites: usize,
    /// Races it proved. Their sites stay instrumented, so the run reports
    /// them too (`wgrace check` lists them without running).
    pub static_races: usize,
    /// Why it gave up, if it did (then it pruned nothing).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gave_up: Option<String>,
}

/// Counters read back from the GPU.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Stats {
    /// Races detected, counting each detection (many per reported race).
    pub detections: u64,
    /// Detections whose site pair did not fit the race table.
    pub dropped_detections: u64,
    /// Detections whose earlier access was not recorded.
    pub detections_without_witness: u64,
    /// Accesses out of bounds of their variable, which were not checked.
    pub out_of_bounds_accesses: u64,
    /// Workgroups that executed more storage barriers than the shadow state
    /// can count, and stopped checking storage memory.
    pub epoch_overflows: u64,
    /// Storage state entries of the direct-mapped cache (`--shadow-cache`)
    /// that one word took over from another, dropping its history.
    #[serde(default)]
    pub cache_evictions: u64,
    /// Replay entries (one per access and one per run of barriers, two where
    /// a barrier orders both memories) that did not fit the replay streams,
    /// and were not checked.
    #[serde(default)]
    pub replay_events_lost: u64,
    /// Replay entries that the replay never reached, and were not checked:
    /// the driver ended its loops early (lavapipe ends a shader's loops
    /// after 65,535 iterations in all).
    #[serde(default)]
    pub replay_events_unreached: u64,
    /// Statement mode: accesses to a word whose statement slots were all
    /// taken by other statements, which were not checked.
    #[serde(default)]
    pub slot_overflows: u64,
    /// SPIR-V: synchronization or accesses the data-race check's
    /// happens-before engine could not follow (an acquire that a published
    /// clock synchronizes with only in part, a full access history, a lock
    /// it never took), which were not checked.
    #[serde(default)]
    pub happens_before_unchecked: u64,
    /// Statement mode: invocations whose check of their share of workgroup
    /// memory's words a driver ended early (lavapipe's loop budget, after
    /// a long spin), leaving words or statements not checked.
    #[serde(default)]
    pub checks_cut_short: u64,
    /// SPIR-V: synchronization that the happens-before engine's programs
    /// which class races (the scope and missing-fence checks') or its
    /// record of held locks (the lockset check's) could not follow: the
    /// races' verdicts stand, some of their classes may not.
    #[serde(default)]
    pub race_classes_unsure: u64,
    /// Invocations whose subgroup was not a block of subgroup-size
    /// consecutive local indices (the `intra-subgroup` class assumes it is).
    #[serde(default)]
    pub nonlinear_subgroup_lanes: u64,
    /// Races left out of the report by `--assume-lockstep`.
    #[serde(default)]
    pub hidden_by_lockstep: u64,
    /// Dispatches the run was split into.
    pub chunks: u32,
    /// Bytes of shadow state, race records and replay streams allocated on
    /// the GPU.
    pub shadow_bytes: u64,
    /// Wall time of the checked run, in milliseconds.
    pub elapsed_ms: f64,
}

/// Whether a count is zero (left out of JSON).
fn is_zero(n: &usize) -> bool {
    *n == 0
}
