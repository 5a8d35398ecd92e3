//! naga passes of wgrace: loading, analysis, instrumentation, and the checks.
//!
//! # The model
//!
//! wgrace checks a compute dispatch for data races as defined by the WGSL
//! memory model: two accesses race when they touch the same bytes of the same
//! memory (the same `var<workgroup>` *in one workgroup*, or a writable storage
//! buffer), come from different invocations, at least one writes, they are not
//! both atomic, and nothing ordered them. Workgroup memory is ordered only by
//! `workgroupBarrier()` (or `workgroupUniformLoad`) between the accesses;
//! storage memory only by `storageBarrier()`, and only within one workgroup;
//! accesses of different workgroups of one dispatch are never ordered. There
//! is no lock-step exemption for invocations of one subgroup.
//!
//! Granularity is the 4-byte word. A store to one component of a vector counts
//! as a store to the whole vector (the WGSL specification allows it to access
//! all of the vector's memory locations).
//!
//! # What this crate does
//!
//! - [`source`] loads WGSL or SPIR-V into a [`naga::Module`] and maps naga
//!   spans back to lines and columns; SPIR-V goes through [`spirv`] first,
//!   which reads its debug information, specializes it, surveys its
//!   synchronization and rewrites it for naga;
//! - [`prepare`] validates the module, picks the entry point and resolves
//!   `override` constants;
//! - [`instrument`] rewrites the module: each load and store of tracked
//!   memory calls the WGSL runtime (`wgrace-shaders`) with the word it touches
//!   and its *site id*, each barrier tells the runtime an interval ended;
//! - [`sites`] is the table from site id to source location, variable and
//!   access kind; [`vars`] the tracked variables and their word layout;
//! - [`checks`] holds the checks (data race, barrier divergence), each a
//!   unit registered in [`checks::REGISTRY`];
//! - [`report`] re-exports the report model (`wgrace-report`, no naga).
//!
//! Nothing here touches a GPU.

#![cfg_attr(
    not(test),
    warn(clippy::panic, clippy::unwrap_used, clippy::print_stdout, clippy::print_stderr, clippy::todo)
)]
#![deny(clippy::exit)]

pub mod analysis;
pub mod backend;
pub mod blocks;
pub mod checks;
pub mod defer;
pub use wgrace_report as report;
mod bounds;
pub mod entry;
pub mod link;
mod loops;
pub mod pass;
mod plan;
mod prune;
mod spin;

pub mod sites;
pub mod source;
pub mod spirv;
pub mod vars;
mod varying;

pub use analysis::{Analysis, AnalysisInput, BufferFacts, SiteStatus, StaticRace};
pub use pass::{
    Analyzed, IN_PLACE_MAX_COPIES, InstrumentOptions, Instrumented, MAX_SLOTS, Mode, RUNTIME_CAPABILITIES, Replay,
    analyze, instrument, instrument_with, replay_pass_module, same_value_module, storage_check_module,
    timeline_pass_module,
};
pub use sites::{AccessKind, BarrierKind, BarrierSite, IndexSite, IndexedKind, Location, LoopSite, Site, SiteTable};
pub use source::{Language, LoadError, Shader};
pub use vars::{Space, TrackedVar};

/// Most workgroup and storage variables a shader may have: the replay's
/// events give a variable id 13 bits (`shaders/wgsl/checks/data_race/hooks/replay.wgsl`).
pub const MAX_VARS: usize = 0x1fff;

use naga::valid::{Capabilities, ModuleInfo, ValidationFlags, Validator};
use naga::{Module, ShaderStage};

/// Errors preparing or instrumenting a shader. Each says what to do.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum InstrumentError {
    /// naga's validator rejected the shader; `diagnostic` is its report.
    #[error("{diagnostic}")]
    Invalid {
        /// The rendered diagnostic.
        diagnostic: String,
    },
    /// The shader has no compute entry point.
    #[error("the shader has no compute entry point (@compute fn ...); wgrace checks compute shaders only")]
    NoComputeEntryPoint,
    /// `--entry` names no compute entry point.
    #[error("no compute entry point named `{name}`; the shader has: {}", list(.available))]
    NoSuchEntryPoint {
        /// The requested name.
        name: String,
        /// The compute entry points there are.
        available: Vec<String>,
    },
    /// Several compute entry points and none chosen.
    #[error("the shader has several compute entry points ({}); choose one with --entry NAME", list(.names))]
    AmbiguousEntryPoint {
        /// Their names.
        names: Vec<String>,
    },
    /// `--override` names no `override` declaration (or, in SPIR-V, no
    /// specialization constant by name or `SpecId`).
    #[error("the shader has no override named `{name}`; it has: {}", list(.available))]
    UnknownOverride {
        /// The requested name.
        name: String,
        /// The overrides there are.
        available: Vec<String>,
    },
    /// An override the entry point uses has no default and no value.
    #[error("override `{name}` ({ty}{}) has no default value: set it with --override {name}=VALUE", id.map(|id| format!(", @id({id})")).unwrap_or_default())]
    MissingOverride {
        /// Its name.
        name: String,
        /// Its type, as WGSL spells it.
        ty: String,
        /// Its `@id`, if it has one.
        id: Option<u16>,
    },
    /// Resolving overrides failed (a bad value…).
    #[error("cannot resolve overrides: {message}")]
    Override {
        /// naga's message.
        message: String,
    },
    /// The shader does something wgrace cannot check yet.
    #[error("{}wgrace cannot check {what} yet", at(.location))]
    Unsupported {
        /// What it is.
        what: String,
        /// Where.
        location: Location,
    },
    /// Site ids do not fit the race table's key.
    #[error("the shader has {sites} memory access sites; wgrace handles at most {max}",
            max = wgrace_shaders::Prelude::MAX_SITES - 1)]
    TooManySites {
        /// How many sites it has.
        sites: usize,
    },
    /// Variable ids do not fit the replay's events.
    #[error("the shader has {vars} workgroup and storage variables; wgrace handles at most {max}", max = MAX_VARS)]
    TooManyVariables {
        /// How many it has.
        vars: usize,
    },
    /// The shader's workgroup memory leaves no room for the runtime's.
    #[error(
        "the shader uses {used} bytes of workgroup memory; checking it needs {needed} more, beyond the adapter's \
         limit of {limit}"
    )]
    WorkgroupMemory {
        /// Bytes the shader uses (rounded as WebGPU counts them).
        used: u32,
        /// Bytes the runtime needs besides the shadow.
        needed: u32,
        /// The adapter's `max_compute_workgroup_storage_size`.
        limit: u32,
    },
    /// The dispatch is too large for addr mode's storage state word.
    #[error(
        "a dispatch of {workgroups} workgroups of {invocations} invocations, with {sites} access sites, {}",
        match .error {
            wgrace_shaders::LayoutError::TooManyWorkgroups =>
                "leaves too few bits in wgrace's 64-bit storage state word to count storage barriers; use a smaller \
                 dispatch",
            wgrace_shaders::LayoutError::CacheNeedsNarrowerIdentity =>
                "needs a 64-bit storage identity, which leaves no room for --shadow-cache's tag; use a smaller \
                 dispatch or leave out --shadow-cache",
        }
    )]
    StorageLayout {
        /// What does not fit.
        error: wgrace_shaders::LayoutError,
        /// Workgroups of the dispatch.
        workgroups: u64,
        /// Invocations per workgroup.
        invocations: u32,
        /// Access sites of the shader.
        sites: usize,
    },
    /// A bug in wgrace: please report it with the shader.
    #[error("internal error in wgrace's instrumentation (please report it with the shader): {message}")]
    Internal {
        /// What went wrong.
        message: String,
    },
}

fn list(names: &[String]) -> String {
    if names.is_empty() { "none".into() } else { names.join(", ") }
}

fn at(location: &Location) -> String {
    match location.line {
        Some(line) => format!("line {line}: `{}`: ", location.snippet.trim()),
        None => String::new(),
    }
}

/// A validated module with overrides resolved, ready to run or instrument.
#[derive(Debug, Clone)]
pub struct Prepared {
    /// The module, with no `override` left.
    pub module: Module,
    /// Its validation info.
    pub info: ModuleInfo,
    /// The compute entry point to run.
    pub entry_point: String,
    /// Its workgroup size.
    pub workgroup_size: [u32; 3],
}

/// Validates `shader` under `capabilities`, picks its compute entry point
/// (`entry`, or the only one) and resolves its `override` constants from
/// `overrides` (name → value; unset ones keep their defaults).
///
/// # Errors
/// [`InstrumentError`] when the shader is invalid, has no such entry point
/// or override, or an override has no value.
pub fn prepare(
    shader: &Shader,
    entry: Option<&str>,
    overrides: &[(String, f64)],
    capabilities: Capabilities,
) -> Result<Prepared, InstrumentError> {
    // SPIR-V's specialization constants are set before naga reads the
    // module (see `spirv::specialize`): WGSL's `override`s after.
    let specialized;
    let (shader, overrides) = if shader.language == Language::SpirV && !overrides.is_empty() {
        specialized = shader.specialize(overrides).map_err(|e| specialize_error(shader, e))?;
        (&specialized, &[][..])
    } else {
        (shader, overrides)
    };
    let module = &shader.module;
    let info = Validator::new(ValidationFlags::all(), capabilities)
        .validate(module)
        .map_err(|e| InstrumentError::Invalid { diagnostic: render_validation(shader, &e) })?;

    let computes: Vec<String> =
        module.entry_points.iter().filter(|ep| ep.stage == ShaderStage::Compute).map(|ep| ep.name.clone()).collect();
    let entry_point = match entry {
        Some(name) if computes.iter().any(|c| c == name) => name.to_string(),
        Some(name) => return Err(InstrumentError::NoSuchEntryPoint { name: name.into(), available: computes }),
        None => match computes.as_slice() {
            [] => return Err(InstrumentError::NoComputeEntryPoint),
            [one] => one.clone(),
            _ => return Err(InstrumentError::AmbiguousEntryPoint { names: computes }),
        },
    };

    let available: Vec<String> = module.overrides.iter().filter_map(|(_, o)| o.name.clone()).collect();
    // naga keys an override by its `@id` when it has one, else by its name;
    // users may give either.
    let key = |o: &naga::Override| o.id.map_or_else(|| o.name.clone().unwrap_or_default(), |id| id.to_string());
    let mut constants = naga::back::PipelineConstants::default();
    for (name, value) in overrides {
        let found = module
            .overrides
            .iter()
            .find(|(_, o)| o.name.as_deref() == Some(name) || o.id.map(|id| id.to_string()).as_deref() == Some(name));
        let Some((_, o)) = found else {
            return Err(InstrumentError::UnknownOverride { name: name.clone(), available });
        };
        constants.insert(key(o), *value);
    }
    let (module, info) = naga::back::pipeline_constants::process_overrides(
        module,
        &info,
        Some((ShaderStage::Compute, &entry_point)),
        &constants,
    )
    .map_err(|e| match e {
        naga::back::pipeline_constants::PipelineConstantError::MissingValue(ref missing) => {
            match module.overrides.iter().find(|(_, o)| key(o) == *missing) {
                Some((_, o)) => InstrumentError::MissingOverride {
                    name: o.name.clone().unwrap_or_else(|| missing.clone()),
                    ty: module.types[o.ty].name.clone().unwrap_or_else(|| type_name(&module.types[o.ty].inner)),
                    id: o.id,
                },
                None => InstrumentError::Override { message: e.to_string() },
            }
        }
        e => InstrumentError::Override { message: e.to_string() },
    })?;
    let module = module.into_owned();
    let info = info.into_owned();
    let workgroup_size = module
        .entry_points
        .iter()
        .find(|ep| ep.name == entry_point && ep.stage == ShaderStage::Compute)
        .map(|ep| ep.workgroup_size)
        .unwrap_or([1, 1, 1]);
    Ok(Prepared { module, info, entry_point, workgroup_size })
}

/// How WGSL spells an override's type (a scalar).
fn type_name(ty: &naga::TypeInner) -> String {
    match ty {
        naga::TypeInner::Scalar(scalar) => match (scalar.kind, scalar.width) {
            (naga::ScalarKind::Bool, _) => "bool".into(),
            (naga::ScalarKind::Sint, 4) => "i32".into(),
            (naga::ScalarKind::Uint, 4) => "u32".into(),
            (naga::ScalarKind::Float, 2) => "f16".into(),
            (naga::ScalarKind::Float, 4) => "f32".into(),
            (kind, width) => format!("{kind:?} of {} bits", u32::from(width) * 8),
        },
        other => format!("{other:?}"),
    }
}

fn specialize_error(shader: &Shader, e: source::SpecializeFailure) -> InstrumentError {
    match e {
        source::SpecializeFailure::Specialize(spirv::SpecializeError::Unknown { name }) => {
            let available = shader.spec_constants().iter().map(ToString::to_string).collect();
            InstrumentError::UnknownOverride { name, available }
        }
        source::SpecializeFailure::Specialize(e) => {
            InstrumentError::Override { message: source::specialize_message(&e) }
        }
        source::SpecializeFailure::Load(e) => InstrumentError::Invalid { diagnostic: e.to_string() },
    }
}

fn render_validation(shader: &Shader, e: &naga::WithSpan<naga::valid::ValidationError>) -> String {
    match (&shader.language, &shader.text) {
        (Language::Wgsl, Some(text)) => e.emit_to_string_with_path(text, &shader.path),
        _ => {
            let mut message = format!("{}: invalid shader: {}", shader.path, e.as_inner());
            let mut source: Option<&dyn std::error::Error> = std::error::Error::source(e.as_inner());
            while let Some(s) = source {
                message.push_str(&format!(": {s}"));
                source = s.source();
            }
            message
        }
    }
}
