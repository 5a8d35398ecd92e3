//! `scope`: synchronization at a scope too narrow for the invocations it
//! orders.
//!
//! Under the Vulkan memory model two atomic accesses of one location are
//! mutually ordered only when the scope of each includes the other's
//! invocation; when they are not, "each must be synchronized against the
//! other as if they were non-atomic" (the memory model appendix, "Atomic
//! Operation"). A SPIR-V atomic of workgroup scope on buffer memory is
//! therefore a race with any conflicting atomic of another workgroup, however
//! wide that one's scope: the counter that GLSL's
//! `atomicAdd(counter, 1, gl_ScopeWorkgroup, …)` increments from every
//! workgroup, ScoRD's scoped races.
//!
//! The pass calls the runtime's atomic event after every atomic access of a
//! buffer that has atomics narrower than the device, with the access's site
//! and whether it wrote (a compare-exchange only when it exchanged) and was
//! narrow; this check's WGSL (`shaders/wgsl/checks/scope/atomics.wgsl`)
//! keeps, per word, which workgroups made which kinds of access and
//! reports the first conflicting pair of different workgroups with a narrow
//! access among them. Its records are races of class `scope`: code 0 when
//! the later access read, 1 when it wrote.
//!
//! Within a workgroup, atomics of subgroup scope (of buffer or workgroup
//! memory) are not ordered with atomics of other subgroups: the check keeps
//! a state per word of such memory in workgroup memory, with the subgroups
//! that accessed it since the workgroup's last barrier ordering that
//! memory, and reports conflicting pairs of different subgroups with a
//! subgroup-scope atomic among them. Atomics of invocation scope are
//! ordered with no other invocation's: when the shader has one, a second
//! level of that state has invocations as accessors, and reports such
//! pairs within a subgroup (memory indexed through a runtime-sized array,
//! or too large for the workgroup memory left, is not checked within a
//! workgroup, and the report says so).
//!
//! Fences and atomics of too narrow a scope that leave plain accesses
//! unordered (a release fence of workgroup scope before a flag another
//! workgroup waits on, a lock whose atomics have workgroup scope): the
//! data-race check's happens-before engine follows, for a module with
//! atomics or fences of buffer memory narrower than the device, the same
//! program with every atomic and fence at device scope (its wide set); a
//! race of the shader that this program orders is this check's, recorded
//! by the engine through this check's `scope/engine/sync.wgsl` under code
//! 2, a race of memory like the data-race check's.
//!
//! In a module that synchronizes with release and acquire, that
//! synchronization can order two atomics whose scopes are not mutually
//! inclusive, as it orders plain accesses: a device-scope write, then
//! through a device-scope flag a workgroup-scope write of another
//! workgroup (ScoR's `hrd-indirect`; a workgroup-scope write stays
//! unordered with another workgroup's atomics, since it is made available
//! within its workgroup only). There the happens-before engine checks the
//! atomics of buffers with
//! atomics narrower than the device, where it runs, and records their
//! races through `scope/engine/atomics.wgsl` under codes 3 and 4 (the later
//! access read, wrote), with an explanation of their own: what left them
//! racing is happens-before and availability, not a missing barrier; the
//! state machines leave those buffers to it.
//!
//! What it does not cover yet: barriers of too narrow a scope (subgroup
//! barriers across subgroups).

use wgrace_report::{CheckInfo, RaceClass, Severity};
use wgrace_shaders::LinkedCheck;

use super::atomic_memory::LocalState;
use super::{Check, DecodeContext, Decoded, Record, ShaderFacts, atomic_plain, data_race};

/// The check.
pub struct Scope;

const ID: &str = "scope";

/// The most workgroup memory that state takes.
const LOCAL_BUDGET: u32 = 2048;

/// The class's explanation, as the report shows it.
pub const EXPLANATION: &str = "atomic accesses of one word, at least one writing, whose scopes do not both include \
    the other's invocation (of different workgroups, one of workgroup scope or narrower; of different subgroups of \
    a workgroup, one of subgroup scope or narrower; or of different invocations, one of invocation scope; with no \
    barrier between): the Vulkan memory model does not order such atomics with each other, so they race as plain \
    accesses would";

/// The explanation of a race of two atomics that the happens-before engine
/// found: their scopes are not mutually inclusive, and nothing orders them
/// as plain accesses.
pub const ENGINE_EXPLANATION: &str = "atomic accesses of one word, at least one writing, whose scopes do not both \
    include the other's invocation, and that nothing orders as it would order plain accesses: the Vulkan memory \
    model synchronizes such atomics only as if they were non-atomic (the earlier must happen before the later, an \
    earlier write's atomic must be of a scope that holds both invocations to make its write available to the \
    other, and a later read's to make it visible), so they race";

/// The fix hint of such a race.
pub const ENGINE_HINT: &str = "give the atomics a scope that holds both invocations (GLSL: gl_ScopeDevice across \
    workgroups, gl_ScopeWorkgroup across subgroups), or order them with release and acquire synchronization of a \
    scope that holds both, the earlier write's atomic of such a scope too";

/// The explanation of a race of plain accesses that synchronization of a
/// wider scope would order.
pub const SYNC_EXPLANATION: &str = "the accesses are ordered only through synchronization whose scope does not \
    include both invocations: a fence or atomic of workgroup scope between workgroups (or of subgroup scope between \
    subgroups), a subgroup barrier, or a control barrier whose memory scope is a subgroup, between subgroups, does \
    not synchronize them, so the Vulkan memory model leaves them racing, although they would be ordered with the \
    same synchronization at a scope that holds both";

/// The fix hint of such a race.
pub const SYNC_HINT: &str = "give the fences and the flag's or lock's atomics a scope that holds both invocations \
    (GLSL: gl_ScopeDevice across workgroups, gl_ScopeWorkgroup across subgroups of one workgroup; \
    memoryBarrierBuffer() in place of groupMemoryBarrier() across workgroups), and use a workgroup barrier \
    (GLSL's barrier(), or controlBarrier with gl_ScopeWorkgroup as both scopes) between subgroups";

/// The class's fix hint.
pub const HINT: &str = "give the atomics a scope that holds both invocations (GLSL: gl_ScopeDevice across \
    workgroups, gl_ScopeWorkgroup across subgroups, gl_ScopeSubgroup within one, or the atomic functions without a \
    scope argument), or keep each workgroup (subgroup) to its own words";

impl Check for Scope {
    fn part_of(&self) -> Option<&'static str> {
        Some(super::data_race::ID)
    }

    fn info(&self) -> CheckInfo {
        CheckInfo {
            id: ID.into(),
            name: "ScopeRace".into(),
            short_description: "Synchronization at a scope too narrow for the invocations it orders".into(),
            full_description: format!(
                "Under the Vulkan memory model (SPIR-V input), {EXPLANATION}. wgrace records, for every word of a \
                 buffer with atomics narrower than the device, which workgroups accessed it atomically and how, \
                 and within a workgroup, which subgroups (and, for atomics of invocation scope, which invocations) \
                 did since the last barrier, and reports the first conflicting pair that is not mutually ordered."
            ),
            help: HINT.into(),
            severity: Severity::Error,
        }
    }

    fn record_codes(&self) -> u32 {
        5
    }

    fn link(&self, facts: &ShaderFacts<'_>, first_code: u32) -> Option<LinkedCheck> {
        // The happens-before engine's races that synchronization of device
        // scope would order.
        let engine = facts.happens_before.is_some_and(|e| e.programs.wide);
        let sync = if engine { wgrace_shaders::check_file("scope/engine/sync.wgsl").unwrap_or_default() } else { "" };
        // Without an atomic narrower than the device, no atomic has a scope
        // too narrow for the invocations that use it.
        if !facts.scoped_atomics {
            return engine.then(|| super::engine_recorder(ID, sync.to_string(), first_code));
        }
        // Within a workgroup, for memory with subgroup-scope atomics; the
        // atomic-plain check may take its budget first.
        let budget = facts
            .workgroup_bytes_free
            .saturating_sub(atomic_plain::OTHER_CHECKS_BYTES + atomic_plain::LOCAL_BUDGET)
            .min(LOCAL_BUDGET);
        // Atomics of invocation scope get a second level of state, whose
        // accessors are invocations.
        let levels = if facts.vars.iter().any(|v| v.invocation_atomics) { 2 } else { 1 };
        // The happens-before engine checks the atomics of the buffers it
        // follows (engine/atomics.wgsl records its races under this
        // check's codes).
        let local = LocalState::of(
            facts,
            |v| v.subgroup_atomics && (v.space == crate::Space::Workgroup || !v.engine_checks_atomics),
            levels,
            budget,
            |v| format!("scope races within one workgroup on `{}` are not checked", v.name),
        );
        let mut linked = local.link(ID, "SCOPE", first_code);
        linked.source.push_str(sync);
        if facts.happens_before.is_some_and(|e| e.atomic_scope) {
            linked.source.push_str(wgrace_shaders::check_file("scope/engine/atomics.wgsl").unwrap_or_default());
        }
        Some(linked)
    }

    fn decode(&self, record: &Record, ctx: &DecodeContext<'_>) -> Result<Decoded, String> {
        if record.code == 2 {
            let mut race = data_race::decode(RaceClass::Scope, record, ctx)?;
            race.explanation = SYNC_EXPLANATION.into();
            race.hint = SYNC_HINT.into();
            return Ok(Decoded::Race(race));
        }
        if record.code >= 3 {
            let texts = |_: &_, _| (ENGINE_EXPLANATION, ENGINE_HINT);
            let record = Record { code: record.code - 3, ..record.clone() };
            return super::atomic_memory::decode(RaceClass::Scope, &record, ctx, texts).map(Decoded::Race);
        }
        let texts = |_: &_, _| (EXPLANATION, HINT);
        super::atomic_memory::decode(RaceClass::Scope, record, ctx, texts).map(Decoded::Race)
    }
}
