//! The WGSL side of wgrace.
//!
//! [`RUNTIME`] is the runtime library that the instrumentation pass links into
//! every instrumented shader: the bindings, the identity of each invocation,
//! the events it forwards to the checks, and the GPU-side table that
//! deduplicates the checks' records. Each check's WGSL is in
//! `wgsl/checks/<id>/` ([`check_source`]): the data-race check's per-word
//! shadow state machines (`checks/data_race/addr.wgsl`, statement mode's
//! `stmt.wgsl`), the barrier-divergence check. `docs/detector.md` explains
//! the state machines.
//!
//! The runtime is parameterised by a few compile-time constants that depend
//! on the shader being instrumented (workgroup size, number of access sites,
//! …). [`Prelude`] renders them as WGSL `const` declarations; [`runtime_source`]
//! returns the prelude followed by the runtime, ready for naga's WGSL front end.

pub mod abi;

/// The runtime library, without its prelude of constants.
pub const RUNTIME: &str = include_str!("../wgsl/runtime.wgsl");

include!(concat!(env!("OUT_DIR"), "/check_files.rs"));

/// The WGSL of the check in folder `wgsl/checks/<folder>/`: the `.wgsl`
/// files directly in it, concatenated in name order (files in subfolders are
/// variants the check picks with [`check_file`]), or `None` if there are
/// none.
pub fn check_source(folder: &str) -> Option<String> {
    let prefix = format!("{folder}/");
    let files: Vec<&str> = CHECK_FILES
        .iter()
        .filter(|(path, _)| path.strip_prefix(&prefix).is_some_and(|rest| !rest.contains('/')))
        .map(|(_, text)| *text)
        .collect();
    (!files.is_empty()).then(|| files.concat())
}

/// One file below `wgsl/checks/`, e.g. `data_race/subgroups/warp.wgsl`.
pub fn check_file(path: &str) -> Option<&'static str> {
    CHECK_FILES.iter().find(|(p, _)| *p == path).map(|(_, text)| *text)
}

/// Runtime events a check's WGSL handles. The runtime calls
/// `wgrace_checks_on_<event>`, which [`runtime_source`] generates to call
/// `wgrace_<check>_on_<event>` of every linked check that handles it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Hooks {
    /// `fn wgrace_<check>_on_begin()`: first thing in the entry point, after
    /// the runtime has set the invocation's identity.
    pub begin: bool,
    /// `fn wgrace_<check>_on_barrier(kind: u32, id: u32)`: after every
    /// workgroup control barrier of the user's code (and
    /// `workgroupUniformLoad`), with what it orders (`WGRACE_ORDERS_*`, 0
    /// for neither; plus `WGRACE_BARRIER_SUBGROUP` for a SPIR-V barrier that
    /// only a subgroup waits at) and its id in the report's barrier table.
    pub barrier: bool,
    /// `fn wgrace_<check>_on_end()`: when the invocation finishes.
    pub end: bool,
    /// `fn wgrace_<check>_on_atomic_memory(v: u32, word: u32, site: u32,
    /// flags: u32)`: after every access of memory some atomic of a scope
    /// narrower than the device or some plain load or store also accesses
    /// (in bounds): the variable, the word in it, the site and
    /// `WGRACE_ACCESS_*` flags.
    pub atomic_memory: bool,
    /// `fn wgrace_<check>_on_loop_budget(id: u32, n: u32)`: once, when a
    /// loop of the user's code (`id` in the report's loop table) starts
    /// iteration `n`, past its budget (the invocation then stops), and
    /// `fn wgrace_<check>_on_loop_cut(id: u32, n: u32)`: after a loop that
    /// ended without its exit, cut short by the adapter after `n`
    /// iterations, and `fn wgrace_<check>_on_loop_spin(id: u32, n: u32)`:
    /// after a spin-wait (a loop that waits for storage memory other
    /// invocations write) ended by itself after `n` iterations. The pass
    /// counts loops' iterations only when a linked check hooks these.
    pub loops: bool,
    /// `fn wgrace_<check>_on_out_of_bounds(site: u32, index: u32, length:
    /// u32)`: when an index of the user's code (`site` in the report's index
    /// table) is not below its bound; `index` as a `u32` (a negative `i32`
    /// is 2³¹ or more). The pass tests indices only when a linked check
    /// hooks this.
    pub bounds: bool,
    /// `fn wgrace_<check>_on_workgroup_access(index: u32, byte: u32,
    /// in_bounds: bool)`: after every load, store and atomic of workgroup
    /// memory by the user's code, by every invocation that runs it:
    /// `index` the access's place in the shader's table of workgroup
    /// accesses (`ShaderFacts::workgroup_accesses`), `byte` its first byte
    /// in its variable, `in_bounds` whether every index of it was. The pass
    /// calls the runtime there only when a linked check hooks this.
    pub workgroup_access: bool,
}

/// A check's WGSL as linked into one instrumented shader.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinkedCheck {
    /// Prefix of its WGSL names: `wgrace_<prefix>_on_<event>`, and the
    /// constant `WGRACE_CODE_<PREFIX>` (upper case).
    pub prefix: String,
    /// Its WGSL (may be empty when its work is the core runtime's).
    pub source: String,
    /// Which events it handles.
    pub hooks: Hooks,
    /// First code of its records in the record table (`WGRACE_CODE_<PREFIX>`):
    /// records keep the check's codes in the key's top 4 bits.
    pub first_code: u32,
    /// Bytes of workgroup memory its WGSL declares (as WebGPU counts them).
    pub workgroup_bytes: u32,
    /// 64-bit words of state it keeps in `wgrace_shadow_u64` for each word of
    /// a variable whose accesses reach `on_atomic_memory`; 0 for none. Each
    /// such word has `WGRACE_ATOMIC_STATE_WORDS` (every linked check's
    /// together) from the variable's `atomic_base`, the check's from
    /// `WGRACE_ATOMIC_STATE_AT_<PREFIX>`.
    pub atomic_state_words: u32,
    /// What it leaves unchecked in this shader, as linked: each a reason
    /// the report is incomplete.
    pub unchecked: Vec<String>,
}

/// `WGRACE_ACCESS_WRITE` (runtime.wgsl): the flag of `wgrace_atomic_memory`
/// for an access that wrote.
pub const ACCESS_WRITE: u32 = 1;
/// `WGRACE_ACCESS_NARROW`: the flag for an atomic whose scope is narrower than
/// the device.
pub const ACCESS_NARROW: u32 = 2;
/// `WGRACE_ACCESS_PLAIN`: the flag for a plain load or store (of memory that
/// atomics also access).
pub const ACCESS_PLAIN: u32 = 4;
/// `WGRACE_ACCESS_SUBGROUP`: the flag for an atomic whose scope is a
/// subgroup (or the invocation).
pub const ACCESS_SUBGROUP: u32 = 8;
/// `WGRACE_ACCESS_WORKGROUP_MEMORY`: the flag for an access of workgroup
/// memory (each workgroup has its own).
pub const ACCESS_WORKGROUP_MEMORY: u32 = 16;
/// `WGRACE_ACCESS_INVOCATION`: the flag for an atomic whose scope is the
/// invocation (which also has `WGRACE_ACCESS_SUBGROUP`).
pub const ACCESS_INVOCATION: u32 = 32;

/// Record codes available to all checks together: 5 bits of the record
/// table's key, less the last code, whose key with two unknown ids would
/// wrap to 0, a free entry (`abi::decode_record_key`).
pub const RECORD_CODES: u32 = 31;

/// The subgroup helpers every check may use, for adapters with subgroups.
pub const SUBGROUPS: &str = include_str!("../wgsl/subgroups.wgsl");

/// What replaces [`SUBGROUPS`] where there are no subgroups.
pub const SUBGROUPS_NONE: &str = include_str!("../wgsl/subgroups_none.wgsl");

/// The data-race check's statement-mode storage check: the entry point of a
/// pass of its own, appended to [`runtime_source`] (see
/// [`storage_check_source`]).
pub const STMT_CHECK: &str = include_str!("../wgsl/checks/data_race/passes/stmt_check.wgsl");

/// Entry point of [`STMT_CHECK`].
pub const STMT_CHECK_ENTRY: &str = "wgrace_stmt_storage_check";

/// Invocations per workgroup of [`STMT_CHECK`].
pub const STMT_CHECK_WORKGROUP: u32 = 64;

/// The same-value pass (`--same-value-notes`): the entry points of a pass
/// of its own, appended to [`runtime_source`] (see [`same_value_source`]),
/// that mark the records of races on words that were written two values.
pub const SAME_VALUE_PASS: &str = include_str!("../wgsl/passes/same_value.wgsl");

/// Entry point of [`SAME_VALUE_PASS`] run after each chunk, one workgroup
/// per workgroup slot the chunk used.
pub const SAME_VALUE_SLOTS_ENTRY: &str = "wgrace_same_value_slots";

/// Entry point of [`SAME_VALUE_PASS`] run after the last chunk, over the
/// tracked storage words.
pub const SAME_VALUE_STORAGE_ENTRY: &str = "wgrace_same_value_storage";

/// Invocations per workgroup of [`SAME_VALUE_PASS`].
pub const SAME_VALUE_WORKGROUP: u32 = 64;

/// The data-race check's replay pass (addr mode, recording): the entry
/// point of a pass of its own, run after each chunk of the checked dispatch,
/// that checks what the chunk's workgroups recorded (see
/// [`replay_pass_source`]).
pub const REPLAY_PASS: &str = include_str!("../wgsl/checks/data_race/passes/replay.wgsl");

/// Entry point of [`REPLAY_PASS`].
pub const REPLAY_PASS_ENTRY: &str = "wgrace_replay_pass";

/// Compile-time constants of the runtime for one instrumented shader.
///
/// The host-side layouts that must agree with the runtime (the log buffer,
/// the pair table entries, the shadow state words) are described next to the
/// constants in `wgsl/runtime.wgsl` and `wgsl/checks/data_race/addr.wgsl`, and
/// mirrored in [`abi`] and `wgrace::log`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Prelude {
    /// Bits needed for a local invocation index (`ceil(log2(invocations))`).
    pub invocation_bits: u32,
    /// Bits needed for a site id (including the reserved "unknown" id).
    pub site_bits: u32,
    /// Invocations per workgroup.
    pub workgroup_invocations: u32,
    /// Tracked words of workgroup memory per workgroup.
    pub workgroup_words: u32,
    /// Entries of the per-variable table in the parameters (at least 1).
    pub vars: u32,
    /// Whether the workgroup-memory shadow lives in workgroup memory (fast)
    /// rather than in per-workgroup slots of the log buffer.
    pub workgroup_shadow_resident: bool,
    /// Bits of the workgroup-memory state word that count barriers of any
    /// kind, to tell `barrier-kind` races from `intra-workgroup` ones (see
    /// [`Prelude::workgroup_bits`]).
    pub workgroup_barrier_bits: u32,
    /// Bits of the workgroup-memory state word that count barrier intervals;
    /// the shadow is cleared when the count wraps.
    pub workgroup_interval_bits: u32,
    /// Statement mode (GRace-stmt) rather than addr mode.
    pub stmt: bool,
    /// Statement mode: slots (statements) per tracked word of workgroup
    /// memory and barrier interval.
    pub slots: u32,
    /// Statement mode: slots per tracked word of storage memory.
    pub storage_slots: u32,
    /// Statement mode: whether the shader has a barrier that does not order
    /// workgroup memory (`storageBarrier()`), so that slots of workgroup
    /// memory must count barriers to tell `barrier-kind` races.
    pub workgroup_barrier_kinds: bool,
    /// Statement mode: the same for storage memory (a barrier that does not
    /// order it, such as `workgroupBarrier()`).
    pub storage_barrier_kinds: bool,
    /// Whether the adapter has subgroup operations (the runtime checks how
    /// subgroups are formed, and statement mode's warp check uses them).
    pub subgroups: bool,
    /// Whether the runtime counts the instrumented accesses it executes
    /// (`wgrace run --stats`), in the log header.
    pub count_accesses: bool,
    /// The checks linked with the runtime, whose hooks it calls.
    pub checks: Vec<LinkedCheck>,
    /// Whether any access is instrumented: without one nothing is classed,
    /// and the check of how subgroups are formed is left out.
    pub instrumented: bool,
    /// Addr mode: record accesses and barriers where they happen and check
    /// them in the replay pass after each chunk, from one call site of the
    /// state machines (`wgsl/checks/data_race/hooks/replay.wgsl`,
    /// [`REPLAY_PASS`]), rather than at every access.
    pub replay: bool,
    /// Addr mode's storage state word.
    pub storage: StorageLayout,
    /// The instrumented storage sites: a storage state word names a site by
    /// its index here.
    pub storage_sites: Vec<u32>,
    /// What the replay needs of each site, by site id, beyond what its
    /// events hold: the words an access covers and, for a storage site, its
    /// index in [`Prelude::storage_sites`] (empty without replay). The host
    /// writes them at the head of the replay streams' buffer
    /// ([`Prelude::trace_head`]).
    pub site_facts: Vec<[u32; 2]>,
    /// Whether some barrier of the shader orders both storage and workgroup
    /// memory (SPIR-V's can): the replay's barrier events then need a second
    /// entry, since the barriers of any kind are no longer the sum of those
    /// that order each memory.
    pub barriers_order_both: bool,
    /// Whether this module gathers the timeline of a focus workgroup
    /// (`wgsl/checks/data_race/timeline.wgsl`): only the replay pass of a
    /// timeline's run sets it.
    pub timeline: bool,
    /// Access sites whose written values the runtime gathers
    /// (`wgrace run --same-value-notes`): the range of the 32-bit words each
    /// site wrote, in a table after the record table's spreads (0: none
    /// gathered; see `wgrace_written` in `wgsl/runtime.wgsl`).
    pub value_sites: u32,
}

/// How addr mode lays out the state word of a tracked storage word (see
/// "storage memory" in `wgsl/checks/data_race/addr.wgsl`).
///
/// The state holds five bits of flags and the *identity* of one access:
/// barrier count, site, invocation, storage epoch and workgroup, from the
/// lowest bits up. It takes 32 bits (a 4-byte state word) whenever the
/// dispatch allows, else 48 or 64 in an 8-byte state word. With the
/// direct-mapped cache (after ScoRD) a tag above the identity tells which
/// word owns a state entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StorageLayout {
    /// Whether the state word is 64 bits wide (else 32).
    pub wide_state: bool,
    /// Bits of the identity with its flags: 32 or less when the state word
    /// is 32 bits (or holds a cache tag above them), else 48, or 64 when 48
    /// do not suffice. Up to 48, witnesses live in the bounded witness cache;
    /// 64-bit identities have two witness words per tracked word.
    pub identity_bits: u32,
    /// Bits counting barriers of any kind (to tell `barrier-kind` races).
    pub barrier_bits: u32,
    /// Position of the workgroup field (the identity's top bits).
    pub g_shift: u32,
    /// Largest storage epoch the identity holds; a workgroup that executes
    /// more storage barriers stops checking storage memory.
    pub epoch_max: u32,
    /// Bits of the direct-mapped cache's tag (0: one state per word).
    pub tag_bits: u32,
}

/// Why a storage layout cannot be built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LayoutError {
    /// Even a 64-bit identity leaves fewer bits to count storage barriers
    /// than the shader needs.
    TooManyWorkgroups,
    /// The direct-mapped cache's tag needs room above the identity, and this
    /// dispatch's identity needs all 64 bits.
    CacheNeedsNarrowerIdentity,
}

/// Bits a storage state word gives its site: enough for an index among
/// `sites` instrumented storage sites.
pub fn storage_site_bits(sites: usize) -> u32 {
    usize::BITS - sites.saturating_sub(1).leading_zeros()
}

/// Most bits an identity may have for its witnesses to share the bounded
/// witness cache: an entry holds the identity and, above it, the high bits
/// of its word.
pub const WITNESS_IDENTITY_BITS: u32 = 48;

/// Flag bits below the identity of a storage state word.
const STORAGE_FLAG_BITS: u32 = 5;

/// Fewest bits the barrier count gets when the shader has barriers that do
/// not order storage: a race separated by a multiple of 2^bits of them is
/// classed `intra-workgroup` rather than `barrier-kind`. (48- and 64-bit
/// identities give it 8.)
const MIN_BARRIER_BITS: u32 = 2;

impl StorageLayout {
    /// The layout for a dispatch of `workgroups` workgroups of invocations
    /// numbered with `invocation_bits`, with `site_bits` for a storage site.
    /// `epoch_min` is the fewest bits that must count storage-ordering
    /// barriers (0 without any: see [`StorageLayout::epoch_bits_for`]);
    /// `barrier_kinds` says the shader has barriers that do not order storage.
    /// `cache_ratio` (a power of two) asks for the direct-mapped cache with
    /// one entry per that many words.
    ///
    /// # Errors
    /// [`LayoutError`] when the identity does not fit.
    pub fn new(
        invocation_bits: u32,
        site_bits: u32,
        workgroups: u64,
        epoch_min: u32,
        barrier_kinds: bool,
        cache_ratio: Option<u32>,
    ) -> Result<StorageLayout, LayoutError> {
        let g_bits = 64 - (workgroups.max(2) - 1).leading_zeros();
        let fixed = STORAGE_FLAG_BITS + site_bits + invocation_bits + g_bits;
        let barrier_min = if barrier_kinds { MIN_BARRIER_BITS } else { 0 };
        let tag_bits = cache_ratio.map_or(0, |r| r.max(1).trailing_zeros());
        let needed = fixed + epoch_min + barrier_min;
        let (wide_state, identity_bits) = if needed + tag_bits <= 32 {
            (false, 32 - tag_bits)
        } else if needed <= 32 {
            (true, 32)
        } else if fixed + epoch_min + 8 <= WITNESS_IDENTITY_BITS {
            (true, WITNESS_IDENTITY_BITS)
        } else if tag_bits > 0 {
            return Err(LayoutError::CacheNeedsNarrowerIdentity);
        } else {
            (true, 64)
        };
        let free = identity_bits.checked_sub(fixed).ok_or(LayoutError::TooManyWorkgroups)?;
        let barrier_bits = if identity_bits > 32 {
            8
        } else if barrier_kinds {
            (free - epoch_min).min(8)
        } else {
            0
        };
        let epoch_bits = free.checked_sub(barrier_bits).ok_or(LayoutError::TooManyWorkgroups)?;
        if epoch_bits < epoch_min {
            return Err(LayoutError::TooManyWorkgroups);
        }
        let epoch_max = if epoch_bits >= 32 { u32::MAX } else { (1u32 << epoch_bits) - 1 };
        Ok(StorageLayout {
            wide_state,
            identity_bits,
            barrier_bits,
            g_shift: identity_bits - g_bits,
            epoch_max,
            tag_bits,
        })
    }

    /// Fewest epoch bits for a shader: none without storage-ordering
    /// barriers, 4 with some, 16 when one runs in a loop (a workgroup that
    /// executes more than 2^bits - 1 stops checking storage memory).
    pub fn epoch_bits_for(storage_barriers: bool, in_loop: bool) -> u32 {
        match (storage_barriers, in_loop) {
            (false, _) => 0,
            (true, false) => 4,
            (true, true) => 16,
        }
    }

    /// Whether witnesses live in the bounded witness cache, tagged above the
    /// identity (identities of at most 48 bits); else each word has two
    /// witness words.
    pub fn witness_cache(&self) -> bool {
        self.identity_bits <= WITNESS_IDENTITY_BITS
    }

    /// Bytes of one state entry.
    pub fn state_bytes(&self) -> u64 {
        if self.wide_state { 8 } else { 4 }
    }

    /// The layout statement mode declares (its own tables use 64-bit words;
    /// addr mode's storage code is compiled but never called).
    pub fn statement_mode() -> StorageLayout {
        StorageLayout {
            wide_state: true,
            identity_bits: 64,
            barrier_bits: 8,
            g_shift: 48,
            epoch_max: u32::MAX,
            tag_bits: 0,
        }
    }
}

impl Prelude {
    /// 64-bit words of state the linked checks keep together per word of a
    /// variable whose accesses reach the atomic-memory event.
    pub fn atomic_state_words(&self) -> u32 {
        self.checks.iter().map(|c| c.atomic_state_words).sum()
    }

    /// How the 29 identity bits of a workgroup-memory state word are shared
    /// once the invocation and site take theirs: (barrier-count bits,
    /// interval bits). The barrier count gets up to 8 bits (a race separated
    /// by a multiple of 2^bits barriers of the other kind would be classed
    /// `intra-workgroup`), the interval count what is left, up to 16.
    pub fn workgroup_bits(invocation_bits: u32, site_bits: u32) -> (u32, u32) {
        let free = 29u32.saturating_sub(invocation_bits + site_bits);
        let barrier = free.saturating_sub(1).min(8);
        (barrier, free.saturating_sub(barrier).min(16))
    }
}

impl Prelude {
    /// Largest number of access sites a shader may have: site ids are packed
    /// into 13 bits of the record table's key, where the largest means
    /// "unknown".
    pub const MAX_SITES: u32 = 0x1fff;

    /// 32-bit shadow words per tracked word of workgroup memory: a state and
    /// a witness in addr mode, five per slot in statement mode.
    pub fn workgroup_state_words(&self) -> u32 {
        if self.stmt { 5 * self.slots } else { 2 }
    }

    /// Statement mode: 64-bit shadow words per tracked word of storage
    /// memory (five per slot).
    pub fn storage_state_words(&self) -> u32 {
        5 * self.storage_slots
    }

    /// The head of the replay streams' buffer: one 64-bit entry per site,
    /// the words its accesses cover (high half) and its index among the
    /// storage sites (low half), in the order of [`Prelude::site_facts`].
    /// A table in a buffer, since drivers compile an indexed WGSL `const`
    /// array into a copy of the array at every use.
    pub fn trace_head(&self) -> Vec<u64> {
        self.site_facts.iter().map(|&[words, state_site]| (u64::from(words) << 32) | u64::from(state_site)).collect()
    }

    /// Whether the runtime records accesses and replays them (addr mode,
    /// with something instrumented, and [`Prelude::replay`]).
    pub fn replays(&self) -> bool {
        self.replay && !self.stmt && self.instrumented
    }

    /// The WGSL `const` declarations for these values.
    pub fn to_wgsl(&self) -> String {
        format!(
            "const WGRACE_T_BITS: u32 = {}u;\n\
             const WGRACE_S_BITS: u32 = {}u;\n\
             const WGRACE_WG_INVOCATIONS: u32 = {}u;\n\
             const WGRACE_WG_WORDS: u32 = {}u;\n\
             const WGRACE_VARS: u32 = {}u;\n\
             const WGRACE_WG_RESIDENT: bool = {};\n\
             const WGRACE_WG_SHADOW_LEN: u32 = {}u;\n\
             const WGRACE_WG_BARRIER_BITS: u32 = {}u;\n\
             const WGRACE_WG_INTERVAL_BITS: u32 = {}u;\n\
             const WGRACE_STMT: bool = {};\n\
             const WGRACE_SLOTS: u32 = {}u;\n\
             const WGRACE_ST_SLOTS: u32 = {}u;\n\
             const WGRACE_WG_COUNT_BARRIERS: bool = {};\n\
             const WGRACE_ST_COUNT_BARRIERS: bool = {};\n\
             const WGRACE_WG_STATE_WORDS: u32 = {}u;\n\
             const WGRACE_COUNT_ACCESSES: bool = {};\n\
             const WGRACE_INSTRUMENTED: bool = {};\n\
             const WGRACE_AGGREGATE: bool = {};\n\
             const WGRACE_REPLAY: bool = {};\n\
             alias WgraceState = {};\n\
             const WGRACE_ST_WITNESS_CACHE: bool = {};\n\
             const WGRACE_ST_BARRIER_BITS: u32 = {}u;\n\
             const WGRACE_ST_G_SHIFT: u32 = {}u;\n\
             const WGRACE_ST_EPOCH_MAX: u32 = {}u;\n\
             const WGRACE_ST_TAG_BITS: u32 = {}u;\n\
             const WGRACE_ST_TAG_SHIFT: u32 = {}u;\n\
             const WGRACE_ST_ID_MASK: WgraceState = {};\n\
             const WGRACE_ST_S_BITS: u32 = {}u;\n\
             const WGRACE_ST_SITE_IDS = array<u32, {}>({});\n\
             const WGRACE_TRACE_HEAD: u32 = {}u;\n\
             const WGRACE_BARRIER_ENTRIES: u32 = {}u;\n\
             const WGRACE_TIMELINE: bool = {};\n\
             const WGRACE_VALUE_SITES: u32 = {}u;\n",
            self.invocation_bits,
            self.site_bits,
            self.workgroup_invocations,
            self.workgroup_words,
            self.vars.max(1),
            self.workgroup_shadow_resident,
            if self.workgroup_shadow_resident {
                (self.workgroup_words * self.workgroup_state_words()).max(1)
            } else {
                1
            },
            self.workgroup_barrier_bits,
            self.workgroup_interval_bits,
            self.stmt,
            self.slots.max(1),
            self.storage_slots.max(1),
            self.workgroup_barrier_kinds,
            self.storage_barrier_kinds,
            self.workgroup_state_words(),
            self.count_accesses,
            self.instrumented,
            // Reads made by a whole subgroup are checked once (addr mode).
            !self.stmt && self.subgroups,
            self.replays(),
            if self.storage.wide_state { "u64" } else { "u32" },
            self.storage.witness_cache(),
            self.storage.barrier_bits,
            self.storage.g_shift,
            self.storage.epoch_max,
            self.storage.tag_bits,
            // Where the cache's tag starts (0 when there is none: a shift by
            // the word's width would not compile, even unused).
            if self.storage.tag_bits == 0 { 0 } else { self.storage.identity_bits },
            match (self.storage.wide_state, self.storage.identity_bits) {
                (true, 64) => "0xfffffffffffffffflu".to_string(),
                (true, bits) => format!("{:#x}lu", (1u64 << bits) - 1),
                (false, bits) => format!("{:#x}u", (1u64 << bits) - 1),
            },
            storage_site_bits(self.storage_sites.len()),
            self.storage_sites.len().max(1),
            if self.storage_sites.is_empty() {
                "0u".to_string()
            } else {
                self.storage_sites.iter().map(|id| format!("{id}u")).collect::<Vec<_>>().join(", ")
            },
            self.site_facts.len(),
            if self.barriers_order_both { 2 } else { 1 },
            self.timeline,
            self.value_sites,
        )
    }
}

impl Prelude {
    /// Workgroup memory the linked checks declare.
    pub fn checks_workgroup_bytes(&self) -> u32 {
        self.checks.iter().map(|c| c.workgroup_bytes).sum()
    }
}

/// The runtime's source: `prelude` followed by [`RUNTIME`], [`SUBGROUPS`] or
/// [`SUBGROUPS_NONE`], the linked checks' WGSL, and the functions through
/// which the runtime calls the checks' hooks.
pub fn runtime_source(prelude: &Prelude) -> String {
    let mut source = prelude.to_wgsl();
    source.push_str(RUNTIME);
    source.push_str(if prelude.subgroups { SUBGROUPS } else { SUBGROUPS_NONE });
    source.push_str("\n// ---------------------------------------------------------------- checks\n");
    let mut state_at = 0;
    for check in &prelude.checks {
        let prefix = check.prefix.to_uppercase();
        source.push_str(&format!("\nconst WGRACE_CODE_{prefix}: u32 = {}u;\n", check.first_code));
        if check.atomic_state_words > 0 {
            source.push_str(&format!("const WGRACE_ATOMIC_STATE_AT_{prefix}: u32 = {state_at}u;\n"));
            state_at += check.atomic_state_words;
        }
        source.push_str(&check.source);
    }
    source.push_str(&format!("\nconst WGRACE_ATOMIC_STATE_WORDS: u32 = {}u;\n", prelude.atomic_state_words()));
    let calls = |event: &str, args: &str, handles: fn(&Hooks) -> bool| -> String {
        prelude
            .checks
            .iter()
            .filter(|c| handles(&c.hooks))
            .map(|c| format!("    wgrace_{}_on_{event}({args});\n", c.prefix))
            .collect()
    };
    source.push_str(&format!(
        "\nfn wgrace_checks_on_begin() {{\n{}}}\n\nfn wgrace_checks_on_barrier(kind: u32, id: u32) {{\n{}}}\n\n\
         fn wgrace_checks_on_end() {{\n{}}}\n\nfn wgrace_checks_on_atomic_memory(v: u32, word: u32, site: u32, flags: u32) \
         {{\n{}}}\n\nfn wgrace_checks_on_loop_budget(id: u32, n: u32) {{\n{}}}\n\n\
         fn wgrace_checks_on_loop_cut(id: u32, n: u32) {{\n{}}}\n\n\
         fn wgrace_checks_on_loop_spin(id: u32, n: u32) {{\n{}}}\n\n\
         fn wgrace_checks_on_out_of_bounds(site: u32, index: u32, length: u32) {{\n{}}}\n\n\
         fn wgrace_checks_on_workgroup_access(index: u32, byte: u32, in_bounds: bool) {{\n{}}}\n",
        calls("begin", "", |h| h.begin),
        calls("barrier", "kind, id", |h| h.barrier),
        calls("end", "", |h| h.end),
        calls("atomic_memory", "v, word, site, flags", |h| h.atomic_memory),
        calls("loop_budget", "id, n", |h| h.loops),
        calls("loop_cut", "id, n", |h| h.loops),
        calls("loop_spin", "id, n", |h| h.loops),
        calls("out_of_bounds", "site, index, length", |h| h.bounds),
        calls("workgroup_access", "index, byte, in_bounds", |h| h.workgroup_access),
    ));
    source
}

/// Statement mode's storage check: [`runtime_source`] with the entry point
/// [`STMT_CHECK_ENTRY`], its bindings in group 0.
pub fn storage_check_source(prelude: &Prelude) -> String {
    let mut source = runtime_source(prelude);
    source.push_str(STMT_CHECK);
    source
}

/// The same-value pass: [`runtime_source`] with the entry points of
/// [`SAME_VALUE_PASS`], their bindings in group 0. Only for a prelude that
/// gathers written values ([`Prelude::value_sites`] not 0).
pub fn same_value_source(prelude: &Prelude) -> String {
    let mut source = runtime_source(prelude);
    source.push_str(SAME_VALUE_PASS);
    source
}

/// The replay pass: [`runtime_source`] with the entry point
/// [`REPLAY_PASS_ENTRY`], its bindings in group 0. Only for a prelude that
/// [replays](Prelude::replays).
pub fn replay_pass_source(prelude: &Prelude) -> String {
    let mut source = runtime_source(prelude);
    source.push_str(REPLAY_PASS);
    source
}

/// Number of lines the prelude adds before [`RUNTIME`]; naga diagnostics on
/// the runtime are offset by this much.
pub const PRELUDE_LINES: usize = 33;
