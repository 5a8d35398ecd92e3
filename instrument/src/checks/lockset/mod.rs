//! `lockset`: accesses to shared data made holding no lock in common, one
//! of them inside a critical section (ScoRD's lockset, on inferred locks).
//!
//! A spin lock orders the accesses made while holding it: a thread that
//! writes the data outside the lock, or under another lock, races with the
//! one that writes it inside, however correct the lock itself is. ScoRD
//! infers locks from their atomics, and so does wgrace: a compare-exchange
//! from 0 to a constant that exchanged takes the lock at its word, a store
//! or an exchange of 0 to that word frees it (`pass`, `SyncPlan::lock`); a
//! compare-exchange takes a lock only in a variable where something frees
//! one (claiming a word for good is not locking it: `pass::infer_locks`).
//!
//! The data-race check's happens-before engine
//! (`shaders/wgsl/checks/data_race/happens_before/engine.wgsl`) keeps the
//! locks each invocation holds (up to four at once) and, with each access
//! it remembers, the locks held when it was made. A race it finds between
//! accesses whose locks have none in common, one of them holding one, is
//! this check's, recorded through this check's WGSL
//! (`shaders/wgsl/checks/lockset/`) under its code: unless a wider scope
//! (the `scope` check's) or release and acquire semantics (`missing-fence`)
//! would have ordered it, or it crosses a barrier of the wrong kind
//! (`barrier-kind`). Unlike ScoRD, wgrace reports only races that happened:
//! accesses on different locks that something else ordered are not races
//! under the Vulkan memory model.

use wgrace_report::{CheckInfo, RaceClass, Severity};
use wgrace_shaders::LinkedCheck;

use super::{Check, DecodeContext, Decoded, Record, ShaderFacts, data_race};

/// The check.
pub struct Lockset;

const ID: &str = "lockset";

/// The class's explanation, as the report shows it.
pub const EXPLANATION: &str = "the invocations held no lock in common when they made these accesses, one of them \
    inside a critical section (a spin lock taken with a compare-exchange from 0 and freed by writing 0): a lock \
    orders only accesses that are all made while holding it, so the other access, outside the lock or under \
    another one, races with it";

/// The class's fix hint.
pub const HINT: &str = "make both accesses while holding the same lock (take it around the access that has \
    none, or use one lock for this data), or order them with a barrier or release and acquire synchronization";

impl Check for Lockset {
    fn part_of(&self) -> Option<&'static str> {
        Some(super::data_race::ID)
    }

    fn info(&self) -> CheckInfo {
        CheckInfo {
            id: ID.into(),
            name: "LocksetRace".into(),
            short_description: "Accesses to shared data made holding no lock in common, one inside a critical \
                section"
                .into(),
            full_description: format!(
                "Under the Vulkan memory model (SPIR-V input), {EXPLANATION}. wgrace infers spin locks from \
                 their atomics, keeps the locks each invocation holds and those held at each access, and reports \
                 a race of two accesses whose locks have none in common (one of them holding one) here."
            ),
            help: HINT.into(),
            severity: Severity::Error,
        }
    }

    fn link(&self, facts: &ShaderFacts<'_>, first_code: u32) -> Option<LinkedCheck> {
        // Only with locks to follow.
        facts.happens_before.filter(|engine| engine.locks)?;
        let source = wgrace_shaders::check_source(ID).unwrap_or_default();
        Some(super::engine_recorder(ID, source, first_code))
    }

    fn decode(&self, record: &Record, ctx: &DecodeContext<'_>) -> Result<Decoded, String> {
        data_race::decode(RaceClass::Lockset, record, ctx).map(Decoded::Race)
    }
}
