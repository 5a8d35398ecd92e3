//! The shadow state machines of the runtime, checked against the WGSL race
//! definition on random access traces.
//!
//! A one-invocation harness replays each trace through the real runtime
//! functions, forging the identity (workgroup, invocation, barrier counts)
//! of every access, so the trace order is the order in which the state
//! words see the accesses. A brute-force reference decides, for every pair
//! of accesses, whether they race under WGSL's rules. The test asserts that
//!
//! - the runtime detects a race exactly when the reference finds one;
//! - every pair it records is a racing pair of the trace, with the class
//!   the reference gives it and the right invocations;
//! - a replayed trace never lacks a witness (one invocation sees its own
//!   writes).
//!
//! Site ids are trace positions, so a recorded pair names two accesses.
//!
//! Statement mode gets the same traces through its own harness (each access
//! is a statement of its own, so it must report exactly the racing pairs).

use crate::common::linked_checks;
use crate::common::rng::Rng;
use wgrace_shaders::abi::{self, SPREAD_CELLS, SPREAD_RANGES, decode_record_key};
use wgrace_shaders::{Prelude, StorageLayout, storage_check_source};

const HARNESS: &str = r#"
struct Step { g: u32, t: u32, epoch: u32, any: u32, site: u32, write: u32, word: u32, space: u32 }
@group(1) @binding(0) var<storage, read> steps: array<Step>;

@compute @workgroup_size(1)
fn main() {
    wgrace_slot = 0u;
    // No subgroups: every race keeps its ordering class.
    wgrace_sg_size = 1u;
    wgrace_slot_at = wgrace_log_slots_at();
    wgrace_storage_on = true;
    var wg_epoch = 0u;
    for (var i = 0u; i < arrayLength(&steps); i++) {
        let s = steps[i];
        // Workgroup barriers: the next interval; when the interval counter
        // wraps, every invocation sweeps its share of the slot.
        for (; s.space == 0u && wg_epoch < s.epoch; wg_epoch++) {
            if wgrace_next_wg_interval(1u) {
                for (var t = 0u; t < WGRACE_WG_INVOCATIONS; t++) {
                    wgrace_t = t;
                    wgrace_sweep_slot();
                }
            }
        }
        wgrace_g = s.g;
        wgrace_t = s.t;
        wgrace_epoch = select(0u, s.epoch, s.space == 1u);
        wgrace_any = s.any;
        wgrace_update_identity();
        if s.space == 0u {
            wgrace_wg_access(0u, s.word, 1u, true, s.site, s.write != 0u, false);
        } else {
            wgrace_storage_access(1u, s.word, 1u, true, s.site, s.site, s.write != 0u, false);
        }
    }
    wgrace_end();
}
"#;

// Statement mode: the same replay, with the checks at barriers and after the
// dispatch made by this one invocation on behalf of the workgroup.
const STMT_HARNESS: &str = r#"
struct Step { g: u32, t: u32, epoch: u32, any: u32, site: u32, write: u32, word: u32, space: u32 }
@group(1) @binding(0) var<storage, read> steps: array<Step>;

// What every invocation of the workgroup does after a workgroup barrier.
fn check_interval() {
    for (var t = 0u; t < WGRACE_WG_INVOCATIONS; t++) {
        wgrace_t = t;
        wgrace_stmt_wg_check();
    }
}

@compute @workgroup_size(1)
fn main() {
    wgrace_slot = 0u;
    wgrace_sg_size = 1u;
    wgrace_slot_at = wgrace_log_slots_at();
    wgrace_storage_on = true;
    var wg_epoch = 0u;
    var space = 0u;
    for (var i = 0u; i < arrayLength(&steps); i++) {
        let s = steps[i];
        space = s.space;
        for (; s.space == 0u && wg_epoch < s.epoch; wg_epoch++) {
            check_interval();
        }
        wgrace_g = s.g;
        wgrace_t = s.t;
        wgrace_epoch = select(0u, s.epoch, s.space == 1u);
        wgrace_any = s.any;
        if s.space == 0u {
            wgrace_wg_access(0u, s.word, 1u, true, s.site, s.write != 0u, false);
        } else {
            wgrace_storage_access(1u, s.word, 1u, true, s.site, s.site, s.write != 0u, false);
        }
    }
    if space == 0u {
        check_interval();
    } else {
        for (var w = 0u; w < WGRACE_WG_WORDS; w++) {
            wgrace_stmt_storage_check_word(w, 1u);
        }
    }
    wgrace_flush_records();
    atomicAdd(&wgrace_log[WGRACE_LOG_SLOT_OVERFLOW], wgrace_slot_overflow);
}
"#;

/// Statement slots per word: enough for every access of a trace.
const STMT_SLOTS: u32 = 64;

const WORDS: u32 = 4;
const INVOCATIONS: u32 = 4;
const WORKGROUPS: u32 = 3;
const MAX_STEPS: usize = 40;
const PAIRS: u32 = 1024;

#[repr(C)]
#[derive(Clone, Copy, Debug, bytemuck::Pod, bytemuck::Zeroable)]
struct Step {
    g: u32,
    t: u32,
    epoch: u32,
    any: u32,
    site: u32,
    write: u32,
    word: u32,
    space: u32,
}

/// Class the reference gives a racing pair (runtime numbering).
fn conflict(a: &Step, b: &Step) -> Option<u32> {
    if a.word != b.word || a.write + b.write == 0 || (a.g, a.t) == (b.g, b.t) {
        return None;
    }
    // A barrier of the other kind between them makes it a barrier-kind race.
    let same_any = a.any == b.any;
    let intra_or_kind = if same_any { 0 } else { 1 };
    if a.space == 0 {
        // One workgroup; ordered by workgroup barriers (epoch).
        (a.epoch == b.epoch).then_some(intra_or_kind)
    } else if a.g != b.g {
        Some(2)
    } else {
        (a.epoch == b.epoch).then_some(intra_or_kind)
    }
}

/// A random trace in one space, with barrier counts that only grow per
/// workgroup (barriers are executed by the whole workgroup).
fn trace(rng: &mut Rng, space: u32) -> Vec<Step> {
    let len = 2 + rng.below(MAX_STEPS as u32 - 1) as usize;
    let workgroups = if space == 0 { 1 } else { 1 + rng.below(WORKGROUPS) };
    let invocations = 1 + rng.below(INVOCATIONS);
    let words = 1 + rng.below(WORDS);
    let mut epoch = vec![0u32; workgroups as usize];
    let mut any = vec![0u32; workgroups as usize];
    (0..len)
        .map(|i| {
            let g = rng.below(workgroups);
            match rng.below(10) {
                0 => {
                    // A barrier that orders this space.
                    epoch[g as usize] += 1;
                    any[g as usize] += 1;
                }
                1 => any[g as usize] += 1, // a barrier of the other kind
                _ => {}
            }
            Step {
                g,
                t: rng.below(invocations),
                epoch: epoch[g as usize],
                any: any[g as usize],
                site: i as u32,
                write: u32::from(rng.below(3) == 0),
                word: rng.below(words),
                space,
            }
        })
        .collect()
}

struct Harness {
    device: wgpu::Device,
    queue: wgpu::Queue,
    pipeline: wgpu::ComputePipeline,
    params: wgpu::Buffer,
    shadow: wgpu::Buffer,
    shadow_u64: wgpu::Buffer,
    log: wgpu::Buffer,
    examples: wgpu::Buffer,
    steps: wgpu::Buffer,
    readback: wgpu::Buffer,
    groups: [wgpu::BindGroup; 2],
}

/// Log header words and words per race table entry (`WGRACE_LOG_HEADER`,
/// `WGRACE_PAIR_WORDS`), and examples kept per entry (`WGRACE_EXAMPLES`).
const HEADER: usize = size_of::<wgrace_shaders::abi::LogHeader>() / 4;
/// Site id of an access that was not recorded (`WGRACE_UNKNOWN_SITE`), the
/// higher of the two in a race table key.
const UNKNOWN_SITE: usize = wgrace_shaders::abi::UNKNOWN_ID as usize;
/// `WGRACE_LOG_EVICTED`.
const EVICTED: usize = 8;
const PAIR_WORDS: usize = 4;
const EXAMPLES: usize = 4;

/// The log: header, race table, and a workgroup shadow slot big enough for
/// either mode.
fn log_words() -> u64 {
    let spreads = SPREAD_CELLS + SPREAD_RANGES;
    (HEADER + PAIRS as usize * (PAIR_WORDS + spreads)) as u64 + u64::from(WORDS * 5 * STMT_SLOTS)
}

/// The examples, then the spread table.
fn example_words() -> u64 {
    EXAMPLE_BYTES / 4 + SPREAD_TABLE_WORDS
}

/// Bytes of the examples alone.
const EXAMPLE_BYTES: u64 = (PAIRS as usize * EXAMPLES * 16) as u64;

/// Room for the spread table in the examples buffer.
const SPREAD_TABLE_WORDS: u64 = 4096;

/// How the harness keeps storage state (addr mode).
#[derive(Clone, Copy)]
struct Storage {
    layout: StorageLayout,
    /// Entries of the witness cache (identities of up to 48 bits).
    witnesses: u32,
    /// log2 of the entries of the state cache (with a tag).
    cache_bits: u32,
}

impl Storage {
    /// A 32-bit state word per word, and a witness entry per witness.
    fn compact() -> Storage {
        let layout = StorageLayout::new(2, 6, u64::from(WORKGROUPS), 4, true, None).expect("layout");
        assert!(!layout.wide_state && layout.identity_bits == 32);
        Storage { layout, witnesses: 2 * WORDS, cache_bits: 0 }
    }

    /// A 64-bit state word with a 48-bit identity (its workgroup field sized
    /// for a million workgroups), with `witnesses` witness cache entries.
    fn wide48(witnesses: u32) -> Storage {
        let layout = StorageLayout::new(2, 6, 1 << 20, 4, true, None).expect("layout");
        assert!(layout.wide_state && layout.identity_bits == 48);
        Storage { layout, witnesses, cache_bits: 0 }
    }

    /// 64-bit state and witness words, as for dispatches too large for 48.
    fn wide() -> Storage {
        let layout = StorageLayout {
            wide_state: true,
            identity_bits: 64,
            barrier_bits: 8,
            g_shift: 62,
            epoch_max: 1000,
            tag_bits: 0,
        };
        Storage { layout, witnesses: 2 * WORDS, cache_bits: 0 }
    }

    /// Everything shared: two state entries and two witness entries for
    /// four words.
    fn cached() -> Storage {
        let layout = StorageLayout::new(2, 6, u64::from(WORKGROUPS), 4, true, Some(2)).expect("layout");
        assert_eq!(layout.tag_bits, 1);
        Storage { layout, witnesses: 2, cache_bits: 1 }
    }
}

impl Harness {
    fn new(resident: bool, interval_bits: u32, stmt: bool, storage: Storage) -> Option<Harness> {
        let instance = wgpu::Instance::new(wgpu::InstanceDescriptor {
            backends: wgpu::Backends::PRIMARY,
            ..wgpu::InstanceDescriptor::new_without_display_handle()
        });
        let features = wgpu::Features::SHADER_INT64 | wgpu::Features::SHADER_INT64_ATOMIC_ALL_OPS;
        let adapters = pollster::block_on(instance.enumerate_adapters(wgpu::Backends::PRIMARY));
        let adapter = adapters.into_iter().find(|a| a.features().contains(features))?;
        let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
            required_features: features,
            required_limits: adapter.limits(),
            ..Default::default()
        }))
        .ok()?;
        let prelude = Prelude {
            invocation_bits: 2,
            site_bits: 6,
            workgroup_invocations: INVOCATIONS,
            workgroup_words: WORDS,
            vars: 2,
            workgroup_shadow_resident: resident,
            workgroup_barrier_bits: Prelude::workgroup_bits(2, 6).0,
            workgroup_interval_bits: interval_bits,
            stmt,
            slots: STMT_SLOTS,
            storage_slots: STMT_SLOTS,
            workgroup_barrier_kinds: true,
            storage_barrier_kinds: true,
            subgroups: false,
            count_accesses: false,
            checks: linked_checks(false, false),
            instrumented: true,
            replay: false,
            storage: if stmt { StorageLayout::statement_mode() } else { storage.layout },
            // Site ids are trace positions, all of them storage sites.
            storage_sites: (0..64).collect(),
            site_facts: Vec::new(),
            barriers_order_both: false,
            timeline: false,
            value_sites: 0,
        };
        let source = storage_check_source(&prelude) + if stmt { STMT_HARNESS } else { HARNESS };
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("harness"),
            source: wgpu::ShaderSource::Wgsl(source.into()),
        });
        let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: None,
            layout: None,
            module: &module,
            entry_point: Some("main"),
            compilation_options: Default::default(),
            cache: None,
        });
        let usage = wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::COPY_SRC;
        let buffer = |size: u64, usage| {
            device.create_buffer(&wgpu::BufferDescriptor { label: None, size, usage, mapped_at_creation: false })
        };
        let params_bytes = (size_of::<abi::Params>() + 2 * size_of::<abi::Var>()) as u64;
        let params = buffer(params_bytes, wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST);
        let shadow = buffer(u64::from(WORDS) * 8, usage);
        let shadow_u64 = buffer(u64::from(WORDS * 5 * STMT_SLOTS) * 8, usage);
        let log = buffer(log_words() * 4, usage);
        let examples = buffer(example_words() * 4, usage);
        let steps = buffer((MAX_STEPS * 32) as u64, usage);
        let readback =
            buffer((log_words() + example_words()) * 4, wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST);
        let [spread_cells_x, spread_cells_y, _, spread_shifts] = abi::spread_grid([WORKGROUPS, 1, 1]).packed();
        let header = abi::Params {
            chunk_base: 0,
            total_workgroups: WORKGROUPS,
            witness_mask: storage.witnesses - 1,
            cache_bits: storage.cache_bits,
            dispatch: [WORKGROUPS, 1, 1, 0],
            pair_capacity: PAIRS,
            storage_words: 0,
            witness_shift: storage.witnesses.trailing_zeros() - 1,
            trace_capacity: 0,
            spread_cells_x,
            spread_cells_y,
            spread_shifts,
            ..abi::Params::default()
        };
        let var = abi::Var { base: 0, words: WORDS, range_shift: abi::range_shift(WORDS), atomic_base: 0 };
        let mut words = bytemuck::bytes_of(&header).to_vec();
        words.extend_from_slice(bytemuck::cast_slice(&[var, var]));
        queue.write_buffer(&params, 0, &words);
        // The spread table after the examples (every site's variable 0).
        let table = abi::spread_table([WORKGROUPS, 1, 1], &[0; 64]);
        queue.write_buffer(&examples, EXAMPLE_BYTES, bytemuck::cast_slice(&table));
        let g0 = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: None,
            layout: &pipeline.get_bind_group_layout(0),
            entries: &[
                wgpu::BindGroupEntry { binding: 0, resource: params.as_entire_binding() },
                wgpu::BindGroupEntry { binding: 1, resource: shadow.as_entire_binding() },
                wgpu::BindGroupEntry { binding: 2, resource: log.as_entire_binding() },
                wgpu::BindGroupEntry { binding: 3, resource: examples.as_entire_binding() },
                wgpu::BindGroupEntry { binding: 4, resource: shadow_u64.as_entire_binding() },
            ],
        });
        let g1 = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: None,
            layout: &pipeline.get_bind_group_layout(1),
            entries: &[wgpu::BindGroupEntry {
                binding: 0,
                resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding { buffer: &steps, offset: 0, size: None }),
            }],
        });
        Some(Harness {
            device,
            queue,
            pipeline,
            params,
            shadow,
            shadow_u64,
            log,
            examples,
            steps,
            readback,
            groups: [g0, g1],
        })
    }

    /// Replays `steps` and returns the log followed by the examples.
    fn replay(&mut self, steps: &[Step]) -> Vec<u32> {
        let steps_buffer = self.device.create_buffer(&wgpu::BufferDescriptor {
            label: None,
            size: (steps.len() * 32) as u64,
            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        self.queue.write_buffer(&steps_buffer, 0, bytemuck::cast_slice(steps));
        self.groups[1] = self.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: None,
            layout: &self.pipeline.get_bind_group_layout(1),
            entries: &[wgpu::BindGroupEntry { binding: 0, resource: steps_buffer.as_entire_binding() }],
        });
        let mut encoder = self.device.create_command_encoder(&Default::default());
        encoder.clear_buffer(&self.shadow, 0, None);
        encoder.clear_buffer(&self.shadow_u64, 0, None);
        encoder.clear_buffer(&self.log, 0, None);
        encoder.clear_buffer(&self.examples, 0, Some(EXAMPLE_BYTES));
        {
            let mut pass = encoder.begin_compute_pass(&Default::default());
            pass.set_pipeline(&self.pipeline);
            pass.set_bind_group(0, &self.groups[0], &[]);
            pass.set_bind_group(1, &self.groups[1], &[]);
            pass.dispatch_workgroups(1, 1, 1);
        }
        encoder.copy_buffer_to_buffer(&self.log, 0, &self.readback, 0, log_words() * 4);
        encoder.copy_buffer_to_buffer(&self.examples, 0, &self.readback, log_words() * 4, example_words() * 4);
        self.queue.submit([encoder.finish()]);
        self.readback.map_async(wgpu::MapMode::Read, .., |r| r.expect("map"));
        self.device.poll(wgpu::PollType::wait_indefinitely()).expect("poll");
        let data: Vec<u32> = bytemuck::pod_collect_to_vec(&self.readback.get_mapped_range(..).expect("range"));
        self.readback.unmap();
        let _ = (&self.params, &self.steps);
        data
    }
}

/// The race table of a replayed log: (key, count, example).
fn table(log: &[u32]) -> Vec<(u32, u32, &[u32])> {
    let pairs = &log[HEADER..HEADER + PAIRS as usize * PAIR_WORDS];
    let examples = &log[log_words() as usize..];
    pairs
        .chunks_exact(PAIR_WORDS)
        .zip(examples.chunks_exact(EXAMPLES * 4))
        .filter(|(p, _)| p[0] != 0)
        .map(|(p, e)| (p[0], p[1], e))
        .collect()
}

/// Detections counted in a replayed log.
fn detections(log: &[u32]) -> u32 {
    log[0] + table(log).iter().map(|(_, count, _)| count).sum::<u32>()
}

fn check_trace(harness: &mut Harness, steps: &[Step]) {
    check_shared_trace(harness, steps, false);
}

/// `n` random traces in `space` (0 workgroup, 1 storage) from `seed`.
fn random_traces(seed: u64, space: u32, n: usize) -> impl Iterator<Item = Vec<Step>> {
    let mut rng = Rng(seed);
    (0..n).map(move |_| trace(&mut rng, space))
}

/// With `shared` shadow (words sharing state or witness entries), a race may
/// be missed when an entry changed hands, and a detection may lack its
/// witness; what is reported must still be right. Returns the log.
fn check_shared_trace(harness: &mut Harness, steps: &[Step], shared: bool) -> Vec<u32> {
    let log = harness.replay(steps);
    let racy_pairs: Vec<(usize, usize, u32)> = (0..steps.len())
        .flat_map(|j| (0..j).map(move |i| (i, j)))
        .filter_map(|(i, j)| conflict(&steps[i], &steps[j]).map(|c| (i, j, c)))
        .collect();
    if !shared || log[EVICTED] == 0 {
        assert_eq!(
            detections(&log) > 0,
            !racy_pairs.is_empty(),
            "verdict differs on {steps:#?}\nracing pairs: {racy_pairs:?}"
        );
    } else {
        assert!(racy_pairs.is_empty() <= (detections(&log) == 0), "a race invented on {steps:#?}");
    }
    assert_eq!(log[0], 0, "dropped detections");
    for (key, _, example) in table(&log) {
        let (class, [i, j]) = decode_record_key(key).expect("a used entry");
        let (i, j) = (i as usize, j as usize);
        if shared && j == UNKNOWN_SITE {
            continue;
        }
        assert!(j < steps.len(), "a detection lacked its witness on {steps:#?}");
        assert_eq!(
            conflict(&steps[i], &steps[j]),
            Some(class),
            "recorded pair ({i}, {j}) class {class} is not a racing pair of that class in {steps:#?}"
        );
        let bits = example[3];
        assert_eq!((example[0], bits & 0x3ff), (steps[i].g, steps[i].t), "invocation of access {i}");
        assert_eq!((example[1], (bits >> 10) & 0x3ff), (steps[j].g, steps[j].t), "invocation of access {j}");
        // Site ids are trace positions: the lower one is the earlier access.
        assert_ne!(bits & (1 << 20), 0, "order of pair ({i}, {j})");
        assert_eq!((bits >> 21) & 1, steps[i].write, "kind of the earlier access");
    }
    log
}

fn harness() -> Option<Harness> {
    harness_with(false, Prelude::workgroup_bits(2, 6).1, false)
}

fn harness_with(resident: bool, interval_bits: u32, stmt: bool) -> Option<Harness> {
    storage_harness(resident, interval_bits, stmt, Storage::compact())
}

fn storage_harness(resident: bool, interval_bits: u32, stmt: bool, storage: Storage) -> Option<Harness> {
    let h = Harness::new(resident, interval_bits, stmt, storage);
    if h.is_none() {
        crate::common::skipped_without_an_adapter();
    }
    h
}

#[test]
fn workgroup_state_machine_matches_the_wgsl_definition() {
    // Shadow in the log buffer's slots and in workgroup memory; an interval
    // counter that wraps every other barrier, and one that never wraps here.
    let (_, bits) = Prelude::workgroup_bits(2, 6);
    for (resident, interval_bits) in [(false, bits), (true, bits), (true, 1), (false, 1)] {
        let Some(mut h) = harness_with(resident, interval_bits, false) else { return };
        for steps in random_traces(1, 0, 400) {
            check_trace(&mut h, &steps);
        }
    }
}

#[test]
fn storage_state_machine_matches_the_wgsl_definition() {
    // 32-bit state words, and the 64-bit ones of very large dispatches.
    for storage in [Storage::compact(), Storage::wide48(2 * WORDS), Storage::wide()] {
        let Some(mut h) = storage_harness(false, 8, false, storage) else { return };
        for steps in random_traces(2, 1, 600) {
            check_trace(&mut h, &steps);
        }
    }
}

#[test]
fn shared_storage_shadow_misses_races_but_never_invents_one() {
    // Four words in two state entries and two witness entries; and in their
    // own 64-bit state words with four witness entries (a 48-bit identity).
    for (storage, seed) in [(Storage::cached(), 7), (Storage::wide48(4), 8)] {
        let Some(mut h) = storage_harness(false, 8, false, storage) else { return };
        let (mut evicted, mut unwitnessed) = (0, 0);
        for steps in random_traces(seed, 1, 600) {
            let log = check_shared_trace(&mut h, &steps, true);
            evicted += u32::from(log[EVICTED] > 0);
            unwitnessed += u32::from(
                table(&log)
                    .iter()
                    .any(|&(key, _, _)| decode_record_key(key).is_some_and(|(_, [_, j])| j == UNKNOWN_SITE as u32)),
            );
        }
        // The traces do make words share entries.
        if storage.cache_bits > 0 {
            assert!(evicted > 50, "{evicted} traces evicted");
        } else {
            assert_eq!(evicted, 0);
        }
        assert!(unwitnessed > 0, "no witness was ever lost");
    }
}

#[test]
fn races_separated_by_many_barriers_of_the_other_kind_are_barrier_kind() {
    let Some(mut h) = harness() else { return };
    let s = |g, t, any, site, write, space| Step { g, t, epoch: 0, any, site, write, word: 0, space };
    // Four, and then 300, barriers that do not order this memory.
    for space in [0, 1] {
        check_trace(&mut h, &[s(0, 0, 0, 0, 1, space), s(0, 1, 4, 1, 0, space)]);
        check_trace(&mut h, &[s(0, 0, 0, 0, 1, space), s(0, 1, 300, 1, 0, space)]);
    }
}

#[test]
fn classic_patterns_are_found_with_both_accesses() {
    let Some(mut h) = harness() else { return };
    let s = |g, t, epoch, any, site, write, space| Step { g, t, epoch, any, site, write, word: 0, space };
    // Everyone reads x, then invocation 0 (the first reader) writes it.
    for space in [0, 1] {
        check_trace(&mut h, &[s(0, 0, 0, 0, 0, 0, space), s(0, 1, 0, 0, 1, 0, space), s(0, 0, 0, 0, 2, 1, space)]);
    }
    // Two workgroups read, then the first one writes.
    check_trace(&mut h, &[s(0, 0, 0, 0, 0, 0, 1), s(1, 0, 0, 0, 1, 0, 1), s(0, 0, 0, 0, 2, 1, 1)]);
    // A workgroup writes, passes a storage barrier, reads; another reads.
    check_trace(&mut h, &[s(0, 0, 0, 0, 0, 1, 1), s(0, 1, 1, 1, 1, 0, 1), s(1, 0, 0, 0, 2, 0, 1)]);
    // Written, ordered by a storage barrier: no race.
    let log = h.replay(&[s(0, 0, 0, 0, 0, 1, 1), s(0, 1, 1, 1, 1, 1, 1), s(0, 2, 2, 2, 2, 0, 1)]);
    assert_eq!(detections(&log), 0);
}

/// Statement mode reports exactly the racing pairs of a trace (every access
/// is a statement of its own), each with its class and its two invocations.
fn check_statement_trace(harness: &mut Harness, steps: &[Step]) {
    let log = harness.replay(steps);
    let mut expected: Vec<(usize, usize, u32)> = (0..steps.len())
        .flat_map(|j| (0..j).map(move |i| (i, j)))
        .filter_map(|(i, j)| conflict(&steps[i], &steps[j]).map(|c| (i, j, c)))
        .collect();
    assert_eq!(log[0], 0, "dropped detections");
    assert_eq!(log[4], 0, "accesses without a slot");
    let mut reported: Vec<(usize, usize, u32)> = Vec::new();
    for (key, _, example) in table(&log) {
        let (class, [i, j]) = decode_record_key(key).expect("a used entry");
        let (i, j) = (i as usize, j as usize);
        reported.push((i, j, class));
        let bits = example[3];
        assert_eq!((example[0], bits & 0x3ff), (steps[i].g, steps[i].t), "invocation of access {i} in {steps:#?}");
        assert_eq!((example[1], (bits >> 10) & 0x3ff), (steps[j].g, steps[j].t), "invocation of access {j}");
    }
    expected.sort_unstable();
    reported.sort_unstable();
    assert_eq!(reported, expected, "statement mode on {steps:#?}");
}

#[test]
fn statement_mode_reports_exactly_the_racing_pairs() {
    for (space, resident, seed) in [(0, true, 3), (0, false, 4), (1, false, 5)] {
        let Some(mut h) = harness_with(resident, Prelude::workgroup_bits(2, 6).1, true) else { return };
        for steps in random_traces(seed, space, 300) {
            check_statement_trace(&mut h, &steps);
        }
    }
}
