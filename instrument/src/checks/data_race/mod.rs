//! `data-race`: two accesses to one memory location, from different
//! invocations, at least one a write, not both atomic, that nothing ordered
//! (the WGSL memory model; see the crate docs).
//!
//! Its engine is its WGSL (`shaders/wgsl/checks/data_race/`: the per-word
//! state machines of addr mode in `addr.wgsl`, statement mode's tables in
//! `stmt.wgsl` and its storage pass in `passes/stmt_check.wgsl`, and its use
//! of subgroups in `subgroups/`), fed by the access hooks the pass splices
//! into the shader and by the runtime's begin, barrier and end events. Its records are races, one per (class, unordered site
//! pair), with codes 0 to 3 for the classes; this module turns them (and the
//! static analyzer's proven races) into the report's [`Race`]s, and owns the
//! classes' explanations and hints.

use naga::Module;
use wgrace_report::{
    Access, AccessKind, CheckInfo, DetectedBy, Invocation, Location, Lockstep, Memory, Race, RaceClass, RaceExample,
    RaceKind, Severity, SiteTable, Space, Spread,
};
use wgrace_shaders::{Hooks, LinkedCheck};

pub mod happens_before;

use super::{Check, DecodeContext, Decoded, Record, ShaderFacts, delinearize};
use crate::Language;
use crate::analysis::StaticRace;
use crate::vars::TrackedVar;

/// How races are detected.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Mode {
    /// One state per word, checked as each access happens; reports each
    /// racing word, and one representative pair per word.
    #[default]
    Addr,
    /// GRace-stmt: statement tables grouped by address, checked at barriers
    /// and after the dispatch; reports every racing statement pair.
    Stmt,
}

impl Mode {
    /// `"addr"` or `"stmt"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Addr => "addr",
            Mode::Stmt => "stmt",
        }
    }
}

/// The check.
pub struct DataRace;

/// Record codes of the classes (`WGRACE_CLASS_*` in addr.wgsl).
const CLASSES: [RaceClass; 4] =
    [RaceClass::IntraWorkgroup, RaceClass::BarrierKind, RaceClass::InterWorkgroup, RaceClass::IntraSubgroup];

/// Its id.
pub const ID: &str = "data-race";

/// Its folder below `shaders/wgsl/checks/` and the prefix of its WGSL names.
const WGSL: &str = "data_race";

/// Bytes of workgroup memory the replay's round counters take
/// (`wgrace_round` in `hooks/replay.wgsl`: three sets of four words).
const REPLAY_WORKGROUP_BYTES: u32 = 3 * 4 * 4;

/// Site id the runtime writes for an access it did not record.
pub(crate) const UNKNOWN_SITE: u32 = wgrace_shaders::abi::UNKNOWN_ID;

impl Check for DataRace {
    fn info(&self) -> CheckInfo {
        CheckInfo {
            id: ID.into(),
            name: "DataRace".into(),
            short_description: "Two invocations accessed the same memory, at least one writing, with nothing \
                ordering the accesses"
                .into(),
            full_description: "Two accesses race when they touch the same bytes of one var<workgroup> (in one \
                workgroup) or of a writable storage buffer, come from different invocations, at least one writes, \
                they are not both atomic, and nothing orders them: workgroupBarrier() (or workgroupUniformLoad) \
                for workgroup memory, storageBarrier() within one workgroup for storage memory, nothing between \
                workgroups of one dispatch. There is no lock-step exemption for invocations of one subgroup."
                .into(),
            help: "Order the two accesses with the barrier of their memory's kind, make both atomic, or partition \
                the data so that no two invocations touch the same word between barriers."
                .into(),
            severity: Severity::Error,
        }
    }

    fn record_codes(&self) -> u32 {
        CLASSES.len() as u32
    }

    fn checked_statically(&self) -> bool {
        true
    }

    fn link(&self, facts: &ShaderFacts<'_>, first_code: u32) -> Option<LinkedCheck> {
        // Its WGSL numbers the classes from 0 (WGRACE_CLASS_*).
        debug_assert_eq!(first_code, 0, "the data-race check must come first in the registry");
        let variant = if facts.subgroups { "warp" } else { "warp_none" };
        let mut source = wgrace_shaders::check_source(WGSL).unwrap_or_default();
        source.push_str(wgrace_shaders::check_file(&format!("{WGSL}/subgroups/{variant}.wgsl")).unwrap_or_default());
        // The access hooks: record for the replay, or check in place.
        let hooks = if facts.replay { "replay" } else { "check" };
        source.push_str(wgrace_shaders::check_file(&format!("{WGSL}/hooks/{hooks}.wgsl")).unwrap_or_default());
        source.push_str(&super::barriers_order_wgsl(WGSL, facts.vars));
        match facts.happens_before {
            Some(engine) => source.push_str(&engine.wgsl(facts.vars)),
            None => source
                .push_str(wgrace_shaders::check_file(&format!("{WGSL}/happens_before/none.wgsl")).unwrap_or_default()),
        }
        Some(LinkedCheck {
            prefix: WGSL.into(),
            source,
            hooks: Hooks { begin: true, barrier: true, end: true, ..Hooks::default() },
            first_code,
            // The replay's round counters; its workgroup shadow is sized with
            // the prelude, and accounted for by the pass
            // (`workgroup_shadow_resident`).
            workgroup_bytes: if facts.replay { REPLAY_WORKGROUP_BYTES } else { 0 },
            atomic_state_words: 0,
            unchecked: facts.unchecked_memory.iter().map(|why| format!("{why} (data-race)")).collect(),
        })
    }

    fn decode(&self, record: &Record, ctx: &DecodeContext<'_>) -> Result<Decoded, String> {
        let class = *CLASSES.get(record.code as usize).ok_or_else(|| format!("race class {}", record.code))?;
        decode(class, record, ctx).map(Decoded::Race)
    }
}

/// One side of a raw record.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RawAccess {
    pub site: u32,
    pub workgroup: u32,
    pub invocation: u32,
    pub write: bool,
}

/// Turns a record of memory races into the race of class `class` (the
/// missing-fence and lockset checks' records are the engine's too).
pub(crate) fn decode(class: RaceClass, record: &Record, ctx: &DecodeContext<'_>) -> Result<Race, String> {
    let [lo_site, hi_site] = record.ids;
    let var =
        ctx.sites.get(hi_site).or(ctx.sites.get(lo_site)).and_then(|s| ctx.vars.get(s.var as usize)).ok_or_else(
            || format!("a race record names sites {lo_site} and {hi_site}, which the shader does not have"),
        )?;
    // Statement mode's words are places in the shadow.
    let word_base = match (ctx.mode, var.space) {
        (Mode::Addr, _) => 0,
        (Mode::Stmt, Space::Workgroup) => u64::from(var.slot_base),
        (Mode::Stmt, Space::Storage) => ctx.var_words.get(var.id as usize).map_or(0, |w| w.0),
    };
    let place = |word: u64| var.place(ctx.module, word.saturating_sub(word_base));
    // The first example gives the race's two accesses.
    let mut sides = None;
    let mut examples = Vec::new();
    for example in &record.examples {
        let (first, second) = example_sides(example, lo_site, hi_site, ctx.sites);
        let (mut first, mut second) = (access(first, ctx), access(second, ctx));
        if order_key(&second) < order_key(&first) {
            std::mem::swap(&mut first, &mut second);
        }
        let (byte_offset, element, texel) = place(u64::from(example[2]));
        examples.push(RaceExample { element, byte_offset, texel, first: first.invocation, second: second.invocation });
        sides.get_or_insert((first, second));
    }
    let (first, second) = sides.ok_or("a race record without its example")?;
    let first_example = &examples[0];
    Ok(Race {
        class,
        kind: kind(&first, &second),
        memory: memory(var, first_example),
        first,
        second,
        occurrences: record.count,
        lockstep: Lockstep::from_code(record.aux),
        examples,
        explanation: explanation_for(class, var, ctx.language),
        hint: hint_for(class, var, ctx.language),
        detected_by: DetectedBy::Runtime,
        spread: Some(spread(record, var, ctx)),
        // What the words' tables say; the host completes it with the
        // sites' (`wgrace::log::decode`).
        same_value: record.one_value_words,
    })
}

/// Where a race happened: the record's spread over the dispatch grid and
/// over ranges of `var` (as the runtime divides them, runtime.wgsl's
/// wgrace_spread_*).
pub(crate) fn spread(record: &Record, var: &TrackedVar, ctx: &DecodeContext<'_>) -> Spread {
    let words = ctx.var_words.get(var.id as usize).map_or(0, |w| w.1).min(u64::from(u32::MAX)) as u32;
    let grid = wgrace_shaders::abi::spread_grid(ctx.dispatch);
    Spread {
        cells: grid.cells,
        workgroups_per_cell: grid.workgroups_per_cell(),
        workgroups: record.cells.clone(),
        range_bytes: (1u64 << wgrace_shaders::abi::range_shift(words)) * u64::from(var.unit),
        ranges: record.ranges.clone(),
    }
}

pub(crate) fn kind(first: &Access, second: &Access) -> RaceKind {
    if first.access == AccessKind::Write && second.access == AccessKind::Write {
        RaceKind::WriteWrite
    } else {
        RaceKind::ReadWrite
    }
}

/// The memory of a race: the word of `var` of its first example.
pub(crate) fn memory(var: &TrackedVar, example: &RaceExample) -> Memory {
    Memory {
        space: var.space,
        variable: var.name.clone(),
        group: var.binding.map(|b| b.0),
        binding: var.binding.map(|b| b.1),
        byte_offset: example.byte_offset,
        element: example.element.clone(),
        texel: example.texel.clone(),
    }
}

/// A race the static analyzer proved, as the report shows races.
pub fn static_race(
    race: &StaticRace,
    module: &Module,
    sites: &SiteTable,
    vars: &[TrackedVar],
    language: Language,
) -> Option<Race> {
    let var = vars.get(race.var as usize)?;
    let side = |site: u32, invocation: Invocation| {
        let s = sites.get(site)?;
        Some(Access { site: Some(site), access: s.kind, location: s.location.clone(), invocation: Some(invocation) })
    };
    let mut first = side(race.first, race.first_invocation)?;
    let mut second = side(race.second, race.second_invocation)?;
    if order_key(&second) < order_key(&first) {
        std::mem::swap(&mut first, &mut second);
    }
    let (byte_offset, element, texel) = var.place(module, race.word);
    let example = RaceExample { element, byte_offset, texel, first: first.invocation, second: second.invocation };
    Some(Race {
        class: race.class,
        kind: kind(&first, &second),
        memory: memory(var, &example),
        examples: vec![example],
        first,
        second,
        occurrences: 1,
        lockstep: Lockstep::default(),
        explanation: explanation_for(race.class, var, language),
        hint: hint_for(race.class, var, language),
        detected_by: DetectedBy::Analyzer,
        spread: None,
        same_value: false,
    })
}

/// The two accesses of one example: the earlier one first.
fn example_sides(example: &[u32; 4], lo_site: u32, hi_site: u32, sites: &SiteTable) -> (RawAccess, RawAccess) {
    let bits = example[3];
    let lo = RawAccess { site: lo_site, workgroup: example[0], invocation: bits & 0x3ff, write: false };
    let hi = RawAccess { site: hi_site, workgroup: example[1], invocation: (bits >> 10) & 0x3ff, write: false };
    let (first, second) = if bits & (1 << 20) != 0 { (lo, hi) } else { (hi, lo) };
    // A site's kind says whether it writes; the earlier access's flag
    // covers one that was not recorded.
    let writes = |a: RawAccess| match sites.get(a.site).filter(|_| a.site != UNKNOWN_SITE) {
        Some(site) => RawAccess { write: site.kind == AccessKind::Write, ..a },
        None => RawAccess { write: bits & (1 << 21) != 0, ..a },
    };
    (writes(first), writes(second))
}

/// Sorts accesses by source position; unrecorded ones first.
pub fn order_key(a: &Access) -> (u32, u32, u32) {
    match a.site {
        None => (0, 0, 0),
        Some(id) => (a.location.line.unwrap_or(0), a.location.column.unwrap_or(0), id + 1),
    }
}

pub(crate) fn access(a: RawAccess, ctx: &DecodeContext<'_>) -> Access {
    let access = if a.write { AccessKind::Write } else { AccessKind::Read };
    match ctx.sites.get(a.site).filter(|_| a.site != UNKNOWN_SITE) {
        Some(site) => Access {
            site: Some(site.id),
            access,
            location: site.location.clone(),
            invocation: Some(Invocation {
                workgroup_id: delinearize(a.workgroup, ctx.dispatch),
                local_invocation_id: delinearize(a.invocation, ctx.workgroup_size),
            }),
        },
        None => Access {
            site: None,
            access,
            location: Location { snippet: "(another access, not recorded)".into(), ..Location::default() },
            invocation: None,
        },
    }
}

/// The explanation of a race of class `class` on `var`: that of the class,
/// unless no barrier orders the variable's accesses and one separates them.
fn explanation_for(class: RaceClass, var: &TrackedVar, language: Language) -> String {
    if var.texture.is_some() && class == RaceClass::BarrierKind {
        return "a barrier separates the accesses, but only textureBarrier() orders the texels of a storage \
            texture, and it was not the barrier between them"
            .into();
    }
    if var.unordered_by_barriers && class == RaceClass::BarrierKind && language == Language::SpirV {
        return "a control barrier separates the accesses, but under the Vulkan memory model the module declares, \
            barriers order only non-private accesses (NonPrivatePointer) between invocations, and this buffer's \
            stores are private, as glslang makes those of a buffer not declared coherent"
            .into();
    }
    let text = explanation(class, var.space, language);
    if var.texture.is_some() { text.replace("storageBarrier()", "textureBarrier()") } else { text }
}

/// The fix hint of a race of class `class` on `var` ([`explanation_for`]).
fn hint_for(class: RaceClass, var: &TrackedVar, language: Language) -> String {
    if var.texture.is_some() && class == RaceClass::BarrierKind {
        return "put a textureBarrier() between the store and the other access of the texel".into();
    }
    if var.unordered_by_barriers && class == RaceClass::BarrierKind && language == Language::SpirV {
        return "declare the buffer coherent (GLSL), so that its accesses are non-private and made available and \
            visible, and keep the control barrier with UniformMemory semantics between the two accesses"
            .into();
    }
    let text = hint(class, var.space, language);
    // Only textureBarrier() orders texels.
    if var.texture.is_some() { text.replace("storageBarrier()", "textureBarrier()") } else { text }
}

/// One-line explanation of the class, for `space`, in the terms of the
/// shader's language (WGSL's barriers, or SPIR-V's control barriers and the
/// GLSL that compiles to them).
pub fn explanation(class: RaceClass, space: Space, language: Language) -> String {
    let spirv = language == Language::SpirV;
    match (class, space) {
        (RaceClass::IntraSubgroup, _) if spirv => "invocations of one subgroup accessed this word and nothing \
            ordered the accesses; SPIR-V does not run a subgroup in lock-step, so this is a race on every GPU"
            .into(),
        (RaceClass::IntraSubgroup, _) => "invocations of one subgroup accessed this word and nothing ordered the \
            accesses; WGSL does not run a subgroup in lock-step, so this is a race on every GPU"
            .into(),
        (RaceClass::IntraWorkgroup, Space::Workgroup) if spirv => "invocations of one workgroup accessed this \
            word with no control barrier ordering workgroup memory (GLSL's barrier()) between the accesses"
            .into(),
        (RaceClass::IntraWorkgroup, Space::Workgroup) => {
            "invocations of one workgroup accessed this word with no workgroupBarrier() between the accesses".into()
        }
        (RaceClass::IntraWorkgroup, Space::Storage) if spirv => "invocations of one workgroup accessed this word \
            with no control barrier ordering buffer memory (UniformMemory semantics) between the accesses"
            .into(),
        (RaceClass::IntraWorkgroup, Space::Storage) => {
            "invocations of one workgroup accessed this word with no storageBarrier() between the accesses".into()
        }
        (RaceClass::BarrierKind, Space::Workgroup) if spirv => "a control barrier separates the accesses, but its \
            memory semantics do not include workgroup memory (WorkgroupMemory)"
            .into(),
        (RaceClass::BarrierKind, Space::Workgroup) => "a barrier separates the accesses, but only \
            storageBarrier(), which does not order workgroup memory"
            .into(),
        (RaceClass::BarrierKind, Space::Storage) if spirv => "a control barrier separates the accesses, but its \
            memory semantics do not include buffer memory (UniformMemory): GLSL's barrier() orders shared \
            memory only"
            .into(),
        (RaceClass::BarrierKind, Space::Storage) => "a barrier separates the accesses, but only \
            workgroupBarrier(), which does not order storage memory"
            .into(),
        (RaceClass::InterWorkgroup, _) => "different workgroups of one dispatch accessed this word; \
            no barrier orders accesses of different workgroups"
            .into(),
        (RaceClass::Scope, _) => super::scope::EXPLANATION.into(),
        (RaceClass::AtomicPlain, _) => super::atomic_plain::EXPLANATION.into(),
        (RaceClass::MissingFence, Space::Workgroup) => super::missing_fence::SHARED_EXPLANATION.into(),
        (RaceClass::MissingFence, Space::Storage) => super::missing_fence::EXPLANATION.into(),
        (RaceClass::Lockset, _) => super::lockset::EXPLANATION.into(),
    }
}

/// One-line fix hint for the class, for `space`, in the terms of the
/// shader's language.
pub fn hint(class: RaceClass, space: Space, language: Language) -> String {
    let barrier = match (space, language) {
        (Space::Workgroup, Language::Wgsl) => "a workgroupBarrier()",
        (Space::Storage, Language::Wgsl) => "a storageBarrier()",
        (Space::Workgroup, Language::SpirV) => "a control barrier with WorkgroupMemory semantics (GLSL's barrier())",
        (Space::Storage, Language::SpirV) => {
            "a control barrier with UniformMemory semantics (GLSL's controlBarrier(gl_ScopeWorkgroup, \
             gl_ScopeWorkgroup, gl_StorageSemanticsBuffer, gl_SemanticsAcquireRelease), or barrier() with \
             memoryBarrierBuffer() right before and right after it)"
        }
    };
    match class {
        RaceClass::IntraSubgroup => format!(
            "put {barrier} between the two accesses, or pass the value with a subgroup operation \
             (subgroupShuffle, subgroupAdd, …)"
        ),
        RaceClass::IntraWorkgroup | RaceClass::BarrierKind => {
            format!("put {barrier} between the two accesses (in uniform control flow)")
        }
        RaceClass::InterWorkgroup => "split the work into two dispatches, use atomics, or partition \
            the data so each workgroup touches its own words"
            .into(),
        RaceClass::Scope => super::scope::HINT.into(),
        RaceClass::AtomicPlain => super::atomic_plain::HINT.into(),
        RaceClass::MissingFence if space == Space::Workgroup => super::missing_fence::SHARED_HINT.into(),
        RaceClass::MissingFence => super::missing_fence::HINT.into(),
        RaceClass::Lockset => super::lockset::HINT.into(),
    }
}
