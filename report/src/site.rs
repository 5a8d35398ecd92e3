//! Where things are in the shader: source locations, the tracked address
//! spaces, and the site table (every memory access the instrumentation saw,
//! by id).
//!
//! A *site* is one load, store, atomic or `workgroupUniformLoad` of tracked
//! memory in the shader's source. Race records name sites by id; the table
//! turns an id back into a source location, the variable and the access kind.
//! Barriers get ids of their own ([`BarrierSite`]), which the
//! barrier-divergence check reports.

use serde::{Deserialize, Serialize};

/// The language a shader was written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Language {
    /// WGSL source.
    Wgsl,
    /// A SPIR-V binary.
    SpirV,
}

/// Address space of a tracked variable: the memory that can race.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Space {
    /// `var<workgroup>`: one copy per workgroup.
    Workgroup,
    /// `var<storage, read_write>`: one copy for the whole dispatch.
    Storage,
}

impl Space {
    /// The WGSL spelling of the address space.
    pub fn as_str(self) -> &'static str {
        match self {
            Space::Workgroup => "workgroup",
            Space::Storage => "storage",
        }
    }
}

/// How a site accesses memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum AccessKind {
    /// A plain load.
    Read,
    /// A plain store (a store to one vector component counts as a store to
    /// the whole vector, as the WGSL specification allows).
    Write,
    /// An atomic operation, including `atomicLoad`/`atomicStore`.
    Atomic,
    /// `workgroupUniformLoad`: a load between two workgroup barriers.
    UniformLoad,
}

impl AccessKind {
    /// `"read"`, `"write"`, …
    pub fn as_str(self) -> &'static str {
        match self {
            AccessKind::Read => "read",
            AccessKind::Write => "write",
            AccessKind::Atomic => "atomic",
            AccessKind::UniformLoad => "uniform-load",
        }
    }
}

/// Where a site is in the shader's source.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Location {
    /// 1-based line, when known (SPIR-V without `OpLine` has none).
    pub line: Option<u32>,
    /// 1-based column (in characters), when known.
    pub column: Option<u32>,
    /// Byte range of the access in the source text (WGSL's; for SPIR-V, the
    /// line's in the source file).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub span: Option<(u32, u32)>,
    /// Word offset of the instruction, for SPIR-V input.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spirv_word: Option<u32>,
    /// The source line (or, for SPIR-V without source, the instruction).
    pub snippet: String,
}

/// One access site.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Site {
    /// Its id (its index in the table).
    pub id: u32,
    /// Kind of access.
    pub kind: AccessKind,
    /// Name of the accessed variable.
    pub variable: String,
    /// Index of the variable among the instrumented shader's tracked
    /// variables.
    pub var: u32,
    /// Address space of the variable.
    pub space: Space,
    /// Function containing the access.
    pub function: String,
    /// Where it is.
    pub location: Location,
    /// Whether the runtime checks this site. Atomic sites and uniform loads
    /// need no check: in WGSL a word of atomic type is only ever accessed
    /// atomically, and a uniform load sits between two barriers.
    pub checked: bool,
    /// The static analyzer's verdict, where it ran (`wgrace check`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub analysis: Option<SiteAnalysis>,
}

/// What the static analyzer said of a site.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SiteAnalysis {
    /// Its verdict: `status`, and `reason` for one left to the runtime.
    #[serde(flatten)]
    pub status: SiteStatus,
    /// Left to the runtime, but its address is the same in every iteration
    /// of its loop, so each invocation records it once per loop.
    pub once_per_loop: bool,
}

/// The analyzer's verdict on one site.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "status", content = "reason")]
pub enum SiteStatus {
    /// Not an access the runtime would check (atomics, uniform loads).
    Unchecked,
    /// No invocation executes it in this dispatch.
    NotExecuted,
    /// No pair it is in can race.
    RaceFree,
    /// Its only conflicts are certain races (reported by `wgrace check`;
    /// `wgrace run` keeps the site instrumented so that its report carries
    /// what only a run can tell: subgroups, lock-step widths, occurrences).
    StaticRace,
    /// Left to the dynamic checker, and why.
    Instrumented(String),
}

impl SiteStatus {
    /// Whether the site needs no instrumentation: no pair it is in can
    /// race.
    pub fn pruned(&self) -> bool {
        matches!(self, SiteStatus::NotExecuted | SiteStatus::RaceFree)
    }
}

/// All sites of an instrumented shader, indexed by id.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SiteTable {
    /// The sites; `sites[i].id == i`.
    pub sites: Vec<Site>,
}

impl SiteTable {
    /// The site with id `id`, if any.
    pub fn get(&self, id: u32) -> Option<&Site> {
        self.sites.get(id as usize)
    }

    /// Number of sites.
    pub fn len(&self) -> usize {
        self.sites.len()
    }

    /// Whether there are no sites.
    pub fn is_empty(&self) -> bool {
        self.sites.is_empty()
    }

    /// Number of sites the runtime checks.
    pub fn checked(&self) -> usize {
        self.sites.iter().filter(|s| s.checked).count()
    }
}

/// A workgroup control barrier of the shader.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum BarrierKind {
    /// `workgroupBarrier()`.
    Workgroup,
    /// `storageBarrier()`.
    Storage,
    /// A barrier ordering both memories (SPIR-V `OpControlBarrier`).
    WorkgroupAndStorage,
    /// `textureBarrier()`: a control barrier that orders neither memory.
    Texture,
    /// `workgroupUniformLoad()`, which acts as a barrier.
    UniformLoad,
    /// A SPIR-V control barrier of workgroup execution scope that orders no
    /// memory between invocations (no memory semantics, or a memory scope of
    /// the invocation): it synchronizes execution only.
    Execution,
}

impl BarrierKind {
    /// Whether it orders accesses to `space`.
    pub fn orders(self, space: Space) -> bool {
        matches!(
            (self, space),
            (BarrierKind::WorkgroupAndStorage, _)
                | (BarrierKind::Workgroup | BarrierKind::UniformLoad, Space::Workgroup)
                | (BarrierKind::Storage, Space::Storage)
        )
    }

    /// How the shader spells it, e.g. `workgroupBarrier()`.
    pub fn as_str(self) -> &'static str {
        match self {
            BarrierKind::Workgroup => "workgroupBarrier()",
            BarrierKind::Storage => "storageBarrier()",
            BarrierKind::WorkgroupAndStorage => "a barrier of workgroup and storage memory",
            BarrierKind::Texture => "textureBarrier()",
            BarrierKind::UniformLoad => "workgroupUniformLoad()",
            BarrierKind::Execution => "a control barrier that orders no memory",
        }
    }
}

/// One barrier statement. Ids start at 1 (0 stands for "no barrier").
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BarrierSite {
    /// Its id.
    pub id: u32,
    /// What kind of barrier it is.
    pub kind: BarrierKind,
    /// Function containing it.
    pub function: String,
    /// Where it is.
    pub location: Location,
}
