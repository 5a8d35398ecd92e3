//! The instrumentation pass.
//!
//! [`instrument`] takes a validated module whose overrides are resolved and
//! returns a new, validated module in which:
//!
//! - the WGSL runtime (`wgrace-shaders`) is linked in ([`crate::link`]);
//! - every load and store of tracked memory, in the entry point and every
//!   function it calls, is preceded (stores) or followed (loads) by a call to
//!   `wgrace_wg_access` or `wgrace_storage_access` with the word offset of the
//!   access, its size in words, whether every index was in bounds, its site id
//!   and whether it writes;
//! - every workgroup control barrier and `workgroupUniformLoad` is followed
//!   by a call to `wgrace_barrier` with what it orders and its id in the
//!   barrier table;
//! - the entry point is wrapped ([`crate::entry`]) so that the runtime learns
//!   the invocation's identity and the dispatch can run in chunks.
//!
//! The pass makes two walks over each function with the same traversal: the
//! first plans every access (site id, variable, offset terms) without
//! changing anything, so that the site count is known before the runtime is
//! specialised; the second rewrites the blocks, consuming the plans in order.

use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};

use naga::proc::Layouter;
use naga::valid::{Capabilities, FunctionInfo, ModuleInfo, ValidationFlags, Validator};
use naga::{
    ArraySize, BinaryOperator, Block, Expression, Function, Handle, Literal, Module, Scalar, ScalarKind, Span,
    Statement, Type, TypeInner,
};

use crate::analysis::walk::IndexFacts;
use crate::analysis::{Analysis, AnalysisInput, SiteStatus};
use crate::bounds::{Found, IndexPlan};
pub use crate::checks::data_race::Mode;
use crate::checks::data_race::happens_before::{Accesses, AtomicData, Following, HappensBefore, Programs};
use crate::checks::{CheckSet, ShaderFacts, WorkgroupAccess};
use crate::link::link_runtime;
use crate::plan::{
    AccessKey, AtomicPlan, AtomicWrite, Bound, LockRole, LoopRef, Plan, SyncPlan, Term, TexelAccess, ValueWords,
    WorkgroupAccessPlan,
};
use crate::sites::{AccessKind, BarrierKind, BarrierSite, IndexSite, LoopSite, Site, SiteTable};
use crate::source::Shader;
use crate::vars::{self, Space, TrackedVar};
use crate::varying::Varying;
use crate::{InstrumentError, entry};
use wgrace_shaders::Prelude;

/// A shader instrumented for one entry point.
#[derive(Debug, Clone)]
pub struct Instrumented {
    /// The instrumented module; valid with [`Instrumented::capabilities`].
    pub module: Module,
    /// Its validation info.
    pub info: ModuleInfo,
    /// Capabilities the instrumented module needs beyond the original's.
    pub capabilities: Capabilities,
    /// Every access site.
    pub sites: SiteTable,
    /// Every workgroup control barrier (and `workgroupUniformLoad`), by id.
    pub barriers: Vec<BarrierSite>,
    /// The tracked variables; `vars[i].id == i`.
    pub vars: Vec<TrackedVar>,
    /// The constants the runtime was specialised with (the mode among them).
    pub prelude: wgrace_shaders::Prelude,
    /// Bind group of the runtime's resources (bindings 0: parameters,
    /// 1: storage shadow, 2: log).
    pub runtime_group: u32,
    /// Name of the entry point.
    pub entry_point: String,
    /// Its workgroup size.
    pub workgroup_size: [u32; 3],
    /// What the static analyzer found, when it ran.
    pub analysis: Option<Analysis>,
    /// The checks it was instrumented for (which decode its records).
    pub checks: CheckSet,
    /// The user's loops, by id (the `loops` check's records name them).
    pub loops: Vec<LoopSite>,
    /// The user's indices, by id (the `bounds` check's records name them).
    pub indices: Vec<IndexSite>,
    /// Whether the entry point executes a memory barrier (a SPIR-V fence)
    /// in a loop (see [`InstrumentOptions::fences_lose_private_variables`]).
    pub memory_barrier_in_loop: bool,
    /// The data-race check's happens-before engine, when it runs (SPIR-V
    /// that synchronizes buffer memory with release and acquire): the run
    /// binds `wgrace_hb` of [`HappensBefore::state_words`] 64-bit words.
    pub happens_before: Option<HappensBefore>,
    /// Why the engine does not run for a shader that synchronizes that way.
    pub happens_before_not_run: Option<String>,
    /// Whether the engine runs for the missing-fence check alone
    /// ([`InstrumentOptions::engine_for_classes`]): a run it leaves
    /// incomplete (a word that more invocations access between two
    /// barriers than its history holds, say) is better made again without.
    pub engine_for_classes: bool,
}

/// How to instrument.
#[derive(Clone, Debug)]
pub struct InstrumentOptions {
    /// Capabilities the shader may use (the instrumented module adds
    /// [`RUNTIME_CAPABILITIES`]).
    pub capabilities: Capabilities,
    /// Bytes of workgroup memory the device allows per workgroup. When the
    /// shader's workgroup variables and their shadow fit, the shadow is kept in
    /// workgroup memory; otherwise in per-workgroup slots of a storage buffer.
    pub workgroup_memory_limit: u32,
    /// Detection mode.
    pub mode: Mode,
    /// Statement mode: statements tracked per word and scope (see
    /// `shaders/wgsl/checks/data_race/stmt.wgsl`); `None`: as many as the variable with the
    /// most checked sites has, up to [`MAX_SLOTS`].
    pub slots: Option<u32>,
    /// Whether the device has subgroup operations: the runtime then learns
    /// each invocation's subgroup (for the `intra-subgroup` class) and
    /// statement mode runs its warp check.
    pub subgroups: bool,
    /// Count the instrumented accesses executed (`wgrace run --stats`).
    pub count_accesses: bool,
    /// Addr mode: whether accesses are recorded and checked by the replay
    /// pass, or checked where they happen (see [`Replay`]).
    pub replay: Replay,
    /// Workgroups of the dispatch: they size the workgroup field of the
    /// storage state word (see [`wgrace_shaders::StorageLayout`]).
    pub workgroups: u64,
    /// Keep storage state in a direct-mapped cache with one entry per this
    /// many words (a power of two), after ScoRD, instead of one per word.
    pub shadow_cache: Option<u32>,
    /// The checks to instrument for (default: those enabled by default).
    pub checks: CheckSet,
    /// Whether the adapter can lose private variables' values across memory
    /// barriers in a loop, as Mesa 22.3's lavapipe does (a shader's own
    /// private counter, read after such a loop, gives the invocation's
    /// index). The recording of [`Replay`] keeps its place in the stream in
    /// private variables and would drop what it recorded, so an entry point
    /// with a memory barrier in a loop is then checked in place, whatever
    /// [`InstrumentOptions::replay`] says. The happens-before engine's
    /// locked atomics then run without the fences around them
    /// (`locked_atomic`): in their loop, lavapipe loses the invocation's
    /// identity after them, and it needs none: its read-modify-writes are
    /// sequentially consistent, its other accesses in the CPU's (x86) order.
    pub fences_lose_private_variables: bool,
    /// Whether the adapter ends an invocation's loops after 65,535
    /// iterations in all, as lavapipe does: the happens-before engine then
    /// gives up on a lock sooner
    /// ([`crate::checks::data_race::happens_before::LOCK_SPIN_CUT_SHORT`]).
    pub loops_cut_short: bool,
    /// Element counts of the trailing runtime-sized arrays of this run's
    /// buffers, by variable: the happens-before engine checks such a buffer
    /// at this size.
    pub runtime_lengths: HashMap<Handle<naga::GlobalVariable>, u64>,
    /// The size of the view of each storage texture this run binds, by
    /// variable: reports give a texel's coordinates from it.
    pub texture_extents: HashMap<Handle<naga::GlobalVariable>, vars::TextureExtent>,
    /// Whether the happens-before engine may run for the missing-fence
    /// check alone: in SPIR-V whose atomics do not all release and acquire,
    /// where nothing else calls for it (no release and acquire, no
    /// subgroup barriers), it then checks memory under the program with
    /// every atomic releasing and acquiring too, to class the races the
    /// data-race check finds. Control barriers are all that orders memory
    /// there, which the data-race check's barrier epochs check as exactly
    /// and without the engine's limits ([`Instrumented::engine_for_classes`]).
    pub engine_for_classes: bool,
    /// Iterations each of the user's loops may start per invocation when a
    /// linked check hooks loops (the `loops` check): the invocation then
    /// leaves the loop and stops.
    pub loop_budget: u32,
    /// The adapter's largest subgroup size, when it has subgroups (the
    /// `banks` check unrolls its work for it).
    pub max_subgroup_size: u32,
    /// Banks of workgroup memory, 4 bytes wide, for the `banks` check.
    pub banks: u32,
    /// Gather the values each checked store writes (`--same-value-notes`):
    /// after each, a call to the runtime's `wgrace_written` per 32-bit word
    /// of the value ([`wgrace_shaders::Prelude::value_sites`]).
    pub same_value: bool,
}

impl Default for InstrumentOptions {
    fn default() -> Self {
        // WebGPU's default limit.
        InstrumentOptions {
            capabilities: Capabilities::all(),
            workgroup_memory_limit: 16384,
            mode: Mode::Addr,
            slots: None,
            subgroups: false,
            count_accesses: false,
            replay: Replay::Auto,
            workgroups: 1,
            shadow_cache: None,
            checks: CheckSet::default().enabled_by_default(),
            fences_lose_private_variables: false,
            loops_cut_short: false,
            runtime_lengths: HashMap::new(),
            texture_extents: HashMap::new(),
            engine_for_classes: true,
            loop_budget: DEFAULT_LOOP_BUDGET,
            max_subgroup_size: 0,
            banks: crate::checks::banks::DEFAULT_BANKS,
            same_value: false,
        }
    }
}

/// [`InstrumentOptions::loop_budget`] unless the run says otherwise.
pub const DEFAULT_LOOP_BUDGET: u32 = 1 << 20;

/// Addr mode: where accesses are checked. Checking an access where it
/// happens puts a copy of the race state machines at its site (drivers inline
/// every call), so compile time grows with the sites, to minutes for real
/// shaders; recording it and checking it in the replay pass
/// (`shaders/wgsl/checks/data_race/hooks/replay.wgsl`,
/// [`replay_pass_module`]) compiles one copy, in a pipeline of its own, but
/// writes and reads back an event per access and replays the workgroup's
/// barriers, which costs GPU time on kernels that make many accesses. Same
/// verdicts either way.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Replay {
    /// Check in place when that compiles at most [`IN_PLACE_MAX_COPIES`]
    /// copies of the state machines; otherwise record and replay, unless an
    /// invocation records more events than replay streams hold for chunks of
    /// a useful size: then the runtime checks in place
    /// (`wgrace::engine::Completed::TooManyEvents`).
    #[default]
    Auto,
    /// Always record and replay, in chunks as small as the streams need;
    /// events beyond what one binding holds are not checked (and the report
    /// says so).
    Always,
    /// Always check where the access happens.
    Never,
}

impl Replay {
    /// `"auto"`, `"always"` or `"never"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Replay::Auto => "auto",
            Replay::Always => "always",
            Replay::Never => "never",
        }
    }
}

impl std::str::FromStr for Replay {
    type Err = String;

    fn from_str(s: &str) -> Result<Replay, String> {
        match s {
            "auto" => Ok(Replay::Auto),
            "always" => Ok(Replay::Always),
            "never" => Ok(Replay::Never),
            _ => Err(format!("`--replay {s}`: use auto, always or never")),
        }
    }
}

/// Most statements tracked per word in statement mode.
pub const MAX_SLOTS: u32 = 64;

/// Capabilities the runtime itself needs (plus [`Capabilities::SUBGROUP`]
/// with [`InstrumentOptions::subgroups`]).
pub const RUNTIME_CAPABILITIES: Capabilities =
    Capabilities::SHADER_INT64.union(Capabilities::SHADER_INT64_ATOMIC_ALL_OPS);

/// Instruments entry point `entry` of `module`, without the static
/// analyzer (every checked access is instrumented).
///
/// See [`instrument_with`].
///
/// # Errors
/// As [`instrument_with`].
pub fn instrument(
    shader: &Shader,
    module: &Module,
    info: &ModuleInfo,
    entry: &str,
    options: &InstrumentOptions,
) -> Result<Instrumented, InstrumentError> {
    instrument_with(shader, module, info, entry, options, None)
}

/// The static analyzer's view of a shader, without instrumenting it.
#[derive(Debug, Clone)]
pub struct Analyzed {
    /// Every access site.
    pub sites: SiteTable,
    /// The tracked variables.
    pub vars: Vec<TrackedVar>,
    /// Every workgroup control barrier, by id.
    pub barriers: Vec<BarrierSite>,
    /// What the analyzer found.
    pub analysis: Analysis,
    /// The entry point's workgroup size.
    pub workgroup_size: [u32; 3],
    /// The index sites (`Analysis::index_in_bounds` says which are proven
    /// in bounds).
    pub indices: Vec<IndexSite>,
}

/// Runs the static analyzer on entry point `entry` for the dispatch that
/// `input` describes (see [`crate::analysis`]).
///
/// # Errors
/// As [`instrument_with`], for what the pass cannot check.
pub fn analyze(
    shader: &Shader,
    module: &Module,
    info: &ModuleInfo,
    entry: &str,
    input: &AnalysisInput<'_>,
) -> Result<Analyzed, InstrumentError> {
    let planning = plan(shader, module, info, entry)?;
    let analysis = planning.analyze(module, info, input);
    Ok(Analyzed {
        sites: SiteTable { sites: planning.sites },
        vars: planning.tracked,
        barriers: planning.barriers,
        analysis,
        workgroup_size: planning.workgroup_size,
        indices: planning.indices,
    })
}

/// The first walk's results.
struct Planning {
    ep_index: usize,
    workgroup_size: [u32; 3],
    tracked: Vec<TrackedVar>,
    /// Workgroup memory the shader itself uses, as WebGPU counts it.
    user_workgroup_bytes: u32,
    /// Words of workgroup memory tracked per workgroup.
    slot_words: u32,
    reachable: Vec<Handle<Function>>,
    /// Per function (`None`: the entry point).
    plans: BTreeMap<Option<usize>, FunctionPlans>,
    sites: Vec<Site>,
    barriers: Vec<BarrierSite>,
    loops: Vec<LoopSite>,
    /// Each loop's body, by loop id (the analyzer's walk names loops so).
    loop_bodies: Vec<*const Block>,
    /// The index table, and the indices the index guard cannot test.
    indices: Vec<IndexSite>,
    unchecked_indices: Vec<String>,
    /// The sites of the loads, stores and atomics of workgroup memory, in
    /// the order the runtime's workgroup-access event numbers them.
    workgroup_accesses: Vec<WorkgroupAccess>,
    /// The memory whose atomics the happens-before engine may check against
    /// plain accesses of the same words: it then needs every plain access
    /// of such memory.
    engine_checks_atomic_data: AtomicData,
    /// Whether the happens-before engine follows barriers that synchronize
    /// within a subgroup only (`Shader::subgroup_sync`): the analyzer takes
    /// every barrier as ordering the workgroup, so it may prove nothing
    /// race-free across one.
    engine_follows_subgroup_barriers: bool,
    /// Which barriers start a storage epoch.
    storage_epoch: StorageEpoch,
    /// What of the accesses of tracked memory is not checked, for the
    /// report's `incomplete` (texture atomics; a storage epoch that
    /// follows one of two kinds of barrier).
    unchecked_memory: Vec<String>,
}

impl Planning {
    fn analyze(&self, module: &Module, info: &ModuleInfo, input: &AnalysisInput<'_>) -> Analysis {
        let plans = self
            .plans
            .iter()
            .flat_map(|(&f, queue)| queue.accesses.iter().flatten().map(move |p| (f, p.key, p)))
            .collect();
        let planned = crate::analysis::Planned {
            module,
            info,
            ep_index: self.ep_index,
            tracked: &self.tracked,
            plans,
            checked: self.sites.iter().map(|s| s.checked).collect(),
            loops: self.loop_bodies.clone(),
            indices: self
                .plans
                .iter()
                .flat_map(|(&f, queue)| queue.indices.iter().flatten().map(move |p| (f, p)))
                .map(|(f, p)| {
                    let length = match p.length {
                        Bound::Fixed(n) => Some(u64::from(n)),
                        Bound::Runtime(_) => p.global.and_then(|g| input.buffers.get(&g)).and_then(|b| b.runtime_len),
                    };
                    ((f, p.access), IndexFacts { site: p.site, index: p.index, length })
                })
                .collect(),
            index_sites: self.indices.len(),
        };
        let mut analysis = crate::analysis::analyze(&planned, input);
        // The analyzer proves plain accesses free of races with plain ones;
        // where the engine may check them against atomics of the same words
        // too, it needs every one.
        if self.engine_follows_subgroup_barriers {
            for status in &mut analysis.sites {
                if matches!(status, SiteStatus::RaceFree) {
                    *status = SiteStatus::Instrumented(
                        "barriers that synchronize within a subgroup only may order it, which the happens-before \
                         engine follows"
                            .into(),
                    );
                }
            }
        }
        // The analyzer does not follow texels: a texture's sites stay
        // instrumented, whatever the walk saw of them.
        for site in self.sites.iter().filter(|s| s.checked && self.tracked[s.var as usize].texture.is_some()) {
            let status = &mut analysis.sites[site.id as usize];
            if !matches!(status, SiteStatus::Instrumented(_)) {
                *status = SiteStatus::Instrumented("the analyzer does not follow the texels of textures".into());
            }
        }
        let engine_checks = |s: &&Site| {
            let v = &self.tracked[s.var as usize];
            v.plain_and_atomic && self.engine_checks_atomic_data.checks(v.space)
        };
        for site in self.sites.iter().filter(engine_checks) {
            let status = &mut analysis.sites[site.id as usize];
            if matches!(status, SiteStatus::RaceFree) {
                *status = SiteStatus::Instrumented(
                    "atomics access its words too, and the happens-before engine checks it against them".into(),
                );
            }
        }
        analysis
    }

    /// Leaves untested the indices `analysis` proved in bounds.
    fn trust_indices_in_bounds(&mut self, analysis: &Analysis) {
        let proven = |p: &IndexPlan| analysis.index_in_bounds.get(p.site as usize).copied().unwrap_or(false);
        for queue in self.plans.values_mut() {
            for plans in &mut queue.indices {
                plans.retain(|p| !proven(p));
            }
        }
    }

    /// Leaves uncounted the loops `analysis` proved to start their body at
    /// most `budget` times in any run: they cannot run away.
    fn trust_bounded_loops(&mut self, analysis: &Analysis, budget: u32) {
        let bounded = |id: u32| {
            analysis.loop_starts.get(id as usize).copied().flatten().is_some_and(|starts| starts <= u64::from(budget))
        };
        for queue in self.plans.values_mut() {
            for slot in &mut queue.loops {
                if slot.is_some_and(bounded) {
                    *slot = None;
                }
            }
        }
    }

    /// Leaves every access unchecked: the data-race check is not among the
    /// checks (`--checks`), and no other check looks at memory accesses.
    fn track_no_memory(&mut self) {
        for queue in self.plans.values_mut() {
            queue.accesses.iter_mut().for_each(|slot| *slot = None);
        }
        for site in &mut self.sites {
            site.checked = false;
        }
        self.slot_words = 0;
    }

    /// Drops the instrumentation of the sites `analysis` pruned, and marks
    /// the loop-invariant ones to be recorded once per loop instance.
    fn prune(&mut self, analysis: &Analysis) {
        for queue in self.plans.values_mut() {
            for slot in &mut queue.accesses {
                if slot.as_ref().is_some_and(|p| analysis.sites[p.site as usize].pruned()) {
                    *slot = None;
                }
                if let Some(p) = slot {
                    p.once = analysis.loop_invariant.get(p.site as usize).copied().unwrap_or(false);
                }
            }
        }
        for site in &mut self.sites {
            if analysis.sites[site.id as usize].pruned() {
                site.checked = false;
            }
        }
        // Workgroup variables left with no instrumented site need no shadow.
        self.slot_words = 0;
        for v in self.tracked.iter_mut().filter(|v| v.space == Space::Workgroup) {
            if self.sites.iter().any(|s| s.checked && s.var == v.id) {
                v.slot_base = self.slot_words;
                self.slot_words += v.fixed_words;
            }
        }
    }
}

fn plan(shader: &Shader, module: &Module, info: &ModuleInfo, entry: &str) -> Result<Planning, InstrumentError> {
    let ep_index = module
        .entry_points
        .iter()
        .position(|ep| ep.name == entry && ep.stage == naga::ShaderStage::Compute)
        .ok_or_else(|| InstrumentError::NoSuchEntryPoint { name: entry.to_string(), available: Vec::new() })?;
    let ep = &module.entry_points[ep_index];
    let ep_info = info.get_entry_point(ep_index);

    let mut layouter = Layouter::default();
    layouter.update(module.to_ctx()).map_err(|e| InstrumentError::Internal { message: format!("layout: {e}") })?;

    // Tracked variables: racy address spaces the entry point uses.
    let mut tracked = Vec::new();
    let mut var_ids = HashMap::new();
    let mut slot_words = 0u32;
    let mut user_workgroup_bytes = 0u32;
    for (handle, g) in module.global_variables.iter() {
        if g.space == naga::AddressSpace::WorkGroup && !ep_info[handle].is_empty() {
            user_workgroup_bytes += layouter[g.ty].size.next_multiple_of(16);
        }
        let texture = vars::written_texture(module, g);
        let space = match (vars::is_racy_space(g.space), texture) {
            (Some(space), _) => space,
            // Texture memory is not storage memory, yet it behaves like it:
            // shared by the dispatch, ordered within a workgroup by a
            // barrier (`textureBarrier`; see `StorageEpoch`).
            (None, Some(_)) => Space::Storage,
            (None, None) => continue,
        };
        if ep_info[handle].is_empty() {
            continue;
        }
        // A texture's words are its texels, as many as the run's view has:
        // the elements of a "runtime-sized array" of one word each.
        let (unit, fixed_words, runtime_stride_words) = match texture {
            Some(t) => (vars::texel_bytes(t.format), 0, Some(1)),
            None => {
                let unit = vars::tracking_unit(module, g.ty);
                let (fixed, stride) = vars::word_layout(module, &layouter, g.ty, unit);
                (unit, fixed, stride)
            }
        };
        let id = tracked.len() as u32;
        let slot_base = if space == Space::Workgroup {
            let base = slot_words;
            slot_words += fixed_words;
            base
        } else {
            0
        };
        var_ids.insert(handle, id as usize);
        tracked.push(TrackedVar {
            id,
            handle,
            name: vars::global_name(module, handle),
            space,
            binding: g.binding.as_ref().map(|b| (b.group, b.binding)),
            ty: g.ty,
            unit,
            fixed_words,
            runtime_stride_words,
            slot_base,
            declaration: shader.locate(module.global_variables.get_span(handle)),
            scoped_atomics: false,
            plain_and_atomic: false,
            subgroup_atomics: false,
            invocation_atomics: false,
            unordered_by_barriers: space == Space::Storage
                && shader.unordered_by_barriers(module.global_variables.get_span(handle)),
            atomic_words: None,
            happens_before: None,
            sync_locations: None,
            engine_checks_atomics: false,
            texture,
        });
    }

    // First walk: plan every access of every function the entry point reaches.
    let reachable = reachable_functions(module, &ep.function);
    let mut planner = Planner {
        shader,
        module,
        layouter: &layouter,
        var_ids: &var_ids,
        tracked: &tracked,
        sites: Vec::new(),
        barriers: Vec::new(),
        loop_sites: Vec::new(),
        loop_bodies: Vec::new(),
        index_sites: Vec::new(),
        unchecked_indices: Vec::new(),
        workgroup_accesses: Vec::new(),
        written_storage: crate::spin::written_storage(
            module,
            &reachable.iter().map(|&f| &module.functions[f]).chain([&ep.function]).collect::<Vec<_>>(),
        ),
        loops: 0,
        loop_stack: Vec::new(),
        varying: None,
    };
    let mut plans: BTreeMap<Option<usize>, FunctionPlans> = BTreeMap::new();
    for &f in &reachable {
        let function = &module.functions[f];
        let mut queue = FunctionPlans::default();
        planner.loops = 0;
        planner.varying = Some(Varying::new(module, function, false));
        planner.plan_block(function, &info[f], &function.body, &mut queue)?;
        plans.insert(Some(f.index()), queue);
    }
    let mut queue = FunctionPlans::default();
    planner.loops = 0;
    planner.varying = Some(Varying::new(module, &ep.function, true));
    planner.plan_block(&ep.function, ep_info, &ep.function.body, &mut queue)?;
    plans.insert(None, queue);
    let (sites, barriers, loops, loop_bodies) =
        (planner.sites, planner.barriers, planner.loop_sites, planner.loop_bodies);
    let (indices, unchecked_indices) = (planner.index_sites, planner.unchecked_indices);
    let workgroup_accesses = planner.workgroup_accesses;
    keep_atomic_memory(&mut tracked, &mut plans);
    track_whole_elements(module, &layouter, &mut tracked, &mut plans, &sites);
    let (storage_epoch, epoch_note) = storage_epoch(&mut tracked, barrier_flags(module, ep, &reachable));
    let mut unchecked_memory: Vec<String> = epoch_note.into_iter().collect();
    // A texture's atomics race with its loads and stores only (not with
    // each other), which the engine does not check.
    let plain_too = |var: u32| sites.iter().any(|s| s.var == var && s.kind != AccessKind::Atomic);
    let texture_atomic =
        |s: &&Site| s.kind == AccessKind::Atomic && tracked[s.var as usize].texture.is_some() && plain_too(s.var);
    for s in sites.iter().filter(texture_atomic) {
        let line = s.location.line.map_or_else(String::new, |l| format!("line {l}: "));
        unchecked_memory.push(format!(
            "{line}the texture atomic on `{}` is not checked against the texture's loads and stores",
            s.variable
        ));
    }
    if sites.len() >= wgrace_shaders::Prelude::MAX_SITES as usize {
        return Err(InstrumentError::TooManySites { sites: sites.len() });
    }
    if tracked.len() > crate::MAX_VARS {
        return Err(InstrumentError::TooManyVariables { vars: tracked.len() });
    }
    Ok(Planning {
        ep_index,
        workgroup_size: ep.workgroup_size,
        tracked,
        user_workgroup_bytes,
        slot_words,
        reachable,
        plans,
        sites,
        barriers,
        loops,
        loop_bodies,
        indices,
        unchecked_indices,
        workgroup_accesses,
        engine_checks_atomic_data: AtomicData::of(shader),
        engine_follows_subgroup_barriers: shader.subgroup_sync.is_some(),
        storage_epoch,
        unchecked_memory,
    })
}

/// Instruments entry point `entry` of `module`; with `analysis`, only the
/// accesses the static analyzer cannot prove race-free for that dispatch.
///
/// `module` must be valid under `capabilities` (`info` is the proof) and have
/// no overrides left (see [`crate::prepare`]); `shader` gives the source
/// locations of its spans.
///
/// # Errors
/// [`InstrumentError`] when the shader uses something the pass cannot check,
/// or (an internal error) when the result does not validate.
pub fn instrument_with(
    shader: &Shader,
    module: &Module,
    info: &ModuleInfo,
    entry: &str,
    options: &InstrumentOptions,
    analysis: Option<&AnalysisInput<'_>>,
) -> Result<Instrumented, InstrumentError> {
    let mut planning = plan(shader, module, info, entry)?;
    let analysis = analysis.map(|input| planning.analyze(module, info, input));
    if let Some(a) = &analysis {
        planning.prune(a);
        planning.trust_bounded_loops(a, options.loop_budget);
        planning.trust_indices_in_bounds(a);
    }
    let races_checked = options.checks.ids().iter().any(|id| id == crate::checks::data_race::ID);
    if !races_checked {
        planning.track_no_memory();
    }
    let guarded_loops = planning.plans.values().flat_map(|p| p.loops.iter().flatten()).count();
    let guarded_indices = planning.plans.values().map(|p| p.indices.iter().flatten().count()).sum();
    let Planning {
        ep_index,
        workgroup_size,
        mut tracked,
        user_workgroup_bytes,
        slot_words,
        reachable,
        mut plans,
        sites,
        barriers,
        loops,
        indices,
        unchecked_indices,
        workgroup_accesses,
        storage_epoch,
        unchecked_memory,
        ..
    } = planning;
    for v in &mut tracked {
        if let Some(texture) = &mut v.texture {
            texture.extent = options.texture_extents.get(&v.handle).copied();
        }
    }
    let ep = &module.entry_points[ep_index];
    let invocations = workgroup_size.iter().product::<u32>();
    // SPIR-V that synchronizes buffer or shared memory with release and
    // acquire: the data-race check's happens-before engine checks the
    // memory such synchronization can order, where it can.
    // So does SPIR-V whose buffer atomics, or shared atomics beside plain
    // accesses of shared memory, may lack those semantics, for the
    // missing-fence check; and SPIR-V whose control barriers synchronize
    // memory within a subgroup only, for the memory they order.
    let subgroup_sync = shader.subgroup_sync.unwrap_or_default();
    // Whether the engine would run for the missing-fence check alone.
    let for_classes_alone =
        !(shader.release_acquire || shader.shared_release_acquire || shader.subgroup_sync.is_some());
    let strong = options.engine_for_classes || !for_classes_alone;
    let (relaxed, relaxed_shared) = (shader.relaxed_atomics && strong, shader.relaxed_shared_atomics && strong);
    let (mut happens_before, happens_before_not_run) = if races_checked && shader.engine_follows() {
        let has = |v: usize, atomic: bool| {
            sites.iter().any(|s| s.var as usize == v && (s.kind == AccessKind::Atomic) == atomic)
        };
        let accesses = |v: usize| Accesses { atomic: has(v, true), plain: has(v, false) };
        // Barriers that synchronize within a subgroup only: the wide program
        // gives those of subgroup memory scope the workgroup's, and the
        // races it orders, or that subgroup barriers separate, are the scope
        // check's.
        let following = Following {
            programs: Programs {
                strong: relaxed || relaxed_shared,
                wide: shader.narrow_sync || shader.subgroup_sync.is_some(),
            },
            atomic_data: AtomicData::of(shader),
            buffers: shader.release_acquire || relaxed || relaxed_shared || subgroup_sync.buffers,
            // A flag of relaxed buffer atomics may order shared data too:
            // where the engine runs for classes alone, which gives way when
            // it cannot follow (`engine_for_classes`), it follows that
            // memory as well; elsewhere a race there keeps its data-race
            // class (the report notes that the missing-fence check did not
            // look at it).
            workgroup: subgroup_sync.workgroup
                || shader.shared_release_acquire
                || relaxed_shared
                || (relaxed && for_classes_alone),
            subgroup_barriers: shader.subgroup_barriers,
            subgroup_execution: shader.subgroup_execution_barriers,
        };
        let runtime_len = |v: &TrackedVar| options.runtime_lengths.get(&v.handle).copied();
        let workgroups = options.workgroups;
        match HappensBefore::plan(&mut tracked, accesses, runtime_len, invocations, workgroups, following) {
            Ok(engine) => (engine, None),
            Err(reason) => (None, Some(reason)),
        }
    } else {
        (None, None)
    };
    if let Some(engine) = &mut happens_before {
        engine.locks = infer_locks(&mut plans);
        if options.loops_cut_short {
            engine.lock_spin = crate::checks::data_race::happens_before::LOCK_SPIN_CUT_SHORT;
        }
    }
    if happens_before.is_some() {
        // Each execution of an access matters to the engine: a later one of
        // a loop can follow a release the first one preceded.
        for plan in plans.values_mut().flat_map(|p| p.accesses.iter_mut().flatten()) {
            if tracked[plan.var].happens_before.is_some() {
                plan.once = false;
            }
        }
    } else {
        for p in plans.values_mut() {
            p.syncs.iter_mut().for_each(|s| *s = None);
            p.fences.clear();
        }
    }

    // Specialise and link the runtime.
    let invocation_bits = bits_for(invocations);
    let site_bits = bits_for(sites.len() as u32).max(1);
    // Storage state words name a site by its index among the instrumented
    // storage sites: fewer bits than a site id.
    let storage_sites: Vec<u32> =
        sites.iter().filter(|s| s.checked && s.space == Space::Storage).map(|s| s.id).collect();
    for plan in plans.values_mut().flat_map(|p| p.accesses.iter_mut().flatten()) {
        plan.state_site = storage_sites.iter().position(|&id| id == plan.site).unwrap_or(0) as u32;
    }
    let (workgroup_barrier_bits, workgroup_interval_bits) =
        wgrace_shaders::Prelude::workgroup_bits(invocation_bits, site_bits);
    // Whether some barrier leaves some storage unordered: one that does not
    // order storage memory, or any, for a buffer no barrier orders. Races
    // across such a barrier are barrier-kind, told by counting barriers.
    let storage_barrier_kinds = barriers.iter().any(|b| !storage_epoch.started_by(b.kind))
        || (!barriers.is_empty() && tracked.iter().any(|v| v.unordered_by_barriers));
    let storage = if options.mode == Mode::Stmt {
        wgrace_shaders::StorageLayout::statement_mode()
    } else {
        wgrace_shaders::StorageLayout::new(
            invocation_bits,
            wgrace_shaders::storage_site_bits(storage_sites.len()),
            options.workgroups,
            wgrace_shaders::StorageLayout::epoch_bits_for(
                barriers.iter().any(|b| storage_epoch.started_by(b.kind)),
                storage_barrier_in_loop(module, ep, &reachable, storage_epoch),
            ),
            storage_barrier_kinds,
            options.shadow_cache,
        )
        .map_err(|error| InstrumentError::StorageLayout {
            error,
            workgroups: options.workgroups,
            invocations,
            sites: sites.len(),
        })?
    };
    let instrumented = sites.iter().any(|s| s.checked);
    let fence_in_loop = memory_barrier_in_loop(module, ep);
    // The engine checks accesses as they happen, in the order of the
    // synchronization around them.
    let replay = instrumented
        && happens_before.is_none()
        && options.mode == Mode::Addr
        && !(options.fences_lose_private_variables && fence_in_loop)
        && match options.replay {
            Replay::Auto => in_place_copies(module, &ep.function, &reachable, &plans) > IN_PLACE_MAX_COPIES,
            Replay::Always => true,
            Replay::Never => false,
        };
    // The replay finds what an access's event does not hold in a table.
    let mut site_facts = Vec::new();
    if replay {
        site_facts = vec![[0, 0]; sites.len()];
        for plan in plans.values().flat_map(|p| p.accesses.iter().flatten()) {
            if let Some(facts) = site_facts.get_mut(plan.site as usize) {
                *facts = [plan.words, plan.state_site];
            }
        }
    }
    // What the checks may know of the shader, checked in place or replayed.
    let facts = |replay| ShaderFacts {
        barriers: barriers.len(),
        checked_sites: sites.iter().filter(|s| s.checked).count(),
        subgroups: options.subgroups,
        replay,
        scoped_atomics: tracked.iter().any(|v| v.scoped_atomics || v.subgroup_atomics),
        plain_and_atomic: tracked.iter().any(|v| v.plain_and_atomic),
        loops: guarded_loops,
        loop_table: loops.len(),
        indices: guarded_indices,
        index_table: indices.len(),
        unchecked_indices: &unchecked_indices,
        unchecked_memory: &unchecked_memory,
        workgroup_accesses: &workgroup_accesses,
        max_subgroup_size: if options.subgroups { options.max_subgroup_size } else { 0 },
        banks: options.banks,
        vars: &tracked,
        workgroup_bytes_free: options.workgroup_memory_limit.saturating_sub(user_workgroup_bytes),
        happens_before: happens_before.as_ref(),
    };
    let prelude = wgrace_shaders::Prelude {
        invocation_bits,
        site_bits,
        workgroup_barrier_bits,
        workgroup_interval_bits,
        workgroup_invocations: invocations,
        workgroup_words: slot_words,
        vars: tracked.len() as u32,
        workgroup_shadow_resident: false,
        stmt: options.mode == Mode::Stmt,
        slots: statement_slots(&sites, &tracked, Space::Workgroup, options.slots, false),
        workgroup_barrier_kinds: barriers.iter().any(|b| !b.kind.orders(Space::Workgroup)),
        storage_barrier_kinds,
        storage_slots: statement_slots(
            &sites,
            &tracked,
            Space::Storage,
            options.slots,
            storage_barrier_in_loop(module, ep, &reachable, storage_epoch),
        ),
        subgroups: options.subgroups,
        count_accesses: options.count_accesses,
        checks: options.checks.link(&facts(replay)),
        instrumented,
        replay,
        storage,
        storage_sites,
        site_facts,
        barriers_order_both: barriers
            .iter()
            .any(|b| storage_epoch.started_by(b.kind) && b.kind.orders(Space::Workgroup)),
        timeline: false,
        value_sites: if options.same_value && instrumented { sites.len() as u32 } else { 0 },
    };
    // The replay's round counters take a little workgroup memory: a shader
    // that leaves none is checked in place instead (same verdicts, longer
    // compiles).
    let prelude = if replay && user_workgroup_bytes + prelude.checks_workgroup_bytes() > options.workgroup_memory_limit
    {
        wgrace_shaders::Prelude {
            checks: options.checks.link(&facts(false)),
            replay: false,
            site_facts: Vec::new(),
            ..prelude
        }
    } else {
        prelude
    };
    let checks_bytes = prelude.checks_workgroup_bytes();
    // The workgroup shadow lives where accesses are checked: beside the
    // shader's variables, or alone in the replay pass.
    let beside_shadow = if prelude.replays() { checks_bytes } else { user_workgroup_bytes + checks_bytes };
    let prelude = wgrace_shaders::Prelude {
        workgroup_shadow_resident: beside_shadow
            + (slot_words * prelude.workgroup_state_words() * 4).next_multiple_of(16)
            <= options.workgroup_memory_limit,
        ..prelude
    };
    if user_workgroup_bytes + checks_bytes > options.workgroup_memory_limit {
        return Err(InstrumentError::WorkgroupMemory {
            used: user_workgroup_bytes,
            needed: checks_bytes,
            limit: options.workgroup_memory_limit,
        });
    }
    let mut runtime_capabilities = runtime_capabilities(options.subgroups);
    if happens_before.is_some_and(|engine| engine.subgroup_execution) {
        // The engine's subgroup sync, for the shader's subgroup barriers.
        runtime_capabilities |= Capabilities::SUBGROUP_BARRIER;
    }
    let mut runtime = runtime_module(&prelude, runtime_capabilities)?;
    if let Some(engine) = &happens_before {
        add_result_getters(&mut runtime, module, &mut plans);
        if engine.subgroup_execution {
            order_engine_subgroup_sync(&mut runtime);
        }
    }
    let runtime_group =
        module.global_variables.iter().filter_map(|(_, g)| g.binding.as_ref().map(|b| b.group + 1)).max().unwrap_or(0);
    let mut out = module.clone();
    out.entry_points = vec![out.entry_points.swap_remove(ep_index)];
    let linked = link_runtime(&mut out, &runtime, runtime_group);

    // Second walk: rewrite.
    let bool_ty = out.types.insert(Type { name: None, inner: TypeInner::Scalar(Scalar::BOOL) }, Span::UNDEFINED);
    let hooks = Hooks {
        storage_epoch,
        written: if prelude.value_sites > 0 {
            Some((linked.function("wgrace_written")?, linked.function("wgrace_written_unknown")?))
        } else {
            None
        },
        access: if races_checked {
            Some((linked.function("wgrace_wg_access")?, linked.function("wgrace_storage_access")?))
        } else {
            None
        },
        barrier: linked.function("wgrace_barrier")?,
        atomic_memory: if prelude.checks.iter().any(|c| c.hooks.atomic_memory) {
            Some(linked.function("wgrace_atomic_memory")?)
        } else {
            None
        },
        workgroup_access: if prelude.checks.iter().any(|c| c.hooks.workgroup_access) {
            Some(linked.function("wgrace_workgroup_access")?)
        } else {
            None
        },
        loops: if prelude.checks.iter().any(|c| c.hooks.loops) {
            let spin_waits = loops.iter().map(|l| l.spin.is_some()).collect();
            Some(crate::loops::LoopGuard::new(&mut out, &linked, options.loop_budget, spin_waits)?)
        } else {
            None
        },
        bounds: if prelude.checks.iter().any(|c| c.hooks.bounds) {
            Some(crate::bounds::IndexGuard::new(&linked)?)
        } else {
            None
        },
        hb: match happens_before {
            Some(engine) => {
                let fenced = !options.fences_lose_private_variables;
                Some(SyncHooks::new(&out, &linked, &plans, fenced, engine.atomic_plain || engine.atomic_scope)?)
            }
            None => None,
        },
    };
    for &f in &reachable {
        let new = linked.user_functions[f.index()];
        let queue = plans.remove(&Some(f.index())).unwrap_or_default();
        rewrite_function(&mut out.functions[new], queue, &hooks, &tracked, bool_ty)?;
    }
    let queue = plans.remove(&None).unwrap_or_default();
    rewrite_function(&mut out.entry_points[0].function, queue, &hooks, &tracked, bool_ty)?;
    entry::wrap_entry_point(&mut out, &linked, options.subgroups)?;
    // What the runtime's constants rule out, drivers need not compile.
    crate::prune::constant_branches(&mut out);
    if prelude.replays() {
        crate::defer::defer_recording(&mut out, &linked)?;
    }

    let capabilities = options.capabilities | runtime_capabilities;
    let mut validator = Validator::new(ValidationFlags::all(), capabilities);
    validator.validate(&out).map_err(|e| {
        // The statements the pass adds carry the span of the access they
        // check, so naga's diagnostic points at the site in the user's source.
        let site = e.spans().next().map(|(span, _)| shader.locate(*span));
        let at = site.map_or_else(String::new, |l| match l.line {
            Some(line) => format!(" at line {line} (`{}`)", l.snippet.trim()),
            None => format!(" at `{}`", l.snippet),
        });
        let mut message = format!("the instrumented module does not validate{at}: {}", e.as_inner());
        let mut source = std::error::Error::source(e.as_inner());
        while let Some(s) = source {
            message.push_str(&format!(": {s}"));
            source = s.source();
        }
        InstrumentError::Internal { message }
    })?;
    // Drivers need not compile what the entry point never calls: the
    // runtime's parts for other modes, the replay (a pass of its own), or
    // the user's unused functions.
    naga::compact::compact(&mut out, naga::compact::KeepUnused::No);
    let info = validator.validate(&out).map_err(|e| InstrumentError::Internal {
        message: format!("the instrumented module does not validate once compacted: {}", e.as_inner()),
    })?;

    Ok(Instrumented {
        module: out,
        info,
        capabilities: runtime_capabilities,
        sites: SiteTable { sites },
        barriers,
        vars: tracked,
        prelude,
        runtime_group,
        entry_point: entry.to_string(),
        workgroup_size,
        analysis,
        checks: options.checks.clone(),
        loops,
        indices,
        memory_barrier_in_loop: fence_in_loop,
        engine_for_classes: for_classes_alone && happens_before.is_some(),
        happens_before,
        happens_before_not_run,
    })
}

/// Statement mode's slots per word: `requested`, or one more than the most
/// checked sites any one variable has (every statement that can touch a word
/// gets a slot per barrier interval, and a storage word another per storage
/// barrier its workgroups executed), at most [`MAX_SLOTS`]; the most when a
/// loop executes storage barriers.
fn statement_slots(
    sites: &[Site],
    vars: &[TrackedVar],
    space: Space,
    requested: Option<u32>,
    barrier_loops: bool,
) -> u32 {
    if let Some(n) = requested {
        return n.clamp(1, MAX_SLOTS);
    }
    if barrier_loops {
        return MAX_SLOTS;
    }
    let mut per_var = vec![0u32; vars.len()];
    for site in sites.iter().filter(|s| s.checked && s.space == space) {
        if let Some(n) = per_var.get_mut(site.var as usize) {
            *n += 1;
        }
    }
    (per_var.into_iter().max().unwrap_or(0) + 1).clamp(1, MAX_SLOTS)
}

/// Whether a loop of the entry point or a function it calls executes a
/// barrier that orders storage memory (directly or through a call).
/// Whether `block` (or a function it calls) executes a barrier that starts
/// a storage epoch (`epoch_only`), or any workgroup, storage or texture
/// barrier (a control barrier or `workgroupUniformLoad`). Calls deeper than
/// 8 count as barriers.
fn has_barrier(block: &Block, module: &Module, depth: u32, epoch_only: Option<StorageEpoch>) -> bool {
    block.iter().any(|stmt| match stmt {
        Statement::ControlBarrier(flags) if let Some(epoch) = epoch_only => flags.contains(epoch.flag()),
        Statement::ControlBarrier(flags) => {
            flags.intersects(naga::Barrier::STORAGE | naga::Barrier::WORK_GROUP | naga::Barrier::TEXTURE)
        }
        Statement::WorkGroupUniformLoad { .. } => epoch_only.is_none(),
        Statement::Call { function, .. } => {
            depth >= 8 || has_barrier(&module.functions[*function].body, module, depth + 1, epoch_only)
        }
        Statement::Block(b) => has_barrier(b, module, depth, epoch_only),
        Statement::If { accept, reject, .. } => {
            has_barrier(accept, module, depth, epoch_only) || has_barrier(reject, module, depth, epoch_only)
        }
        Statement::Switch { cases, .. } => cases.iter().any(|c| has_barrier(&c.body, module, depth, epoch_only)),
        Statement::Loop { body, continuing, .. } => {
            has_barrier(body, module, depth, epoch_only) || has_barrier(continuing, module, depth, epoch_only)
        }
        _ => false,
    })
}

fn storage_barrier_in_loop(
    module: &Module,
    ep: &naga::EntryPoint,
    reachable: &[Handle<Function>],
    epoch: StorageEpoch,
) -> bool {
    fn loop_has_barrier(block: &Block, module: &Module, epoch: StorageEpoch) -> bool {
        block.iter().any(|stmt| match stmt {
            Statement::Loop { body, continuing, .. } => {
                has_barrier(body, module, 0, Some(epoch)) || has_barrier(continuing, module, 0, Some(epoch))
            }
            Statement::Block(b) => loop_has_barrier(b, module, epoch),
            Statement::If { accept, reject, .. } => {
                loop_has_barrier(accept, module, epoch) || loop_has_barrier(reject, module, epoch)
            }
            Statement::Switch { cases, .. } => cases.iter().any(|c| loop_has_barrier(&c.body, module, epoch)),
            _ => false,
        })
    }
    loop_has_barrier(&ep.function.body, module, epoch)
        || reachable.iter().any(|&f| loop_has_barrier(&module.functions[f].body, module, epoch))
}

/// Which barriers order the tracked memory of the dispatch (storage buffers
/// and storage textures) within a workgroup: each starts a new *storage
/// epoch* of the runtime. WGSL orders buffers with `storageBarrier()` and
/// textures with `textureBarrier()` alone; the runtime keeps one epoch, so
/// the memory the other barrier orders is taken as ordered by none
/// (`TrackedVar::unordered_by_barriers`), exactly so where the shader has
/// no barrier of that kind ([`storage_epoch`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum StorageEpoch {
    /// `storageBarrier()` (and SPIR-V's barriers of uniform memory).
    Buffers,
    /// `textureBarrier()`.
    Textures,
}

impl StorageEpoch {
    fn flag(self) -> naga::Barrier {
        match self {
            StorageEpoch::Buffers => naga::Barrier::STORAGE,
            StorageEpoch::Textures => naga::Barrier::TEXTURE,
        }
    }

    fn started_by(self, kind: BarrierKind) -> bool {
        match self {
            StorageEpoch::Buffers => kind.orders(Space::Storage),
            StorageEpoch::Textures => kind == BarrierKind::Texture,
        }
    }
}

/// The storage epoch of a shader with the tracked variables `tracked` and
/// the barrier `flags` of the code its entry point reaches; the variables
/// it leaves ordered by no barrier are marked, and a line for the report's
/// `incomplete` comes back where that is not exact.
fn storage_epoch(tracked: &mut [TrackedVar], flags: naga::Barrier) -> (StorageEpoch, Option<String>) {
    let textures = tracked.iter().any(|v| v.texture.is_some());
    let buffers = tracked.iter().any(|v| v.space == Space::Storage && v.texture.is_none());
    let (texture_barrier, storage_barrier) =
        (flags.contains(naga::Barrier::TEXTURE), flags.contains(naga::Barrier::STORAGE));
    let epoch = if textures && texture_barrier && !(buffers && storage_barrier) {
        StorageEpoch::Textures
    } else {
        StorageEpoch::Buffers
    };
    for v in tracked.iter_mut().filter(|v| v.space == Space::Storage) {
        let ordered = match epoch {
            StorageEpoch::Buffers => v.texture.is_none(),
            StorageEpoch::Textures => v.texture.is_some(),
        };
        v.unordered_by_barriers |= !ordered;
    }
    let note = (textures && texture_barrier && buffers && storage_barrier).then(|| {
        "textureBarrier() was taken to order no texture accesses: the shader orders storage buffers with \
         storageBarrier() too, and wgrace follows one of the two at a time; races on textures across a \
         textureBarrier() may not be races"
            .to_string()
    });
    (epoch, note)
}

/// Every flag of the control barriers of `block` and the functions it calls.
fn barrier_flags(module: &Module, ep: &naga::EntryPoint, reachable: &[Handle<Function>]) -> naga::Barrier {
    fn visit(block: &Block, flags: &mut naga::Barrier) {
        for stmt in block.iter() {
            match stmt {
                Statement::ControlBarrier(f) => *flags |= *f,
                Statement::Block(b) => visit(b, flags),
                Statement::If { accept, reject, .. } => {
                    visit(accept, flags);
                    visit(reject, flags);
                }
                Statement::Switch { cases, .. } => cases.iter().for_each(|c| visit(&c.body, flags)),
                Statement::Loop { body, continuing, .. } => {
                    visit(body, flags);
                    visit(continuing, flags);
                }
                _ => {}
            }
        }
    }
    let mut flags = naga::Barrier::empty();
    visit(&ep.function.body, &mut flags);
    for &f in reachable {
        visit(&module.functions[f].body, &mut flags);
    }
    flags
}

/// Whether the entry point, or a function it calls, executes a memory
/// barrier (a SPIR-V fence) in a loop: in the loop's body, or in a function
/// called from it (calls nested more than 8 deep are not followed).
fn memory_barrier_in_loop(module: &Module, ep: &naga::EntryPoint) -> bool {
    fn visit(block: &Block, module: &Module, in_loop: bool, depth: u32) -> bool {
        block.iter().any(|stmt| match stmt {
            Statement::MemoryBarrier(_) => in_loop,
            Statement::Call { function, .. } => {
                depth < 8 && visit(&module.functions[*function].body, module, in_loop, depth + 1)
            }
            Statement::Block(b) => visit(b, module, in_loop, depth),
            Statement::Loop { body, continuing, .. } => {
                visit(body, module, true, depth) || visit(continuing, module, true, depth)
            }
            Statement::If { accept, reject, .. } => {
                visit(accept, module, in_loop, depth) || visit(reject, module, in_loop, depth)
            }
            Statement::Switch { cases, .. } => cases.iter().any(|c| visit(&c.body, module, in_loop, depth)),
            _ => false,
        })
    }
    visit(&ep.function.body, module, false, 0)
}

/// Bits needed to hold values `0..n`.
fn bits_for(n: u32) -> u32 {
    if n <= 1 { 0 } else { 32 - (n - 1).leading_zeros() }
}

impl Instrumented {
    /// The detection mode it was instrumented for.
    pub fn mode(&self) -> Mode {
        if self.prelude.stmt { Mode::Stmt } else { Mode::Addr }
    }
}

/// Capabilities the runtime needs, with or without subgroups.
pub fn runtime_capabilities(subgroups: bool) -> Capabilities {
    if subgroups { RUNTIME_CAPABILITIES | Capabilities::SUBGROUP } else { RUNTIME_CAPABILITIES }
}

/// Parses and validates the runtime for `prelude`.
fn runtime_module(prelude: &wgrace_shaders::Prelude, capabilities: Capabilities) -> Result<Module, InstrumentError> {
    parse_runtime(&wgrace_shaders::runtime_source(prelude), capabilities)
}

/// Statement mode's storage check for an instrumented shader: a module whose
/// entry point [`wgrace_shaders::STMT_CHECK_ENTRY`] binds the runtime's
/// resources in group 0.
///
/// # Errors
/// [`InstrumentError::Internal`] if it does not validate.
pub fn storage_check_module(inst: &Instrumented) -> Result<Module, InstrumentError> {
    parse_runtime(&wgrace_shaders::storage_check_source(&inst.prelude), inst.capabilities)
}

/// The same-value pass for an instrumented shader that gathers written
/// values ([`wgrace_shaders::Prelude::value_sites`] not 0): a module whose
/// entry points [`wgrace_shaders::SAME_VALUE_SLOTS_ENTRY`] and
/// [`wgrace_shaders::SAME_VALUE_STORAGE_ENTRY`] bind the runtime's
/// parameters and log in group 0.
///
/// # Errors
/// [`InstrumentError::Internal`] if it does not validate.
pub fn same_value_module(inst: &Instrumented) -> Result<Module, InstrumentError> {
    let mut module = parse_runtime(&wgrace_shaders::same_value_source(&inst.prelude), inst.capabilities)?;
    // Only the pass's code, for the driver.
    crate::prune::constant_branches(&mut module);
    naga::compact::compact(&mut module, naga::compact::KeepUnused::No);
    Ok(module)
}

/// The data-race check's replay pass for an instrumented shader that
/// [records](wgrace_shaders::Prelude::replays) its accesses: a module whose
/// entry point [`wgrace_shaders::REPLAY_PASS_ENTRY`], of the shader's
/// workgroup size, binds the runtime's resources in group 0.
///
/// # Errors
/// [`InstrumentError::Internal`] if it does not validate.
pub fn replay_pass_module(inst: &Instrumented) -> Result<Module, InstrumentError> {
    replay_module(inst, &inst.prelude)
}

/// The replay pass of a timeline's run: [`replay_pass_module`] that also
/// gathers what the focus workgroup did with the sites that raced
/// (`wgsl/checks/data_race/timeline.wgsl`).
///
/// # Errors
/// As [`replay_pass_module`].
pub fn timeline_pass_module(inst: &Instrumented) -> Result<Module, InstrumentError> {
    replay_module(inst, &Prelude { timeline: true, ..inst.prelude.clone() })
}

fn replay_module(inst: &Instrumented, prelude: &Prelude) -> Result<Module, InstrumentError> {
    let mut module = parse_runtime(&wgrace_shaders::replay_pass_source(prelude), inst.capabilities)?;
    for ep in &mut module.entry_points {
        ep.workgroup_size = inst.workgroup_size;
    }
    // As the instrumented module: only code that can run, for the driver.
    crate::prune::constant_branches(&mut module);
    naga::compact::compact(&mut module, naga::compact::KeepUnused::No);
    Ok(module)
}

fn parse_runtime(source: &str, capabilities: Capabilities) -> Result<Module, InstrumentError> {
    let module = naga::front::wgsl::parse_str(source).map_err(|e| InstrumentError::Internal {
        message: format!("the runtime does not parse: {}", e.emit_to_string(source)),
    })?;
    Validator::new(ValidationFlags::all(), capabilities).validate(&module).map_err(|e| InstrumentError::Internal {
        message: format!("the runtime does not validate: {}", e.emit_to_string(source)),
    })?;
    Ok(module)
}

/// Tracks a storage array one element per word when every access to it
/// loads or stores whole elements (`out[i] = v` with `out:
/// array<vec4<f32>>`): two such accesses share a word exactly when they
/// share an element, so verdicts and the reported elements are unchanged,
/// and an access costs one state update instead of one per word. Arrays
/// with atomics, accesses to part of an element or to a constant element
/// keep word units.
fn track_whole_elements(
    module: &Module,
    layouter: &Layouter,
    tracked: &mut [TrackedVar],
    plans: &mut BTreeMap<Option<usize>, FunctionPlans>,
    sites: &[Site],
) {
    for v in tracked.iter_mut().filter(|v| v.space == Space::Storage) {
        let TypeInner::Array { base, stride, .. } = module.types[v.ty].inner else { continue };
        if vars::has_atomic(module, base) || stride <= v.unit || !stride.is_multiple_of(v.unit) {
            continue;
        }
        let words = stride / v.unit;
        let mut accesses = plans.values().flat_map(|p| p.accesses.iter().flatten()).filter(|p| p.var as u32 == v.id);
        let whole =
            |p: &Plan| p.const_words == 0 && p.words == words && matches!(&p.terms[..], [t] if t.stride == words);
        // Every access planned (none only noted) and on whole elements.
        let planned = accesses.clone().count() == sites.iter().filter(|s| s.var == v.id).count();
        if !planned || !accesses.all(whole) {
            continue;
        }
        for p in plans.values_mut().flat_map(|p| p.accesses.iter_mut().flatten()).filter(|p| p.var as u32 == v.id) {
            p.words = 1;
            p.terms[0].stride = 1;
        }
        v.unit = stride;
        (v.fixed_words, v.runtime_stride_words) = vars::word_layout(module, layouter, v.ty, stride);
    }
}

/// Keeps the calls to `wgrace_atomic_memory` only for variables with atomics
/// of a scope narrower than the device, or with plain and atomic accesses
/// (elsewhere no access takes part in a scope or atomic-plain race), and
/// marks those variables.
fn keep_atomic_memory(tracked: &mut [TrackedVar], plans: &mut BTreeMap<Option<usize>, FunctionPlans>) {
    for a in plans.values().flat_map(|p| p.atomics.iter().flatten()) {
        tracked[a.var].scoped_atomics |= a.narrow;
        tracked[a.var].subgroup_atomics |= a.subgroup;
        tracked[a.var].invocation_atomics |= a.invocation;
    }
    for a in plans.values().flat_map(|p| p.atomics.iter().flatten()).filter(|a| a.plain) {
        let atomics = plans.values().flat_map(|p| p.atomics.iter().flatten()).any(|b| b.var == a.var && !b.plain);
        tracked[a.var].plain_and_atomic |= atomics;
    }
    for plan in plans.values_mut().flat_map(|p| p.atomics.iter_mut()) {
        if plan.as_ref().is_some_and(|a| !tracked[a.var].atomic_memory()) {
            *plan = None;
        }
    }
    // The words the accesses of memory both kinds access can reach.
    let reach = |a: &AtomicPlan| {
        a.terms.iter().try_fold(a.const_words + 1, |words, t| match t.bound {
            Bound::Fixed(n) => Some(words + n.saturating_sub(1) * t.stride),
            Bound::Runtime(_) => None,
        })
    };
    for v in tracked.iter_mut().filter(|v| v.plain_and_atomic || v.subgroup_atomics) {
        let mut plans = plans.values().flat_map(|p| p.atomics.iter().flatten()).filter(|a| a.var as u32 == v.id);
        v.atomic_words = plans.try_fold(0, |most, a| reach(a).map(|r| r.max(most)));
    }
}

/// With `--replay auto`, accesses are checked in place while checking them
/// so compiles at most this many copies of the race state machines. In small
/// kernels on lavapipe a copy compiles in about 0.08 s and the replay's
/// machinery in about 0.5 s, so up to eight copies cost at most a few tenths
/// of a second more to compile, and run several times faster than the
/// replay; every further copy adds its share (vello's `flatten.wgsl`, 3
/// sites inlined into 23 places, compiles in 5.1 s in place and 1.4 s
/// replayed). docs/performance.md has the figures.
pub const IN_PLACE_MAX_COPIES: usize = 8;

/// How many copies of the race state machines checking in place compiles:
/// one per checked access, times the number of places its function is
/// inlined into the entry point (drivers inline every call).
fn in_place_copies(
    module: &Module,
    root: &Function,
    reachable: &[Handle<Function>],
    plans: &BTreeMap<Option<usize>, FunctionPlans>,
) -> usize {
    let checked = |f: Option<usize>| plans.get(&f).map_or(0, |p| p.accesses.iter().flatten().count());
    // Callers come after their callees in a module: walk back from the root.
    let mut instances = vec![0usize; module.functions.len()];
    let mut callees = Vec::new();
    calls(&root.body, &mut callees);
    for f in callees.drain(..) {
        instances[f.index()] += 1;
    }
    for &f in reachable.iter().rev() {
        calls(&module.functions[f].body, &mut callees);
        for callee in callees.drain(..) {
            instances[callee.index()] = instances[callee.index()].saturating_add(instances[f.index()]);
        }
    }
    reachable
        .iter()
        .fold(checked(None), |sum, f| sum.saturating_add(checked(Some(f.index())).saturating_mul(instances[f.index()])))
}

/// Appends the function of every call statement in `block`, one per call.
fn calls(block: &Block, out: &mut Vec<Handle<Function>>) {
    for stmt in block.iter() {
        match stmt {
            Statement::Call { function, .. } => out.push(*function),
            Statement::Block(b) => calls(b, out),
            Statement::If { accept, reject, .. } => {
                calls(accept, out);
                calls(reject, out);
            }
            Statement::Switch { cases, .. } => cases.iter().for_each(|c| calls(&c.body, out)),
            Statement::Loop { body, continuing, .. } => {
                calls(body, out);
                calls(continuing, out);
            }
            _ => {}
        }
    }
}

/// Functions called, directly or not, from `root`, callees first.
fn reachable_functions(module: &Module, root: &Function) -> Vec<Handle<Function>> {
    let mut seen = vec![false; module.functions.len()];
    let mut stack = Vec::new();
    calls(&root.body, &mut stack);
    while let Some(f) = stack.pop() {
        if !std::mem::replace(&mut seen[f.index()], true) {
            calls(&module.functions[f].body, &mut stack);
        }
    }
    module.functions.iter().map(|(h, _)| h).filter(|h| seen[h.index()]).collect()
}

// ---------------------------------------------------------------- planning

/// What the second walk inserts in one function, in traversal order: a
/// plan per load and store (`None` for an access that is not checked) and
/// an id per barrier, with whether its memory scope is a subgroup (SPIR-V's
/// workgroup barriers of subgroup memory scope).
#[derive(Debug, Default)]
struct FunctionPlans {
    accesses: VecDeque<Option<Plan>>,
    barriers: VecDeque<(u32, bool)>,
    /// One entry per load, store and atomic statement, in walk order: what
    /// to call after it when it accesses memory the checks of atomic memory
    /// look at (`keep_atomic_memory`).
    atomics: VecDeque<Option<AtomicPlan>>,
    /// One entry per load, store and atomic statement, in walk order: for
    /// an atomic of SPIR-V that synchronizes with release and acquire, how
    /// the happens-before engine follows it.
    syncs: VecDeque<Option<SyncPlan>>,
    /// One entry per fence (`MemoryBarrier` statement), in walk order: its
    /// scope and semantics.
    fences: VecDeque<crate::source::SyncSemantics>,
    /// One entry per loop, in walk order: its id in the loop table, or
    /// `None` when its iterations need no counting (the analyzer proved
    /// that it ends within the loop budget).
    loops: VecDeque<Option<u32>>,
    /// One entry per `Emit` statement, in walk order: the indices it
    /// evaluates that the index guard tests (`crate::bounds`).
    indices: VecDeque<Vec<IndexPlan>>,
    /// One entry per load, store and atomic statement, in walk order: what
    /// to tell the runtime's workgroup-access event after it, for an access
    /// of workgroup memory.
    workgroup: VecDeque<Option<WorkgroupAccessPlan>>,
}

/// A pointer into a tracked variable, resolved to words.
struct Resolved {
    var: usize,
    const_words: u32,
    terms: Vec<Term>,
    words: u32,
    atomic: bool,
}

struct Planner<'a> {
    shader: &'a Shader,
    module: &'a Module,
    layouter: &'a Layouter,
    var_ids: &'a HashMap<Handle<naga::GlobalVariable>, usize>,
    tracked: &'a [TrackedVar],
    sites: Vec<Site>,
    barriers: Vec<BarrierSite>,
    /// The user's loops in every function, by id, and their bodies.
    loop_sites: Vec<LoopSite>,
    loop_bodies: Vec<*const Block>,
    /// The user's indices in every function, by id, and the ones the index
    /// guard cannot test.
    index_sites: Vec<IndexSite>,
    unchecked_indices: Vec<String>,
    /// The accesses of workgroup memory, by their index in the
    /// workgroup-access event.
    workgroup_accesses: Vec<WorkgroupAccess>,
    /// The storage variables the code the entry point reaches writes (a
    /// loop that waits for one is a spin-wait: `crate::spin`).
    written_storage: HashSet<Handle<naga::GlobalVariable>>,
    /// Loops of the function being planned so far (their pre-order index),
    /// and the ones enclosing the current statement.
    loops: u32,
    loop_stack: Vec<LoopRef>,
    /// Which values of the function being planned may differ between the
    /// invocations of a subgroup.
    varying: Option<Varying>,
}

/// The type reached while walking down an access chain.
#[derive(Clone, Copy)]
enum Cursor {
    Type(Handle<Type>),
    Vector { size: naga::VectorSize, scalar: Scalar },
    Scalar(Scalar),
}

impl Planner<'_> {
    fn plan_block(
        &mut self,
        f: &Function,
        info: &FunctionInfo,
        block: &Block,
        out: &mut FunctionPlans,
    ) -> Result<(), InstrumentError> {
        for (stmt, span) in block.span_iter() {
            match stmt {
                Statement::Emit(range) => {
                    for h in range.clone() {
                        match &f.expressions[h] {
                            Expression::Load { pointer } => {
                                let span = f.expressions.get_span(h);
                                let key = AccessKey::Load(h);
                                let (plan, atomic) = self.plan_access(f, info, key, *pointer, false, span)?;
                                let ty = Some(&info[h].ty);
                                out.syncs.push_back(self.sync_plan(atomic.as_ref(), true, ty, LockRole::None, span));
                                out.workgroup.push_back(self.workgroup_access(plan.as_ref(), atomic.as_ref()));
                                out.accesses.push_back(plan);
                                out.atomics.push_back(atomic);
                            }
                            Expression::ImageLoad { image, coordinate, array_index, .. } => {
                                let texel =
                                    TexelAccess { image: *image, coordinate: *coordinate, array_index: *array_index };
                                let span = f.expressions.get_span(h);
                                let plan = self.plan_texel(f, AccessKey::Texel(h), texel, false, span)?;
                                out.accesses.push_back(plan);
                            }
                            Expression::CooperativeLoad { data, .. } => {
                                self.reject_cooperative(f, data.pointer, f.expressions.get_span(h))?;
                            }
                            _ => {}
                        }
                    }
                    out.indices.push_back(self.plan_indices(f, info, range.clone()));
                }
                Statement::Store { pointer, value } => {
                    let key = AccessKey::Store(*pointer, *value);
                    // In WGSL the write is located at the store's target
                    // (`tile[i]` of `tile[i] = tile[i + 1];`), so that a read
                    // on the same line gets a label of its own. A target
                    // outside the statement, a `let` pointer's (`*p = x;`),
                    // would name the line of the `let`: keep the statement.
                    // (In SPIR-V the target is another instruction: keep the
                    // OpStore.)
                    let target = f.expressions.get_span(*pointer);
                    let wgsl = self.shader.language == crate::Language::Wgsl;
                    let inside = match (target.to_range(), span.to_range()) {
                        (Some(t), Some(s)) => s.start <= t.start && t.end <= s.end,
                        _ => false,
                    };
                    let at = if wgsl && inside { target } else { *span };
                    let (mut plan, atomic) = self.plan_access(f, info, key, *pointer, true, at)?;
                    // How the runtime learns what it wrote, if it gathers
                    // written values (`InstrumentOptions::same_value`).
                    if let Some(plan) = plan.as_mut() {
                        plan.value = Some(value_words(info[*value].ty.inner_with(&self.module.types)));
                    }
                    let lock = if self.constant(f, *value) == Some(0) { LockRole::Free } else { LockRole::None };
                    out.syncs.push_back(self.sync_plan(atomic.as_ref(), false, None, lock, *span));
                    out.workgroup.push_back(self.workgroup_access(plan.as_ref(), atomic.as_ref()));
                    out.accesses.push_back(plan);
                    out.atomics.push_back(atomic);
                }
                Statement::Atomic { pointer, fun, value, result } => {
                    let write = match fun {
                        naga::AtomicFunction::Exchange { compare: Some(_) } => AtomicWrite::IfExchanged,
                        _ => AtomicWrite::Yes,
                    };
                    let atomic = self.plan_atomic(f, info, *pointer, write, *span)?;
                    let ty = result.map(|r| &info[r].ty);
                    let value = self.constant(f, *value);
                    let lock = match fun {
                        naga::AtomicFunction::Exchange { compare: Some(c) }
                            if self.constant(f, *c) == Some(0) && value.is_some_and(|v| v != 0) =>
                        {
                            LockRole::Take
                        }
                        naga::AtomicFunction::Exchange { compare: None } if value == Some(0) => LockRole::Free,
                        _ => LockRole::None,
                    };
                    out.syncs.push_back(self.sync_plan(atomic.as_ref(), true, ty, lock, *span));
                    out.workgroup.push_back(self.workgroup_access(None, atomic.as_ref()));
                    out.atomics.push_back(atomic);
                }
                Statement::MemoryBarrier(_) => out.fences.push_back(self.shader.release_acquire_at(*span)),
                Statement::WorkGroupUniformLoad { pointer, .. } => {
                    self.note_site(f, *pointer, AccessKind::UniformLoad, *span)?;
                    out.barriers.push_back((self.add_barrier(f, BarrierKind::UniformLoad, *span), false));
                }
                Statement::ControlBarrier(flags) => {
                    if let Some(kind) = crate::sites::control_barrier_kind(*flags) {
                        let subgroup_memory = self.shader.barrier_of_subgroup_memory(*span);
                        out.barriers.push_back((self.add_barrier(f, kind, *span), subgroup_memory));
                    }
                }
                Statement::ImageStore { image, coordinate, array_index, .. } => {
                    let texel = TexelAccess { image: *image, coordinate: *coordinate, array_index: *array_index };
                    out.accesses.push_back(self.plan_texel(f, AccessKey::Texel(*coordinate), texel, true, *span)?);
                }
                Statement::ImageAtomic { image, .. } => self.note_texture_atomic(f, *image, *span)?,
                Statement::CooperativeStore { target, .. } => self.reject_cooperative(f, *target, *span)?,
                Statement::Block(b) => self.plan_block(f, info, b, out)?,
                Statement::If { accept, reject, .. } => {
                    self.plan_block(f, info, accept, out)?;
                    self.plan_block(f, info, reject, out)?;
                }
                Statement::Switch { cases, .. } => {
                    for case in cases {
                        self.plan_block(f, info, &case.body, out)?;
                    }
                }
                Statement::Loop { body, continuing, break_if } => {
                    let barrier_free =
                        !has_barrier(body, self.module, 0, None) && !has_barrier(continuing, self.module, 0, None);
                    let spin =
                        crate::spin::polled_storage(self.module, f, body, continuing, *break_if, &self.written_storage);
                    out.loops.push_back(Some(self.add_loop(f, *span, !barrier_free, spin)));
                    self.loop_bodies.push(body as *const Block);
                    self.loop_stack.push(LoopRef { index: self.loops, body: body as *const Block, barrier_free });
                    self.loops += 1;
                    self.plan_block(f, info, body, out)?;
                    self.plan_block(f, info, continuing, out)?;
                    self.loop_stack.pop();
                }
                Statement::Break
                | Statement::Continue
                | Statement::Return { .. }
                | Statement::Kill
                | Statement::Call { .. }
                | Statement::RayQuery { .. }
                | Statement::RayPipelineFunction(_)
                | Statement::SubgroupBallot { .. }
                | Statement::SubgroupGather { .. }
                | Statement::SubgroupCollectiveOperation { .. } => {}
            }
        }
        Ok(())
    }

    /// The index sites among the expressions `range` evaluates, added to
    /// the index table; the indices the guard cannot test are noted.
    fn plan_indices(&mut self, f: &Function, info: &FunctionInfo, range: naga::Range<Expression>) -> Vec<IndexPlan> {
        let shader = self.shader;
        let locate = |span| (shader.locate(span), shader.text_at(span));
        let next = self.index_sites.len() as u32;
        let function = self.function_name(f);
        let mut plans = Vec::new();
        for found in crate::bounds::find_indices(self.module, f, info, range, next, &function, &locate) {
            match found {
                Found::Plan { plan, site } => {
                    self.index_sites.push(*site);
                    plans.push(plan);
                }
                Found::Unchecked(why) => self.unchecked_indices.push(why),
            }
        }
        plans
    }

    fn function_name(&self, f: &Function) -> String {
        f.name.clone().unwrap_or_else(|| "(unnamed)".into())
    }

    fn add_site(&mut self, f: &Function, var: usize, kind: AccessKind, span: Span, checked: bool) -> u32 {
        let id = self.sites.len() as u32;
        let v = &self.tracked[var];
        self.sites.push(Site {
            id,
            kind,
            variable: v.name.clone(),
            var: v.id,
            space: v.space,
            function: self.function_name(f),
            location: self.shader.locate(span),
            checked,
            analysis: None,
        });
        id
    }

    /// Registers a loop of the user's code.
    fn add_loop(&mut self, f: &Function, span: Span, barrier: bool, spin: Option<String>) -> u32 {
        let id = self.loop_sites.len() as u32;
        self.loop_sites.push(LoopSite {
            id,
            function: self.function_name(f),
            location: self.shader.locate(span),
            barrier,
            spin,
        });
        id
    }

    /// Registers a barrier statement; its id is 1-based (0 means "no
    /// barrier" in the divergence check).
    fn add_barrier(&mut self, f: &Function, kind: BarrierKind, span: Span) -> u32 {
        let id = self.barriers.len() as u32 + 1;
        self.barriers.push(BarrierSite {
            id,
            kind,
            function: self.function_name(f),
            location: self.shader.locate(span),
        });
        id
    }

    fn note_site(
        &mut self,
        f: &Function,
        pointer: Handle<Expression>,
        kind: AccessKind,
        span: Span,
    ) -> Result<(), InstrumentError> {
        if let Some(r) = self.resolve(f, None, pointer, false, span)? {
            self.add_site(f, r.var, kind, span, false);
        }
        Ok(())
    }

    /// The plan of a `textureLoad` or `textureStore`, when its texture is a
    /// tracked storage texture: a site whose word is the texel.
    fn plan_texel(
        &mut self,
        f: &Function,
        key: AccessKey,
        texel: TexelAccess,
        write: bool,
        span: Span,
    ) -> Result<Option<Plan>, InstrumentError> {
        let Some(var) = self.texture_var(f, texel.image, span)? else { return Ok(None) };
        let kind = if write { AccessKind::Write } else { AccessKind::Read };
        let site = self.add_site(f, var, kind, span, true);
        let varies = |h: Handle<Expression>| self.varying.as_ref().is_none_or(|v| v.varies(h));
        let subgroup_invariant = !write && !varies(texel.coordinate) && !texel.array_index.is_some_and(varies);
        Ok(Some(Plan {
            key,
            innermost_loop: self.loop_stack.last().copied(),
            once: false,
            subgroup_invariant,
            state_site: 0,
            var,
            site,
            write,
            const_words: 0,
            terms: Vec::new(),
            words: 1,
            value: None,
            texel: Some(texel),
        }))
    }

    /// The tracked texture `image` is, if it is one.
    fn texture_var(
        &self,
        f: &Function,
        image: Handle<Expression>,
        span: Span,
    ) -> Result<Option<usize>, InstrumentError> {
        match f.expressions[image] {
            Expression::GlobalVariable(g) => Ok(self.var_ids.get(&g).copied()),
            Expression::FunctionArgument(i) => {
                let ty = f.arguments.get(i as usize).map(|a| &self.module.types[a.ty].inner);
                match ty {
                    Some(TypeInner::Image { class: naga::ImageClass::Storage { access, .. }, .. })
                        if access.contains(naga::StorageAccess::STORE) =>
                    {
                        Err(InstrumentError::Unsupported {
                            what: "writes to a storage texture passed as a function parameter (use the texture's \
                                   global in the function instead)"
                                .into(),
                            location: self.shader.locate(span),
                        })
                    }
                    _ => Ok(None),
                }
            }
            _ => Ok(None),
        }
    }

    /// A texture atomic (`textureAtomicAdd`, …) of a tracked texture: its
    /// texel is not checked against the texture's loads and stores, which
    /// the report says (`Planning::unchecked_texture_atomics`).
    fn note_texture_atomic(
        &mut self,
        f: &Function,
        image: Handle<Expression>,
        span: Span,
    ) -> Result<(), InstrumentError> {
        if let Some(var) = self.texture_var(f, image, span)? {
            self.add_site(f, var, AccessKind::Atomic, span, false);
        }
        Ok(())
    }

    fn reject_cooperative(
        &mut self,
        f: &Function,
        pointer: Handle<Expression>,
        span: Span,
    ) -> Result<(), InstrumentError> {
        if self.root_var(f, pointer).is_some() {
            return Err(InstrumentError::Unsupported {
                what: "cooperative matrix loads and stores of workgroup or storage memory".into(),
                location: self.shader.locate(span),
            });
        }
        Ok(())
    }

    fn plan_access(
        &mut self,
        f: &Function,
        info: &FunctionInfo,
        key: AccessKey,
        pointer: Handle<Expression>,
        write: bool,
        span: Span,
    ) -> Result<(Option<Plan>, Option<AtomicPlan>), InstrumentError> {
        let Some(r) = self.resolve(f, Some(info), pointer, write, span)? else { return Ok((None, None)) };
        // A plain SPIR-V load or store of memory naga made atomic is checked
        // as the plain access it is (against other plain accesses, and
        // below, against the atomics).
        let atomic_write = if write { AtomicWrite::Yes } else { AtomicWrite::No };
        if r.atomic && !self.shader.is_plain_spirv_access(span) {
            return Ok((None, Some(self.atomic_plan(f, r, atomic_write, span))));
        }
        let kind = if write { AccessKind::Write } else { AccessKind::Read };
        let site = self.add_site(f, r.var, kind, span, true);
        let subgroup_invariant =
            !write && r.terms.iter().all(|t| self.varying.as_ref().is_none_or(|v| !v.varies(t.index)));
        let plan = Plan {
            key,
            innermost_loop: self.loop_stack.last().copied(),
            once: false,
            subgroup_invariant,
            state_site: 0,
            var: r.var,
            site,
            write,
            const_words: r.const_words,
            terms: r.terms.clone(),
            words: r.words,
            value: None,
            texel: None,
        };
        // Plain accesses of memory naga made atomic are also reported to the
        // checks of atomic memory, against the atomics.
        let workgroup_memory = self.tracked[r.var].space == Space::Workgroup;
        let atomic = r.atomic.then_some(AtomicPlan {
            var: r.var,
            site,
            narrow: false,
            subgroup: false,
            invocation: false,
            workgroup_memory,
            plain: true,
            write: atomic_write,
            const_words: r.const_words,
            terms: r.terms,
        });
        Ok((Some(plan), atomic))
    }

    /// The workgroup-access event of the access planned as `plan` (a plain
    /// access) or `atomic` (an atomic), if it is of workgroup memory: its
    /// index in the table of such accesses, and its address in bytes.
    fn workgroup_access(&mut self, plan: Option<&Plan>, atomic: Option<&AtomicPlan>) -> Option<WorkgroupAccessPlan> {
        // (Atomics are of 4-byte integers.)
        let (var, site, const_words, terms, words) = match (plan, atomic) {
            (Some(p), _) => (p.var, p.site, p.const_words, &p.terms, p.words),
            (None, Some(a)) => (a.var, a.site, a.const_words, &a.terms, (4 / self.tracked[a.var].unit).max(1)),
            (None, None) => return None,
        };
        let v = &self.tracked[var];
        if v.space != Space::Workgroup {
            return None;
        }
        let index = self.workgroup_accesses.len() as u32;
        self.workgroup_accesses.push(WorkgroupAccess { site, bytes: words * v.unit });
        Some(WorkgroupAccessPlan { index, unit: v.unit, const_words, terms: terms.clone() })
    }

    /// How the happens-before engine follows the atomic access `atomic` (an
    /// atomic's plan, not a plain access's), for SPIR-V that synchronizes
    /// with release and acquire or has relaxed buffer atomics; `read` for
    /// loads and read-modify-writes,
    /// `result` the type of what it returns, `lock` its part in a spin lock.
    fn sync_plan(
        &self,
        atomic: Option<&AtomicPlan>,
        read: bool,
        result: Option<&naga::proc::TypeResolution>,
        lock: LockRole,
        span: Span,
    ) -> Option<SyncPlan> {
        let a = atomic.filter(|a| !a.plain && self.shader.engine_follows())?;
        let crate::source::SyncSemantics { scope, acquire, release, names } = self.shader.release_acquire_at(span);
        Some(SyncPlan {
            var: a.var,
            site: a.site,
            const_words: a.const_words,
            terms: a.terms.clone(),
            read,
            write: a.write,
            scope,
            acquire: acquire && read,
            release: release && a.write != AtomicWrite::No,
            names,
            result: result.cloned(),
            result_getter: None,
            lock,
        })
    }

    /// The value of `e` when it is an integer constant (a literal, a
    /// constant, a zero value), for lock inference.
    fn constant(&self, f: &Function, e: Handle<Expression>) -> Option<i128> {
        let literal = |l: &naga::Literal| match *l {
            naga::Literal::U32(v) => Some(i128::from(v)),
            naga::Literal::I32(v) => Some(i128::from(v)),
            naga::Literal::U64(v) => Some(i128::from(v)),
            naga::Literal::I64(v) => Some(i128::from(v)),
            naga::Literal::AbstractInt(v) => Some(i128::from(v)),
            _ => None,
        };
        match &f.expressions[e] {
            Expression::Literal(l) => literal(l),
            Expression::ZeroValue(_) => Some(0),
            Expression::Constant(c) => match &self.module.global_expressions[self.module.constants[*c].init] {
                Expression::Literal(l) => literal(l),
                Expression::ZeroValue(_) => Some(0),
                _ => None,
            },
            _ => None,
        }
    }

    /// Notes the atomic access of a `Statement::Atomic` and plans its call.
    fn plan_atomic(
        &mut self,
        f: &Function,
        info: &FunctionInfo,
        pointer: Handle<Expression>,
        write: AtomicWrite,
        span: Span,
    ) -> Result<Option<AtomicPlan>, InstrumentError> {
        let resolved = self.resolve(f, Some(info), pointer, false, span)?;
        Ok(resolved.map(|r| self.atomic_plan(f, r, write, span)))
    }

    /// Notes an atomic access's site; its call, kept only if its variable
    /// turns out to need it (`keep_atomic_memory`).
    fn atomic_plan(&mut self, f: &Function, r: Resolved, write: AtomicWrite, span: Span) -> AtomicPlan {
        let site = self.add_site(f, r.var, AccessKind::Atomic, span, false);
        let narrowness = self.shader.atomic_narrowness(span);
        let workgroup_memory = self.tracked[r.var].space == Space::Workgroup;
        AtomicPlan {
            var: r.var,
            site,
            // Every workgroup has its own workgroup memory: no atomic of it
            // is used by other workgroups.
            narrow: !workgroup_memory && narrowness > 0,
            subgroup: narrowness > 1,
            invocation: narrowness > 2,
            workgroup_memory,
            plain: false,
            write,
            const_words: r.const_words,
            terms: r.terms,
        }
    }

    /// The tracked variable `pointer` points into, if any.
    fn root_var(&self, f: &Function, mut pointer: Handle<Expression>) -> Option<usize> {
        loop {
            match f.expressions[pointer] {
                Expression::GlobalVariable(g) => return self.var_ids.get(&g).copied(),
                Expression::Access { base, .. } | Expression::AccessIndex { base, .. } => pointer = base,
                _ => return None,
            }
        }
    }

    /// Resolves an access chain ending at a tracked global into words.
    /// `info` is needed to know the type of dynamic indices; `write`
    /// widens a store to one vector component to the whole vector.
    fn resolve(
        &self,
        f: &Function,
        info: Option<&FunctionInfo>,
        pointer: Handle<Expression>,
        write: bool,
        span: Span,
    ) -> Result<Option<Resolved>, InstrumentError> {
        // Collect the chain from the access up to the global.
        enum Step {
            Index(u32),
            Dynamic { index: Handle<Expression>, base: Handle<Expression> },
        }
        let mut steps = Vec::new();
        let mut cur = pointer;
        let global = loop {
            match f.expressions[cur] {
                Expression::GlobalVariable(g) => break g,
                Expression::Access { base, index } => {
                    steps.push(Step::Dynamic { index, base });
                    cur = base;
                }
                Expression::AccessIndex { base, index } => {
                    steps.push(Step::Index(index));
                    cur = base;
                }
                Expression::FunctionArgument(i) => {
                    // WGSL forbids these pointers as parameters; another
                    // front end must not get its accesses silently skipped.
                    let ty = f.arguments.get(i as usize).map(|a| &self.module.types[a.ty].inner);
                    if let Some(TypeInner::Pointer { space, .. }) = ty
                        && vars::is_racy_space(*space).is_some()
                    {
                        return Err(InstrumentError::Unsupported {
                            what: "accesses through pointer parameters to workgroup or storage memory".into(),
                            location: self.shader.locate(span),
                        });
                    }
                    return Ok(None);
                }
                _ => return Ok(None),
            }
        };
        let Some(&var) = self.var_ids.get(&global) else { return Ok(None) };
        let types = &self.module.types;
        let unsupported =
            |what: &str| InstrumentError::Unsupported { what: what.to_string(), location: self.shader.locate(span) };

        let mut bytes = 0u32;
        let mut terms: Vec<Term> = Vec::new();
        let mut cursor = Cursor::Type(self.module.global_variables[global].ty);
        // State before the last step into a vector, to widen component stores.
        let mut before_component: Option<(u32, usize, Cursor)> = None;
        for step in steps.iter().rev() {
            let saved = (bytes, terms.len(), cursor);
            before_component = None;
            let dynamic = |index: Handle<Expression>, stride: u32, bound: Bound, terms: &mut Vec<Term>| {
                let signed = info.is_some_and(|info| {
                    matches!(info[index].ty.inner_with(types), TypeInner::Scalar(Scalar { kind: ScalarKind::Sint, .. }))
                });
                terms.push(Term { index, signed, stride, bound });
            };
            cursor = match (cursor, step) {
                (Cursor::Type(ty), step) => match (&types[ty].inner, step) {
                    (TypeInner::Struct { members, .. }, Step::Index(i)) => {
                        let m = &members[*i as usize];
                        bytes += m.offset;
                        Cursor::Type(m.ty)
                    }
                    (TypeInner::Array { base, size, stride }, step) => {
                        match step {
                            Step::Index(i) => bytes += i * stride,
                            Step::Dynamic { index, base: array_ptr } => {
                                let bound = match (size, vars::array_len(self.module, *size)) {
                                    (ArraySize::Dynamic, _) => Bound::Runtime(*array_ptr),
                                    (_, Some(n)) => Bound::Fixed(n),
                                    (_, None) => return Err(unsupported("arrays whose size is not resolved")),
                                };
                                dynamic(*index, *stride, bound, &mut terms);
                            }
                        }
                        Cursor::Type(*base)
                    }
                    (TypeInner::Vector { size, scalar }, step) => {
                        before_component = Some(saved);
                        let width = u32::from(scalar.width);
                        match step {
                            Step::Index(i) => bytes += i * width,
                            Step::Dynamic { index, .. } => {
                                dynamic(*index, width, Bound::Fixed(*size as u32), &mut terms)
                            }
                        }
                        Cursor::Scalar(*scalar)
                    }
                    (TypeInner::Matrix { columns, rows, scalar }, step) => {
                        let stride = vars::column_stride(*rows, scalar.width);
                        match step {
                            Step::Index(i) => bytes += i * stride,
                            Step::Dynamic { index, .. } => {
                                dynamic(*index, stride, Bound::Fixed(*columns as u32), &mut terms)
                            }
                        }
                        Cursor::Vector { size: *rows, scalar: *scalar }
                    }
                    _ => return Err(unsupported("this kind of access chain")),
                },
                (Cursor::Vector { size, scalar }, step) => {
                    before_component = Some(saved);
                    let width = u32::from(scalar.width);
                    match step {
                        Step::Index(i) => bytes += i * width,
                        Step::Dynamic { index, .. } => dynamic(*index, width, Bound::Fixed(size as u32), &mut terms),
                    }
                    Cursor::Scalar(scalar)
                }
                (Cursor::Scalar(_), _) => return Err(unsupported("indexing a scalar")),
            };
        }
        if write && let Some((b, n, c)) = before_component {
            bytes = b;
            terms.truncate(n);
            cursor = c;
        }
        let (size, atomic) = match cursor {
            Cursor::Type(ty) => match &types[ty].inner {
                TypeInner::Array { size: ArraySize::Dynamic, .. } => {
                    return Err(unsupported("loads and stores of a whole runtime-sized array"));
                }
                inner => (self.layouter[ty].size, matches!(inner, TypeInner::Atomic(_))),
            },
            Cursor::Vector { size, scalar } => (size as u32 * u32::from(scalar.width), false),
            Cursor::Scalar(scalar) => (u32::from(scalar.width), false),
        };
        // The unit is the narrowest scalar of the variable, so every offset and
        // stride of the chain is a multiple of it.
        let unit = self.tracked[var].unit;
        if !bytes.is_multiple_of(unit) || terms.iter().any(|t| !t.stride.is_multiple_of(unit)) {
            return Err(InstrumentError::Internal {
                message: format!("offset {bytes} of an access is not a multiple of its variable's {unit}-byte unit"),
            });
        }
        for t in &mut terms {
            t.stride /= unit;
        }
        Ok(Some(Resolved { var, const_words: bytes / unit, terms, words: size.div_ceil(unit), atomic }))
    }
}

// ---------------------------------------------------------------- rewriting

struct Hooks {
    /// `wgrace_wg_access` and `wgrace_storage_access`, the data-race
    /// check's; without it (`--checks`) no access is planned.
    access: Option<(Handle<Function>, Handle<Function>)>,
    barrier: Handle<Function>,
    /// `wgrace_atomic_memory`, when a linked check handles it.
    atomic_memory: Option<Handle<Function>>,
    /// `wgrace_workgroup_access`, when a linked check handles it.
    workgroup_access: Option<Handle<Function>>,
    /// The loop guard, when a linked check hooks loops.
    loops: Option<crate::loops::LoopGuard>,
    /// The index guard, when a linked check hooks out-of-bounds indices.
    bounds: Option<crate::bounds::IndexGuard>,
    /// The happens-before engine's, when it runs.
    hb: Option<SyncHooks>,
    /// `wgrace_written` and `wgrace_written_unknown`, when the run gathers
    /// written values (`InstrumentOptions::same_value`).
    written: Option<(Handle<Function>, Handle<Function>)>,
    /// Which barriers start a storage epoch (what `wgrace_barrier` is told
    /// they order).
    storage_epoch: StorageEpoch,
}

/// The happens-before engine's functions the rewrite calls, and where a
/// locked atomic leaves its result (`locked_atomic`).
struct SyncHooks {
    /// `wgrace_hb_location(v, word)`: the location of variable `v`'s word.
    location: Handle<Function>,
    try_lock: Handle<Function>,
    atomic: Handle<Function>,
    /// `wgrace_hb_atomic_data`, when the engine checks atomics' own
    /// accesses of some buffer ([`HappensBefore::atomic_plain`],
    /// [`HappensBefore::atomic_scope`]).
    atomic_data: Option<Handle<Function>>,
    unlock: Handle<Function>,
    locked: Handle<Function>,
    fence: Handle<Function>,
    /// By name (`wgrace_hb_result_N`): a function returning a private
    /// variable of one type, and that variable.
    results: HashMap<String, (Handle<Function>, Handle<naga::GlobalVariable>)>,
    /// Whether a locked atomic runs between fences (`locked_atomic`).
    fenced: bool,
}

impl SyncHooks {
    /// The engine's functions in the linked `module`, and the result
    /// getters [`add_result_getters`] added.
    fn new(
        module: &Module,
        linked: &crate::link::Linked,
        plans: &BTreeMap<Option<usize>, FunctionPlans>,
        fenced: bool,
        atomic_data: bool,
    ) -> Result<SyncHooks, InstrumentError> {
        let mut results = HashMap::new();
        for name in plans.values().flat_map(|p| p.syncs.iter().flatten()).filter_map(|s| s.result_getter.clone()) {
            let getter = linked.function(&name)?;
            let var = module.functions[getter].expressions.iter().find_map(|(_, e)| match e {
                Expression::GlobalVariable(g) => Some(*g),
                _ => None,
            });
            let var =
                var.ok_or_else(|| InstrumentError::Internal { message: format!("`{name}` reads no variable") })?;
            results.insert(name, (getter, var));
        }
        Ok(SyncHooks {
            location: linked.function("wgrace_hb_location")?,
            try_lock: linked.function("wgrace_hb_try_lock")?,
            atomic: linked.function("wgrace_hb_atomic")?,
            atomic_data: if atomic_data { Some(linked.function("wgrace_hb_atomic_data")?) } else { None },
            unlock: linked.function("wgrace_hb_unlock")?,
            locked: linked.function("wgrace_hb_locked")?,
            fence: linked.function("wgrace_hb_fence")?,
            results,
            fenced,
        })
    }
}

/// Settles which atomics of `plans` take and free spin locks: a
/// compare-exchange from 0 takes a lock only where a store or exchange of 0
/// frees one in the same variable (a compare-exchange that claims a word for
/// good, as a hash table's insert does, takes none). Whether any does.
fn infer_locks(plans: &mut BTreeMap<Option<usize>, FunctionPlans>) -> bool {
    let syncs = || plans.values().flat_map(|p| p.syncs.iter().flatten());
    let freed: std::collections::HashSet<usize> = syncs().filter(|s| s.lock == LockRole::Free).map(|s| s.var).collect();
    for sync in plans.values_mut().flat_map(|p| p.syncs.iter_mut().flatten()) {
        if sync.lock == LockRole::Take && !freed.contains(&sync.var) {
            sync.lock = LockRole::None;
        }
    }
    plans.values().flat_map(|p| p.syncs.iter().flatten()).any(|s| s.lock == LockRole::Take)
}

/// Adds to the runtime module, for each type a locked atomic of `plans`
/// returns (a type of `user`), a private variable of that type and a
/// function returning it, `wgrace_hb_result_N`, and names it in the plans.
/// They live in the runtime because naga wants a function before its
/// callers, and the linked runtime's functions come first.
fn add_result_getters(runtime: &mut Module, user: &Module, plans: &mut BTreeMap<Option<usize>, FunctionPlans>) {
    let mut names: Vec<(TypeInner, String)> = Vec::new();
    for sync in plans.values_mut().flat_map(|p| p.syncs.iter_mut().flatten()) {
        let Some(result) = &sync.result else { continue };
        let inner = result.inner_with(&user.types).clone();
        if let Some((_, name)) = names.iter().find(|(i, _)| *i == inner) {
            sync.result_getter = Some(name.clone());
            continue;
        }
        let name = format!("wgrace_hb_result_{}", names.len());
        let ty = match result {
            naga::proc::TypeResolution::Handle(h) => copy_type(runtime, user, *h),
            naga::proc::TypeResolution::Value(inner) => {
                runtime.types.insert(Type { name: None, inner: inner.clone() }, Span::UNDEFINED)
            }
        };
        let var = runtime.global_variables.append(
            naga::GlobalVariable {
                name: Some(name.clone()),
                space: naga::AddressSpace::Private,
                binding: None,
                ty,
                init: None,
                memory_decorations: Default::default(),
            },
            Span::UNDEFINED,
        );
        let mut getter = Function {
            name: Some(name.clone()),
            result: Some(naga::FunctionResult { ty, binding: None }),
            ..Function::default()
        };
        let pointer = getter.expressions.append(Expression::GlobalVariable(var), Span::UNDEFINED);
        let value = getter.expressions.append(Expression::Load { pointer }, Span::UNDEFINED);
        getter.body.push(Statement::Emit(naga::Range::new_from_bounds(value, value)), Span::UNDEFINED);
        getter.body.push(Statement::Return { value: Some(value) }, Span::UNDEFINED);
        runtime.functions.append(getter, Span::UNDEFINED);
        sync.result_getter = Some(name.clone());
        names.push((inner, name));
    }
}

/// Copies type `ty` of `from` (a scalar, vector or struct of them, such as
/// a compare-exchange's result) into `to`, with its name, so that linking
/// `to` into a module holding `ty` finds the same type.
fn copy_type(to: &mut Module, from: &Module, ty: Handle<Type>) -> Handle<Type> {
    let t = &from.types[ty];
    let inner = match &t.inner {
        TypeInner::Struct { members, span } => {
            let members =
                members.iter().map(|m| naga::StructMember { ty: copy_type(to, from, m.ty), ..m.clone() }).collect();
            TypeInner::Struct { members, span: *span }
        }
        other => other.clone(),
    };
    to.types.insert(Type { name: t.name.clone(), inner }, Span::UNDEFINED)
}

/// Appends expressions to a function, grouping the ones that must be
/// evaluated into `Emit` statements (literals must stay outside them).
struct Builder<'a> {
    exprs: &'a mut naga::Arena<Expression>,
    stmts: Vec<(Statement, Span)>,
    open: Option<usize>,
    span: Span,
}

impl<'a> Builder<'a> {
    fn new(exprs: &'a mut naga::Arena<Expression>, span: Span) -> Self {
        Builder { exprs, stmts: Vec::new(), open: None, span }
    }

    /// An expression that is not evaluated by `Emit` (literals, globals, …).
    fn constant(&mut self, e: Expression) -> Handle<Expression> {
        self.close();
        self.exprs.append(e, self.span)
    }

    fn u32(&mut self, v: u32) -> Handle<Expression> {
        self.constant(Expression::Literal(Literal::U32(v)))
    }

    fn bool(&mut self, v: bool) -> Handle<Expression> {
        self.constant(Expression::Literal(Literal::Bool(v)))
    }

    /// An expression evaluated where the `Emit` covering it sits.
    fn emitted(&mut self, e: Expression) -> Handle<Expression> {
        if self.open.is_none() {
            self.open = Some(self.exprs.len());
        }
        self.exprs.append(e, self.span)
    }

    fn binary(
        &mut self,
        op: BinaryOperator,
        left: Handle<Expression>,
        right: Handle<Expression>,
    ) -> Handle<Expression> {
        self.emitted(Expression::Binary { op, left, right })
    }

    fn close(&mut self) {
        if let Some(start) = self.open.take() {
            let range = self.exprs.range_from(start);
            self.stmts.push((Statement::Emit(range), self.span));
        }
    }

    fn call(&mut self, function: Handle<Function>, arguments: Vec<Handle<Expression>>) {
        self.close();
        self.stmts.push((Statement::Call { function, arguments, result: None }, self.span));
    }

    fn finish(mut self) -> Vec<(Statement, Span)> {
        self.close();
        self.stmts
    }
}

/// What the second walk of one function consumes and carries.
struct Rewrite<'a> {
    plans: FunctionPlans,
    hooks: &'a Hooks,
    tracked: &'a [TrackedVar],
    /// Per site recorded once per loop instance: its "still to record" flag
    /// (a local `bool`).
    pending: HashMap<u32, Handle<Expression>>,
    /// Flags to raise before the loop with this pre-order index.
    raise_before: HashMap<u32, Vec<Handle<Expression>>>,
    /// Loops seen so far.
    loops: u32,
    /// Whether the statements being rewritten are in a loop's continuing
    /// block, where WGSL allows no `return`.
    in_continuing: bool,
    /// Whether a call (or a guarded loop) in the innermost loop being
    /// rewritten could not return when the invocation stopped, being in a
    /// continuing block: that loop then ends when it stopped.
    unreturned: bool,
}

fn rewrite_function(
    f: &mut Function,
    plans: FunctionPlans,
    hooks: &Hooks,
    tracked: &[TrackedVar],
    bool_ty: Handle<Type>,
) -> Result<(), InstrumentError> {
    let mut rw = Rewrite {
        plans,
        hooks,
        tracked,
        pending: HashMap::new(),
        raise_before: HashMap::new(),
        loops: 0,
        in_continuing: false,
        unreturned: false,
    };
    // One flag per site whose address is the same in every iteration of its
    // innermost loop (and no barrier runs in that loop): only its first
    // execution in each instance of the loop is recorded.
    for plan in rw.plans.accesses.iter().flatten().filter(|p| p.once) {
        let Some(l) = plan.innermost_loop else { continue };
        let name = format!("wgrace_pending_{}", plan.site);
        let local = f
            .local_variables
            .append(naga::LocalVariable { name: Some(name), ty: bool_ty, init: None }, Span::UNDEFINED);
        let flag = f.expressions.append(Expression::LocalVariable(local), Span::UNDEFINED);
        rw.pending.insert(plan.site, flag);
        rw.raise_before.entry(l.index).or_default().push(flag);
    }
    let body = std::mem::take(&mut f.body);
    f.body = rewrite_block(f, body, &mut rw);
    if !rw.plans.accesses.is_empty()
        || !rw.plans.barriers.is_empty()
        || !rw.plans.loops.is_empty()
        || !rw.plans.indices.is_empty()
        || !rw.plans.atomics.is_empty()
        || !rw.plans.syncs.is_empty()
        || !rw.plans.fences.is_empty()
    {
        return Err(InstrumentError::Internal { message: "the two walks of the pass disagree".into() });
    }
    Ok(())
}

/// The hook call for `plan`, behind its "still to record" flag if it has
/// one.
fn checked_hook_call(f: &mut Function, plan: &Plan, rw: &Rewrite<'_>, span: Span) -> Vec<(Statement, Span)> {
    let call = hook_call(f, plan, rw.hooks, rw.tracked, span);
    let Some(&flag) = rw.pending.get(&plan.site) else { return call };
    let mut b = Builder::new(&mut f.expressions, span);
    let pending = b.emitted(Expression::Load { pointer: flag });
    let lowered = b.bool(false);
    let mut stmts = b.finish();
    let mut accept = Block::new();
    for (s, sp) in call {
        accept.push(s, sp);
    }
    accept.push(Statement::Store { pointer: flag, value: lowered }, span);
    stmts.push((Statement::If { condition: pending, accept, reject: Block::new() }, span));
    stmts
}

fn rewrite_block(f: &mut Function, block: Block, rw: &mut Rewrite<'_>) -> Block {
    let mut out = Block::with_capacity(block.len());
    for (stmt, span) in block.span_into_iter() {
        match stmt {
            Statement::Emit(range) => {
                let loads: Vec<_> =
                    range.clone().filter(|&h| matches!(f.expressions[h], Expression::Load { .. })).collect();
                // Loads and texture loads, in the order the planner saw them
                // (before a locked atomic load replaces its expression).
                let accesses: Vec<_> = range
                    .clone()
                    .filter(|&h| matches!(f.expressions[h], Expression::Load { .. } | Expression::ImageLoad { .. }))
                    .collect();
                // Atomic loads the happens-before engine follows happen
                // under their location's lock: the range is split around
                // each.
                let mut locked: Vec<(Handle<Expression>, SyncPlan)> = Vec::new();
                for &load in &loads {
                    if let Some(sync) = rw.plans.syncs.pop_front().flatten().filter(|s| locks(s, rw)) {
                        locked.push((load, sync));
                    }
                }
                let mut rest = Some(range.clone());
                for (load, sync) in locked {
                    let rest_handles: Vec<_> = rest.clone().into_iter().flatten().collect();
                    let before: Vec<_> = rest_handles.iter().copied().take_while(|&h| h != load).collect();
                    if let (Some(&first), Some(&last)) = (before.first(), before.last()) {
                        out.push(Statement::Emit(naga::Range::new_from_bounds(first, last)), span);
                    }
                    let Expression::Load { pointer } = f.expressions[load] else { continue };
                    let load_span = f.expressions.get_span(load);
                    locked_atomic(f, rw, &sync, Locked::Load { load, pointer }, load_span, &mut out);
                    let after: Vec<_> = rest_handles.into_iter().skip_while(|&h| h != load).skip(1).collect();
                    rest = match (after.first(), after.last()) {
                        (Some(&first), Some(&last)) => Some(naga::Range::new_from_bounds(first, last)),
                        _ => None,
                    };
                }
                if let Some(rest) = rest {
                    out.push(Statement::Emit(rest), span);
                }
                for load in accesses {
                    let load_span = f.expressions.get_span(load);
                    if let Some(plan) = rw.plans.accesses.pop_front().flatten() {
                        for s in checked_hook_call(f, &plan, rw, load_span) {
                            out.push(s.0, s.1);
                        }
                    }
                    if loads.contains(&load) {
                        atomic_call(f, rw, None, load_span, &mut out);
                        workgroup_access_call(f, rw, load_span, &mut out);
                    }
                }
                let indices = rw.plans.indices.pop_front().unwrap_or_default();
                if let Some(guard) = &rw.hooks.bounds {
                    for plan in &indices {
                        guard.guard(f, plan, span, &mut out);
                    }
                }
            }
            Statement::Store { pointer, value } => {
                let plan = rw.plans.accesses.pop_front().flatten();
                if let Some(plan) = &plan {
                    for s in checked_hook_call(f, plan, rw, span) {
                        out.push(s.0, s.1);
                    }
                }
                match rw.plans.syncs.pop_front().flatten().filter(|s| locks(s, rw)) {
                    Some(sync) => locked_atomic(f, rw, &sync, Locked::Store { pointer, value }, span, &mut out),
                    None => out.push(Statement::Store { pointer, value }, span),
                }
                if let (Some(plan), Some(written)) = (&plan, rw.hooks.written) {
                    for s in written_calls(f, plan, rw.tracked, value, written, span) {
                        out.push(s.0, s.1);
                    }
                }
                atomic_call(f, rw, None, span, &mut out);
                workgroup_access_call(f, rw, span, &mut out);
            }
            Statement::Atomic { pointer, fun, value, result } => {
                match rw.plans.syncs.pop_front().flatten().filter(|s| locks(s, rw)) {
                    Some(sync) => {
                        let access = Locked::Atomic { pointer, fun, value, result };
                        locked_atomic(f, rw, &sync, access, span, &mut out);
                    }
                    None => out.push(Statement::Atomic { pointer, fun, value, result }, span),
                }
                atomic_call(f, rw, result, span, &mut out);
                workgroup_access_call(f, rw, span, &mut out);
            }
            Statement::MemoryBarrier(flags) => {
                out.push(Statement::MemoryBarrier(flags), span);
                let fence = rw.plans.fences.pop_front();
                if let (Some(hb), Some(fence)) = (&rw.hooks.hb, fence)
                    && (fence.acquire || fence.release)
                    && fence.names != 0
                {
                    let mut b = Builder::new(&mut f.expressions, span);
                    let args =
                        vec![b.u32(fence.scope), b.bool(fence.acquire), b.bool(fence.release), b.u32(fence.names)];
                    b.call(hb.fence, args);
                    for s in b.finish() {
                        out.push(s.0, s.1);
                    }
                }
            }
            Statement::ControlBarrier(flags) => {
                out.push(Statement::ControlBarrier(flags), span);
                if crate::sites::control_barrier_kind(flags).is_some() {
                    // What it orders: 1 workgroup memory, 2 storage memory;
                    // 4 when only a subgroup waits at it (SPIR-V's
                    // subgroup execution scope, see `spirv::barrier_scopes`);
                    // 8 when its memory scope is a subgroup.
                    let (id, subgroup_memory) = rw.plans.barriers.pop_front().unwrap_or((0, false));
                    let mut orders = 0;
                    if flags.contains(naga::Barrier::WORK_GROUP) {
                        orders |= 1;
                    }
                    if flags.contains(rw.hooks.storage_epoch.flag()) {
                        orders |= 2;
                    }
                    if flags.contains(naga::Barrier::SUB_GROUP) {
                        orders |= 4;
                    }
                    if subgroup_memory {
                        orders |= 8;
                    }
                    barrier_call(f, rw.hooks, orders, id, span, &mut out);
                }
            }
            Statement::WorkGroupUniformLoad { pointer, result } => {
                out.push(Statement::WorkGroupUniformLoad { pointer, result }, span);
                let (id, _) = rw.plans.barriers.pop_front().unwrap_or((0, false));
                barrier_call(f, rw.hooks, 1, id, span, &mut out);
            }
            Statement::Block(b) => {
                let b = rewrite_block(f, b, rw);
                out.push(Statement::Block(b), span);
            }
            Statement::If { condition, accept, reject } => {
                let accept = rewrite_block(f, accept, rw);
                let reject = rewrite_block(f, reject, rw);
                out.push(Statement::If { condition, accept, reject }, span);
            }
            Statement::Switch { selector, cases } => {
                let cases = cases
                    .into_iter()
                    .map(|mut c| {
                        c.body = rewrite_block(f, std::mem::take(&mut c.body), rw);
                        c
                    })
                    .collect();
                out.push(Statement::Switch { selector, cases }, span);
            }
            Statement::Loop { body, continuing, break_if } => {
                // Numbered in pre-order, as the planner numbers them.
                let index = rw.loops;
                rw.loops += 1;
                for &flag in rw.raise_before.get(&index).into_iter().flatten() {
                    let raised = f.expressions.append(Expression::Literal(Literal::Bool(true)), span);
                    out.push(Statement::Store { pointer: flag, value: raised }, span);
                }
                let outer_unreturned = std::mem::replace(&mut rw.unreturned, false);
                let body = rewrite_block(f, body, rw);
                let in_continuing = std::mem::replace(&mut rw.in_continuing, true);
                let mut continuing = rewrite_block(f, continuing, rw);
                rw.in_continuing = in_continuing;
                let unreturned = std::mem::replace(&mut rw.unreturned, outer_unreturned);
                let mut break_if = break_if;
                if let Some(guard) = rw.hooks.loops.as_ref().filter(|_| unreturned) {
                    // Something in it could not return when the invocation
                    // stopped: the loop ends then instead.
                    break_if = Some(guard.or_stopped(f, span, &mut continuing, break_if));
                }
                let id = rw.plans.loops.pop_front().flatten();
                let may_return = !rw.in_continuing;
                match (&rw.hooks.loops, id) {
                    (Some(guard), Some(id)) => {
                        let the_loop = Statement::Loop { body, continuing, break_if };
                        guard.guard(f, id, the_loop, span, may_return, &mut out);
                        rw.unreturned |= !may_return;
                    }
                    (Some(guard), None) if unreturned => {
                        out.push(Statement::Loop { body, continuing, break_if }, span);
                        if may_return {
                            guard.return_if_stopped(f, span, &mut out);
                        } else {
                            rw.unreturned = true;
                        }
                    }
                    _ => out.push(Statement::Loop { body, continuing, break_if }, span),
                }
            }
            Statement::Call { function, arguments, result } => {
                out.push(Statement::Call { function, arguments, result }, span);
                // A loop of the callee may have stopped the invocation: it
                // returns, or in a continuing block its loop ends.
                if let Some(guard) = &rw.hooks.loops {
                    if rw.in_continuing {
                        rw.unreturned = true;
                    } else {
                        guard.return_if_stopped(f, span, &mut out);
                    }
                }
            }
            Statement::ImageStore { image, coordinate, array_index, value } => {
                if let Some(plan) = rw.plans.accesses.pop_front().flatten() {
                    for s in checked_hook_call(f, &plan, rw, span) {
                        out.push(s.0, s.1);
                    }
                }
                out.push(Statement::ImageStore { image, coordinate, array_index, value }, span);
            }
            other @ (Statement::Break
            | Statement::Continue
            | Statement::Return { .. }
            | Statement::Kill
            | Statement::ImageAtomic { .. }
            | Statement::RayQuery { .. }
            | Statement::RayPipelineFunction(_)
            | Statement::SubgroupBallot { .. }
            | Statement::SubgroupGather { .. }
            | Statement::SubgroupCollectiveOperation { .. }
            | Statement::CooperativeStore { .. }) => out.push(other, span),
        }
    }
    out
}

/// Whether the happens-before engine follows the atomic `sync` is for: it
/// runs, and synchronization goes through the atomic's variable.
fn locks(sync: &SyncPlan, rw: &Rewrite<'_>) -> bool {
    rw.hooks.hb.is_some() && rw.tracked[sync.var].sync_locations.is_some()
}

/// An atomic access that the happens-before engine follows.
enum Locked {
    /// An atomic load: expression `load` of `pointer`.
    Load {
        load: Handle<Expression>,
        pointer: Handle<Expression>,
    },
    Store {
        pointer: Handle<Expression>,
        value: Handle<Expression>,
    },
    Atomic {
        pointer: Handle<Expression>,
        fun: naga::AtomicFunction,
        value: Handle<Expression>,
        result: Option<Handle<Expression>>,
    },
}

/// Appends `access` done under its location's lock, with the engine's
/// bookkeeping (`wgrace_hb_atomic`):
///
/// ```text
/// loop {
///     let taken = wgrace_hb_try_lock(loc);
///     if taken {
///         <fence>;
///         <the access>; wgrace_hb_result_N = <its value>;
///         wgrace_hb_atomic(loc, flags, scope);
///         <fence>;
///         wgrace_hb_unlock(loc);
///     }
///     continuing { break if taken; }
/// }
/// wgrace_hb_locked();                  // counts a loop the driver cut short
/// <its value> = wgrace_hb_result_N();
/// ```
///
/// The fences (naga writes `OpMemoryBarrier` of device scope, acquire and
/// release, on buffer memory) make the lock a lock for the engine's state,
/// and give the access at least the order its semantics asked for: naga's
/// reader drops an atomic's semantics (its atomics are relaxed) and widens
/// its scope to the device, so without them the instrumented module could
/// run executions the original forbids. With them it runs a stronger
/// program, whose executions are all the original's, which the engine then
/// judges under the original's scopes and semantics (`SyncPlan`). Not on
/// an adapter that loses private variables across fences in loops
/// ([`InstrumentOptions::fences_lose_private_variables`]: lavapipe, whose
/// read-modify-writes are sequentially consistent without them).
///
/// The value leaves the loop through a private variable: naga scopes an
/// expression to its block, so the expression the rest of the function
/// uses becomes the result of a call after the loop.
fn locked_atomic(f: &mut Function, rw: &Rewrite<'_>, sync: &SyncPlan, access: Locked, span: Span, out: &mut Block) {
    let Some(hb) = &rw.hooks.hb else { return };
    let var = &rw.tracked[sync.var];
    // The location: the engine's `wgrace_hb_location` for the variable's
    // word (the workgroup's copy of workgroup memory).
    let mut b = Builder::new(&mut f.expressions, span);
    let (word, _) = word_index(&mut b, sync.const_words, &sync.terms);
    let id = b.u32(var.id);
    for s in b.finish() {
        out.push(s.0, s.1);
    }
    let loc = f.expressions.append(Expression::CallResult(hb.location), span);
    out.push(Statement::Call { function: hb.location, arguments: vec![id, word], result: Some(loc) }, span);
    let result = sync.result_getter.as_ref().and_then(|name| hb.results.get(name)).copied();
    // Inside the lock.
    let fence = Statement::MemoryBarrier(naga::Barrier::STORAGE);
    let mut accept = Block::new();
    if hb.fenced {
        accept.push(fence.clone(), span);
    }
    let value = match access {
        Locked::Load { pointer, .. } => {
            let v = f.expressions.append(Expression::Load { pointer }, span);
            accept.push(Statement::Emit(naga::Range::new_from_bounds(v, v)), span);
            Some(v)
        }
        Locked::Store { pointer, value } => {
            accept.push(Statement::Store { pointer, value }, span);
            None
        }
        Locked::Atomic { pointer, fun, value, result } => {
            let r = result.map(|r| f.expressions.append(f.expressions[r].clone(), span));
            accept.push(Statement::Atomic { pointer, fun, value, result: r }, span);
            r
        }
    };
    if let (Some(v), Some((_, g))) = (value, result) {
        let pointer = f.expressions.append(Expression::GlobalVariable(g), span);
        accept.push(Statement::Store { pointer, value: v }, span);
    }
    let flag = |on: bool, bit: u32| if on { bit } else { 0 };
    let flags = flag(sync.read, HB_READ)
        | flag(sync.write == AtomicWrite::Yes, HB_WRITE)
        | flag(sync.acquire, HB_ACQUIRE)
        | flag(sync.release && sync.write == AtomicWrite::Yes, HB_RELEASE)
        | flag(sync.lock == LockRole::Free, HB_LOCK_FREE)
        | sync.names << HB_NAMES_SHIFT;
    let mut b = Builder::new(&mut f.expressions, span);
    let flags = match (sync.write, value) {
        (AtomicWrite::IfExchanged, Some(r)) => {
            let take = flag(sync.lock == LockRole::Take, HB_LOCK_TAKE);
            let wrote = b.u32(flags | HB_WRITE | flag(sync.release, HB_RELEASE) | take);
            let read = b.u32(flags);
            let exchanged = b.emitted(Expression::AccessIndex { base: r, index: 1 });
            b.emitted(Expression::Select { condition: exchanged, accept: wrote, reject: read })
        }
        _ => b.u32(flags),
    };
    let scope = b.u32(sync.scope);
    // An atomic of a word that plain accesses share, or of a buffer with
    // atomics narrower than the device: the engine also checks its own
    // access of the word against the word's other accesses.
    match hb.atomic_data.filter(|_| var.engine_checks_atomics) {
        Some(atomic_data) => {
            let (id, site) = (b.u32(var.id), b.u32(sync.site));
            b.call(atomic_data, vec![loc, flags, scope, id, word, site]);
        }
        None => b.call(hb.atomic, vec![loc, flags, scope]),
    }
    for s in b.finish() {
        accept.push(s.0, s.1);
    }
    if hb.fenced {
        accept.push(fence, span);
    }
    accept.push(Statement::Call { function: hb.unlock, arguments: vec![loc], result: None }, span);
    // The loop ends after the branch rather than in it: the winner and the
    // invocations that lost then meet where the branch ends, before the
    // losers try again. With a `break` in the branch, NVIDIA's driver ran
    // the losers' tries first, all of them (the winner's lock never freed),
    // and every invocation of a subgroup but one gave up.
    let taken = f.expressions.append(Expression::CallResult(hb.try_lock), span);
    let mut body = Block::new();
    body.push(Statement::Call { function: hb.try_lock, arguments: vec![loc], result: Some(taken) }, span);
    body.push(Statement::If { condition: taken, accept, reject: Block::new() }, span);
    out.push(Statement::Loop { body, continuing: Block::new(), break_if: Some(taken) }, span);
    out.push(Statement::Call { function: hb.locked, arguments: Vec::new(), result: None }, span);
    // The expression the function uses for the value.
    let used = match access {
        Locked::Load { load, .. } => Some(load),
        Locked::Atomic { result, .. } => result,
        Locked::Store { .. } => None,
    };
    if let (Some(used), Some((getter, _))) = (used, result) {
        f.expressions[used] = Expression::CallResult(getter);
        out.push(Statement::Call { function: getter, arguments: Vec::new(), result: Some(used) }, span);
    }
}

/// Flags of `wgrace_hb_atomic` (`WGRACE_HB_*` in the engine).
const HB_READ: u32 = 1;
const HB_WRITE: u32 = 2;
const HB_ACQUIRE: u32 = 4;
const HB_RELEASE: u32 = 8;
const HB_LOCK_TAKE: u32 = 16;
const HB_LOCK_FREE: u32 = 32;
const HB_NAMES_SHIFT: u32 = 6;

/// Appends the call telling the runtime that barrier `id`, ordering
/// `orders`, was executed.
/// Makes the control barrier of the engine's subgroup sync
/// ([`crate::checks::data_race::happens_before::SUBGROUP_SYNC`]) order
/// buffer memory: WGSL's `subgroupBarrier()` orders no memory class naga
/// can name, and the engine's state is a buffer that the invocations of a
/// subgroup write before it and read after it. naga writes the barrier with
/// subgroup execution scope, device memory scope and `UniformMemory`
/// semantics.
fn order_engine_subgroup_sync(runtime: &mut Module) {
    let name = crate::checks::data_race::happens_before::SUBGROUP_SYNC;
    for (_, f) in runtime.functions.iter_mut().filter(|(_, f)| f.name.as_deref() == Some(name)) {
        crate::blocks::for_each_block_mut(&mut f.body, &mut |block| {
            for statement in block.iter_mut() {
                if let Statement::ControlBarrier(flags) = statement {
                    *flags |= naga::Barrier::STORAGE;
                }
            }
        });
    }
}

fn barrier_call(f: &mut Function, hooks: &Hooks, orders: u32, id: u32, span: Span, out: &mut Block) {
    let mut b = Builder::new(&mut f.expressions, span);
    let orders = b.u32(orders);
    let id = b.u32(id);
    b.call(hooks.barrier, vec![orders, id]);
    for s in b.finish() {
        out.push(s.0, s.1);
    }
}

/// Appends the call telling the runtime about the access the next atomic
/// plan is for, if it has one and a check handles the atomic-memory event.
/// `result` is the atomic statement's result (a compare-exchange wrote only
/// if it exchanged).
fn atomic_call(
    f: &mut Function,
    rw: &mut Rewrite<'_>,
    result: Option<Handle<Expression>>,
    span: Span,
    out: &mut Block,
) {
    let Some(plan) = rw.plans.atomics.pop_front().flatten() else { return };
    let Some(hook) = rw.hooks.atomic_memory else { return };
    let mut b = Builder::new(&mut f.expressions, span);
    let (word, in_bounds) = word_index(&mut b, plan.const_words, &plan.terms);
    let narrow = [
        (plan.narrow, wgrace_shaders::ACCESS_NARROW),
        (plan.plain, wgrace_shaders::ACCESS_PLAIN),
        (plan.subgroup, wgrace_shaders::ACCESS_SUBGROUP),
        (plan.invocation, wgrace_shaders::ACCESS_INVOCATION),
        (plan.workgroup_memory, wgrace_shaders::ACCESS_WORKGROUP_MEMORY),
    ]
    .iter()
    .filter(|(set, _)| *set)
    .fold(0, |flags, (_, flag)| flags | flag);
    let flags = match (plan.write, result) {
        (AtomicWrite::No, _) => b.u32(narrow),
        (AtomicWrite::IfExchanged, Some(result)) => {
            let wrote = b.u32(narrow | wgrace_shaders::ACCESS_WRITE);
            let read = b.u32(narrow);
            let exchanged = b.emitted(Expression::AccessIndex { base: result, index: 1 });
            b.emitted(Expression::Select { condition: exchanged, accept: wrote, reject: read })
        }
        (AtomicWrite::Yes | AtomicWrite::IfExchanged, _) => b.u32(narrow | wgrace_shaders::ACCESS_WRITE),
    };
    let id = b.u32(rw.tracked[plan.var].id);
    let site = b.u32(plan.site);
    b.call(hook, vec![id, word, in_bounds, site, flags]);
    for s in b.finish() {
        out.push(s.0, s.1);
    }
}

/// Appends the call telling the runtime's workgroup-access event about the
/// access the next workgroup plan is for, if it has one and a check hooks
/// the event.
fn workgroup_access_call(f: &mut Function, rw: &mut Rewrite<'_>, span: Span, out: &mut Block) {
    let Some(plan) = rw.plans.workgroup.pop_front().flatten() else { return };
    let Some(hook) = rw.hooks.workgroup_access else { return };
    let mut b = Builder::new(&mut f.expressions, span);
    let (word, in_bounds) = word_index(&mut b, plan.const_words, &plan.terms);
    let unit = b.u32(plan.unit);
    let byte = b.binary(BinaryOperator::Multiply, word, unit);
    let index = b.u32(plan.index);
    b.call(hook, vec![index, byte, in_bounds]);
    for s in b.finish() {
        out.push(s.0, s.1);
    }
}

/// The word an access chain reaches (`first` plus each term's index times
/// its stride) and whether every index is within its bound.
fn word_index(b: &mut Builder<'_>, first: u32, terms: &[Term]) -> (Handle<Expression>, Handle<Expression>) {
    let mut word = b.u32(first);
    let mut in_bounds = b.bool(true);
    for term in terms {
        let index = if term.signed {
            b.emitted(Expression::As { expr: term.index, kind: ScalarKind::Uint, convert: None })
        } else {
            term.index
        };
        let stride = b.u32(term.stride);
        let offset = b.binary(BinaryOperator::Multiply, index, stride);
        word = b.binary(BinaryOperator::Add, word, offset);
        let bound = match term.bound {
            Bound::Fixed(n) => b.u32(n),
            Bound::Runtime(array) => b.emitted(Expression::ArrayLength(array)),
        };
        let ok = b.binary(BinaryOperator::Less, index, bound);
        in_bounds = b.binary(BinaryOperator::LogicalAnd, in_bounds, ok);
    }
    (word, in_bounds)
}

/// The word of the texel `texel` names in `texture` (`x + W·(y + H·z)`, `z`
/// the layer or depth slice) and whether it is in the view's bounds: a
/// `textureStore` out of them writes nothing, a `textureLoad` out of them
/// reads no texel.
fn texel_index(
    b: &mut Builder<'_>,
    texel: &TexelAccess,
    texture: vars::TextureVar,
) -> (Handle<Expression>, Handle<Expression>) {
    let as_u32 = |b: &mut Builder<'_>, e| b.emitted(Expression::As { expr: e, kind: ScalarKind::Uint, convert: None });
    let size = b.emitted(Expression::ImageQuery { image: texel.image, query: naga::ImageQuery::Size { level: None } });
    let coordinate = as_u32(b, texel.coordinate);
    let components = match texture.dim {
        naga::ImageDimension::D1 => 1,
        naga::ImageDimension::D2 | naga::ImageDimension::Cube => 2,
        naga::ImageDimension::D3 => 3,
    };
    // (coordinate, extent) per axis, the layer last.
    let mut axes = Vec::new();
    for i in 0..components {
        let (c, n) = if components == 1 {
            (coordinate, size)
        } else {
            (
                b.emitted(Expression::AccessIndex { base: coordinate, index: i }),
                b.emitted(Expression::AccessIndex { base: size, index: i }),
            )
        };
        axes.push((c, n));
    }
    if let Some(layer) = texel.array_index {
        let layer = as_u32(b, layer);
        let layers = b.emitted(Expression::ImageQuery { image: texel.image, query: naga::ImageQuery::NumLayers });
        axes.push((layer, layers));
    }
    let mut word = b.u32(0);
    let mut stride = b.u32(1);
    let mut in_bounds = b.bool(true);
    for (i, &(c, n)) in axes.iter().enumerate() {
        let offset = b.binary(BinaryOperator::Multiply, c, stride);
        word = b.binary(BinaryOperator::Add, word, offset);
        if i + 1 < axes.len() {
            stride = b.binary(BinaryOperator::Multiply, stride, n);
        }
        let ok = b.binary(BinaryOperator::Less, c, n);
        in_bounds = b.binary(BinaryOperator::LogicalAnd, in_bounds, ok);
    }
    (word, in_bounds)
}

/// How a value of type `ty` splits into the words `wgrace_written` takes.
fn value_words(ty: &TypeInner) -> ValueWords {
    let words = |components: u32, scalar: Scalar| match scalar {
        Scalar { kind: ScalarKind::Uint | ScalarKind::Sint | ScalarKind::Float, width: 4 } | Scalar::BOOL => {
            ValueWords::Words { components, kind: scalar.kind }
        }
        _ => ValueWords::Unknown,
    };
    match *ty {
        TypeInner::Scalar(scalar) => words(1, scalar),
        TypeInner::Vector { size, scalar } => words(size as u32, scalar),
        _ => ValueWords::Unknown,
    }
}

/// The calls that tell the runtime what a store planned as `plan` wrote
/// (`value`) to its words: `wgrace_written(site, var, word, in_bounds,
/// workgroup_memory, bits)` for each 32-bit word of it, or
/// `wgrace_written_unknown(site, var, word, words, in_bounds,
/// workgroup_memory)` for a value not split into words. Words are named as
/// the access hooks name them ([`hook_call`]).
fn written_calls(
    f: &mut Function,
    plan: &Plan,
    tracked: &[TrackedVar],
    value: Handle<Expression>,
    (written, unknown): (Handle<Function>, Handle<Function>),
    span: Span,
) -> Vec<(Statement, Span)> {
    let Some(shape) = plan.value else { return Vec::new() };
    let mut b = Builder::new(&mut f.expressions, span);
    let var = &tracked[plan.var];
    let first = match var.space {
        Space::Workgroup => var.slot_base + plan.const_words,
        Space::Storage => plan.const_words,
    };
    let (first, in_bounds) = word_index(&mut b, first, &plan.terms);
    let site = b.u32(plan.site);
    let id = b.u32(var.id);
    let workgroup_memory = b.bool(var.space == Space::Workgroup);
    match shape {
        ValueWords::Unknown => {
            let words = b.u32(plan.words);
            b.call(unknown, vec![site, id, first, words, in_bounds, workgroup_memory]);
        }
        ValueWords::Words { components, kind } => {
            for index in 0..components {
                let component =
                    if components == 1 { value } else { b.emitted(Expression::AccessIndex { base: value, index }) };
                let bits = match kind {
                    ScalarKind::Uint => component,
                    // bool: 0 or 1; the others: their bits.
                    ScalarKind::Bool => {
                        b.emitted(Expression::As { expr: component, kind: ScalarKind::Uint, convert: Some(4) })
                    }
                    _ => b.emitted(Expression::As { expr: component, kind: ScalarKind::Uint, convert: None }),
                };
                let word = if index == 0 {
                    first
                } else {
                    let offset = b.u32(index);
                    b.binary(BinaryOperator::Add, first, offset)
                };
                b.call(written, vec![site, id, word, in_bounds, workgroup_memory, bits]);
            }
        }
    }
    b.finish()
}

/// The statements computing an access's word offset and bounds check, and
/// the call to the runtime.
fn hook_call(
    f: &mut Function,
    plan: &Plan,
    hooks: &Hooks,
    tracked: &[TrackedVar],
    span: Span,
) -> Vec<(Statement, Span)> {
    let Some((wg_access, storage_access)) = hooks.access else {
        // Without the data-race check no access is planned (`track_no_memory`).
        return Vec::new();
    };
    let mut b = Builder::new(&mut f.expressions, span);
    let var = &tracked[plan.var];
    // Workgroup hooks take the word's index in the workgroup's shadow slot.
    let first = match var.space {
        Space::Workgroup => var.slot_base + plan.const_words,
        Space::Storage => plan.const_words,
    };
    let (word, in_bounds) = match (&plan.texel, var.texture) {
        (Some(texel), Some(texture)) => texel_index(&mut b, texel, texture),
        _ => word_index(&mut b, first, &plan.terms),
    };
    let id = b.u32(var.id);
    let words = b.u32(plan.words);
    let site = b.u32(plan.site);
    let write = b.bool(plan.write);
    let invariant = b.bool(plan.subgroup_invariant);
    match var.space {
        Space::Workgroup => b.call(wg_access, vec![id, word, words, in_bounds, site, write, invariant]),
        Space::Storage => {
            let state_site = b.u32(plan.state_site);
            b.call(storage_access, vec![id, word, words, in_bounds, site, state_site, write, invariant])
        }
    }
    b.finish()
}
