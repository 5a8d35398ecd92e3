//! `atomic-plain`: an atomic and a plain access of one word, unordered.
//!
//! SPIR-V lets a word be accessed by atomics and by plain loads and stores
//! (GLSL: `atomicAdd(count, 1u)` in one place, `total = count` in another).
//! The Vulkan memory model treats such a pair like any pair with a plain
//! access: it races unless something orders the two, and the atomic's scope
//! does not help. naga's reader makes such memory atomic; the pass still
//! finds the plain `OpLoad`s and `OpStore`s by their instructions
//! (`Shader::is_plain_spirv_access`) and reports them, with every atomic of
//! the variable, to the runtime's atomic-memory event. This check's WGSL
//! (`shaders/wgsl/checks/atomic_plain/`) keeps, per word of a buffer, which
//! workgroups accessed it atomically and plainly and how, and, per word of a
//! buffer or of workgroup memory, which invocations of the workgroup did
//! since its last control barrier that orders that memory; it reports the
//! first conflicting atomic and plain pair of each. The state within a
//! workgroup takes 72 (`atomic_memory::LOCAL_BYTES_PER_WORD`) bytes of
//! workgroup memory per word, for the words the accesses can reach: memory
//! indexed through a runtime-sized array, or too large for what the shader
//! leaves, is checked across workgroups only (a buffer) or not at all
//! (workgroup memory), and the report says so. Where release and acquire
//! synchronization can order such a pair (SPIR-V whose atomics or fences
//! release and acquire that memory), the data-race check's happens-before
//! engine checks the memory instead (`TrackedVar::engine_checks_atomics`,
//! `HappensBefore::atomic_plain`) and records its pairs under this check's
//! codes (`engine/record.wgsl`). Its records are races of class
//! `atomic-plain`: code 0 when the later access read, 1 when it wrote.

use wgrace_report::{CheckInfo, RaceClass, Severity};
use wgrace_shaders::LinkedCheck;

use super::atomic_memory::LocalState;
use super::{Check, DecodeContext, Decoded, Record, ShaderFacts};
use crate::vars::TrackedVar;

/// The check.
pub struct AtomicPlain;

const ID: &str = "atomic-plain";

/// Workgroups the state tells apart (28-bit ids).
pub const MAX_WORKGROUPS: u64 = 1 << 28;

/// The most workgroup memory that state takes, leaving the rest to the
/// shader and the data-race check's shadow.
pub const LOCAL_BUDGET: u32 = 4096;

/// Workgroup memory the other checks may take besides the checks of atomic
/// memory (the barrier-divergence check's word, the replay's round
/// counters).
pub const OTHER_CHECKS_BYTES: u32 = 64;

/// The class's explanation, as the report shows it.
pub const EXPLANATION: &str = "an atomic and a plain (non-atomic) access of this word, at least one writing, with \
    nothing ordering them: an atomic's scope does not order it with a plain access; within a workgroup a control \
    barrier that orders buffer memory does, and between workgroups only release/acquire synchronization (whose \
    scopes, and the atomic's own, hold both invocations)";

/// The class's fix hint.
pub const HINT: &str = "make the plain access atomic too (GLSL: atomicLoad, atomicStore, or an atomic \
    read-modify-write); within a workgroup a control barrier with UniformMemory semantics between the two also \
    orders them";

/// The explanation of a race on workgroup memory.
pub const SHARED_EXPLANATION: &str = "an atomic and a plain (non-atomic) access of this word of workgroup memory, at \
    least one writing, with nothing ordering them: an atomic's scope does not order it with a plain access; a control \
    barrier that orders workgroup memory does, or release/acquire synchronization of workgroup memory";

/// Its fix hint.
pub const SHARED_HINT: &str = "make the plain access atomic too (GLSL: atomicLoad, atomicStore, or an atomic \
    read-modify-write), or put a control barrier with WorkgroupMemory semantics between the two (GLSL: barrier())";

/// The explanation of a race within a workgroup on a buffer whose plain
/// accesses are private under the Vulkan memory model.
pub const PRIVATE_EXPLANATION: &str = "an atomic and a plain (non-atomic) access of this word, at least one \
    writing, in one workgroup: under the Vulkan memory model the module declares, barriers order only non-private \
    accesses (NonPrivatePointer) between invocations, and this buffer's plain accesses are private, as glslang makes \
    those of a buffer not declared coherent";

/// Its fix hint.
pub const PRIVATE_HINT: &str = "declare the buffer coherent (GLSL), so that its plain accesses are non-private, \
    and keep a control barrier with UniformMemory semantics between the two accesses; or make the plain access \
    atomic too";

impl Check for AtomicPlain {
    fn part_of(&self) -> Option<&'static str> {
        Some(super::data_race::ID)
    }

    fn info(&self) -> CheckInfo {
        CheckInfo {
            id: ID.into(),
            name: "AtomicPlainRace".into(),
            short_description: "An atomic and a plain access of one word, unordered".into(),
            full_description: format!(
                "SPIR-V input: {EXPLANATION}. wgrace records, for every word that both atomics and plain loads \
                 or stores access, which workgroups accessed it and how, and which invocations of a workgroup did \
                 since its last barrier, and reports the first conflicting pair of an atomic and a plain access \
                 across workgroups, and in each workgroup."
            ),
            help: HINT.into(),
            severity: Severity::Error,
        }
    }

    fn record_codes(&self) -> u32 {
        2
    }

    fn link(&self, facts: &ShaderFacts<'_>, first_code: u32) -> Option<LinkedCheck> {
        if !facts.plain_and_atomic {
            return None;
        }
        let budget = facts.workgroup_bytes_free.saturating_sub(OTHER_CHECKS_BYTES).min(LOCAL_BUDGET);
        // The happens-before engine checks the memory whose atomics it
        // checks (engine/record.wgsl records its races under this check's
        // codes).
        let local = LocalState::of(
            facts,
            |v| v.plain_and_atomic && !v.engine_checks_atomics,
            1,
            budget,
            |v| match v.space {
                crate::Space::Workgroup => {
                    format!("races between plain and atomic accesses of `{}` are not checked", v.name)
                }
                _ => format!(
                    "races between plain and atomic accesses of `{}` within one workgroup are not checked (across \
                     workgroups they are)",
                    v.name
                ),
            },
        );
        let mut linked = local.link(ID, "AP", first_code);
        linked.source.push_str(&super::barriers_order_wgsl(&linked.prefix, facts.vars));
        if facts.happens_before.is_some_and(|engine| engine.atomic_plain) {
            linked.source.push_str(wgrace_shaders::check_file("atomic_plain/engine/record.wgsl").unwrap_or_default());
        }
        Some(linked)
    }

    fn decode(&self, record: &Record, ctx: &DecodeContext<'_>) -> Result<Decoded, String> {
        let texts = |var: &TrackedVar, within: bool| match var.space {
            _ if var.unordered_by_barriers && var.texture.is_none() && within => (PRIVATE_EXPLANATION, PRIVATE_HINT),
            crate::Space::Workgroup => (SHARED_EXPLANATION, SHARED_HINT),
            _ => (EXPLANATION, HINT),
        };
        super::atomic_memory::decode(RaceClass::AtomicPlain, record, ctx, texts).map(Decoded::Race)
    }
}
