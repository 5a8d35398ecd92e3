//! The data-race check's happens-before engine
//! (`shaders/wgsl/checks/data_race/happens_before/engine.wgsl`): races of
//! buffer and shared memory under the Vulkan memory model's release and
//! acquire synchronization, for SPIR-V modules that synchronize that way.
//! This module decides which memory it checks and lays out its state.
//!
//! Each storage class it checks memory of (buffers, shared memory) has
//! clocks of its own ([`HappensBefore::classes`]): the model's
//! happens-before is one relation per class, and an instruction orders the
//! memory its semantics name. Shared memory that plain accesses use is
//! checked where the module releases and acquires it, each workgroup's copy
//! on words of its own.
//!
//! The engine checks the plain accesses of the buffers that such
//! synchronization can order: storage buffers whose accesses are not
//! private (a private access is ordered with no access of another
//! invocation, and the check's own state machines already take no barrier
//! as ordering those), the plain words of one with atomics too and, where
//! a word is accessed both ways, the atomics' accesses of it against the
//! plain ones (for the atomic-plain check, [`HappensBefore::atomic_plain`]),
//! a runtime-sized one at the run's length
//! ([`crate::InstrumentOptions::runtime_lengths`]). Its synchronization goes
//! through the atomics of storage buffers (runtime-sized ones likewise). It
//! keeps a vector clock per invocation of the dispatch, so it runs for
//! dispatches of at most [`MAX_INVOCATIONS`] invocations; the report says
//! when it does not run ([`HappensBefore::plan`]).
//!
//! It also runs for SPIR-V whose control barriers synchronize memory within
//! a subgroup only (`subgroupBarrier()`, or a barrier of subgroup memory
//! scope) and that does not release and acquire otherwise: it then checks
//! the memory those barriers order, workgroup memory (each workgroup's copy
//! on words of its own) or buffers, and keeps barrier clocks for each
//! subgroup ([`Following`]).
//!
//! Beside the shader's program it can follow two others, each on a set of
//! clocks of its own ([`Programs`]): with every atomic acquiring and
//! releasing (`strong`, for modules whose buffer atomics do not all do),
//! whose races it orders are the missing-fence check's
//! (`checks/missing_fence/`); and with every atomic and fence at device
//! scope (`wide`, for modules with narrower ones), whose are the scope
//! check's (`checks/scope/`).

use crate::vars::TrackedVar;

/// The engine's function that waits for the invocation's subgroup between
/// a subgroup barrier's publishing and acquiring.
pub const SUBGROUP_SYNC: &str = "wgrace_hb_subgroup_sync";

/// The `WGRACE_ORDERS_*` bits (`shaders/wgsl/runtime.wgsl`).
const ORDERS_WORKGROUP: u32 = 1;
const ORDERS_STORAGE: u32 = 2;

/// Accesses each word remembers (`WGRACE_HB_HISTORY`).
pub const HISTORY: u32 = 8;

/// The most invocations a dispatch may have for the engine: each keeps a
/// clock of one 64-bit word per invocation, three times in each set.
pub const MAX_INVOCATIONS: u64 = 1024;

/// The most state the engine keeps, in bytes: WebGPU's default limit on a
/// storage buffer binding (128 MiB), which every adapter allows. Its clocks
/// take 24 bytes per pair of invocations in each set of clocks, each atomic
/// word one clock per set (or one per workgroup, [`HappensBefore::loc_parts`]),
/// and each word of memory it checks 264 bytes
/// ([`HappensBefore::state_words`]).
pub const MAX_STATE_BYTES: u64 = 128 << 20;

/// The engine's layout for one shader and dispatch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HappensBefore {
    /// Invocations of the dispatch (`WGRACE_HB_N`).
    pub invocations: u32,
    /// Invocations per workgroup.
    pub workgroup_size: u32,
    /// Atomic words (`WGRACE_HB_LOCATIONS`).
    pub locations: u32,
    /// Words of memory it checks (`WGRACE_HB_WORDS`).
    pub words: u32,
    /// Which programs it follows besides the shader's.
    pub programs: Programs,
    /// Whether the shader takes spin locks whose lock sets it follows, for
    /// the lockset check (the pass sets it).
    pub locks: bool,
    /// Whether it checks memory with words accessed both atomically and
    /// plainly (a buffer, or workgroup memory): the atomics' accesses of
    /// such memory are checked against its plain ones
    /// (`wgrace_hb_atomic_data`), and their races are the atomic-plain
    /// check's (`checks/atomic_plain/engine/record.wgsl`), which leaves that
    /// memory to the engine (`wgrace_hb_checks_atomics`).
    pub atomic_plain: bool,
    /// Whether it checks a buffer with atomics narrower than the device:
    /// the atomics' accesses of such a buffer are checked against each
    /// other too (and against its plain accesses), and their races are the
    /// scope check's (`checks/scope/engine/atomics.wgsl`), which leaves the
    /// buffer to the engine. Two atomics whose scopes do not both hold the
    /// other's invocation are ordered as plain accesses would be: the
    /// earlier happens before the later (through release and acquire of a
    /// wider scope, say) and, where it wrote, its own scope holds both (and,
    /// where the later one only reads, the later one's too: an atomic makes
    /// its write available, and what it reads visible, within its scope).
    /// Such atomics also make a word's history keep two accesses of a site
    /// that a later access may tell apart (in the scope of one and not of
    /// the other): `WGRACE_HB_NARROW_ATOMIC_DATA`.
    pub atomic_scope: bool,
    /// Whether it keeps barrier clocks for each subgroup
    /// (`WGRACE_HB_SUBGROUP_SLOTS`), [`Following::subgroup_barriers`].
    pub subgroup_barriers: bool,
    /// Whether it waits for subgroups at barriers of subgroup execution
    /// scope ([`SUBGROUP_SYNC`]), [`Following::subgroup_execution`].
    pub subgroup_execution: bool,
    /// The storage classes whose memory it checks, each on clocks of its
    /// own: the `WGRACE_ORDERS_*` bit of each (`WGRACE_HB_CLASS0`,
    /// `WGRACE_HB_CLASS1`; 0 for none). Buffers come first.
    pub classes: [u32; 2],
    /// Its first word of shared memory (words of buffers come first), and
    /// the first location of shared memory's atomics (likewise).
    pub shared_words_from: u32,
    pub shared_locations_from: u32,
    /// Parts of each atomic location's clock (`WGRACE_HB_LOC_PARTS`): one
    /// per workgroup and scope where atomics or fences narrower than the
    /// device can release into a location (the wide program runs) and the
    /// state fits, so that what an acquire synchronizes with is decided per
    /// workgroup and scope of what was released; otherwise 1, and an
    /// acquire that synchronizes with some of a location's contributions and
    /// not with others is not followed.
    pub loc_parts: u32,
    /// Pending clocks of each invocation (`WGRACE_HB_PENDING_SCOPES`): 3
    /// with location parts (what an acquire fence of each scope from the
    /// subgroup's to the device's would acquire, decided part by part when
    /// a relaxed read pends it), otherwise 1.
    pub pending_scopes: u32,
    /// How many times an invocation tries for a word's or a location's lock
    /// before it gives up and counts the access as not followed
    /// (`WGRACE_HB_LOCK_SPIN`): [`LOCK_SPIN`], or [`LOCK_SPIN_CUT_SHORT`]
    /// on an adapter that cuts loops short.
    pub lock_spin: u32,
}

/// Tries for a lock ([`HappensBefore::lock_spin`]): enough for the 1,024
/// invocations of a dispatch to queue for one location, each holding it
/// for a join of their clocks (on the H100, 60,000 left 897 of 1,024 adds
/// of one counter unfollowed). A holder never waits for anything.
pub const LOCK_SPIN: u32 = 1 << 22;

/// Tries for a lock on an adapter that ends an invocation's loops after
/// 65,535 iterations in all (lavapipe): fewer, so that the engine gives up,
/// and counts it, before the driver ends the loop and the user's atomic in
/// it with it ([`crate::InstrumentOptions::loops_cut_short`]).
pub const LOCK_SPIN_CUT_SHORT: u32 = 60_000;

/// What the engine follows in a shader.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Following {
    /// The programs besides the shader's.
    pub programs: Programs,
    /// The memory whose atomics it checks against plain accesses of the
    /// same words.
    pub atomic_data: AtomicData,
    /// Whether it checks buffer memory (storage buffers' plain accesses).
    pub buffers: bool,
    /// Whether it checks workgroup memory (its plain accesses), on clocks
    /// of its own beside the buffers'.
    pub workgroup: bool,
    /// Whether the shader has control barriers that synchronize within a
    /// subgroup only (subgroup execution scope, or subgroup memory scope).
    pub subgroup_barriers: bool,
    /// Whether some of those have subgroup execution scope.
    pub subgroup_execution: bool,
}

/// The memory whose atomics the engine checks against plain accesses of the
/// same words: buffers in a module that releases and acquires buffer memory,
/// workgroup memory in one that releases and acquires shared memory.
/// Elsewhere nothing but barriers orders such a pair, which the atomic-plain
/// check's own state follows, and a counter that many invocations add to
/// would fill a word's history.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AtomicData {
    pub buffers: bool,
    pub workgroup: bool,
}

impl AtomicData {
    pub fn of(shader: &crate::Shader) -> AtomicData {
        AtomicData { buffers: shader.release_acquire, workgroup: shader.shared_release_acquire }
    }

    /// Whether it checks the atomics of memory in `space`.
    pub fn checks(self, space: crate::Space) -> bool {
        match space {
            crate::Space::Workgroup => self.workgroup,
            _ => self.buffers,
        }
    }
}

/// The kinds of access a variable has.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Accesses {
    pub atomic: bool,
    pub plain: bool,
}

/// The programs the engine follows besides the shader's, each on its own
/// set of clocks (`WGRACE_HB_STRONG_INDEX`, `WGRACE_HB_WIDE_INDEX`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Programs {
    /// The shader with every atomic acquiring what it reads and releasing
    /// what it writes: races it orders are the missing-fence check's.
    pub strong: bool,
    /// The shader with every atomic and fence at device scope: races it
    /// orders are the scope check's.
    pub wide: bool,
}

impl Programs {
    /// Sets of clocks: the shader's and one per program.
    pub fn sets(self) -> u64 {
        1 + u64::from(self.strong) + u64::from(self.wide)
    }
}

/// Why the engine does not run for a shader that synchronizes with release
/// and acquire, in words for the report.
pub type NotRun = String;

impl HappensBefore {
    /// Plans the engine for `vars`, giving each variable it checks its
    /// first engine word ([`TrackedVar::happens_before`]) and each with
    /// atomics its locations ([`TrackedVar::sync_locations`]); `None` when
    /// it has no memory to check. A buffer some of whose words are accessed
    /// both atomically and plainly, in a module without release/acquire
    /// synchronization, is left to the other checks (the report notes that
    /// the missing-fence check did not look at it).
    /// `accesses(v)` tells which kinds of access variable `v` has; `runtime_len`
    /// the element count of a variable's runtime-sized array in this run;
    /// `following` what to follow.
    ///
    /// # Errors
    /// Why it cannot run: too many invocations, more state than
    /// [`MAX_STATE_BYTES`], or synchronization through memory it cannot
    /// follow (a runtime-sized buffer of unknown length).
    pub fn plan(
        vars: &mut [TrackedVar],
        accesses: impl Fn(usize) -> Accesses,
        runtime_len: impl Fn(&TrackedVar) -> Option<u64>,
        workgroup_size: u32,
        workgroups: u64,
        following: Following,
    ) -> Result<Option<HappensBefore>, NotRun> {
        let Following { programs, atomic_data, .. } = following;
        let invocations = u64::from(workgroup_size) * workgroups;
        if invocations > MAX_INVOCATIONS {
            return Err(format!(
                "the dispatch has {invocations} invocations, and the happens-before engine follows dispatches of \
                 at most {MAX_INVOCATIONS}"
            ));
        }
        let (mut locations, mut words) = (0u64, 0u64);
        let mut bases = vec![(None, None); vars.len()];
        // Whether the engine checks a variable's atomics against its other
        // accesses ([`TrackedVar::engine_checks_atomics`]).
        let mut checks_atomics = vec![false; vars.len()];
        let mut unfollowed = Vec::new();
        // Buffers first, then shared memory: each class's words and
        // locations in one range.
        let order = (0..vars.len())
            .filter(|&i| vars[i].space != crate::Space::Workgroup)
            .chain((0..vars.len()).filter(|&i| vars[i].space == crate::Space::Workgroup));
        let (mut shared_words_from, mut shared_locations_from) = (None, None);
        for i in order {
            let v = &vars[i];
            if v.space == crate::Space::Workgroup && shared_words_from.is_none() {
                shared_words_from = Some(words);
                shared_locations_from = Some(locations);
            }
            let fixed = v.runtime_stride_words.is_none();
            // A runtime-sized buffer is followed at this run's size (the
            // instrumented module is made for one run).
            let len = match (fixed, runtime_len(v)) {
                (true, _) => Some(0),
                (false, len) => len,
            };
            let unknown_length = || {
                format!(
                    "`{}` is a runtime-sized buffer of unknown length, which wgrace follows under release/acquire \
                     synchronization only at a known size",
                    v.name
                )
            };
            let Accesses { atomic, plain } = accesses(i);
            if atomic {
                // Workgroup memory: each workgroup's copy on locations of
                // its own.
                let copies = if v.space == crate::Space::Workgroup { workgroups } else { 1 };
                let start = locations.min(u64::from(u32::MAX)) as u32;
                locations += v.words(len.ok_or_else(unknown_length)?) * copies;
                bases[i].1 = Some(start..locations.min(u64::from(u32::MAX)) as u32);
            }
            // The plain accesses of a buffer with atomics too (a block of
            // flags and data, say), with those atomics' own accesses where
            // some word is accessed both ways, or where some atomic is
            // narrower than the device; and a buffer with such atomics
            // alone, whose atomics' accesses synchronization may order.
            // (Not a texture: the engine follows no texel.)
            let buffer = following.buffers
                && v.space == crate::Space::Storage
                && !v.unordered_by_barriers
                && v.texture.is_none();
            let narrow_atomics = atomic && atomic_data.buffers && v.scoped_atomics;
            if buffer && (plain || narrow_atomics) {
                if v.plain_and_atomic && !atomic_data.buffers {
                    unfollowed.push(v.name.clone());
                    continue;
                }
                bases[i].0 = Some(words.min(u64::from(u32::MAX)) as u32);
                words += v.words(len.ok_or_else(unknown_length)?);
                checks_atomics[i] = atomic_data.buffers && (v.plain_and_atomic || narrow_atomics);
            }
            // Workgroup memory: each workgroup's copy on words of its own,
            // with its atomics' own accesses where some word is accessed
            // both ways and release and acquire can order them.
            if plain && following.workgroup && v.space == crate::Space::Workgroup {
                bases[i].0 = Some(words.min(u64::from(u32::MAX)) as u32);
                words += v.words(0) * workgroups;
                checks_atomics[i] = atomic_data.workgroup && v.plain_and_atomic;
            }
        }
        let shared_words_from = shared_words_from.unwrap_or(words);
        let shared_locations_from = shared_locations_from.unwrap_or(locations);
        if words == 0 {
            if !unfollowed.is_empty() {
                let names: Vec<String> = unfollowed.iter().map(|n| format!("`{n}`")).collect();
                return Err(format!(
                    "some words of {} are accessed both atomically and plainly, which it follows only in modules \
                     that release and acquire",
                    names.join(", ")
                ));
            }
            return Ok(None);
        }
        let mut engine = HappensBefore {
            invocations: invocations as u32,
            workgroup_size,
            locations: locations.clamp(1, u64::from(u32::MAX)) as u32,
            words: words.min(u64::from(u32::MAX)) as u32,
            programs,
            locks: false,
            atomic_plain: false,
            atomic_scope: false,
            subgroup_barriers: following.subgroup_barriers,
            subgroup_execution: following.subgroup_execution,
            // A class for each memory with words to check.
            classes: match (shared_words_from > 0, words > shared_words_from) {
                (true, true) => [ORDERS_STORAGE, ORDERS_WORKGROUP],
                (false, true) => [ORDERS_WORKGROUP, 0],
                _ => [ORDERS_STORAGE, 0],
            },
            shared_words_from: shared_words_from.min(u64::from(u32::MAX)) as u32,
            shared_locations_from: shared_locations_from.min(u64::from(u32::MAX)) as u32,
            loc_parts: 1,
            pending_scopes: 1,
            lock_spin: LOCK_SPIN,
        };
        if programs.wide {
            let parts = (4 * workgroups).min(u64::from(u32::MAX)) as u32;
            let parted = HappensBefore { loc_parts: parts, pending_scopes: 3, ..engine };
            if parted.state_words() * 8 <= MAX_STATE_BYTES {
                engine = parted;
            }
        }
        let bytes = engine.state_words() * 8;
        if bytes > MAX_STATE_BYTES || words > u64::from(u32::MAX) || locations > u64::from(u32::MAX) {
            return Err(format!(
                "following it over {invocations} invocations, {locations} atomic words and {words} words of memory \
                 to check takes {} MiB of state, more than the {} MiB wgrace gives it",
                bytes.div_ceil(1 << 20),
                MAX_STATE_BYTES >> 20
            ));
        }
        for ((v, (checked, locations)), atomics) in vars.iter_mut().zip(bases).zip(checks_atomics) {
            v.happens_before = checked;
            v.sync_locations = locations;
            v.engine_checks_atomics = atomics;
        }
        engine.atomic_plain = vars.iter().any(|v| v.engine_checks_atomics && v.plain_and_atomic);
        // Only where release and acquire can order two atomics that
        // barriers and program order do not: elsewhere the scope check's
        // state machines judge them as the model does, without the
        // history's limit.
        engine.atomic_scope = vars.iter().any(|v| v.engine_checks_atomics && v.scoped_atomics);
        Ok(Some(engine))
    }

    /// Storage classes it checks (`WGRACE_HB_CLASSES`).
    pub fn class_count(&self) -> u64 {
        1 + u64::from(self.classes[1] != 0)
    }

    /// 64-bit words of its state (`WGRACE_HB_END`).
    pub fn state_words(&self) -> u64 {
        let n = u64::from(self.invocations);
        let workgroups = n / u64::from(self.workgroup_size.max(1));
        let subgroups = if self.subgroup_barriers { n } else { 0 };
        let location = 2 + u64::from(self.loc_parts) * (n + 1);
        let set = (2 + u64::from(self.pending_scopes)) * n * n
            + 8 * n
            + 2 * (workgroups + subgroups) * (n + 1)
            + u64::from(self.locations) * location;
        self.class_count() * self.programs.sets() * set + u64::from(self.words) * (1 + 4 * u64::from(HISTORY))
    }

    /// Its WGSL for `vars`: the layout, the engine,
    /// `wgrace_hb_var_word(v, word)` and `wgrace_hb_owns(v)`; and the record code of each check whose
    /// races the engine finds but that is not linked, `WGRACE_HB_NOT_LINKED`:
    /// without the strong program `wgrace_hb_missing_fence_code` (the
    /// missing-fence check defines it with that program), without the wide
    /// one `wgrace_hb_scope_code` (the scope check's), without locks
    /// `wgrace_hb_lockset_code` (the lockset check's), without atomics'
    /// own accesses as data `wgrace_hb_atomic_plain_code`, and without
    /// atomics of narrow scopes as data `wgrace_hb_atomic_scope_code`.
    pub fn wgsl(&self, vars: &[TrackedVar]) -> String {
        let mut source = format!(
            "\nconst WGRACE_HB_N: u32 = {}u;\nconst WGRACE_HB_WG_SIZE: u32 = {}u;\nconst WGRACE_HB_LOCATIONS: u32 = \
             {}u;\nconst WGRACE_HB_WORDS: u32 = {}u;\nconst WGRACE_HB_HISTORY: u32 = {HISTORY}u;\nconst \
             WGRACE_HB_SETS: u32 = {}u;\nconst WGRACE_HB_STRONG_INDEX: u32 = {}u;\nconst WGRACE_HB_WIDE_INDEX: u32 = \
             {}u;\nconst WGRACE_HB_NARROW_ATOMIC_DATA: bool = {};\nconst WGRACE_HB_SUBGROUP_SLOTS: u32 = {}u;\nconst \
             WGRACE_HB_CLASSES: u32 = {}u;\nconst WGRACE_HB_CLASS0: u32 = {}u;\nconst \
             WGRACE_HB_CLASS1: u32 = {}u;\nconst WGRACE_HB_LOC_PARTS: u32 = {}u;\nconst WGRACE_HB_PENDING_SCOPES: u32 = \
             {}u;\nconst WGRACE_HB_LOCK_SPIN: u32 = {}u;\n",
            self.invocations,
            self.workgroup_size,
            self.locations,
            self.words,
            self.programs.sets(),
            u32::from(self.programs.strong),
            if self.programs.wide { self.programs.sets() - 1 } else { 0 },
            self.atomic_scope,
            if self.subgroup_barriers { self.invocations } else { 0 },
            self.class_count(),
            self.classes[0],
            self.classes[1],
            self.loc_parts,
            self.pending_scopes,
            self.lock_spin,
        );
        // The class of a word, and the memory of a location: shared memory's
        // come after the buffers'.
        let shared_class = if self.classes[1] != 0 { "1u" } else { "0u" };
        source.push_str(&format!(
            "\nfn wgrace_hb_word_class(word: u32) -> u32 {{\n    return select(0u, {shared_class}, word >= {}u);\n}}\n\
             \nfn wgrace_hb_loc_memory(loc: u32) -> u32 {{\n    return select({ORDERS_STORAGE}u, {ORDERS_WORKGROUP}u, loc >= \
             {}u);\n}}\n",
            self.shared_words_from, self.shared_locations_from
        ));
        source.push_str(wgrace_shaders::check_file("data_race/happens_before/engine.wgsl").unwrap_or_default());
        let not_linked = "-> u32 {\n    return WGRACE_HB_NOT_LINKED;\n}";
        if !self.programs.strong {
            source.push_str(&format!("\nfn wgrace_hb_missing_fence_code() {not_linked}\n"));
        }
        if !self.programs.wide {
            source.push_str(&format!("\nfn wgrace_hb_scope_code() {not_linked}\n"));
        }
        if !self.locks {
            source.push_str(&format!("\nfn wgrace_hb_lockset_code() {not_linked}\n"));
        }
        if !self.atomic_plain {
            source.push_str(&format!("\nfn wgrace_hb_atomic_plain_code(second_write: bool) {not_linked}\n"));
        }
        if !self.atomic_scope {
            source.push_str(&format!("\nfn wgrace_hb_atomic_scope_code(second_write: bool) {not_linked}\n"));
        }
        // The barrier that waits for a subgroup between a subgroup
        // barrier's publishing and its acquiring: WGSL's subgroupBarrier(),
        // which the pass makes order buffer memory too
        // (`pass::order_engine_subgroup_sync`); where the shader has no
        // subgroup barrier, none (and no use of the subgroup capability).
        let sync = if self.subgroup_execution { "    subgroupBarrier();\n" } else { "" };
        source.push_str(&format!("\nfn {SUBGROUP_SYNC}() {{\n{sync}}}\n"));
        let cases: String = vars
            .iter()
            .filter_map(|v| {
                let base = v.happens_before?;
                // Each workgroup's copy of workgroup memory has words of its own.
                let word = match v.space {
                    crate::Space::Workgroup => format!("wgrace_g * {}u + word", v.words(0)),
                    _ => "word".to_string(),
                };
                Some(format!("        case {}u: {{\n            return {base}u + {word};\n        }}\n", v.id))
            })
            .collect();
        source.push_str(&format!(
            "\nfn wgrace_hb_var_word(v: u32, word: u32) -> u32 {{\n    switch v {{\n{cases}        default: {{\n            \
             return WGRACE_HB_NONE;\n        }}\n    }}\n}}\n"
        ));
        // Whether it checks a variable's words: a switch of constant
        // returns, which the driver folds where the variable is a constant
        // (every access site's), so a site of the engine's memory compiles
        // without the other checking path.
        let owned = vars.iter().filter(|v| v.happens_before.is_some()).map(|v| v.id);
        source.push_str(&crate::checks::var_predicate_wgsl("wgrace_hb_owns", owned, true));
        // The variables whose atomics it checks against their other
        // accesses, which the checks of atomic memory leave to it.
        let checked = vars.iter().filter(|v| v.engine_checks_atomics).map(|v| v.id);
        source.push_str(&crate::checks::var_predicate_wgsl("wgrace_hb_checks_atomics", checked, true));
        // The location of a variable's word: as naga's bounds checks keep
        // an index in its array, the last word past the end; each
        // workgroup's copy of workgroup memory has locations of its own.
        let locations: String = vars
            .iter()
            .filter_map(|v| {
                let range = v.sync_locations.clone()?;
                let copies = match v.space {
                    crate::Space::Workgroup => (self.invocations / self.workgroup_size.max(1)).max(1),
                    _ => 1,
                };
                let words = (range.len() as u32 / copies).max(1);
                let copy = if copies > 1 { format!("wgrace_g * {words}u + ") } else { String::new() };
                Some(format!(
                    "        case {}u: {{\n            return {}u + {copy}min(word, {}u);\n        }}\n",
                    v.id,
                    range.start,
                    words - 1
                ))
            })
            .collect();
        source.push_str(&format!(
            "\nfn wgrace_hb_location(v: u32, word: u32) -> u32 {{\n    switch v {{\n{locations}        default: {{\n            \
             return 0u;\n        }}\n    }}\n}}\n"
        ));
        source
    }
}
