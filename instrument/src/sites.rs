//! The site table the pass builds (its types are the report model's, in
//! `wgrace-report`), and what naga's IR says about barriers.
//!
//! A *site* is one load, store, atomic or `workgroupUniformLoad` of tracked
//! memory in the shader's source. Records name sites by id; the table turns an
//! id back into a source location, the variable and the access kind. Barriers
//! get ids of their own ([`BarrierSite`]).

pub use wgrace_report::{AccessKind, BarrierKind, BarrierSite, Location, Site, SiteTable};

/// The kind of a naga control barrier with `flags`, or `None` for one that
/// orders no memory and does not synchronise the workgroup (WGSL's
/// `subgroupBarrier()`). A barrier with no flags at all is a SPIR-V control
/// barrier of workgroup execution scope that orders no memory between
/// invocations (`spirv::barrier_scopes`).
pub fn control_barrier_kind(flags: naga::Barrier) -> Option<BarrierKind> {
    let workgroup = flags.contains(naga::Barrier::WORK_GROUP);
    let storage = flags.contains(naga::Barrier::STORAGE);
    match (workgroup, storage) {
        (true, true) => Some(BarrierKind::WorkgroupAndStorage),
        (true, false) => Some(BarrierKind::Workgroup),
        (false, true) => Some(BarrierKind::Storage),
        (false, false) if flags.contains(naga::Barrier::TEXTURE) => Some(BarrierKind::Texture),
        (false, false) if flags.is_empty() => Some(BarrierKind::Execution),
        (false, false) => None,
    }
}

/// One loop of the user's code, in the loop table the `loops` check's
/// records name (ids count from 0, in the order the pass walks the
/// functions the entry point reaches).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoopSite {
    /// Its id.
    pub id: u32,
    /// The function it is in.
    pub function: String,
    /// Where it starts.
    pub location: Location,
    /// Whether a workgroup barrier runs in it (directly or in a function it
    /// calls).
    pub barrier: bool,
    /// When it is a spin-wait (`crate::spin`): the storage variable(s) it
    /// waits on.
    pub spin: Option<String>,
}

/// One index of the user's code that the `bounds` check tests, in the index
/// table its records name (ids count from 0, in the order the pass walks
/// the functions the entry point reaches).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IndexSite {
    /// Its id.
    pub id: u32,
    /// The function it is in.
    pub function: String,
    /// Where the access is.
    pub location: Location,
    /// The access's text (`tile[lid + 1u]`), or the line's.
    pub access: String,
    /// What is indexed: its WGSL text (`grid.rows`), or else the name of
    /// the variable the access chain starts from, when it has one.
    pub variable: Option<String>,
    /// The address space of the memory indexed (WGSL's name), or `None`
    /// for a value (a `let` of an array, say).
    pub space: Option<String>,
    /// What is indexed.
    pub kind: IndexedKind,
    /// The element count, when fixed (a runtime-sized array's is taken at
    /// run time).
    pub length: Option<u32>,
    /// Whether the index is an `i32`.
    pub signed: bool,
}

/// What an index site indexes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IndexedKind {
    Array,
    RuntimeArray,
    Vector,
    Matrix,
}

impl IndexedKind {
    /// "array", "runtime-sized array", "vector", "matrix".
    pub fn as_str(self) -> &'static str {
        match self {
            IndexedKind::Array => "array",
            IndexedKind::RuntimeArray => "runtime-sized array",
            IndexedKind::Vector => "vector",
            IndexedKind::Matrix => "matrix",
        }
    }

    /// What its length counts.
    pub fn elements(self) -> &'static str {
        match self {
            IndexedKind::Matrix => "columns",
            IndexedKind::Vector => "components",
            _ => "elements",
        }
    }
}
