//! Running shaders: the original ("native") and the instrumented ("checked")
//! one, on the same initial buffers.
//!
//! A [`NativeRun`] or [`CheckedRun`] is built once (pipeline, buffers, bind
//! groups) and can then be encoded any number of times, which is what
//! `bench` does. The checked run splits the dispatch into chunks of
//! `(n, 1, 1)` workgroups: each workgroup in flight needs a slot of
//! workgroup-memory shadow state, so the chunk size bounds that memory
//! whatever the dispatch size. Storage shadow state persists across chunks,
//! so races between workgroups of different chunks are still found.
//!
//! In addr mode each workgroup also has a slot of replay streams: every
//! invocation records its accesses and barriers there, and the workgroup
//! checks them when it ends (`shaders/wgsl/checks/data_race/hooks/replay.wgsl`).
//! A first run gives each invocation [`FIRST_TRACE_CAPACITY`] entries; when
//! one records more, [`CheckedRun::run_complete`] runs it again (same
//! pipeline) with room for them all, or, when that room would leave chunks
//! too small, tells the caller to check in place instead.

use std::time::Instant;

use wgrace_instrument::{Instrumented, Prepared, TrackedVar};
use wgrace_shaders::abi;

use crate::Error;
use crate::buffers::{BindingKind, UserBuffer};
use crate::gpu::Gpu;
use crate::log::LogLayout;
use crate::pipelines::{FIRST_DISPATCH_CHECKED, FIRST_DISPATCH_ORIGINAL, pipeline, watched};

/// Most entries of the storage witness cache (8 MiB; identities of up to 48
/// bits): every word gets its own entries up to half this many tracked words.
const WITNESS_CACHE_ENTRIES: u64 = 1 << 20;

/// Largest amount of workgroup-memory shadow state one chunk may use.
const SLOT_BUDGET_BYTES: u64 = 32 << 20;

/// Largest amount of replay streams one chunk may use (and at most one
/// storage binding of the adapter: 128 MiB on lavapipe): with more events
/// per invocation, chunks get fewer workgroups.
const TRACE_BUDGET_BYTES: u64 = 1 << 30;

/// Entries per invocation in a first run's replay streams (an access takes
/// one, and so does a run of barriers before one).
pub const FIRST_TRACE_CAPACITY: u32 = 32;

/// Bytes of one replay entry (a `u64`).
const ENTRY_BYTES: u64 = 8;

/// Entries of a stream of `capacity`: one more takes those beyond it.
fn stream_entries(capacity: u32) -> u64 {
    u64::from(capacity) + 1
}

/// The user's buffers, textures and samplers on the GPU (one per
/// [`UserBuffer`], none for an immediate), and the bytes of the immediates.
struct Buffers {
    buffers: Vec<Resource>,
    immediates: Option<Vec<u8>>,
}

/// One of the user's bindings on the GPU.
enum Resource {
    Buffer(wgpu::Buffer),
    Texture(crate::textures::GpuTexture),
    Sampler(wgpu::Sampler),
    /// An immediate's bytes go with each dispatch.
    None,
}

/// Checks the user's buffers against the device's binding limits.
fn check_buffer_sizes(gpu: &Gpu, user: &[UserBuffer]) -> Result<(), Error> {
    let limits = gpu.device.limits();
    for b in user {
        let limit = match b.kind {
            BindingKind::Uniform => limits.max_uniform_buffer_binding_size,
            BindingKind::Immediate => u64::from(limits.max_immediate_size),
            // (`textures::create` checks a texture's size.)
            BindingKind::Texture(_) | BindingKind::Sampler { .. } => continue,
            BindingKind::StorageRead | BindingKind::StorageReadWrite => limits.max_storage_buffer_binding_size,
        }
        .min(limits.max_buffer_size);
        if b.kind == BindingKind::Immediate && b.size() > limit {
            return Err(Error::Limit(format!(
                "immediate `{}` needs {} bytes but the adapter allows {limit}",
                b.name,
                b.size()
            )));
        }
        if b.size() > limit {
            return Err(Error::Limit(format!(
                "buffer `{}` needs {} bytes but the adapter allows {} per binding; use a smaller --buffer {}=LEN",
                b.name,
                b.size(),
                limit,
                b.name
            )));
        }
    }
    Ok(())
}

/// A buffer with `contents`, uploaded through the queue (so that a lost
/// device surfaces as an error rather than a failed mapping).
fn upload(gpu: &Gpu, label: &str, contents: &[u8], usage: wgpu::BufferUsages) -> wgpu::Buffer {
    let buffer = gpu.device.create_buffer(&wgpu::BufferDescriptor {
        label: Some(label),
        size: (contents.len() as u64).next_multiple_of(4).max(4),
        usage: usage | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    gpu.queue.write_buffer(&buffer, 0, contents);
    buffer
}

impl Buffers {
    fn new(gpu: &Gpu, user: &[UserBuffer]) -> Result<Buffers, Error> {
        check_buffer_sizes(gpu, user)?;
        let buffers = user
            .iter()
            .map(|b| {
                let usage = match b.kind {
                    BindingKind::Uniform => wgpu::BufferUsages::UNIFORM,
                    BindingKind::Immediate => return Ok(Resource::None),
                    BindingKind::Texture(t) => {
                        return crate::textures::create(gpu, &b.name, &t, &b.contents).map(Resource::Texture);
                    }
                    BindingKind::Sampler { comparison } => {
                        return Ok(Resource::Sampler(crate::textures::sampler(gpu, comparison)));
                    }
                    BindingKind::StorageRead | BindingKind::StorageReadWrite => wgpu::BufferUsages::STORAGE,
                } | wgpu::BufferUsages::COPY_SRC;
                Ok(Resource::Buffer(upload(gpu, &b.name, &b.contents, usage)))
            })
            .collect::<Result<_, Error>>()?;
        let immediates = user.iter().find(|b| b.kind == BindingKind::Immediate).map(|b| b.contents.clone());
        Ok(Buffers { buffers, immediates })
    }

    /// Restores the initial contents.
    fn reset(&self, gpu: &Gpu, user: &[UserBuffer]) {
        for (resource, b) in self.buffers.iter().zip(user) {
            match (resource, b.texture()) {
                (Resource::Buffer(buffer), _) => gpu.queue.write_buffer(buffer, 0, &b.contents),
                (Resource::Texture(texture), Some(t)) if t.written() => {
                    crate::textures::upload(gpu, texture, t, &b.contents);
                }
                _ => {}
            }
        }
    }

    /// The final contents (an immediate's are its initial ones).
    fn read(&self, gpu: &Gpu, user: &[UserBuffer]) -> Result<Vec<Vec<u8>>, Error> {
        self.buffers
            .iter()
            .zip(user)
            .map(|(resource, b)| match (resource, b.texture()) {
                (Resource::Buffer(buffer), _) => gpu.read_buffer(buffer, b.size()),
                (Resource::Texture(texture), Some(t)) => crate::textures::read(gpu, texture, t, &b.contents),
                _ => Ok(b.contents.clone()),
            })
            .collect()
    }

    /// Gives the immediates to `pass`, after its pipeline was set, when
    /// `module`'s entry point `entry` uses them (the instrumented module may
    /// have pruned every use).
    fn set_immediates(&self, pass: &mut wgpu::ComputePass<'_>, used: bool) {
        if let (Some(bytes), true) = (&self.immediates, used) {
            pass.set_immediates(0, bytes);
        }
    }

    /// One bind group per group of the user's bindings, for `pipeline`,
    /// with the bindings its module uses (`used`, [`used_bindings`]): wgpu
    /// lays out a pipeline's groups with those alone, and the instrumented
    /// module can use fewer than the original (code that can never run,
    /// pruned).
    fn bind_groups(
        &self,
        gpu: &Gpu,
        pipeline: &wgpu::ComputePipeline,
        user: &[UserBuffer],
        used: &[(u32, u32)],
    ) -> Vec<(u32, wgpu::BindGroup)> {
        let bound = |b: &UserBuffer| used.contains(&(b.group, b.binding));
        let mut groups: Vec<u32> = user.iter().filter(|b| bound(b)).map(|b| b.group).collect();
        groups.sort_unstable();
        groups.dedup();
        groups
            .into_iter()
            .map(|group| {
                let entries: Vec<wgpu::BindGroupEntry> = user
                    .iter()
                    .zip(&self.buffers)
                    .filter(|(b, _)| b.group == group && bound(b))
                    .filter_map(|(b, resource)| {
                        let resource = match resource {
                            Resource::Buffer(buffer) => buffer.as_entire_binding(),
                            Resource::Texture(texture) => wgpu::BindingResource::TextureView(&texture.view),
                            Resource::Sampler(sampler) => wgpu::BindingResource::Sampler(sampler),
                            Resource::None => return None,
                        };
                        Some(wgpu::BindGroupEntry { binding: b.binding, resource })
                    })
                    .collect();
                let bind_group = gpu.device.create_bind_group(&wgpu::BindGroupDescriptor {
                    label: None,
                    layout: &pipeline.get_bind_group_layout(group),
                    entries: &entries,
                });
                (group, bind_group)
            })
            .collect()
    }
}

/// The `(group, binding)` of each global of `module` that its entry point
/// `entry` uses.
fn used_bindings(module: &naga::Module, info: &naga::valid::ModuleInfo, entry: &str) -> Vec<(u32, u32)> {
    let Some(index) = module.entry_points.iter().position(|ep| ep.name == entry) else { return Vec::new() };
    let uses = info.get_entry_point(index);
    module
        .global_variables
        .iter()
        .filter(|(h, _)| !uses[*h].is_empty())
        .filter_map(|(_, g)| g.binding.as_ref().map(|b| (b.group, b.binding)))
        .collect()
}

/// Whether the entry point `entry` of `module` uses an immediate
/// (`var<immediate>`).
fn uses_immediates(module: &naga::Module, info: &naga::valid::ModuleInfo, entry: &str) -> bool {
    let Some(index) = module.entry_points.iter().position(|ep| ep.name == entry) else { return false };
    let uses = info.get_entry_point(index);
    module.global_variables.iter().any(|(h, g)| g.space == naga::AddressSpace::Immediate && !uses[h].is_empty())
}

/// Checks the dispatch against the device's limits.
fn check_dispatch(gpu: &Gpu, dispatch: [u32; 3]) -> Result<(), Error> {
    let max = gpu.device.limits().max_compute_workgroups_per_dimension;
    if dispatch.iter().any(|&d| d > max) {
        return Err(Error::Limit(format!(
            "--dispatch {},{},{} exceeds the adapter's limit of {max} workgroups per dimension",
            dispatch[0], dispatch[1], dispatch[2]
        )));
    }
    Ok(())
}

/// GPU timestamps around a compute pass.
pub struct Timer {
    queries: wgpu::QuerySet,
    resolve: wgpu::Buffer,
    period_ns: f64,
}

impl Timer {
    /// A timer, if the device supports timestamp queries.
    pub fn new(gpu: &Gpu) -> Option<Timer> {
        if !gpu.timestamps {
            return None;
        }
        Some(Timer {
            queries: gpu.device.create_query_set(&wgpu::QuerySetDescriptor {
                label: Some("wgrace timer"),
                ty: wgpu::QueryType::Timestamp,
                count: 2,
            }),
            resolve: gpu.device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("wgrace timer"),
                size: 16,
                usage: wgpu::BufferUsages::QUERY_RESOLVE | wgpu::BufferUsages::COPY_SRC,
                mapped_at_creation: false,
            }),
            period_ns: f64::from(gpu.queue.get_timestamp_period()),
        })
    }

    fn writes(&self) -> wgpu::ComputePassTimestampWrites<'_> {
        wgpu::ComputePassTimestampWrites {
            query_set: &self.queries,
            beginning_of_pass_write_index: Some(0),
            end_of_pass_write_index: Some(1),
        }
    }

    fn resolve(&self, encoder: &mut wgpu::CommandEncoder) {
        encoder.resolve_query_set(&self.queries, 0..2, &self.resolve, 0);
    }

    /// Milliseconds between the two timestamps of the last timed pass.
    ///
    /// # Errors
    /// [`Error::Gpu`] when the readback fails.
    pub fn read_ms(&self, gpu: &Gpu) -> Result<f64, Error> {
        let bytes = gpu.read_buffer(&self.resolve, 16)?;
        let t0 = u64::from_le_bytes(bytes[0..8].try_into().unwrap_or([0; 8]));
        let t1 = u64::from_le_bytes(bytes[8..16].try_into().unwrap_or([0; 8]));
        Ok(t1.saturating_sub(t0) as f64 * self.period_ns / 1e6)
    }
}

/// The original shader, ready to dispatch.
pub struct NativeRun {
    /// Wall time of creating its pipeline, in milliseconds.
    pub pipeline_ms: f64,
    pipeline: wgpu::ComputePipeline,
    groups: Vec<(u32, wgpu::BindGroup)>,
    buffers: Buffers,
    /// Whether the shader uses its immediates.
    immediates: bool,
    dispatch: [u32; 3],
}

impl NativeRun {
    /// Builds the pipeline and buffers.
    ///
    /// # Errors
    /// [`Error::Limit`] for buffers or dispatches beyond the device's limits,
    /// [`Error::Gpu`] when the device rejects the shader.
    pub fn new(gpu: &Gpu, prepared: &Prepared, user: &[UserBuffer], dispatch: [u32; 3]) -> Result<NativeRun, Error> {
        check_dispatch(gpu, dispatch)?;
        let start = Instant::now();
        let pipeline = pipeline(gpu, &prepared.module, &prepared.entry_point, "original")?;
        let pipeline_ms = start.elapsed().as_secs_f64() * 1e3;
        let buffers = Buffers::new(gpu, user)?;
        let used = used_bindings(&prepared.module, &prepared.info, &prepared.entry_point);
        let groups = buffers.bind_groups(gpu, &pipeline, user, &used);
        gpu.check()?;
        let immediates = uses_immediates(&prepared.module, &prepared.info, &prepared.entry_point);
        Ok(NativeRun { pipeline_ms, pipeline, groups, buffers, immediates, dispatch })
    }

    /// Runs once; with `timer`, timestamps the pass.
    ///
    /// # Errors
    /// [`Error::Gpu`] or [`Error::DeviceLost`].
    pub fn run(&self, gpu: &Gpu, timer: Option<&Timer>) -> Result<(), Error> {
        let mut encoder = gpu.device.create_command_encoder(&Default::default());
        {
            let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: Some("original"),
                timestamp_writes: timer.map(Timer::writes),
            });
            pass.set_pipeline(&self.pipeline);
            self.buffers.set_immediates(&mut pass, self.immediates);
            for (g, bg) in &self.groups {
                pass.set_bind_group(*g, bg, &[]);
            }
            pass.dispatch_workgroups(self.dispatch[0], self.dispatch[1], self.dispatch[2]);
        }
        if let Some(t) = timer {
            t.resolve(&mut encoder);
        }
        gpu.queue.submit([encoder.finish()]);
        watched(gpu.compile_progress.as_ref(), FIRST_DISPATCH_ORIGINAL, || gpu.wait())
    }

    /// Restores the buffers' initial contents.
    pub fn reset(&self, gpu: &Gpu, user: &[UserBuffer]) {
        self.buffers.reset(gpu, user);
    }

    /// The buffers' contents.
    ///
    /// # Errors
    /// [`Error::Gpu`].
    pub fn read_buffers(&self, gpu: &Gpu, user: &[UserBuffer]) -> Result<Vec<Vec<u8>>, Error> {
        self.buffers.read(gpu, user)
    }
}

/// Bytes of one chunk's parameter block (`WgraceParams` in runtime.wgsl).
fn params_size(vars: usize) -> u64 {
    (size_of::<abi::Params>() + size_of::<abi::Var>() * vars.max(1)) as u64
}

/// The size of the replay streams.
struct TracePlan {
    /// Entries per invocation.
    capacity: u32,
    /// Workgroup slots (workgroups of a chunk) the budget holds.
    slots: u64,
}

impl TracePlan {
    /// Streams of `capacity` entries per invocation, up to what one
    /// workgroup's slot may take of a binding after the sites' facts
    /// (`head` entries).
    fn new(limits: &wgpu::Limits, invocations: u32, head: u64, capacity: u32) -> TracePlan {
        let limit =
            limits.max_storage_buffer_binding_size.min(limits.max_buffer_size).saturating_sub(head * ENTRY_BYTES);
        let invocations = u64::from(invocations.max(1));
        let most = (limit / (invocations * ENTRY_BYTES)).saturating_sub(1).min(u64::from(u32::MAX)) as u32;
        let capacity = capacity.clamp(1, most.max(1));
        let slot_bytes = invocations * stream_entries(capacity) * ENTRY_BYTES;
        TracePlan { capacity, slots: (TRACE_BUDGET_BYTES.min(limit) / slot_bytes).max(1) }
    }

    /// Whether streams of `events` entries per invocation fit chunks of at
    /// least [`MIN_REPLAY_WORKGROUPS`] workgroups (or the whole dispatch).
    fn fits(limits: &wgpu::Limits, invocations: u32, head: u64, events: u32, total_workgroups: u64) -> bool {
        let plan = TracePlan::new(limits, invocations, head, events);
        plan.capacity >= events && plan.slots >= total_workgroups.min(MIN_REPLAY_WORKGROUPS)
    }
}

/// Fewest workgroups a chunk of a replayed run may have: a dispatch whose
/// streams leave room for fewer is checked in place instead, rather than in
/// chunks too small to fill a GPU.
const MIN_REPLAY_WORKGROUPS: u64 = 128;

/// How the checked dispatch is laid out in memory and chunks.
#[derive(Clone, Debug)]
pub struct CheckedLayout {
    /// Workgroups in the dispatch.
    pub total_workgroups: u64,
    /// Workgroups per chunk.
    pub chunk: u32,
    /// Number of chunks.
    pub chunks: u32,
    /// First shadow word of each tracked variable, and its size in words.
    pub var_words: Vec<(u64, u64)>,
    /// Tracked storage words.
    pub storage_words: u64,
    /// Bytes of addr mode's storage state words (`wgrace_shadow`).
    pub state_bytes: u64,
    /// Entries of the direct-mapped state cache (`--shadow-cache`), if any.
    pub cache_entries: Option<u64>,
    /// 64-bit words of `wgrace_shadow_u64`: addr mode's storage witnesses (a
    /// bounded cache for identities of up to 48 bits, two per tracked word
    /// for 64-bit ones), or statement mode's storage slots.
    pub u64_words: u64,
    /// 64-bit words after those in `wgrace_shadow_u64`: the per-word state of
    /// the checks of atomic memory (`LinkedCheck::atomic_state_words`) for the
    /// variables whose accesses reach the atomic-memory event.
    pub atomic_words: u64,
    /// Each tracked variable's first word of that state (0 for the others).
    pub atomic_bases: Vec<u64>,
    /// 64-bit words of the data-race check's happens-before engine
    /// (`wgrace_hb`), when it runs.
    pub happens_before_words: u64,
    /// Layout of the log buffer.
    pub log: LogLayout,
    /// Entries each invocation's replay stream holds (0 without replay).
    pub trace_capacity: u32,
}

impl CheckedLayout {
    /// Plans the chunks and shadow buffers of a checked run.
    ///
    /// # Errors
    /// [`Error::Limit`] when the shadow state cannot fit the device or the
    /// state word.
    pub fn new(
        gpu_limits: &wgpu::Limits,
        inst: &Instrumented,
        user: &[UserBuffer],
        dispatch: [u32; 3],
        max_races: u32,
        trace_capacity: u32,
    ) -> Result<CheckedLayout, Error> {
        let total = dispatch.iter().map(|&d| u64::from(d)).product::<u64>();
        if total > u64::from(u32::MAX) {
            return Err(Error::Limit(format!("a dispatch of {total} workgroups is more than wgrace can number")));
        }
        // Workgroup shadow slots in the log buffer, unless the shadow lives in
        // workgroup memory.
        let slot_words = if inst.prelude.workgroup_shadow_resident {
            0
        } else {
            u64::from(inst.prelude.workgroup_words) * u64::from(inst.prelude.workgroup_state_words())
        };
        // With written values gathered, each slot also has a table of them
        // (three words per workgroup word).
        let value_words = if inst.prelude.value_sites == 0 { 0 } else { 3 * u64::from(inst.prelude.workgroup_words) };
        let per_slot = slot_words + value_words;
        let max_slots = if per_slot == 0 { u64::MAX } else { (SLOT_BUDGET_BYTES / (per_slot * 4)).max(1) };
        let limit = gpu_limits.max_storage_buffer_binding_size.min(gpu_limits.max_buffer_size);
        let (trace_capacity, max_trace_slots) = if inst.prelude.replays() {
            let head = inst.prelude.site_facts.len() as u64;
            let plan = TracePlan::new(gpu_limits, inst.prelude.workgroup_invocations, head, trace_capacity);
            (plan.capacity, plan.slots)
        } else {
            (0, u64::MAX)
        };
        let chunk = total
            .min(max_slots)
            .min(max_trace_slots)
            .min(u64::from(gpu_limits.max_compute_workgroups_per_dimension))
            .max(1);
        let chunks = total.div_ceil(chunk);

        let mut var_words = Vec::new();
        let mut shadow_words = 0u64;
        for v in &inst.vars {
            // A variable with no instrumented site (the static analyzer
            // proved all of them race-free) needs no shadow.
            let instrumented = inst.sites.sites.iter().any(|s| s.checked && s.var == v.id);
            var_words.push(if instrumented { var_extent(v, user, &mut shadow_words) } else { (shadow_words, 0) });
        }
        let storage = inst.prelude.storage;
        let (cache_entries, state_words, u64_words) = if inst.prelude.stmt {
            (None, 0, shadow_words * u64::from(inst.prelude.storage_state_words()))
        } else if storage.witness_cache() {
            let cache =
                (storage.tag_bits > 0).then(|| shadow_words.div_ceil(1 << storage.tag_bits).next_power_of_two().max(2));
            // Two witnesses per state entry, up to a bound.
            let witnesses = (2 * cache.unwrap_or(shadow_words)).next_power_of_two().clamp(2, WITNESS_CACHE_ENTRIES);
            (cache, cache.unwrap_or(shadow_words), witnesses)
        } else {
            (None, shadow_words, 2 * shadow_words)
        };
        // The checks of atomic memory keep their state after the data-race
        // check's 64-bit words, each word's together.
        let per_word = u64::from(inst.prelude.atomic_state_words());
        let mut atomic_words = 0u64;
        let mut atomic_bases = Vec::new();
        for v in &inst.vars {
            // Workgroup memory has no state across workgroups.
            if v.atomic_memory() && v.space == wgrace_instrument::Space::Storage && per_word > 0 {
                let len = user.iter().find(|b| b.handle == v.handle).and_then(|b| b.runtime_len).unwrap_or(0);
                atomic_bases.push(u64_words + atomic_words);
                atomic_words += v.words(len) * per_word;
            } else {
                atomic_bases.push(0);
            }
        }
        if u64_words + atomic_words > u64::from(u32::MAX) {
            return Err(Error::Limit(format!(
                "checking atomics needs {per_word} 64-bit words per word of the buffers with atomics narrower than \
                 the device or with plain and atomic accesses ({atomic_words} in all, after the data-race check's), \
                 more than 32-bit indices reach; check a smaller problem (--buffer NAME=LEN)"
            )));
        }
        let state_bytes = (state_words * storage.state_bytes()).max(8);
        let u64_bytes = ((u64_words + atomic_words) * 8).max(8);
        let shadow_bytes = state_bytes + u64_bytes;
        let per_word = shadow_bytes as f64 / shadow_words.max(1) as f64;
        let log = LogLayout {
            pair_capacity: max_races,
            slot_words: slot_words as u32,
            slots: chunk as u32,
            sites: inst.sites.len() as u32,
            timeline_words: 0,
            timeline_table: 0,
            value_sites: inst.prelude.value_sites,
            storage_words: shadow_words,
            slot_workgroup_words: inst.prelude.workgroup_words,
        };
        let log_bytes = log.bytes();
        if state_bytes.max(u64_bytes) > limit {
            return Err(Error::Limit(format!(
                "checking {} bytes of storage needs {shadow_bytes} bytes of shadow state ({per_word:.1} per 4-byte \
                 word), more than the adapter's {limit} bytes per binding; check a smaller problem (--buffer \
                 NAME=LEN){}",
                shadow_words * 4,
                if inst.prelude.stmt {
                    " or use fewer --slots"
                } else {
                    " or keep the state in a cache (--shadow-cache 16)"
                }
            )));
        }
        if inst.prelude.stmt && shadow_words * u64::from(inst.prelude.storage_state_words()) > u64::from(u32::MAX) {
            return Err(Error::Limit(format!(
                "statement mode indexes its storage shadow with 32 bits; {shadow_words} words with {} slots each are \
                 too many: check a smaller problem (--buffer NAME=LEN)",
                inst.prelude.storage_slots
            )));
        }
        let happens_before_words = inst.happens_before.map_or(0, |hb| hb.state_words());
        if happens_before_words * 8 > limit {
            return Err(Error::Limit(format!(
                "following release/acquire synchronization needs {} bytes of state ({} invocations), more than \
                 the adapter's {limit} bytes per binding; check a smaller dispatch",
                happens_before_words * 8,
                inst.happens_before.map_or(0, |hb| hb.invocations)
            )));
        }
        if log_bytes.max(log.examples_buffer_bytes()) > limit {
            let values = if log.value_sites == 0 {
                ""
            } else {
                ", or check a smaller problem (--buffer NAME=LEN): --same-value-notes keeps 12 bytes per tracked word"
            };
            return Err(Error::Limit(format!(
                "the race table and workgroup shadow need {log_bytes} bytes, more than the adapter's {limit}; lower \
                 --max-races{values}"
            )));
        }
        Ok(CheckedLayout {
            total_workgroups: total,
            chunk: chunk as u32,
            chunks: chunks as u32,
            var_words,
            storage_words: shadow_words,
            state_bytes,
            cache_entries,
            u64_words,
            atomic_words,
            atomic_bases,
            happens_before_words,
            log,
            trace_capacity,
        })
    }

    /// Bytes of the replay streams (one slot per workgroup of a chunk) and,
    /// before them, the sites' facts (`Prelude::trace_head`).
    pub fn trace_bytes(&self, inst: &Instrumented) -> u64 {
        let head = inst.prelude.site_facts.len() as u64;
        let streams =
            u64::from(self.chunk) * u64::from(inst.prelude.workgroup_invocations) * stream_entries(self.trace_capacity);
        if self.trace_capacity == 0 { 0 } else { (head + streams) * ENTRY_BYTES }
    }

    /// The report's description of the storage shadow.
    pub fn shadow_summary(&self, inst: &Instrumented) -> wgrace_instrument::report::ShadowSummary {
        let (state_bytes, witness_bytes) =
            if inst.prelude.stmt { (self.u64_words * 8, 0) } else { (self.state_bytes, self.u64_words * 8) };
        wgrace_instrument::report::ShadowSummary {
            storage_words: self.storage_words,
            state_bytes: if self.storage_words == 0 { 0 } else { state_bytes },
            witness_bytes: if self.storage_words == 0 { 0 } else { witness_bytes },
            cache_ratio: self.cache_entries.map(|_| 1 << inst.prelude.storage.tag_bits),
        }
    }

    /// Bytes of storage shadow: state words and 64-bit words, and the
    /// happens-before engine's state.
    pub fn shadow_bytes(&self) -> u64 {
        self.state_bytes + (self.u64_words + self.atomic_words).max(1) * 8 + self.happens_before_words * 8
    }

    /// The parameter block for chunk `index` (`WgraceParams`).
    fn params(&self, inst: &Instrumented, dispatch: [u32; 3], index: u32) -> Vec<u8> {
        let [spread_cells_x, spread_cells_y, _, spread_shifts] = abi::spread_grid(dispatch).packed();
        let header = abi::Params {
            chunk_base: index * self.chunk,
            total_workgroups: self.total_workgroups as u32,
            witness_mask: (self.u64_words.max(1) - 1).min(u64::from(u32::MAX)) as u32,
            cache_bits: self.cache_entries.map_or(0, u64::trailing_zeros),
            dispatch: [dispatch[0], dispatch[1], dispatch[2], 0],
            pair_capacity: self.log.pair_capacity,
            storage_words: self.storage_words.min(u64::from(u32::MAX)) as u32,
            // log2 of half the witness cache's entries (a power of two; the
            // value is unused when the 64-bit words are something else).
            witness_shift: self.u64_words.max(2).trailing_zeros().saturating_sub(1),
            trace_capacity: self.trace_capacity,
            slot_values_at: if self.log.value_sites == 0 { 0 } else { self.log.slot_values_at() as u32 },
            spread_cells_x,
            spread_cells_y,
            spread_shifts,
        };
        let mut vars: Vec<abi::Var> = inst
            .vars
            .iter()
            .zip(&self.var_words)
            .zip(&self.atomic_bases)
            .map(|((v, &(base, words_len)), &atomic_base)| {
                let (base, len) = match v.space {
                    wgrace_instrument::Space::Workgroup => (u64::from(v.slot_base), u64::from(v.fixed_words)),
                    wgrace_instrument::Space::Storage => (base, words_len),
                };
                let words = len.min(u64::from(u32::MAX)) as u32;
                abi::Var {
                    base: base as u32,
                    words,
                    range_shift: abi::range_shift(words),
                    atomic_base: atomic_base as u32,
                }
            })
            .collect();
        if vars.is_empty() {
            vars.push(abi::Var::default());
        }
        let mut bytes = bytemuck::bytes_of(&header).to_vec();
        bytes.extend_from_slice(bytemuck::cast_slice(&vars));
        bytes
    }
}

/// Where variable `v`'s words start in the storage shadow, and how many.
fn var_extent(v: &TrackedVar, user: &[UserBuffer], next: &mut u64) -> (u64, u64) {
    match v.space {
        wgrace_instrument::Space::Workgroup => (0, u64::from(v.fixed_words)),
        wgrace_instrument::Space::Storage => {
            let len = user.iter().find(|b| b.handle == v.handle).and_then(|b| b.runtime_len).unwrap_or(0);
            let words = v.words(len);
            let base = *next;
            *next += words;
            (base, words)
        }
    }
}

/// The instrumented shader, ready to dispatch.
pub struct CheckedRun {
    pipeline: Compiled,
    user_groups: Vec<(u32, wgpu::BindGroup)>,
    /// The runtime's bind group of each chunk, for the instrumented pipeline
    /// and for the replay pass (empty without one).
    chunk_groups: Vec<wgpu::BindGroup>,
    replay_groups: Vec<wgpu::BindGroup>,
    runtime_group: u32,
    buffers: Buffers,
    shadow: wgpu::Buffer,
    shadow_u64: wgpu::Buffer,
    happens_before: wgpu::Buffer,
    log: wgpu::Buffer,
    examples: wgpu::Buffer,
    trace: wgpu::Buffer,
    /// Statement mode's storage check, run after the last chunk.
    storage_check: Option<StorageCheck>,
    /// The same-value pass, with written values gathered.
    same_value: Option<SameValuePass>,
    /// Whether the instrumented shader uses the user's immediates.
    immediates: bool,
    /// Its layout.
    pub layout: CheckedLayout,
    dispatch: [u32; 3],
    max_races: u32,
}

/// How [`CheckedRun::run_complete`] ended.
pub enum Completed {
    /// Every recorded event was checked: the run, its log and examples.
    Checked {
        /// The run whose log this is.
        run: Box<CheckedRun>,
        /// Its log (see [`CheckedRun::read_log`]).
        log: Vec<u8>,
        /// Its examples.
        examples: Vec<u8>,
    },
    /// An invocation recorded `events` entries, more than replay streams can
    /// hold for chunks of a useful size: check in place
    /// (`wgrace_instrument::Replay::Never`).
    TooManyEvents {
        /// The most entries one invocation recorded.
        events: u32,
    },
    /// The replay's loops ended before it checked `entries` recorded
    /// entries (lavapipe ends a shader's loops after 65,535 iterations in
    /// all): check in place.
    ReplayCut {
        /// Entries not checked.
        entries: u32,
    },
}

/// The instrumented pipeline and, when accesses are recorded, the replay
/// pass's; and the wall time their creation took.
#[derive(Clone)]
struct Compiled {
    pipeline: wgpu::ComputePipeline,
    replay: Option<ReplayPass>,
    ms: f64,
}

/// The data-race check's replay pass
/// (`shaders/wgsl/checks/data_race/passes/replay.wgsl`): run after each
/// chunk of the checked dispatch, over the same workgroup slots, it checks
/// what they recorded. Its runtime bindings are in group 0.
#[derive(Clone)]
struct ReplayPass {
    pipeline: wgpu::ComputePipeline,
    module: naga::Module,
    info: naga::valid::ModuleInfo,
}

impl ReplayPass {
    fn new(gpu: &Gpu, inst: &Instrumented) -> Result<ReplayPass, Error> {
        ReplayPass::of(gpu, inst, wgrace_instrument::replay_pass_module(inst)?, "replay pass")
    }

    /// The replay pass of a timeline's run.
    fn timeline(gpu: &Gpu, inst: &Instrumented) -> Result<ReplayPass, Error> {
        ReplayPass::of(gpu, inst, wgrace_instrument::timeline_pass_module(inst)?, "timeline's replay pass")
    }

    fn of(gpu: &Gpu, inst: &Instrumented, module: naga::Module, label: &str) -> Result<ReplayPass, Error> {
        let info = naga::valid::Validator::new(naga::valid::ValidationFlags::all(), inst.capabilities)
            .validate(&module)
            .map_err(|e| Error::Internal(format!("the {label} does not validate: {}", e.as_inner())))?;
        let pipeline = pipeline(gpu, &module, wgrace_shaders::REPLAY_PASS_ENTRY, label)?;
        Ok(ReplayPass { pipeline, module, info })
    }
}

/// What a timeline's run gathered: its log's counters, and the timeline's
/// words (`shaders/wgsl/checks/data_race/timeline.wgsl`).
pub struct TimelineWords {
    /// The log's counters (entries lost or not replayed).
    pub header: abi::LogHeader,
    /// The timeline.
    pub words: Vec<u32>,
}

/// How many more times a checked run is repeated while the happens-before
/// engine could not follow it (`LogHeader::hb_unchecked`): the report then
/// describes the first execution it followed whole, or the last one. A
/// retry costs a dispatch (no compile); on 2 busy cores four tries in all
/// were not always enough (2026-12-01: `subgroup_barrier_message_passing
/// -DNO_FENCE` in statement mode, each try's lock holder preempted).
const HB_RETRIES: u32 = 7;

/// On lavapipe, the pause before the first retry, in milliseconds; it
/// doubles for each one after (1.27 s before the last).
const HB_RETRY_PAUSE_MS: u64 = 10;

/// The checked run's own buffers, as bound in a runtime bind group.
struct RuntimeBuffers<'a> {
    params: &'a wgpu::Buffer,
    params_block: u64,
    params_size: Option<wgpu::BufferSize>,
    shadow: &'a wgpu::Buffer,
    shadow_u64: &'a wgpu::Buffer,
    happens_before: &'a wgpu::Buffer,
    log: &'a wgpu::Buffer,
    examples: &'a wgpu::Buffer,
    trace: &'a wgpu::Buffer,
}

impl RuntimeBuffers<'_> {
    /// One bind group per chunk (each with its chunk's parameters) for the
    /// runtime bindings that entry point 0 of `module` uses, in `layout`.
    fn chunk_groups(
        &self,
        gpu: &Gpu,
        module: &naga::Module,
        info: &naga::valid::ModuleInfo,
        layout: &wgpu::BindGroupLayout,
        chunks: u32,
    ) -> Vec<wgpu::BindGroup> {
        let ep_info = info.get_entry_point(0);
        let binding = |name: &str| -> Option<u32> {
            module
                .global_variables
                .iter()
                .find(|(h, g)| g.name.as_deref() == Some(name) && !ep_info[*h].is_empty())
                .map(|(_, g)| g.binding.as_ref().map_or(0, |b| b.binding))
        };
        let whole = [
            ("wgrace_shadow", self.shadow),
            ("wgrace_shadow_u64", self.shadow_u64),
            ("wgrace_hb", self.happens_before),
            ("wgrace_log", self.log),
            ("wgrace_examples", self.examples),
            ("wgrace_trace", self.trace),
        ];
        (0..chunks)
            .map(|c| {
                let mut entries = Vec::new();
                if let Some(b) = binding("wgrace_params") {
                    entries.push(wgpu::BindGroupEntry {
                        binding: b,
                        resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                            buffer: self.params,
                            offset: u64::from(c) * self.params_block,
                            size: self.params_size,
                        }),
                    });
                }
                for (name, buffer) in whole {
                    if let Some(b) = binding(name) {
                        entries.push(wgpu::BindGroupEntry { binding: b, resource: buffer.as_entire_binding() });
                    }
                }
                gpu.device.create_bind_group(&wgpu::BindGroupDescriptor {
                    label: Some("wgrace runtime"),
                    layout,
                    entries: &entries,
                })
            })
            .collect()
    }
}

/// The same-value pass (`shaders/wgsl/passes/same_value.wgsl`), with
/// written values gathered: after each chunk over its workgroup slots, after
/// the last over the storage words.
struct SameValuePass {
    slots: (wgpu::ComputePipeline, wgpu::BindGroup),
    storage: (wgpu::ComputePipeline, wgpu::BindGroup),
    /// Workgroups of the storage entry point (0: no storage words).
    storage_workgroups: u32,
    /// Whether the slots have workgroup words.
    workgroup_words: bool,
}

impl SameValuePass {
    /// `resources`: the runtime's parameters (binding 0) and log (binding 2).
    fn new(
        gpu: &Gpu,
        inst: &Instrumented,
        layout: &CheckedLayout,
        resources: [(u32, wgpu::BindingResource<'_>); 2],
    ) -> Result<SameValuePass, Error> {
        let module = wgrace_instrument::same_value_module(inst)?;
        let entry = wgrace_shaders::SAME_VALUE_SLOTS_ENTRY;
        let slots = pass_pipeline(gpu, &module, entry, "same-value pass (slots)", &resources)?;
        let entry = wgrace_shaders::SAME_VALUE_STORAGE_ENTRY;
        let storage = pass_pipeline(gpu, &module, entry, "same-value pass (storage)", &resources)?;
        let storage_workgroups = pass_workgroups(gpu, layout.storage_words, wgrace_shaders::SAME_VALUE_WORKGROUP, 0);
        Ok(SameValuePass { slots, storage, storage_workgroups, workgroup_words: inst.prelude.workgroup_words > 0 })
    }
}

/// Statement mode's storage check pass
/// (`shaders/wgsl/checks/data_race/passes/stmt_check.wgsl`).
struct StorageCheck {
    pipeline: wgpu::ComputePipeline,
    group: wgpu::BindGroup,
    workgroups: u32,
}

impl StorageCheck {
    fn new(
        gpu: &Gpu,
        inst: &Instrumented,
        layout: &CheckedLayout,
        resources: [(u32, wgpu::BindingResource<'_>); 4],
    ) -> Result<StorageCheck, Error> {
        let module = wgrace_instrument::storage_check_module(inst)?;
        let (pipeline, group) =
            pass_pipeline(gpu, &module, wgrace_shaders::STMT_CHECK_ENTRY, "storage check", &resources)?;
        let workgroups = pass_workgroups(gpu, layout.storage_words, wgrace_shaders::STMT_CHECK_WORKGROUP, 1);
        Ok(StorageCheck { pipeline, group, workgroups })
    }
}

/// The pipeline of entry point `entry` of a pass's `module`, and its bind
/// group of `resources` (group 0; each pipeline has a layout of its own).
fn pass_pipeline(
    gpu: &Gpu,
    module: &naga::Module,
    entry: &str,
    label: &str,
    resources: &[(u32, wgpu::BindingResource<'_>)],
) -> Result<(wgpu::ComputePipeline, wgpu::BindGroup), Error> {
    let pipeline = pipeline(gpu, module, entry, label)?;
    let entries: Vec<wgpu::BindGroupEntry> = resources
        .iter()
        .map(|(binding, resource)| wgpu::BindGroupEntry { binding: *binding, resource: resource.clone() })
        .collect();
    let group = gpu.device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some(label),
        layout: &pipeline.get_bind_group_layout(0),
        entries: &entries,
    });
    Ok((pipeline, group))
}

/// Workgroups of a pass that strides over `words` with `per_workgroup`
/// invocations each: enough for one word each, at least `least`, at most
/// what a dispatch dimension allows.
fn pass_workgroups(gpu: &Gpu, words: u64, per_workgroup: u32, least: u64) -> u32 {
    let max = u64::from(gpu.device.limits().max_compute_workgroups_per_dimension);
    words.div_ceil(u64::from(per_workgroup)).clamp(least, max) as u32
}

impl CheckedRun {
    /// Builds the instrumented pipeline, the user's buffers and the shadow
    /// state.
    ///
    /// # Errors
    /// [`Error::Limit`] or [`Error::Gpu`].
    pub fn new(
        gpu: &Gpu,
        inst: &Instrumented,
        user: &[UserBuffer],
        dispatch: [u32; 3],
        max_races: u32,
    ) -> Result<CheckedRun, Error> {
        check_dispatch(gpu, dispatch)?;
        check_buffer_sizes(gpu, user)?;
        let start = Instant::now();
        let pipeline = pipeline(gpu, &inst.module, &inst.entry_point, "instrumented")?;
        let replay = if inst.prelude.replays() { Some(ReplayPass::new(gpu, inst)?) } else { None };
        let pipeline = Compiled { pipeline, replay, ms: start.elapsed().as_secs_f64() * 1e3 };
        CheckedRun::build(gpu, inst, user, dispatch, max_races, FIRST_TRACE_CAPACITY, pipeline, None)
    }

    /// The same checked run (same pipeline, fresh buffers) with replay
    /// streams of `capacity` entries per invocation (as far as the adapter
    /// allows): `wgrace bench` fits them to what a first run recorded, so
    /// that chunks hold as many workgroups as they can.
    ///
    /// # Errors
    /// [`Error::Limit`] or [`Error::Gpu`].
    pub fn with_trace_capacity(
        &self,
        gpu: &Gpu,
        inst: &Instrumented,
        user: &[UserBuffer],
        capacity: u32,
    ) -> Result<CheckedRun, Error> {
        CheckedRun::build(gpu, inst, user, self.dispatch, self.max_races, capacity, self.pipeline.clone(), None)
    }

    /// Gathers the timeline of workgroup `focus` (a linear index) for the
    /// sites whose `slots` entry is not 0 (a site's slot plus one): runs the
    /// chunks up to the focus's again, from the initial buffers, with the
    /// same instrumented pipeline and the timeline's replay pass. Its
    /// streams start as long as this run's, and grow while entries did not
    /// fit them, as [`CheckedRun::run_complete`]'s do.
    ///
    /// # Errors
    /// [`Error::Internal`] for a run that does not record its accesses;
    /// else as [`CheckedRun::run`].
    pub fn timeline(
        &self,
        gpu: &Gpu,
        inst: &Instrumented,
        user: &[UserBuffer],
        focus: u32,
        slots: &[u32],
    ) -> Result<TimelineWords, Error> {
        if self.pipeline.replay.is_none() {
            return Err(Error::Internal("a timeline needs a run that records its accesses".into()));
        }
        let start = Instant::now();
        let pass = ReplayPass::timeline(gpu, inst)?;
        let ms = start.elapsed().as_secs_f64() * 1e3;
        let pipeline = Compiled { pipeline: self.pipeline.pipeline.clone(), replay: Some(pass), ms };
        let table = abi::timeline_table(focus, slots);
        let mut capacity = self.layout.trace_capacity;
        loop {
            let timeline = Some((&table[..], inst.prelude.workgroup_invocations));
            let run = CheckedRun::build(
                gpu,
                inst,
                user,
                self.dispatch,
                self.max_races,
                capacity,
                pipeline.clone(),
                timeline,
            )?;
            let chunks = (u64::from(focus) / u64::from(run.layout.chunk) + 1).min(u64::from(run.layout.chunks));
            run.run_chunks(gpu, None, chunks as u32, &mut |_| {})?;
            let header = crate::log::header(&gpu.read_buffer(&run.log, size_of::<abi::LogHeader>() as u64)?);
            if header.trace_lost > 0 && header.trace_needed > run.layout.trace_capacity {
                let limits = gpu.device.limits();
                let longer = TracePlan::new(
                    &limits,
                    inst.prelude.workgroup_invocations,
                    inst.prelude.site_facts.len() as u64,
                    header.trace_needed,
                );
                if longer.capacity > run.layout.trace_capacity {
                    capacity = header.trace_needed;
                    continue;
                }
            }
            let bytes = run.layout.log.timeline_words * 4;
            let words = gpu.read_buffer_at(&run.log, run.layout.log.bytes() - bytes, bytes)?;
            return Ok(TimelineWords { header, words: bytemuck::cast_slice(&words).to_vec() });
        }
    }

    /// `timeline`: the table that ends the examples buffer in a timeline's
    /// run, and the workgroup's invocations.
    #[allow(clippy::too_many_arguments)]
    fn build(
        gpu: &Gpu,
        inst: &Instrumented,
        user: &[UserBuffer],
        dispatch: [u32; 3],
        max_races: u32,
        trace_capacity: u32,
        pipeline: Compiled,
        timeline: Option<(&[u32], u32)>,
    ) -> Result<CheckedRun, Error> {
        let limits = gpu.device.limits();
        let mut layout = CheckedLayout::new(&limits, inst, user, dispatch, max_races, trace_capacity)?;
        if let Some((table, invocations)) = timeline {
            layout.log.timeline_words = abi::timeline_words(invocations);
            layout.log.timeline_table = table.len() as u64;
        }
        let buffers = Buffers::new(gpu, user)?;

        let storage = wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC | wgpu::BufferUsages::COPY_DST;
        let shadow = gpu.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("wgrace shadow"),
            size: layout.state_bytes,
            usage: storage,
            mapped_at_creation: false,
        });
        let shadow_u64 = gpu.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("wgrace shadow (64-bit words)"),
            size: (layout.u64_words + layout.atomic_words).max(1) * 8,
            usage: storage,
            mapped_at_creation: false,
        });
        // The data-race check's happens-before engine's state, when it runs.
        let happens_before = gpu.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("wgrace happens-before state"),
            size: layout.happens_before_words.max(1) * 8,
            usage: storage,
            mapped_at_creation: false,
        });
        let log = gpu.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("wgrace log"),
            size: layout.log.bytes(),
            usage: storage,
            mapped_at_creation: false,
        });
        let examples = gpu.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("wgrace race examples"),
            size: layout.log.examples_buffer_bytes(),
            usage: storage,
            mapped_at_creation: false,
        });
        // After the examples, the spread table: never cleared.
        gpu.queue.write_buffer(
            &examples,
            layout.log.examples_bytes(),
            bytemuck::cast_slice(&LogLayout::spread_table(dispatch, &inst.sites)),
        );
        if let Some((table, _)) = timeline {
            let at = layout.log.examples_buffer_bytes() - layout.log.timeline_table * 4;
            gpu.queue.write_buffer(&examples, at, bytemuck::cast_slice(table));
        }
        // The sites' facts, then streams that are written before they are
        // read: never cleared.
        let trace = gpu.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("wgrace replay streams"),
            size: layout.trace_bytes(inst).max(ENTRY_BYTES),
            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        if layout.trace_capacity > 0 {
            gpu.queue.write_buffer(&trace, 0, bytemuck::cast_slice(&inst.prelude.trace_head()));
        }
        let align = u64::from(limits.min_uniform_buffer_offset_alignment);
        let block = params_size(inst.vars.len()).next_multiple_of(align);
        let mut params = vec![0u8; (block * u64::from(layout.chunks)) as usize];
        for c in 0..layout.chunks {
            let p = layout.params(inst, dispatch, c);
            let at = (u64::from(c) * block) as usize;
            params[at..at + p.len()].copy_from_slice(&p);
        }
        let params_buffer = upload(gpu, "wgrace params", &params, wgpu::BufferUsages::UNIFORM);

        let runtime_buffers = RuntimeBuffers {
            params: &params_buffer,
            params_block: block,
            params_size: wgpu::BufferSize::new(params_size(inst.vars.len())),
            shadow: &shadow,
            shadow_u64: &shadow_u64,
            happens_before: &happens_before,
            log: &log,
            examples: &examples,
            trace: &trace,
        };
        let runtime_group = inst.runtime_group;
        let chunk_groups = runtime_buffers.chunk_groups(
            gpu,
            &inst.module,
            &inst.info,
            &pipeline.pipeline.get_bind_group_layout(runtime_group),
            layout.chunks,
        );
        let replay_groups = match &pipeline.replay {
            Some(r) => runtime_buffers.chunk_groups(
                gpu,
                &r.module,
                &r.info,
                &r.pipeline.get_bind_group_layout(0),
                layout.chunks,
            ),
            None => Vec::new(),
        };
        let params_size = runtime_buffers.params_size;
        let used = used_bindings(&inst.module, &inst.info, &inst.entry_point);
        let user_groups = buffers.bind_groups(gpu, &pipeline.pipeline, user, &used);
        let storage_check = if inst.prelude.stmt && layout.storage_words > 0 {
            let params = wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                buffer: &params_buffer,
                offset: u64::from(layout.chunks - 1) * block,
                size: params_size,
            });
            let resources = [
                (0, params),
                (2, log.as_entire_binding()),
                (3, examples.as_entire_binding()),
                (4, shadow_u64.as_entire_binding()),
            ];
            Some(StorageCheck::new(gpu, inst, &layout, resources)?)
        } else {
            None
        };
        let same_value = if inst.prelude.value_sites > 0 {
            let params = wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                buffer: &params_buffer,
                offset: 0,
                size: params_size,
            });
            Some(SameValuePass::new(gpu, inst, &layout, [(0, params), (2, log.as_entire_binding())])?)
        } else {
            None
        };
        gpu.check()?;
        Ok(CheckedRun {
            pipeline,
            user_groups,
            chunk_groups,
            replay_groups,
            runtime_group,
            buffers,
            shadow,
            shadow_u64,
            happens_before,
            log,
            examples,
            trace,
            storage_check,
            same_value,
            immediates: uses_immediates(&inst.module, &inst.info, &inst.entry_point),
            layout,
            dispatch,
            max_races,
        })
    }

    /// Encodes and submits chunks `chunks`; with `timer`, in one timestamped
    /// pass. Calls `progress` after each submission with the number of
    /// chunks done.
    ///
    /// # Errors
    /// [`Error::Gpu`] or [`Error::DeviceLost`].
    pub fn run(&self, gpu: &Gpu, timer: Option<&Timer>, progress: &mut dyn FnMut(u32)) -> Result<(), Error> {
        self.run_chunks(gpu, timer, self.layout.chunks, progress)
    }

    /// [`CheckedRun::run`] of the first `chunks` chunks.
    fn run_chunks(
        &self,
        gpu: &Gpu,
        timer: Option<&Timer>,
        chunks: u32,
        progress: &mut dyn FnMut(u32),
    ) -> Result<(), Error> {
        // Without a timer, submit in batches so that progress can be shown
        // and no single submission runs for too long.
        let batch = if timer.is_some() { chunks } else { 16 };
        let mut done = 0;
        while done < chunks {
            let end = (done + batch).min(chunks);
            let mut encoder = gpu.device.create_command_encoder(&Default::default());
            {
                let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                    label: Some("instrumented"),
                    timestamp_writes: timer.map(Timer::writes),
                });
                for c in done..end {
                    let n = (self.layout.total_workgroups - u64::from(c) * u64::from(self.layout.chunk))
                        .min(u64::from(self.layout.chunk)) as u32;
                    pass.set_pipeline(&self.pipeline.pipeline);
                    self.buffers.set_immediates(&mut pass, self.immediates);
                    for (g, bg) in &self.user_groups {
                        pass.set_bind_group(*g, bg, &[]);
                    }
                    pass.set_bind_group(self.runtime_group, &self.chunk_groups[c as usize], &[]);
                    pass.dispatch_workgroups(n, 1, 1);
                    // The same workgroup slots replay what they recorded.
                    if let Some(replay) = &self.pipeline.replay {
                        pass.set_pipeline(&replay.pipeline);
                        pass.set_bind_group(0, &self.replay_groups[c as usize], &[]);
                        pass.dispatch_workgroups(n, 1, 1);
                    }
                    // The slots' written values, before the next chunk's
                    // workgroups take the slots.
                    if let Some(values) = self.same_value.as_ref().filter(|v| v.workgroup_words) {
                        pass.set_pipeline(&values.slots.0);
                        pass.set_bind_group(0, &values.slots.1, &[]);
                        pass.dispatch_workgroups(n, 1, 1);
                    }
                }
                if end == self.layout.chunks {
                    if let Some(check) = &self.storage_check {
                        pass.set_pipeline(&check.pipeline);
                        pass.set_bind_group(0, &check.group, &[]);
                        pass.dispatch_workgroups(check.workgroups, 1, 1);
                    }
                    // After every record of storage memory.
                    if let Some(values) = self.same_value.as_ref().filter(|v| v.storage_workgroups > 0) {
                        pass.set_pipeline(&values.storage.0);
                        pass.set_bind_group(0, &values.storage.1, &[]);
                        pass.dispatch_workgroups(values.storage_workgroups, 1, 1);
                    }
                }
            }
            if let Some(t) = timer {
                t.resolve(&mut encoder);
            }
            gpu.queue.submit([encoder.finish()]);
            if done == 0 {
                watched(gpu.compile_progress.as_ref(), FIRST_DISPATCH_CHECKED, || gpu.wait())?;
            } else {
                gpu.wait()?;
            }
            done = end;
            progress(done);
        }
        Ok(())
    }

    /// Wall time of creating its pipelines (the instrumented shader's and
    /// the replay pass's), in milliseconds.
    pub fn pipeline_ms(&self) -> f64 {
        self.pipeline.ms
    }

    /// The replay pass's module, when the run records accesses.
    pub fn replay_pass(&self) -> Option<(&naga::Module, &naga::valid::ModuleInfo)> {
        self.pipeline.replay.as_ref().map(|r| (&r.module, &r.info))
    }

    /// Runs the checked dispatch and reads its log (see [`CheckedRun::run`]
    /// and [`CheckedRun::read_log`]). While an invocation recorded more
    /// entries than its replay stream held, runs it again, from the same
    /// initial buffers, with the same pipeline and streams that hold them,
    /// as far as a binding allows. With `give_up`, streams that would leave
    /// chunks of fewer than [`MIN_REPLAY_WORKGROUPS`] workgroups end it
    /// instead: the caller should check in place. `progress(done, total)`
    /// counts chunks.
    ///
    /// # Errors
    /// As [`CheckedRun::run`] and [`CheckedRun::with_trace_capacity`].
    pub fn run_complete(
        self,
        gpu: &Gpu,
        inst: &Instrumented,
        user: &[UserBuffer],
        give_up: bool,
        progress: &mut dyn FnMut(u32, u32),
    ) -> Result<Completed, Error> {
        let mut run = self;
        let mut hb_retries = 0;
        loop {
            let total = run.layout.chunks;
            run.run(gpu, None, &mut |done| progress(done, total))?;
            let (log, examples) = run.read_log(gpu)?;
            let header = crate::log::header(&log);
            // The happens-before engine follows an execution only as far as
            // its locks are taken in time and the driver runs its loops to
            // the end (lavapipe ends an invocation's loops after 65,535
            // iterations in all, and a spinning invocation whose lock holder
            // the operating system suspended gets there): another execution
            // of the same dispatch may be followed whole. So too where the
            // engine runs for the missing-fence check alone: what it leaves
            // unfollowed to the end is checked again without it, which
            // costs a compile and the classes, where a retry costs a
            // dispatch.
            if header.hb_unchecked > 0 && hb_retries < HB_RETRIES {
                // On lavapipe the lock holder's thread was most likely
                // preempted by other work on the machine, which a retry a
                // few milliseconds later meets again: each waits longer.
                if crate::gpu::is_lavapipe(&gpu.info) {
                    std::thread::sleep(std::time::Duration::from_millis(HB_RETRY_PAUSE_MS << hb_retries));
                }
                hb_retries += 1;
                run.reset(gpu, user);
                continue;
            }
            if give_up && header.replay_unreached > 0 {
                return Ok(Completed::ReplayCut { entries: header.replay_unreached });
            }
            if header.trace_lost == 0 {
                return Ok(Completed::Checked { run: Box::new(run), log, examples });
            }
            let events = header.trace_needed;
            let limits = gpu.device.limits();
            if give_up
                && !TracePlan::fits(
                    &limits,
                    inst.prelude.workgroup_invocations,
                    inst.prelude.site_facts.len() as u64,
                    events,
                    run.layout.total_workgroups,
                )
            {
                return Ok(Completed::TooManyEvents { events });
            }
            let longer = run.with_trace_capacity(gpu, inst, user, events)?;
            if longer.layout.trace_capacity <= run.layout.trace_capacity {
                // As long as they get: the entries beyond are reported unchecked.
                return Ok(Completed::Checked { run: Box::new(run), log, examples });
            }
            run = longer;
        }
    }

    /// Restores the buffers and clears the shadow state and race records.
    pub fn reset(&self, gpu: &Gpu, user: &[UserBuffer]) {
        self.buffers.reset(gpu, user);
        let mut encoder = gpu.device.create_command_encoder(&Default::default());
        encoder.clear_buffer(&self.shadow, 0, None);
        encoder.clear_buffer(&self.shadow_u64, 0, None);
        encoder.clear_buffer(&self.happens_before, 0, None);
        encoder.clear_buffer(&self.log, 0, None);
        encoder.clear_buffer(&self.examples, 0, Some(self.layout.log.examples_bytes()));
        gpu.queue.submit([encoder.finish()]);
    }

    /// The counters and the race table (keys and counts), and the race
    /// table's examples.
    ///
    /// # Errors
    /// [`Error::Gpu`].
    pub fn read_log(&self, gpu: &Gpu) -> Result<(Vec<u8>, Vec<u8>), Error> {
        let log = gpu.read_buffer(&self.log, self.layout.log.read_bytes())?;
        let examples = gpu.read_buffer(&self.examples, self.layout.log.examples_bytes())?;
        Ok((log, examples))
    }

    /// The user's buffers' contents.
    ///
    /// # Errors
    /// [`Error::Gpu`].
    pub fn read_buffers(&self, gpu: &Gpu, user: &[UserBuffer]) -> Result<Vec<Vec<u8>>, Error> {
        self.buffers.read(gpu, user)
    }

    /// Bytes of GPU memory the check adds (shadow state, race records and
    /// replay streams).
    pub fn extra_bytes(&self) -> u64 {
        self.layout.shadow_bytes()
            + self.layout.log.bytes()
            + self.layout.log.examples_buffer_bytes()
            + self.trace.size()
    }
}
