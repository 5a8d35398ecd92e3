//! `missing-fence`: a flag or lock protocol whose atomics carry no release or
//! acquire semantics (and no fences stand in for them), so the data it
//! passes is not ordered.
//!
//! Under the Vulkan memory model an atomic orders other memory only through
//! its semantics: a relaxed `atomicStore(flag, 1u)` after writing the data,
//! and a relaxed `atomicLoad(flag)` that sees it before reading the data,
//! leave the data's write and read racing, although the flag's atomics are
//! ordered with each other. So do a spin lock taken with a relaxed
//! compare-exchange and released with a relaxed exchange, and the same with
//! a release fence or an acquire fence left out.
//!
//! The data-race check's happens-before engine
//! (`shaders/wgsl/checks/data_race/happens_before/engine.wgsl`) finds these
//! races. When the module has atomics on buffer memory without both
//! semantics, or atomics on shared memory that do not release and acquire
//! the memory of the data (buffers, and shared memory where plain accesses
//! use it), it follows a second program beside the shader's: the same one
//! with every atomic acquiring what it reads and releasing what it writes,
//! at its own scope (the engine's strong set of clocks). A race of the
//! shader that the strong program orders is this check's: it would not be
//! one if the atomics had those semantics. This check's WGSL
//! (`shaders/wgsl/checks/missing_fence/`) records such races under its own
//! code, instead of the data-race class; a race separated by a barrier of
//! the wrong kind stays `barrier-kind`. Atomics of too narrow a scope are
//! not this check's: the strong program keeps their scopes, so such a race
//! stays a data race (and the `scope` check reports the atomics).

use wgrace_report::{CheckInfo, RaceClass, Severity};
use wgrace_shaders::LinkedCheck;

use super::{Check, DecodeContext, Decoded, Record, ShaderFacts, data_race};

/// The check.
pub struct MissingFence;

const ID: &str = "missing-fence";

/// The class's explanation, as the report shows it.
pub const EXPLANATION: &str = "a flag or lock orders these accesses only if its atomics release and acquire: \
    the atomics between them are relaxed (no Release or Acquire semantics on UniformMemory) and no release fence \
    before the writing side's atomic, or acquire fence after the reading side's, stands in for that, so the Vulkan \
    memory model does not order the accesses even when the flag or lock was seen";

/// The class's fix hint.
pub const HINT: &str = "give the atomic that publishes (the flag's store, the lock's release) Release semantics \
    and the one that observes (the flag's load, the lock's compare-exchange) Acquire semantics, on buffer memory \
    (GLSL: atomicStore(flag, 1u, gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsRelease | \
    gl_SemanticsMakeAvailable), and gl_SemanticsAcquire | gl_SemanticsMakeVisible on the load), or put \
    memoryBarrier(gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsRelease) before the publishing atomic and \
    an acquire fence after the observing one (without the Vulkan memory model, where atomics carry no semantics: \
    memoryBarrierBuffer() before and after)";

/// The explanation of a race on shared memory.
pub const SHARED_EXPLANATION: &str = "a flag or lock orders these accesses of shared memory only if its atomics \
    release and acquire shared memory: the atomics between them do not (no Release or Acquire semantics on \
    WorkgroupMemory) and no release fence before the writing side's atomic, or acquire fence after the reading \
    side's, stands in for that, so the Vulkan memory model does not order the accesses even when the flag or lock \
    was seen";

/// Its fix hint.
pub const SHARED_HINT: &str = "give the atomic that publishes (the flag's store, the lock's release) Release \
    semantics and the one that observes (the flag's load, the lock's compare-exchange) Acquire semantics, on \
    shared memory (GLSL: atomicStore(flag, 1u, gl_ScopeWorkgroup, gl_StorageSemanticsShared, gl_SemanticsRelease), \
    and gl_SemanticsAcquire on the load), or put memoryBarrier(gl_ScopeWorkgroup, gl_StorageSemanticsShared, \
    gl_SemanticsRelease) before the publishing atomic and an acquire fence after the observing one (without the \
    Vulkan memory model: memoryBarrierShared() before and after); or, where every invocation of the workgroup takes \
    part, a barrier()";

impl Check for MissingFence {
    fn part_of(&self) -> Option<&'static str> {
        Some(super::data_race::ID)
    }

    fn info(&self) -> CheckInfo {
        CheckInfo {
            id: ID.into(),
            name: "MissingFence".into(),
            short_description: "A flag or lock protocol whose atomics do not release and acquire, so the data it \
                passes is not ordered"
                .into(),
            full_description: format!(
                "Under the Vulkan memory model (SPIR-V input), {EXPLANATION}. wgrace's happens-before engine \
                 follows the shader's synchronization and, beside it, the same program with every atomic \
                 acquiring and releasing at its own scope; a race of the shader that the second program orders \
                 is reported here."
            ),
            help: HINT.into(),
            severity: Severity::Error,
        }
    }

    fn link(&self, facts: &ShaderFacts<'_>, first_code: u32) -> Option<LinkedCheck> {
        // Only the engine's strong set finds these races.
        facts.happens_before.filter(|engine| engine.programs.strong)?;
        let source = wgrace_shaders::check_source(&super::wgsl_prefix(ID)).unwrap_or_default();
        Some(super::engine_recorder(ID, source, first_code))
    }

    fn decode(&self, record: &Record, ctx: &DecodeContext<'_>) -> Result<Decoded, String> {
        data_race::decode(RaceClass::MissingFence, record, ctx).map(Decoded::Race)
    }
}
