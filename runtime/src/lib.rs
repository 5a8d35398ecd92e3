//! wgrace: a data-race detector for WGSL and SPIR-V compute shaders that runs
//! on any GPU wgpu supports (and on Mesa's lavapipe without one).
//!
//! The shader is instrumented with naga (`wgrace-instrument`), run through
//! wgpu, and checked on the GPU as it runs: every access to workgroup or
//! writable storage memory updates a per-word shadow state that detects
//! unordered conflicting accesses (see `docs/detector.md`), and each
//! invocation's sequence of barriers is compared with its workgroup's (barrier
//! divergence). The host reads back a small table of deduplicated races and
//! findings and builds a [`Report`](wgrace_instrument::report::Report).
//!
//! # From Rust
//!
//! ```no_run
//! # fn main() -> Result<(), wgrace::Error> {
//! let report = wgrace::Check::wgsl("racy.wgsl", include_str!("../../samples/wg_missing_barrier.wgsl"))?
//!     .dispatch([2, 1, 1])
//!     .run()?;
//! assert_eq!(report.verdict, wgrace::Verdict::Race);
//! # Ok(()) }
//! ```
//!
//! The command-line tool is `wgrace`, in its own crate (`runtime/cli/`, which
//! alone depends on clap); the library takes a typed [`spec::RunSpec`].

#![cfg_attr(not(test), warn(clippy::panic, clippy::unwrap_used, clippy::print_stdout, clippy::print_stderr))]
#![deny(clippy::exit)]

pub mod bench;
pub mod buffers;
pub mod check;
pub mod corpus;
pub mod engine;
pub mod gpu;
pub mod guard;
pub mod log;
mod pipelines;
pub mod print;
pub mod sarif;
pub mod session;
pub mod spec;
pub mod suppress;
pub mod textures;
mod timeline;

use std::path::Path;
use std::time::Instant;

pub use wgrace_instrument::report::{Finding, Race, RaceClass, RaceKind, Report, Run, Severity, Verdict};
pub use wgrace_instrument::{Shader, report};

use naga::valid::Capabilities;
use wgrace_instrument::checks::bounds::ID as BOUNDS;
use wgrace_instrument::checks::{CheckSet, DecodeContext};
use wgrace_instrument::report::{CheckedVariable, ShaderInfo};
use wgrace_instrument::{AnalysisInput, Analyzed, BufferFacts, Instrumented, Prepared, Replay};

use crate::buffers::UserBuffer;
use crate::engine::{CheckedRun, Completed, NativeRun};
use crate::gpu::{AdapterChoice, Gpu};
use crate::spec::{RunArgs, RunSpec};

/// Everything that can stop wgrace from checking a shader. The CLI exits
/// with status 2 on any of them.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The shader could not be read or parsed.
    #[error(transparent)]
    Load(#[from] wgrace_instrument::LoadError),
    /// The shader is invalid, or uses something wgrace cannot check.
    #[error(transparent)]
    Instrument(#[from] wgrace_instrument::InstrumentError),
    /// A flag has a bad value.
    #[error("{0}")]
    Spec(String),
    /// No usable adapter.
    #[error("{0}")]
    NoAdapter(String),
    /// wgpu reported an error.
    #[error("GPU error: {0}")]
    Gpu(String),
    /// The device was lost while running.
    #[error(
        "the GPU device was lost ({0}); the shader may loop forever or overrun the driver's time limit — \
         try a smaller --dispatch or another adapter"
    )]
    DeviceLost(String),
    /// Something exceeds the device's limits.
    #[error("{0}")]
    Limit(String),
    /// The shader uses something wgrace does not support yet.
    #[error("{0}")]
    Unsupported(String),
    /// Reading or writing a file failed.
    #[error("{0}")]
    Io(String),
    /// naga or wgpu panicked on the shader.
    #[error("{0}")]
    Backend(guard::BackendFailure),
    /// A bug in wgrace.
    #[error("internal error in wgrace (please report it): {0}")]
    Internal(String),
}

/// Capabilities a user's shader may use; the device rejects what it lacks.
pub const SHADER_CAPABILITIES: Capabilities = Capabilities::all();

/// A shader with its run spec, validated and with its buffers planned; no
/// GPU involved yet.
pub struct Plan {
    /// The shader.
    pub shader: Shader,
    /// The module with overrides resolved.
    pub prepared: Prepared,
    /// The run spec.
    pub spec: RunSpec,
    /// The user's buffers with their initial contents.
    pub buffers: Vec<UserBuffer>,
    /// What the run spec says that this entry point ignores.
    pub warnings: Vec<String>,
    /// The checks to run (default: every registered one).
    pub checks: CheckSet,
}

impl Plan {
    /// Validates `shader` and plans its buffers for `spec`.
    ///
    /// # Errors
    /// [`Error`] when the shader or a flag is invalid.
    pub fn new(shader: Shader, spec: RunSpec) -> Result<Plan, Error> {
        let prepared =
            wgrace_instrument::prepare(&shader, spec.entry.as_deref(), &spec.overrides, SHADER_CAPABILITIES)?;
        let ep_index = prepared
            .module
            .entry_points
            .iter()
            .position(|ep| ep.name == prepared.entry_point)
            .ok_or_else(|| Error::Internal("prepared entry point vanished".into()))?;
        let ep_info = prepared.info.get_entry_point(ep_index);
        let invocations = invocations(&prepared, spec.dispatch);
        let used = |h: naga::Handle<naga::GlobalVariable>| !ep_info[h].is_empty();
        let planned = buffers::plan_buffers(&prepared.module, &spec, &used, &shader.module, invocations)?;
        let checks = spec.select_checks(&CheckSet::default())?;
        Ok(Plan { shader, prepared, spec, buffers: planned.buffers, warnings: planned.warnings, checks })
    }

    /// Instruments the shader for its entry point, for `gpu`'s limits and
    /// features.
    ///
    /// # Errors
    /// [`Error::Instrument`].
    pub fn instrument(&self, gpu: &Gpu) -> Result<Instrumented, Error> {
        self.instrument_for(gpu, self.spec.analyzer, false, self.spec.mode, self.spec.replay, true)
    }

    /// Instruments with or without the static analyzer, optionally counting
    /// the instrumented accesses executed, in `mode`, checking accesses in
    /// place or recording them for the replay.
    /// `engine_for_classes`: whether the happens-before engine may run for
    /// the missing-fence check alone
    /// ([`wgrace_instrument::InstrumentOptions::engine_for_classes`]).
    fn instrument_for(
        &self,
        gpu: &Gpu,
        analyzer: bool,
        count_accesses: bool,
        mode: wgrace_instrument::Mode,
        replay: Replay,
        engine_for_classes: bool,
    ) -> Result<Instrumented, Error> {
        let options = wgrace_instrument::InstrumentOptions {
            count_accesses,
            capabilities: SHADER_CAPABILITIES,
            workgroup_memory_limit: gpu.device.limits().max_compute_workgroup_storage_size,
            mode,
            slots: self.spec.slots,
            subgroups: gpu.device.features().contains(wgpu::Features::SUBGROUP),
            workgroups: self.spec.dispatch.iter().map(|&d| u64::from(d)).product(),
            shadow_cache: self.spec.shadow_cache,
            replay,
            checks: self.checks.clone(),
            fences_lose_private_variables: gpu::is_lavapipe(&gpu.info),
            loops_cut_short: gpu::is_lavapipe(&gpu.info),
            runtime_lengths: self.buffers.iter().filter_map(|b| Some((b.handle, b.runtime_len?))).collect(),
            texture_extents: self.buffers.iter().filter_map(|b| Some((b.handle, b.texture()?.extent()))).collect(),
            engine_for_classes,
            loop_budget: self.spec.loop_budget_on(gpu::is_lavapipe(&gpu.info), self.prepared.workgroup_size),
            max_subgroup_size: gpu.info.subgroup_size[1],
            banks: self.spec.banks,
            same_value: self.spec.same_value_notes,
        };
        let input = analyzer.then(|| self.analysis_input());
        Ok(wgrace_instrument::instrument_with(
            &self.shader,
            &self.prepared.module,
            &self.prepared.info,
            &self.prepared.entry_point,
            &options,
            input.as_ref(),
        )?)
    }

    /// What the static analyzer may assume: the dispatch, the lengths of
    /// runtime-sized arrays and the buffers' initial contents (constants in
    /// read-only buffers; the first values of counters in the others).
    pub fn analysis_input(&self) -> AnalysisInput<'_> {
        let buffers = self
            .buffers
            .iter()
            .map(|b| (b.handle, BufferFacts { runtime_len: b.runtime_len, contents: Some(&b.contents[..]) }))
            .collect();
        AnalysisInput { dispatch: self.spec.dispatch, buffers }
    }

    /// The tracked variables as reports describe them (with this run's
    /// buffer lengths).
    pub fn checked_variables(&self, vars: &[wgrace_instrument::TrackedVar]) -> Vec<CheckedVariable> {
        vars.iter()
            .map(|v| {
                let len = self.buffers.iter().find(|b| b.handle == v.handle).and_then(|b| b.runtime_len).unwrap_or(0);
                CheckedVariable {
                    name: v.name.clone(),
                    space: v.space,
                    group: v.binding.map(|b| b.0),
                    binding: v.binding.map(|b| b.1),
                    bytes: v.words(len) * u64::from(v.unit),
                    declaration: v.declaration.clone(),
                }
            })
            .collect()
    }

    /// The shader as reports describe it.
    pub fn shader_info(&self) -> ShaderInfo {
        ShaderInfo {
            path: self.shader.path.clone(),
            language: self.shader.language,
            source: self.shader.text.clone(),
            source_file: self.shader.source_file.clone(),
        }
    }

    /// Runs only the static analyzer (no GPU).
    ///
    /// # Errors
    /// [`Error::Instrument`] for what wgrace cannot check.
    pub fn analyze(&self) -> Result<Analyzed, Error> {
        Ok(wgrace_instrument::analyze(
            &self.shader,
            &self.prepared.module,
            &self.prepared.info,
            &self.prepared.entry_point,
            &self.analysis_input(),
        )?)
    }

    /// Runs the instrumented shader on `gpu` and reports what the checks
    /// found. `progress(done, total)` is called as chunks complete. Also
    /// returns the buffers' final contents.
    ///
    /// # Errors
    /// [`Error`] when the run cannot be made.
    pub fn check(&self, gpu: &Gpu, progress: &mut dyn FnMut(u32, u32)) -> Result<(Run, Vec<Vec<u8>>), Error> {
        let start = Instant::now();
        let CheckedOutcome { inst, run, log, examples, mut notes, unclassified } =
            self.run_checked(gpu, self.spec.analyzer, false, progress)?;
        let elapsed = start.elapsed();
        let contents = run.read_buffers(gpu, &self.buffers)?;
        let ctx = DecodeContext {
            module: &self.prepared.module,
            sites: &inst.sites,
            barriers: &inst.barriers,
            loops: &inst.loops,
            indices: &inst.indices,
            vars: &inst.vars,
            mode: inst.mode(),
            workgroup_size: inst.workgroup_size,
            dispatch: self.spec.dispatch,
            var_words: &run.layout.var_words,
            language: self.shader.language,
        };
        let mut decoded = log::decode(&log, &examples, &inst.checks, &ctx)?;
        decoded.stats.chunks = run.layout.chunks;
        decoded.stats.shadow_bytes = run.extra_bytes();
        decoded.stats.elapsed_ms = elapsed.as_secs_f64() * 1e3;
        let mut record = self.run_record(gpu, &inst, decoded, run.layout.trace_capacity);
        if unclassified && record.races.iter().any(|r| r.class.check() == "data-race") {
            notes.push(MISSING_FENCE_GAVE_WAY.into());
        }
        record.notes.extend(notes);
        record.checked.shadow = run.layout.shadow_summary(&inst);
        record.outputs = session::digests(&self.buffers, &contents);
        let lowest = log::header(&log).lowest_workgroup;
        record.timeline = timeline::gather(self, gpu, &inst, &run, &record.races, lowest)?;
        Ok((record, contents))
    }

    /// Instruments the shader and runs the checked dispatch to the end
    /// ([`CheckedRun::run_complete`]): replayed, or, when an invocation
    /// records more events than replay streams can hold for chunks of a
    /// useful size, instrumented again to check in place, and run again.
    ///
    /// # Errors
    /// [`Error`] when the run cannot be made.
    pub(crate) fn run_checked(
        &self,
        gpu: &Gpu,
        analyzer: bool,
        count_accesses: bool,
        progress: &mut dyn FnMut(u32, u32),
    ) -> Result<CheckedOutcome, Error> {
        self.require_features(gpu)?;
        let mut replay = self.spec.replay;
        let mut engine_for_classes = true;
        let mut notes = Vec::new();
        loop {
            let inst =
                self.instrument_for(gpu, analyzer, count_accesses, self.spec.mode, replay, engine_for_classes)?;
            let run = CheckedRun::new(gpu, &inst, &self.buffers, self.spec.dispatch, self.spec.max_races)
                .map_err(|e| self.explain(e))?;
            match run.run_complete(gpu, &inst, &self.buffers, replay == Replay::Auto, progress)? {
                // The engine ran for the missing-fence check alone and could
                // not follow all of the shader (a word that more invocations
                // access between two barriers than its history holds, say):
                // the data-race check's barrier epochs check it whole.
                Completed::Checked { log, .. } if inst.engine_for_classes && log::header(&log).hb_unchecked > 0 => {
                    engine_for_classes = false;
                }
                Completed::Checked { run, log, examples } => {
                    let unclassified = !engine_for_classes;
                    return Ok(CheckedOutcome { inst, run: *run, log, examples, notes, unclassified });
                }
                Completed::TooManyEvents { events } if replay == Replay::Auto => {
                    replay = Replay::Never;
                    notes.push(format!(
                        "accesses were checked where they happen (as with --replay never): an invocation \
                         recorded {events} replay entries (about one per access and one per run of barriers), \
                         too many to record for the replay pass"
                    ));
                }
                Completed::ReplayCut { entries } if replay == Replay::Auto => {
                    replay = Replay::Never;
                    notes.push(format!(
                        "accesses were checked where they happen (as with --replay never): the replay's loops \
                         ended before checking {entries} recorded accesses and barriers (lavapipe ends a shader's \
                         loops after 65,535 iterations in all, and the replay's take a few per recorded access)"
                    ));
                }
                Completed::TooManyEvents { .. } | Completed::ReplayCut { .. } => {
                    return Err(Error::Internal("a run gave up replaying without being allowed to".into()));
                }
            }
        }
    }

    /// The instrumented module for `gpu`, as the user can read it: WGSL, or
    /// a SPIR-V binary for SPIR-V input.
    ///
    /// # Errors
    /// [`Error::Instrument`], or [`Error::Internal`] when naga cannot write
    /// the module.
    /// Also returns, when the instrumented shader records its accesses, the
    /// replay pass that checks them, in the same language.
    pub fn emit_instrumented(&self, gpu: &Gpu) -> Result<(Vec<u8>, Option<Vec<u8>>), Error> {
        let inst = self.instrument(gpu)?;
        let instrumented = self.write_module(&inst.module, &inst.info)?;
        let replay_pass = if inst.prelude.replays() {
            let module = wgrace_instrument::replay_pass_module(&inst)?;
            let info = naga::valid::Validator::new(naga::valid::ValidationFlags::all(), inst.capabilities)
                .validate(&module)
                .map_err(|e| Error::Internal(format!("the replay pass does not validate: {}", e.as_inner())))?;
            Some(self.write_module(&module, &info)?)
        } else {
            None
        };
        Ok((instrumented, replay_pass))
    }

    /// `module` as WGSL, or as a SPIR-V binary for SPIR-V input.
    fn write_module(&self, module: &naga::Module, info: &naga::valid::ModuleInfo) -> Result<Vec<u8>, Error> {
        let failed = |e: &dyn std::fmt::Display| Error::Internal(format!("writing the instrumented module: {e}"));
        match self.shader.language {
            wgrace_instrument::Language::Wgsl => {
                naga::back::wgsl::write_string(module, info, naga::back::wgsl::WriterFlags::empty())
                    .map(String::into_bytes)
                    .map_err(|e| failed(&e))
            }
            wgrace_instrument::Language::SpirV => {
                let options = naga::back::spv::Options::default();
                naga::back::spv::write_vec(module, info, &options, None)
                    .map(|words| words.iter().flat_map(|w| w.to_le_bytes()).collect())
                    .map_err(|e| failed(&e))
            }
        }
    }

    /// GRace's Table 3: instrumented sites, and instrumented accesses the
    /// dispatch executes, with and without the static analyzer (two runs
    /// that count them).
    ///
    /// # Errors
    /// [`Error`] when a run cannot be made.
    pub fn instrumentation_stats(&self, gpu: &Gpu) -> Result<report::InstrumentationStats, Error> {
        let count = |analyzer: bool| -> Result<report::InstrumentationCount, Error> {
            let CheckedOutcome { inst, log, .. } = self.run_checked(gpu, analyzer, true, &mut |_, _| {})?;
            Ok(report::InstrumentationCount { sites: inst.sites.checked(), accesses: log::executed_accesses(&log) })
        };
        Ok(report::InstrumentationStats { without_analyzer: count(false)?, with_analyzer: count(true)? })
    }

    /// Runs the original shader on `gpu` and returns the buffers' final
    /// contents.
    ///
    /// # Errors
    /// [`Error`] when the run cannot be made.
    pub fn run_native(&self, gpu: &Gpu) -> Result<Vec<Vec<u8>>, Error> {
        self.require_features(gpu)?;
        let run =
            NativeRun::new(gpu, &self.prepared, &self.buffers, self.spec.dispatch).map_err(|e| self.explain(e))?;
        run.run(gpu, None)?;
        run.read_buffers(gpu, &self.buffers)
    }

    /// Whether `gpu` has the features the shader uses ([`Gpu::lacks`]).
    ///
    /// # Errors
    /// [`Error::Unsupported`] naming what it lacks.
    pub(crate) fn require_features(&self, gpu: &Gpu) -> Result<(), Error> {
        let lacks = gpu.lacks(&self.prepared.module);
        if lacks.is_empty() {
            return Ok(());
        }
        Err(Error::Unsupported(format!(
            "the shader uses {}, which adapter `{}` ({}) does not support; choose another with --adapter (`wgrace \
             adapters` lists them)",
            lacks.join(" and "),
            gpu.info.name,
            gpu.info.backend
        )))
    }

    /// `e`, and for a compiler's panic ([`Error::Backend`]) the constructs
    /// of the shader known to cause it, each with its location and a
    /// workaround.
    pub(crate) fn explain(&self, e: Error) -> Error {
        let Error::Backend(mut failure) = e else { return e };
        for span in wgrace_instrument::backend::pointer_to_part_arguments(&self.prepared.module) {
            let at = self.shader.locate(span);
            // naga's span of `&v.m` is that of `v.m`.
            let text =
                self.shader.text_at(span).map_or_else(String::new, |t| format!(" `&{}`", t.trim_start_matches('&')));
            let place = match (at.line, at.column) {
                (Some(line), Some(column)) => format!("{}:{line}:{column}", self.shader.path),
                (Some(line), None) => format!("{}:{line}", self.shader.path),
                _ => self.shader.path.clone(),
            };
            failure.causes.push(format!(
                "{place}:{text} passes a pointer to part of a variable (a member, element or column) as a \
                 function argument, which naga 30's SPIR-V backend cannot compile (a known naga bug); pass the \
                 whole variable, or copy the part to a local variable and pass a pointer to that"
            ));
        }
        Error::Backend(failure)
    }

    /// The run's part of the report, from what its log said.
    /// `replay_capacity`: events per invocation the replay streams held.
    fn run_record(&self, gpu: &Gpu, inst: &Instrumented, decoded: log::LogContents, replay_capacity: u32) -> Run {
        let mut stats = decoded.stats;
        let mut races = decoded.races;
        if let Some(w) = self.spec.assume_lockstep {
            let before = races.len();
            races.retain(|r| {
                let hidden = r.lockstep.hidden_at(w);
                if hidden {
                    stats.detections -= r.occurrences.min(stats.detections);
                }
                !hidden
            });
            stats.hidden_by_lockstep = (before - races.len()) as u64;
        }
        let mut incomplete = self.shader.unchecked.clone();
        // Barriers that synchronize within a subgroup only, which the
        // happens-before engine was to follow and did not.
        if self.shader.subgroup_sync.is_some() && inst.happens_before.is_none() {
            let why = inst.happens_before_not_run.as_deref().unwrap_or("it has no memory to check");
            incomplete.extend(self.shader.subgroup_unchecked.iter().map(|line| {
                format!("{line} (the happens-before engine, which follows such barriers, did not run: {why})")
            }));
        }
        incomplete.extend(unchecked_atomic_memory(inst, self.spec.dispatch));
        incomplete.extend(inst.prelude.checks.iter().flat_map(|c| c.unchecked.iter().cloned()));
        if stats.dropped_detections > 0 {
            incomplete.push(format!(
                "{} detections belong to races beyond the race table's capacity ({}); those races are not \
                 listed (raise --max-races)",
                stats.dropped_detections, self.spec.max_races
            ));
        }
        let mut findings = decoded.findings;
        if stats.out_of_bounds_accesses > 0 {
            let line = format!(
                "{} accesses were out of bounds of their variable and were not checked for races",
                stats.out_of_bounds_accesses
            );
            // The `bounds` check's finding about them, when it reported one,
            // says what went unchecked.
            match findings.iter_mut().find(|f| f.check == BOUNDS && f.severity == Severity::Error) {
                Some(f) if f.incomplete.is_none() => f.incomplete = Some(line),
                _ => incomplete.push(line),
            }
        }
        if stats.epoch_overflows > 0 {
            incomplete.push(format!(
                "{} workgroups executed more storage barriers than the shadow state can count and stopped \
                 checking storage memory",
                stats.epoch_overflows
            ));
        }
        if stats.cache_evictions > 0 {
            incomplete.push(format!(
                "the storage state cache (--shadow-cache) gave {} entries of one word to another, dropping what \
                 they held; races on those words may be missed",
                stats.cache_evictions
            ));
        }
        if stats.replay_events_lost > 0 {
            incomplete.push(format!(
                "{} replay entries (about one per access and one per run of barriers) did not fit the replay \
                 streams ({} entries per invocation, as many as one storage binding of this adapter holds for a \
                 workgroup) and were not checked",
                stats.replay_events_lost, replay_capacity
            ));
        }
        if stats.checks_cut_short > 0 {
            incomplete.push(format!(
                "{} invocation(s) could not finish checking their share of workgroup memory at the end of an interval \
                 (statement mode): the driver ended their loops early (lavapipe ends an invocation's loops after \
                 65,535 iterations in all, which a long spin of the shader spends); races on those words may be \
                 missed (--mode addr checks each access where it happens)",
                stats.checks_cut_short
            ));
        }
        if stats.replay_events_unreached > 0 {
            incomplete.push(format!(
                "{} recorded accesses and barriers were not checked: the replay's loops ended before reaching \
                 them (lavapipe ends a shader's loops after 65,535 iterations in all, and the replay's take a few \
                 per recorded access); check them where they happen with --replay never",
                stats.replay_events_unreached
            ));
        }
        if stats.slot_overflows > 0 {
            // lavapipe ends an invocation's loops after 65,535 iterations in
            // all: after a long loop of the shader, the search for a slot
            // ends before it starts, which more slots do not help.
            let lavapipe = if gpu::is_lavapipe(&gpu.info) {
                "; on lavapipe the search for one also ends before it starts once the invocation's loops have run \
                 lavapipe's limit of 65,535 iterations in all (after a long loop of the shader), which more slots \
                 do not change"
            } else {
                ""
            };
            incomplete.push(format!(
                "{} accesses were not checked: they found no statement slot of their word free ({} slots per \
                 workgroup word, {} per storage word; raise --slots, up to 64){lavapipe}",
                stats.slot_overflows, inst.prelude.slots, inst.prelude.storage_slots
            ));
        }
        if stats.happens_before_unchecked > 0 {
            incomplete.push(format!(
                "{} times the happens-before engine could not follow the shader's release/acquire \
                 synchronization (an acquire that synchronizes with only some of what a release sequence or \
                 barrier published, release fences of narrowing scopes, a word with more than {} unordered \
                 accesses, or a lock not taken in time): races those would have shown or hidden may be missed \
                 or reported",
                stats.happens_before_unchecked,
                wgrace_instrument::checks::data_race::happens_before::HISTORY
            ));
        }
        // A loop that stopped its invocations, or that the adapter cut short;
        // out-of-bounds accesses.
        incomplete.extend(findings.iter().filter_map(|f| f.incomplete.clone()));
        let mut notes = self.shader.notes.clone();
        // SPIR-V that synchronizes with release and acquire. Races on
        // buffers whose stores are private under the Vulkan memory model (as
        // glslang makes those of a buffer not declared coherent) are races
        // whatever the synchronization, which orders only non-private
        // accesses: a note says so. Where the happens-before engine does not
        // run, other races may not be races; where every race is on such a
        // buffer, none is (the engine, which checks no such buffer, may
        // have had no memory left to follow).
        if let Some(note) = &self.shader.release_acquire_note {
            let private = |name: &str| inst.vars.iter().any(|v| v.name == name && v.unordered_by_barriers);
            let on_private: std::collections::BTreeSet<&str> =
                races.iter().map(|r| r.memory.variable.as_str()).filter(|name| private(name)).collect();
            if !on_private.is_empty() {
                notes.push(private_races_note(&on_private));
            }
            let all_private = races.iter().all(|r| private(&r.memory.variable));
            if inst.happens_before.is_none() && (races.is_empty() || !all_private) {
                match &inst.happens_before_not_run {
                    Some(reason) => notes.push(format!("{note} ({reason})")),
                    None => notes.push(note.clone()),
                }
            }
        }
        // The engine followed the program with every atomic releasing and
        // acquiring (for the missing-fence check), but not over some memory
        // a race is on: a buffer whose words are accessed both ways (only
        // modules that release and acquire need it there), workgroup memory
        // beside relaxed buffer atomics where the engine runs for more than
        // classes (pass.rs), or, in workgroup memory, pairs of an atomic and
        // a plain access (the atomic-plain check's own state judges those
        // where the module does not release and acquire workgroup memory).
        let strong = inst.happens_before.is_some_and(|hb| hb.programs.strong);
        // (Memory no barrier orders, private under the Vulkan memory model,
        // release and acquire do not order either.)
        let unlooked = |r: &Race| {
            let var = inst.vars.iter().find(|v| v.name == r.memory.variable && !v.unordered_by_barriers);
            var.is_some_and(|v| match r.class {
                RaceClass::AtomicPlain => !v.engine_checks_atomics,
                class => class.check() == "data-race" && v.happens_before.is_none(),
            })
        };
        let unlooked: std::collections::BTreeSet<String> =
            races.iter().filter(|r| unlooked(r)).map(|r| format!("`{}`", r.memory.variable)).collect();
        if strong && !unlooked.is_empty() {
            notes.push(format!(
                "the missing-fence check did not look at {}: a race there that a flag or lock of relaxed atomics \
                 leaves unordered (one that release/acquire semantics would order) is reported under its data-race \
                 or atomic-plain class",
                unlooked.into_iter().collect::<Vec<_>>().join(", ")
            ));
        }
        // SPIR-V with relaxed buffer atomics (and no release/acquire), where
        // the engine does not run: the data races stand, but the
        // missing-fence check did not look at them.
        let missing_fence_not_run = match (&inst.happens_before, &inst.happens_before_not_run) {
            (None, Some(reason)) if self.shader.relaxed_atomics && self.shader.release_acquire_note.is_none() => {
                Some(reason)
            }
            _ => None,
        };
        if let Some(reason) = missing_fence_not_run
            && races.iter().any(|r| matches!(r.class.check(), "data-race" | "atomic-plain"))
        {
            notes.push(format!(
                "the missing-fence check did not run ({reason}): a race that a flag or lock of relaxed atomics \
                 leaves unordered is reported under its data-race or atomic-plain class"
            ));
        }
        // The engine's other programs could not follow some
        // synchronization: the races stand, their classes may be narrower
        // than the ones given.
        if stats.race_classes_unsure > 0
            && races.iter().any(|r| matches!(r.class.check(), "data-race" | "atomic-plain" | "lockset"))
        {
            notes.push(format!(
                "{} times the happens-before engine could not follow synchronization in the programs that class \
                 races (the same shader with every atomic at device scope, for the scope check, and with every \
                 atomic acquiring and releasing, for the missing-fence check) or a fifth lock held at once (for \
                 the lockset check): every race listed is one, but one classed as a data race, atomic-plain or \
                 lockset race may be one that a wider scope or release/acquire semantics would order",
                stats.race_classes_unsure
            ));
        }
        if let Some(w) = self.spec.assume_lockstep
            && stats.hidden_by_lockstep > 0
        {
            notes.push(format!(
                "{} races that lock-step execution of width {w} hides are not listed (--assume-lockstep); WGSL \
                 does not promise lock-step execution, so they are races on other GPUs",
                stats.hidden_by_lockstep
            ));
        }
        if inst.memory_barrier_in_loop && gpu::is_lavapipe(&gpu.info) {
            notes.push(
                "lavapipe (Mesa 22.3) can lose private variables' values across memory barriers (fences) in a \
                 loop, the shader's own and wgrace's: wgrace checked each access where it happened rather than \
                 recording it, but a shader like this one is best checked on another adapter too"
                    .into(),
            );
        }
        let races_checked = self.checks.ids().iter().any(|id| id == wgrace_instrument::checks::data_race::ID);
        if let Some(reason) = inst.analysis.as_ref().and_then(|a| a.gave_up.as_ref()).filter(|_| races_checked) {
            notes.push(format!("the static analyzer gave up ({reason}), so every access was checked at run time"));
        }
        if stats.nonlinear_subgroup_lanes > 0 {
            notes.push(format!(
                "{} invocations were in subgroups that are not blocks of consecutive local indices; the \
                 intra-subgroup class assumes they are",
                stats.nonlinear_subgroup_lanes
            ));
        }
        if !gpu.device.features().contains(wgpu::Features::SUBGROUP) {
            notes.push(
                "the adapter has no subgroup operations: no race is classed intra-subgroup, and statement mode \
                 runs without its warp check (its tables still compare every pair)"
                    .into(),
            );
        }
        if stats.detections_without_witness > 0 {
            notes.push(format!(
                "{} detections could not name the earlier access of their race",
                stats.detections_without_witness
            ));
        }
        let variables = self.checked_variables(&inst.vars);
        Run {
            entry_point: self.prepared.entry_point.clone(),
            workgroup_size: self.prepared.workgroup_size,
            adapter: Some(gpu.info.clone()),
            dispatch: self.spec.dispatch,
            verdict: if stats.detections > 0 { Verdict::Race } else { Verdict::NoRace },
            races,
            findings,
            complete: incomplete.is_empty(),
            incomplete,
            suppressed: Vec::new(),
            warnings: self.warnings.clone(),
            notes,
            checked: report::Checked {
                mode: inst.mode().as_str().into(),
                slots: (inst.mode() == wgrace_instrument::Mode::Stmt)
                    .then_some(inst.prelude.slots.max(inst.prelude.storage_slots)),
                assume_lockstep: self.spec.assume_lockstep,
                subgroup_size: decoded.subgroup_size,
                variables,
                checked_sites: inst.sites.checked(),
                sites: inst.sites.len(),
                atomic_checked_sites: if inst.prelude.checks.iter().any(|c| c.hooks.atomic_memory) {
                    inst.sites
                        .sites
                        .iter()
                        .filter(|s| {
                            s.kind == wgrace_instrument::report::AccessKind::Atomic
                                && inst.vars[s.var as usize].atomic_memory()
                        })
                        .count()
                } else {
                    0
                },
                invocations: invocations(&self.prepared, self.spec.dispatch),
                instrumentation: None,
                shadow: report::ShadowSummary::default(),
                analyzer: inst.analysis.as_ref().map(|a| report::AnalyzerSummary {
                    pruned_sites: a.pruned(),
                    static_races: a.static_races.len(),
                    gave_up: a.gave_up.clone(),
                }),
            },
            sites: inst.sites.clone(),
            barriers: inst.barriers.clone(),
            stats,
            outputs: Vec::new(),
            timeline: None,
        }
    }
}

/// Total invocations of a dispatch.
pub fn invocations(prepared: &Prepared, dispatch: [u32; 3]) -> u64 {
    let per = prepared.workgroup_size.iter().map(|&s| u64::from(s)).product::<u64>();
    per * dispatch.iter().map(|&d| u64::from(d)).product::<u64>()
}

/// Reads a shader file and its `// wgrace:` flags, with `cli` flags over
/// them.
///
/// # Errors
/// [`Error`] when the file or a flag is bad.
pub fn load_with_flags(path: &Path, cli: RunArgs) -> Result<(Shader, RunArgs, RunSpec), Error> {
    let shader = Shader::load(path)?;
    let mut from_file = RunArgs::parse_flags(&spec::shader_flags(shader.text.as_deref().unwrap_or("")))?;
    // `file:` paths written in the shader are relative to the shader.
    if let Some(dir) = path.parent() {
        from_file.fills = from_file.fills.into_iter().map(|f| spec::rebase_file_fill(&f, dir)).collect();
        from_file.suppressions = from_file.suppressions.into_iter().map(|f| dir.join(f)).collect();
    }
    let args = cli.over(from_file);
    let spec = RunSpec::from_args(&args)?;
    Ok((shader, args, spec))
}

/// Checking a shader from Rust code, e.g. in a `#[test]`.
///
/// Flags written in the shader (`// wgrace: …`) apply; the builder's
/// settings override them.
pub struct Check {
    shader: Shader,
    args: RunArgs,
    file_args: RunArgs,
    checks: CheckSet,
}

impl Check {
    /// A WGSL shader given as text; `name` is used in messages.
    ///
    /// # Errors
    /// [`Error::Load`] with naga's diagnostic, or a bad `// wgrace:` line.
    pub fn wgsl(name: &str, source: &str) -> Result<Check, Error> {
        let shader = Shader::from_wgsl(name, source)?;
        let file_args = RunArgs::parse_flags(&spec::shader_flags(source))?;
        Ok(Check { shader, args: RunArgs::default(), file_args, checks: CheckSet::default() })
    }

    /// A shader file (WGSL or SPIR-V).
    ///
    /// # Errors
    /// [`Error::Load`].
    pub fn file(path: impl AsRef<Path>) -> Result<Check, Error> {
        let shader = Shader::load(path.as_ref())?;
        let file_args = RunArgs::parse_flags(&spec::shader_flags(shader.text.as_deref().unwrap_or("")))?;
        Ok(Check { shader, args: RunArgs::default(), file_args, checks: CheckSet::default() })
    }

    /// Workgroup counts.
    pub fn dispatch(mut self, d: [u32; 3]) -> Check {
        self.args.dispatch = Some(format!("{},{},{}", d[0], d[1], d[2]));
        self
    }

    /// Element count of a runtime-sized array binding.
    pub fn buffer(mut self, name: &str, len: u64) -> Check {
        self.args.buffers.push(format!("{name}={len}"));
        self
    }

    /// Any other flag, as on the command line (e.g. `"--fill"`, `"a=zero"`).
    ///
    /// # Errors
    /// [`Error::Spec`] for an unknown flag.
    pub fn flags(mut self, flags: &[&str]) -> Result<Check, Error> {
        let extra = RunArgs::parse_flags(&flags.iter().map(|s| s.to_string()).collect::<Vec<_>>())?;
        self.args = extra.over(self.args);
        Ok(self)
    }

    /// Adds a check to the registered ones.
    pub fn with_check(mut self, check: std::sync::Arc<dyn wgrace_instrument::checks::Check>) -> Check {
        self.checks = self.checks.with(check);
        self
    }

    /// Checks every compute entry point (or the one `--entry` names) on the
    /// adapters the flags choose (`--adapter all`: every usable one) and
    /// returns the report.
    ///
    /// # Errors
    /// [`Error`] when the shader cannot be checked.
    pub fn run(self) -> Result<Report, Error> {
        let args = self.args.over(self.file_args);
        let spec = RunSpec::from_args(&args)?;
        let backend = args.backend.as_deref().map(gpu::parse_backend).transpose()?;
        let gpus = Gpu::open_each(&AdapterChoice { name: args.adapter.clone(), backend })?;
        Ok(session::check(&self.shader, &spec, &gpus, &self.checks, false, &mut |_| {})?.report)
    }
}

/// The note for races on buffers whose stores are private under the Vulkan
/// memory model (`names`), in a module that synchronizes with release and
/// acquire.
fn private_races_note(names: &std::collections::BTreeSet<&str>) -> String {
    let names: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
    format!(
        "races on {} are races whatever the module's synchronization: under the Vulkan memory model the module \
         declares, the buffer's plain stores (beside atomics, its plain accesses) are private (no \
         NonPrivatePointer, as glslang makes those of a buffer not declared coherent), and release and acquire \
         synchronization and barriers order only non-private accesses between invocations (GLSL: declare the \
         buffer `coherent` for them to order its accesses)",
        names.join(", ")
    )
}

/// The note of a run whose happens-before engine, running for the
/// missing-fence check alone, could not follow the shader and gave way to
/// the barrier epochs (`Plan::run_checked`). On lavapipe that can be the
/// schedule's doing (an invocation preempted while it holds one of the
/// engine's locks makes another give up), so the corpus runs such a kernel
/// again, as it does one whose report is incomplete.
pub(crate) const MISSING_FENCE_GAVE_WAY: &str = "the missing-fence check did not run: its happens-before engine could not follow every access (a word that \
     more invocations access between two barriers than it remembers, say), and the data-race check's barrier \
     epochs checked the shader without it; a race that a flag or lock of relaxed atomics leaves unordered is \
     reported under its data-race class";

/// A checked run that ended (see [`Plan::run_checked`]).
pub(crate) struct CheckedOutcome {
    /// The instrumented shader that ran.
    pub inst: Instrumented,
    /// The run whose log was read.
    pub run: CheckedRun,
    /// Its log.
    pub log: Vec<u8>,
    /// Its examples.
    pub examples: Vec<u8>,
    /// Why it checked in place, when it did without being asked to.
    pub notes: Vec<String>,
    /// Whether the engine ran for the missing-fence check alone, could not
    /// follow all of the shader, and the run was made again without it.
    pub unclassified: bool,
}

/// What of the atomic memory of `inst` (memory with atomics narrower than
/// the device, or with plain and atomic accesses) this run does not check,
/// each a reason its report is incomplete.
fn unchecked_atomic_memory(inst: &Instrumented, dispatch: [u32; 3]) -> Vec<String> {
    let hooked = |c: &&wgrace_shaders::LinkedCheck| c.hooks.atomic_memory;
    let linked = |prefix: &str| inst.prelude.checks.iter().filter(hooked).any(|c| c.prefix == prefix);
    let names = |f: fn(&wgrace_instrument::TrackedVar) -> bool| -> Vec<String> {
        inst.vars.iter().filter(|v| f(v)).map(|v| format!("`{}`", v.name)).collect()
    };
    let mut out = Vec::new();
    let scoped = names(|v| v.scoped_atomics || v.subgroup_atomics);
    if !scoped.is_empty() && !linked("scope") {
        out.push(format!(
            "{} has atomics of workgroup or subgroup scope, and the `scope` check did not run: their use by \
             invocations outside their scope is not checked",
            scoped.join(", ")
        ));
    }
    let mixed = names(|v| v.plain_and_atomic);
    // Buffers, which invocations of different workgroups share.
    let mixed_buffers = names(|v| v.plain_and_atomic && v.space == wgrace_instrument::Space::Storage);
    let workgroups = dispatch.iter().map(|&d| u64::from(d)).product::<u64>();
    if !mixed.is_empty() && !linked("atomic_plain") {
        out.push(format!(
            "{} is accessed both atomically and with plain loads or stores, and the `atomic-plain` check did not \
             run: races between the two are not checked",
            mixed.join(", ")
        ));
    } else if !mixed_buffers.is_empty() && workgroups > wgrace_instrument::checks::atomic_plain::MAX_WORKGROUPS {
        out.push(format!(
            "the `atomic-plain` check tells {} workgroups apart, fewer than this dispatch's {workgroups}: races \
             between plain and atomic accesses of {} across workgroups are not checked exactly",
            wgrace_instrument::checks::atomic_plain::MAX_WORKGROUPS,
            mixed_buffers.join(", ")
        ));
    }
    out
}
