//! The report model: what a wgrace run found, as plain serializable data.
//!
//! The runtime fills a [`Report`]; printers render it as text or JSON; the
//! viewer reads the JSON back. Nothing here needs a GPU.
//!
//! # JSON schema (version 1)
//!
//! `--format json` writes one [`Report`] object. Its fields, and those of the
//! types it contains, are the serde renderings of the structs below; the
//! ones tools usually read:
//!
//! - `verdict`: `"race"`, `"no-race"`;
//! - `races[]`: `class` (`intra-subgroup`, `intra-workgroup`, `barrier-kind`,
//!   `inter-workgroup`), `kind` (`write-write`, `read-write`), `memory`
//!   {`space`, `variable`, `group`, `binding`, `byte_offset`, `element`},
//!   `first`/`second` {`access`, `line`, `column`, `snippet`, `invocation`
//!   {`workgroup_id`, `local_invocation_id`}}, `occurrences`, `lockstep`
//!   {`hidden_from`, `visible_at`}, `examples[]` {`element`, `byte_offset`,
//!   `first`, `second`}, `explanation`, `hint`;
//! - `findings[]`: what the other checks found, each with `check`
//!   (`barrier-divergence`), `workgroup_id`, `first`/`second` (the two
//!   invocations that disagree: `local_invocation_id`, `barriers` executed,
//!   `last_barrier` {`kind`, `line`, `column`, `snippet`} or null),
//!   `occurrences`, `explanation`, `hint`;
//! - `complete`: `false` when something was not checked or not recorded,
//!   with the reasons in `incomplete`.
//!
//! Fields added after version 1 (`findings`, `barriers`, `lockstep`,
//! `examples`, and the statement-mode counters) read as empty when absent.

use serde::{Deserialize, Serialize};

use crate::sites::{AccessKind, BarrierKind, BarrierSite, Location, SiteTable};
use crate::source::Language;
use crate::vars::Space;

/// Version of the JSON schema; bumped on incompatible changes.
pub const REPORT_VERSION: u32 = 1;

/// Everything one run of wgrace found and how it ran.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// [`REPORT_VERSION`].
    pub version: u32,
    /// `"race"` if any race was observed, else `"no-race"`.
    pub verdict: Verdict,
    /// The races, deduplicated by (class, variable, unordered site pair),
    /// sorted by source position.
    pub races: Vec<Race>,
    /// Findings of the other checks (barrier divergence), which are errors
    /// too: a run with findings exits with status 1.
    #[serde(default)]
    pub findings: Vec<Finding>,
    /// Whether every access was checked and every race recorded.
    pub complete: bool,
    /// Why the report is incomplete (empty when `complete`).
    pub incomplete: Vec<String>,
    /// Other things worth knowing about this run.
    pub notes: Vec<String>,
    /// The shader.
    pub shader: ShaderInfo,
    /// The adapter it ran on.
    pub adapter: AdapterInfo,
    /// Workgroup counts of the dispatch.
    pub dispatch: [u32; 3],
    /// What was checked.
    pub checked: Checked,
    /// Every access site, by id.
    pub sites: SiteTable,
    /// Every barrier, by id (ids start at 1).
    #[serde(default)]
    pub barriers: Vec<BarrierSite>,
    /// Counters from the run.
    pub stats: Stats,
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
    /// Entry point that ran.
    pub entry_point: String,
    /// Its workgroup size.
    pub workgroup_size: [u32; 3],
    /// The source text, when available (WGSL, or SPIR-V with `OpSource`).
    pub source: Option<String>,
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
    /// Invocations that executed other barriers than the first of their
    /// workgroup to finish (the barrier-divergence check).
    #[serde(default)]
    pub divergent_invocations: u64,
    /// Accesses out of bounds of their variable, which were not checked.
    pub out_of_bounds_accesses: u64,
    /// Workgroups that executed more storage barriers than the shadow state
    /// can count, and stopped checking storage memory.
    pub epoch_overflows: u64,
    /// Storage state entries of the direct-mapped cache (`--shadow-cache`)
    /// that one word took over from another, dropping its history.
    #[serde(default)]
    pub cache_evictions: u64,
    /// Statement mode: accesses to a word whose statement slots were all
    /// taken by other statements, which were not checked.
    #[serde(default)]
    pub slot_overflows: u64,
    /// Invocations whose subgroup was not a block of subgroup-size
    /// consecutive local indices (the `intra-subgroup` class assumes it is).
    #[serde(default)]
    pub nonlinear_subgroup_lanes: u64,
    /// Races left out of the report by `--assume-lockstep`.
    #[serde(default)]
    pub hidden_by_lockstep: u64,
    /// Dispatches the run was split into.
    pub chunks: u32,
    /// Bytes of shadow state and race records allocated on the GPU.
    pub shadow_bytes: u64,
    /// Wall time of the checked run, in milliseconds.
    pub elapsed_ms: f64,
}

/// A race: two accesses to the same memory, from different invocations, at
/// least one a write, not both atomic, that nothing ordered.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Race {
    /// Why nothing ordered the accesses.
    pub class: RaceClass,
    /// `write-write` or `read-write`.
    pub kind: RaceKind,
    /// The memory they touched (the first word detected).
    pub memory: Memory,
    /// One access (the one earlier in the source).
    pub first: Access,
    /// The other access.
    pub second: Access,
    /// How many detections this pair stands for (words × instances).
    pub occurrences: u64,
    /// Whether hardware running subgroups in lock-step would hide the race.
    #[serde(default)]
    pub lockstep: Lockstep,
    /// The first detections (up to 4): the word and the two invocations.
    /// `first`/`second` and `memory` describe the first of them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub examples: Vec<RaceExample>,
    /// What the class means, in one line.
    pub explanation: String,
    /// How to fix it, in one line.
    pub hint: String,
    /// What found it: the runtime (`wgrace run`), or the static analyzer
    /// (`wgrace check`; it happens in every run of this dispatch and input).
    #[serde(default)]
    pub detected_by: DetectedBy,
}

/// What found a race.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DetectedBy {
    /// The instrumented shader, as it ran.
    #[default]
    Runtime,
    /// The static analyzer, before anything ran (`first` and `second` are
    /// its witness invocations).
    Analyzer,
}

/// The memory a race is on.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Memory {
    /// `workgroup` or `storage`.
    pub space: Space,
    /// The variable.
    pub variable: String,
    /// Its `group`, for storage bindings.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group: Option<u32>,
    /// Its `binding`, for storage bindings.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub binding: Option<u32>,
    /// Byte offset of the word in the variable.
    pub byte_offset: u64,
    /// Element path of the word, e.g. `tile[3]`.
    pub element: String,
}

/// One side of a race.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Access {
    /// The site, or `None` when the access was not recorded.
    pub site: Option<u32>,
    /// `read` or `write`.
    pub access: AccessKind,
    /// Source location (line, column, snippet).
    #[serde(flatten)]
    pub location: Location,
    /// The invocation that made it, when known.
    pub invocation: Option<Invocation>,
}

/// One detection of a race: where, and which two invocations.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RaceExample {
    /// Element path of the word, e.g. `tile[3]`.
    pub element: String,
    /// Byte offset of the word in the variable.
    pub byte_offset: u64,
    /// The invocation of the `first` access, when recorded.
    pub first: Option<Invocation>,
    /// The invocation of the `second` access.
    pub second: Option<Invocation>,
}

/// Lock-step widths the report considers: GRace's rule, applied to
/// subgroups of these sizes numbered as local index / width.
pub const LOCKSTEP_WIDTHS: [u32; 5] = [4, 8, 16, 32, 64];

/// The lock-step portability of a race. WGSL does not execute subgroups in
/// lock-step, so every race is one; but hardware that runs subgroups of
/// width W in lock-step executes two *different* statements of one subgroup
/// one after the other, which hides the race (GRace's intra-warp rule, and
/// the legacy CUDA / CL-VIS semantics that `--assume-lockstep` selects).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Lockstep {
    /// The smallest width (of [`LOCKSTEP_WIDTHS`]) from which lock-step
    /// execution hides every detected instance; `None` if none does (the
    /// accesses are in different workgroups, are one statement, or are 64 or
    /// more invocations apart).
    pub hidden_from: Option<u32>,
    /// The widths at which the race stays visible.
    pub visible_at: Vec<u32>,
}

impl Lockstep {
    /// From the runtime's code: k for width 4 << k, 5 for never.
    pub fn from_code(code: u32) -> Lockstep {
        let hidden_from = LOCKSTEP_WIDTHS.get(code as usize).copied();
        let visible_at = LOCKSTEP_WIDTHS.iter().copied().filter(|&w| hidden_from.is_none_or(|h| w < h)).collect();
        Lockstep { hidden_from, visible_at }
    }

    /// Whether lock-step execution of width `w` hides the race.
    pub fn hidden_at(&self, w: u32) -> bool {
        self.hidden_from.is_some_and(|h| w >= h)
    }

    /// One line for the report, e.g. "race under WGSL; hidden by lock-step
    /// execution of width ≥ 32 (NVIDIA warps); visible at 16, 8 and 4".
    pub fn describe(&self) -> String {
        let list = |ws: &[u32]| -> String {
            let named: Vec<String> = ws.iter().rev().map(|&w| format!("{w}{}", width_note(w))).collect();
            match named.as_slice() {
                [] => String::new(),
                [one] => one.clone(),
                [init @ .., last] => format!("{} and {last}", init.join(", ")),
            }
        };
        match self.hidden_from {
            None => "race under WGSL and at every lock-step width (no lock-step execution hides it)".into(),
            Some(h) if self.visible_at.is_empty() => {
                format!("race under WGSL; hidden by lock-step execution of any width ≥ {h}")
            }
            Some(h) => format!(
                "race under WGSL; hidden by lock-step execution of width ≥ {h}{}; visible at {}",
                width_note(h),
                list(&self.visible_at)
            ),
        }
    }
}

/// Who runs subgroups of width `w`, for the portability line.
fn width_note(w: u32) -> &'static str {
    match w {
        4 => " (lavapipe with LP_NATIVE_VECTOR_WIDTH=128)",
        8 => " (lavapipe, Intel SIMD8)",
        16 => " (Intel SIMD16)",
        32 => " (NVIDIA warps, AMD wave32)",
        64 => " (AMD wave64)",
        _ => "",
    }
}

/// An invocation of the dispatch.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Invocation {
    /// `workgroup_id` of its workgroup.
    pub workgroup_id: [u32; 3],
    /// Its `local_invocation_id`.
    pub local_invocation_id: [u32; 3],
}

/// Why two accesses were not ordered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RaceClass {
    /// Both invocations are in one subgroup (either of the two same-workgroup
    /// classes otherwise).
    IntraSubgroup,
    /// Same workgroup, no barrier between the accesses.
    IntraWorkgroup,
    /// Same workgroup, separated only by a barrier that does not order this
    /// address space.
    BarrierKind,
    /// Different workgroups of one dispatch.
    InterWorkgroup,
}

impl RaceClass {
    /// Kebab-case name, as in JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            RaceClass::IntraSubgroup => "intra-subgroup",
            RaceClass::IntraWorkgroup => "intra-workgroup",
            RaceClass::BarrierKind => "barrier-kind",
            RaceClass::InterWorkgroup => "inter-workgroup",
        }
    }

    /// One-line explanation of the class, for `space`.
    pub fn explanation(self, space: Space) -> String {
        match (self, space) {
            (RaceClass::IntraSubgroup, _) => "invocations of one subgroup accessed this word and nothing ordered the \
                accesses; WGSL does not run a subgroup in lock-step, so this is a race on every GPU"
                .into(),
            (RaceClass::IntraWorkgroup, Space::Workgroup) => {
                "invocations of one workgroup accessed this word with no workgroupBarrier() between the accesses".into()
            }
            (RaceClass::IntraWorkgroup, Space::Storage) => {
                "invocations of one workgroup accessed this word with no storageBarrier() between the accesses".into()
            }
            (RaceClass::BarrierKind, Space::Workgroup) => "a barrier separates the accesses, but only \
                storageBarrier(), which does not order workgroup memory"
                .into(),
            (RaceClass::BarrierKind, Space::Storage) => "a barrier separates the accesses, but only \
                workgroupBarrier(), which does not order storage memory"
                .into(),
            (RaceClass::InterWorkgroup, _) => "different workgroups of one dispatch accessed this word; \
                no barrier orders accesses of different workgroups"
                .into(),
        }
    }

    /// One-line fix hint for the class, for `space`.
    pub fn hint(self, space: Space) -> String {
        match (self, space) {
            (RaceClass::IntraSubgroup, Space::Workgroup) => "put a workgroupBarrier() between the two accesses, or \
                pass the value with a subgroup operation (subgroupShuffle, subgroupAdd, …)"
                .into(),
            (RaceClass::IntraSubgroup, Space::Storage) => "put a storageBarrier() between the two accesses, or \
                pass the value with a subgroup operation (subgroupShuffle, subgroupAdd, …)"
                .into(),
            (RaceClass::IntraWorkgroup | RaceClass::BarrierKind, Space::Workgroup) => {
                "put a workgroupBarrier() between the two accesses (in uniform control flow)".into()
            }
            (RaceClass::IntraWorkgroup | RaceClass::BarrierKind, Space::Storage) => {
                "put a storageBarrier() between the two accesses (in uniform control flow)".into()
            }
            (RaceClass::InterWorkgroup, _) => "split the work into two dispatches, use atomics, or partition \
                the data so each workgroup touches its own words"
                .into(),
        }
    }
}

/// Which accesses of a race write.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RaceKind {
    /// Both write.
    WriteWrite,
    /// One reads, the other writes.
    ReadWrite,
}

impl RaceKind {
    /// Kebab-case name, as in JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            RaceKind::WriteWrite => "write-write",
            RaceKind::ReadWrite => "read-write",
        }
    }
}

/// What a check other than the race check found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FindingKind {
    /// Invocations of one workgroup executed different sequences of
    /// workgroup barriers.
    BarrierDivergence,
}

impl FindingKind {
    /// Kebab-case name, as in JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            FindingKind::BarrierDivergence => "barrier-divergence",
        }
    }
}

/// A finding of a check other than the race check.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Finding {
    /// Which check found it.
    pub check: FindingKind,
    /// The workgroup (an example, when `occurrences` counts several).
    pub workgroup_id: [u32; 3],
    /// The invocation the other one is compared with: the first of its
    /// workgroup to finish.
    pub first: BarrierPath,
    /// An invocation that executed other barriers.
    pub second: BarrierPath,
    /// Invocations that disagreed with the first of their workgroup, over
    /// every workgroup, for this pair of last barriers.
    pub occurrences: u64,
    /// What it means, in one line.
    pub explanation: String,
    /// How to fix it, in one line.
    pub hint: String,
}

/// The barriers one invocation executed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BarrierPath {
    /// Its `local_invocation_id`.
    pub local_invocation_id: [u32; 3],
    /// How many barriers it executed (counted up to 4095).
    pub barriers: u32,
    /// The last one, or `None` if it executed none.
    pub last_barrier: Option<BarrierAt>,
}

/// A barrier statement, where it is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BarrierAt {
    /// Its id in the report's barrier table.
    pub id: u32,
    /// What kind of barrier.
    pub kind: BarrierKind,
    /// Where it is.
    #[serde(flatten)]
    pub location: Location,
}

impl FindingKind {
    /// One-line explanation.
    pub fn explanation(self) -> String {
        match self {
            FindingKind::BarrierDivergence => "WGSL requires every invocation of a workgroup to execute the same \
                barriers (a barrier only in uniform control flow); naga accepts this shader, but GPUs may hang on it \
                or synchronise the wrong invocations"
                .into(),
        }
    }

    /// One-line fix hint.
    pub fn hint(self) -> String {
        match self {
            FindingKind::BarrierDivergence => "move the barrier out of the non-uniform branch or loop (let every \
                invocation reach it), or make the condition uniform, e.g. with workgroupUniformLoad()"
                .into(),
        }
    }
}
