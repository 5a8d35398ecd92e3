//! The checks: each one a unit, registered in [`REGISTRY`].
//!
//! A check (after Oclgrind's plugins) owns everything about one kind of bug:
//! its WGSL (in `shaders/wgsl/checks/<id>/`, hooked to the runtime's events),
//! the decoding of the records it leaves in the runtime's record table, the
//! race or [`Finding`] it turns them into, its explanation and fix hint, and
//! its rule metadata ([`CheckInfo`], which SARIF and the viewer show). The
//! pass, the runtime, the printers, the corpus runner and the CLI only
//! iterate over a [`CheckSet`]; none of them names a check.
//!
//! Adding a check means a folder here (`checks/<id>/mod.rs` implementing
//! [`Check`]), a folder `shaders/wgsl/checks/<id>/` for its WGSL, samples, and
//! one line in [`REGISTRY`]. `docs/architecture.md` walks through it.

pub mod atomic_plain;
pub mod banks;
pub mod barrier_divergence;
pub mod bounds;
pub mod data_race;
pub mod lockset;
pub mod loops;
pub mod missing_fence;
pub mod output_difference;
pub mod scope;

mod atomic_memory;

use std::sync::Arc;

use naga::Module;
use wgrace_report::{BarrierSite, CheckInfo, Finding, Invocation, Race, Run, SiteTable};
use wgrace_shaders::{Hooks, LinkedCheck};

use crate::vars::TrackedVar;

/// Every check wgrace has, in the order their records are numbered.
pub static REGISTRY: &[&dyn Check] = &[
    &data_race::DataRace,
    &barrier_divergence::BarrierDivergence,
    &output_difference::OutputDifference,
    &scope::Scope,
    &atomic_plain::AtomicPlain,
    &missing_fence::MissingFence,
    &lockset::Lockset,
    &loops::Loops,
    &bounds::Bounds,
    &banks::Banks,
];

/// One kind of bug wgrace looks for.
pub trait Check: Send + Sync {
    /// What it is: id (kebab-case, as in reports, `--checks`, the corpus
    /// headers' `// finding:` lines and SARIF rule ids), name, descriptions,
    /// help and default severity.
    fn info(&self) -> CheckInfo;

    /// The check it is part of, when it cannot run without it: the
    /// classes of races the data-race check's happens-before engine finds
    /// (`scope`, `atomic-plain`, `missing-fence`, `lockset`) are part of
    /// `data-race`. `--checks` selects a check with the one it is part of.
    fn part_of(&self) -> Option<&'static str> {
        None
    }

    /// Whether a run checks for it unless `--checks` says otherwise. A
    /// check that reports on performance rather than correctness is off by
    /// default (`banks`).
    fn on_by_default(&self) -> bool {
        true
    }

    /// Record codes it uses in the runtime's record table (at most
    /// [`wgrace_shaders::RECORD_CODES`] for all checks together).
    fn record_codes(&self) -> u32 {
        1
    }

    /// Its WGSL for a shader with these facts, or `None` when it has
    /// nothing to do in this shader (and is then left out of it).
    /// `first_code` is its first record code.
    fn link(&self, facts: &ShaderFacts<'_>, first_code: u32) -> Option<LinkedCheck>;

    /// Turns one record of the table into what the report shows. A check
    /// that tells one thing in several records decodes them together in
    /// [`Check::decode_records`] instead.
    ///
    /// # Errors
    /// A message when the record cannot be read: a bug in the check, which
    /// the runtime reports as an internal error rather than guess.
    fn decode(&self, record: &Record, ctx: &DecodeContext<'_>) -> Result<Decoded, String> {
        let _ = (record, ctx);
        Err(format!("the {} check decodes its records together", self.info().id))
    }

    /// Turns all of one run's records of this check into what the report
    /// shows; by default each with [`Check::decode`].
    ///
    /// # Errors
    /// As [`Check::decode`].
    fn decode_records(&self, records: &[Record], ctx: &DecodeContext<'_>) -> Result<Vec<Decoded>, String> {
        records.iter().map(|r| self.decode(r, ctx)).collect()
    }

    /// Whether the static analyzer (`wgrace check`) reports for it.
    fn checked_statically(&self) -> bool {
        false
    }

    /// What it finds in the runs of one report together (one per entry
    /// point and adapter), once they have all run. Most checks look at one
    /// run at a time and find nothing here.
    fn compare_runs(&self, runs: &[Run]) -> Vec<Finding> {
        let _ = runs;
        Vec::new()
    }
}

/// What a check may know about a shader when deciding what to link.
#[derive(Clone, Copy, Debug)]
pub struct ShaderFacts<'a> {
    /// Workgroup control barriers (and `workgroupUniformLoad`s) in the code
    /// the entry point reaches.
    pub barriers: usize,
    /// Access sites the runtime checks.
    pub checked_sites: usize,
    /// Whether the adapter has subgroup operations.
    pub subgroups: bool,
    /// Whether accesses are recorded where they happen and checked by the
    /// replay pass (addr mode's record and replay), rather than checked
    /// where they happen.
    pub replay: bool,
    /// Whether memory has atomics of a scope narrower than the memory's
    /// extent (SPIR-V): workgroup-scope atomics of storage memory, or
    /// subgroup-scope ones of any.
    pub scoped_atomics: bool,
    /// Whether storage or workgroup memory is accessed both atomically and with plain
    /// loads or stores (SPIR-V). With either, the accesses of such memory
    /// call the runtime's `wgrace_atomic_memory`.
    pub plain_and_atomic: bool,
    /// Loops in the code the entry point reaches whose iterations are
    /// counted, and the length of the loop table (records name loops by
    /// their index there).
    pub loops: usize,
    pub loop_table: usize,
    /// Indices the index guard tests (`crate::bounds`), the length of the
    /// index table (records name sites by their index there), and the
    /// indices it cannot test (each a line for the report's `incomplete`).
    pub indices: usize,
    pub index_table: usize,
    pub unchecked_indices: &'a [String],
    /// Accesses of tracked memory the data-race check does not check (a
    /// texture's atomics), each a line for the report's `incomplete`.
    pub unchecked_memory: &'a [String],
    /// The loads, stores and atomics of workgroup memory, in the order of
    /// their indices in the runtime's workgroup-access event.
    pub workgroup_accesses: &'a [WorkgroupAccess],
    /// The adapter's largest subgroup size (0 without subgroups).
    pub max_subgroup_size: u32,
    /// Banks of workgroup memory, each 4 bytes wide (`--banks`).
    pub banks: u32,
    /// The tracked variables (`TrackedVar::id` is the index the runtime's
    /// events pass).
    pub vars: &'a [TrackedVar],
    /// Bytes of workgroup memory the shader leaves (before the checks take
    /// theirs).
    pub workgroup_bytes_free: u32,
    /// The data-race check's happens-before engine, when the shader
    /// synchronizes with release and acquire and the engine runs.
    pub happens_before: Option<&'a data_race::happens_before::HappensBefore>,
}

/// A load, store or atomic of workgroup memory (the runtime's
/// workgroup-access event names it by its index in
/// [`ShaderFacts::workgroup_accesses`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WorkgroupAccess {
    /// Its access site.
    pub site: u32,
    /// Bytes it accesses.
    pub bytes: u32,
}

/// One entry of the runtime's record table (`shaders/wgsl/runtime.wgsl`,
/// "race records"), as read back: a key of (code, two 14-bit ids), a count,
/// an auxiliary word, and the first few examples.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// The check's own code (the key's code minus the check's first code).
    pub code: u32,
    /// The two ids of the key (sites for races, the lower first), in the
    /// order recorded.
    pub ids: [u32; 2],
    /// How many times it was recorded.
    pub count: u64,
    /// The entry's auxiliary word (the largest value recorded into it).
    pub aux: u32,
    /// The first examples (at most 4): the workgroups of the lower id's and
    /// the higher id's event, a word, and packed bits (invocation of the
    /// lower's, of the higher's << 10, 1 << 20 if the lower's came first,
    /// 1 << 21 if the first wrote).
    pub examples: Vec<[u32; 4]>,
    /// Its spread over the dispatch grid: (cell, events) for each cell
    /// (`wgrace_shaders::abi::spread_grid`) with events, an event counting
    /// in the cells of both its workgroups.
    pub cells: Vec<[u64; 2]>,
    /// Its spread over the variable, for records of memory: (range,
    /// events) for each range of the variable's words
    /// (`wgrace_shaders::abi::SPREAD_RANGES` ranges) with events.
    pub ranges: Vec<[u64; 2]>,
    /// With written values gathered, for races: whether every event was
    /// on words that were written one value throughout
    /// (`wgrace_shaders::abi::RecordEntry::one_value_words`).
    pub one_value_words: bool,
}

/// What decoding needs besides the record: the instrumented shader's tables
/// and the run's shape.
pub struct DecodeContext<'a> {
    /// The original module.
    pub module: &'a Module,
    /// The access sites.
    pub sites: &'a SiteTable,
    /// The barriers.
    pub barriers: &'a [BarrierSite],
    /// The user's loops.
    pub loops: &'a [crate::sites::LoopSite],
    /// The user's indices the index guard tests.
    pub indices: &'a [crate::sites::IndexSite],
    /// The tracked variables.
    pub vars: &'a [TrackedVar],
    /// The data race check's detection mode.
    pub mode: data_race::Mode,
    /// The entry point's workgroup size.
    pub workgroup_size: [u32; 3],
    /// Workgroup counts of the dispatch.
    pub dispatch: [u32; 3],
    /// Each tracked variable's first word in its shadow (statement mode
    /// names words by their place there).
    pub var_words: &'a [(u64, u64)],
    /// The shader's language, for the terms of explanations and hints.
    pub language: crate::Language,
}

/// What one record says.
#[derive(Clone, Debug, PartialEq)]
pub enum Decoded {
    /// A race.
    Race(Race),
    /// A finding of another kind.
    Finding(Finding),
}

/// The checks of one run, each with its first record code.
#[derive(Clone)]
pub struct CheckSet {
    checks: Vec<(Arc<dyn Check>, u32)>,
}

impl std::fmt::Debug for CheckSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.checks.iter().map(|(c, code)| (c.info().id, code))).finish()
    }
}

impl Default for CheckSet {
    /// Every registered check (a run selects from them: `--checks`, or
    /// [`CheckSet::enabled_by_default`]).
    fn default() -> CheckSet {
        let mut set = CheckSet { checks: Vec::new() };
        for check in REGISTRY {
            set = set.with(Arc::new(Registered(*check)));
        }
        set
    }
}

/// A registered check, shared as an `Arc`.
struct Registered(&'static dyn Check);

impl Check for Registered {
    fn info(&self) -> CheckInfo {
        self.0.info()
    }
    fn part_of(&self) -> Option<&'static str> {
        self.0.part_of()
    }
    fn record_codes(&self) -> u32 {
        self.0.record_codes()
    }
    fn link(&self, facts: &ShaderFacts<'_>, first_code: u32) -> Option<LinkedCheck> {
        self.0.link(facts, first_code)
    }
    fn on_by_default(&self) -> bool {
        self.0.on_by_default()
    }
    fn decode(&self, record: &Record, ctx: &DecodeContext<'_>) -> Result<Decoded, String> {
        self.0.decode(record, ctx)
    }
    fn decode_records(&self, records: &[Record], ctx: &DecodeContext<'_>) -> Result<Vec<Decoded>, String> {
        self.0.decode_records(records, ctx)
    }
    fn checked_statically(&self) -> bool {
        self.0.checked_statically()
    }
    fn compare_runs(&self, runs: &[Run]) -> Vec<Finding> {
        self.0.compare_runs(runs)
    }
}

impl CheckSet {
    /// Adds `check` (after the ones there), giving it the next record codes.
    /// A check whose codes do not fit is left out; [`CheckSet::ids`] tells.
    pub fn with(mut self, check: Arc<dyn Check>) -> CheckSet {
        let first = self.checks.last().map_or(0, |(c, first)| first + c.record_codes());
        if first + check.record_codes() <= wgrace_shaders::RECORD_CODES {
            self.checks.push((check, first));
        }
        self
    }

    /// The checks a run checks for unless `--checks` says otherwise
    /// ([`Check::on_by_default`]).
    pub fn enabled_by_default(&self) -> CheckSet {
        let mut set = CheckSet { checks: Vec::new() };
        for (check, _) in self.checks.iter().filter(|(c, _)| c.on_by_default()) {
            set = set.with(check.clone());
        }
        set
    }

    /// The checks `ids` name (`--checks`), each with the checks that are
    /// part of it, in this set's order (their record codes numbered again).
    /// `default` names the checks on by default, `all` every check.
    ///
    /// # Errors
    /// A message for an id no check of the set has, and for a check listed
    /// without the one it is part of.
    pub fn select(&self, ids: &[String]) -> Result<CheckSet, String> {
        let known = self.ids();
        let mut named = Vec::new();
        for id in ids {
            match id.as_str() {
                "all" => named.extend(known.iter().cloned()),
                "default" => named.extend(self.enabled_by_default().ids()),
                _ if known.contains(id) => named.push(id.clone()),
                _ => {
                    return Err(format!(
                        "--checks: unknown check `{id}`; the checks are {} (or `default`, `all`)",
                        known.join(", ")
                    ));
                }
            }
        }
        let ids = &named;
        let part_of = |c: &Arc<dyn Check>| c.part_of().map(str::to_string);
        for (check, _) in &self.checks {
            let id = check.info().id;
            if let Some(whole) = part_of(check).filter(|whole| ids.contains(&id) && !ids.contains(whole)) {
                return Err(format!(
                    "--checks: `{id}` is part of the `{whole}` check (its races are races that check finds and \
                     classes): list `{whole}`, which runs it"
                ));
            }
        }
        let mut set = CheckSet { checks: Vec::new() };
        for (check, _) in &self.checks {
            let id = check.info().id;
            if ids.contains(&id) || part_of(check).is_some_and(|whole| ids.contains(&whole)) {
                set = set.with(check.clone());
            }
        }
        Ok(set)
    }

    /// The check that check `id` is part of ([`Check::part_of`]), if any.
    pub fn part_of(&self, id: &str) -> Option<&'static str> {
        self.checks.iter().find(|(c, _)| c.info().id == id).and_then(|(c, _)| c.part_of())
    }

    /// The checks' ids.
    pub fn ids(&self) -> Vec<String> {
        self.checks.iter().map(|(c, _)| c.info().id).collect()
    }

    /// The checks' descriptions.
    pub fn infos(&self) -> Vec<CheckInfo> {
        self.checks.iter().map(|(c, _)| c.info()).collect()
    }

    /// The descriptions of the checks the static analyzer reports for.
    pub fn static_infos(&self) -> Vec<CheckInfo> {
        self.checks.iter().filter(|(c, _)| c.checked_statically()).map(|(c, _)| c.info()).collect()
    }

    /// The WGSL to link for a shader with `facts`.
    pub fn link(&self, facts: &ShaderFacts<'_>) -> Vec<LinkedCheck> {
        self.checks.iter().filter_map(|(c, first)| c.link(facts, *first)).collect()
    }

    /// What the checks find in `runs` together.
    pub fn compare_runs(&self, runs: &[Run]) -> Vec<Finding> {
        self.checks.iter().flat_map(|(c, _)| c.compare_runs(runs)).collect()
    }

    /// Decodes the records of one run, each given with the full code of its
    /// key: each check decodes its own ([`Check::decode_records`]).
    ///
    /// # Errors
    /// A message when no check owns a code or a check cannot read its
    /// records.
    pub fn decode_records(&self, records: Vec<(u32, Record)>, ctx: &DecodeContext<'_>) -> Result<Vec<Decoded>, String> {
        let mut owned: Vec<Vec<Record>> = vec![Vec::new(); self.checks.len()];
        for (code, record) in records {
            let (k, first) = self
                .checks
                .iter()
                .enumerate()
                .find(|(_, (c, first))| (*first..first + c.record_codes()).contains(&code))
                .map(|(k, (_, first))| (k, *first))
                .ok_or_else(|| format!("a record has code {code}, which no check of this run owns"))?;
            owned[k].push(Record { code: code - first, ..record });
        }
        let mut decoded = Vec::new();
        for ((check, _), records) in self.checks.iter().zip(owned).filter(|(_, r)| !r.is_empty()) {
            decoded.extend(check.decode_records(&records, ctx)?);
        }
        Ok(decoded)
    }
}

/// The linked form of a check whose WGSL only records races that the
/// data-race check's happens-before engine finds (`scope`'s races of
/// memory, `missing-fence`, `lockset`): `source` and no hooks, workgroup
/// memory or state of its own.
pub(crate) fn engine_recorder(id: &str, source: String, first_code: u32) -> LinkedCheck {
    linked(id, first_code, Hooks::default(), source)
}

/// The linked form of check `id` with `hooks` and `source`, no workgroup
/// memory or atomic state of its own, and nothing left unchecked.
pub fn linked(id: &str, first_code: u32, hooks: Hooks, source: String) -> LinkedCheck {
    LinkedCheck {
        prefix: wgsl_prefix(id),
        source,
        hooks,
        first_code,
        workgroup_bytes: 0,
        atomic_state_words: 0,
        unchecked: Vec::new(),
    }
}

/// `barrier-divergence` → `barrier_divergence`: the prefix of a check's
/// WGSL names and its folder's name.
pub fn wgsl_prefix(id: &str) -> String {
    id.replace('-', "_")
}

/// `wgrace_<prefix>_barriers_order(v)`, which a check's state machines ask
/// before taking a barrier as ordering plain accesses of variable `v`:
/// false for the variables no barrier orders
/// ([`TrackedVar::unordered_by_barriers`]: private accesses under SPIR-V's
/// Vulkan memory model).
pub(crate) fn barriers_order_wgsl(prefix: &str, vars: &[TrackedVar]) -> String {
    let unordered = vars.iter().filter(|v| v.unordered_by_barriers).map(|v| v.id);
    var_predicate_wgsl(&format!("wgrace_{prefix}_barriers_order"), unordered, false)
}

/// `fn <function>(v: u32) -> bool`, a test of a variable id: `listed` for
/// the variables `ids`, the opposite for the others.
pub(crate) fn var_predicate_wgsl(function: &str, ids: impl IntoIterator<Item = u32>, listed: bool) -> String {
    let ids: Vec<String> = ids.into_iter().map(|id| format!("{id}u")).collect();
    let body = if ids.is_empty() {
        format!("    return {};\n", !listed)
    } else {
        format!(
            "    switch v {{\n        case {}: {{\n            return {listed};\n        }}\n        default: {{\n            \
             return {};\n        }}\n    }}\n",
            ids.join(", "),
            !listed
        )
    };
    format!("\nfn {function}(v: u32) -> bool {{\n{body}}}\n")
}

/// Turns a linear index into an id of a grid of `dims`.
pub fn delinearize(index: u32, dims: [u32; 3]) -> [u32; 3] {
    let x = dims[0].max(1);
    let y = dims[1].max(1);
    [index % x, (index / x) % y, index / (x * y)]
}

/// The invocations of a record's examples (the workgroup's linear index in
/// an example's first word, the local index in the low 10 bits of its
/// fourth, as `wgrace_record_pair` keeps them for an event of one
/// invocation), each with the example's word.
pub fn example_invocations(record: &Record, ctx: &DecodeContext<'_>) -> Vec<(Invocation, u32)> {
    record
        .examples
        .iter()
        .map(|e| {
            let invocation = Invocation {
                workgroup_id: delinearize(e[0], ctx.dispatch),
                local_invocation_id: delinearize(e[3] & 0x3ff, ctx.workgroup_size),
            };
            (invocation, e[2])
        })
        .collect()
}

/// "invocation (x,y,z) of workgroup (a,b,c)".
pub fn invocation_text(i: &Invocation) -> String {
    let ([a, b, c], [x, y, z]) = (i.workgroup_id, i.local_invocation_id);
    format!("invocation ({x},{y},{z}) of workgroup ({a},{b},{c})")
}

/// "1 invocation", "2 invocations".
pub fn plural(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}
