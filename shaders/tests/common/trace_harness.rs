//! A one-invocation harness that feeds a trace of steps through the
//! runtime's WGSL and reads back its log: the device (one with 64-bit
//! atomics), the runtime's buffers and the dispatch, shared by the tests
//! that hold the checks' state machines to their references
//! (`atomic_memory.rs`, `happens_before.rs`). The caller gives the linked
//! source (the runtime, the checks, and a `main` that reads the steps from
//! `@group(1) @binding(0)`) and the binding and size of the 64-bit state
//! the checks under test keep.

use wgrace_shaders::{LinkedCheck, Prelude, StorageLayout, abi};

/// Entries of the race table.
pub const PAIRS: u32 = 256;
/// 32-bit words of the log's header, and of a race table entry.
pub const HEADER: usize = size_of::<abi::LogHeader>() / 4;
pub const PAIR_WORDS: usize = 4;
const EXAMPLE_BYTES: u64 = (PAIRS as usize * abi::EXAMPLES_PER_RECORD * 16) as u64;
const SPREAD_TABLE_WORDS: u64 = 4096;

/// 32-bit words of the log: the header, the race table and its spreads.
pub fn log_words() -> u64 {
    (HEADER + PAIRS as usize * (PAIR_WORDS + abi::SPREAD_CELLS + abi::SPREAD_RANGES)) as u64
}

/// The prelude of a harness with `checks`: addr mode, no workgroup memory,
/// `invocations` per workgroup and `workgroups` in the dispatch.
pub fn prelude(checks: Vec<LinkedCheck>, invocations: u32, workgroups: u32) -> Prelude {
    Prelude {
        invocation_bits: 2,
        site_bits: 6,
        workgroup_invocations: invocations,
        workgroup_words: 0,
        vars: 1,
        workgroup_shadow_resident: false,
        workgroup_barrier_bits: Prelude::workgroup_bits(2, 6).0,
        workgroup_interval_bits: Prelude::workgroup_bits(2, 6).1,
        stmt: false,
        slots: 1,
        storage_slots: 1,
        workgroup_barrier_kinds: false,
        storage_barrier_kinds: false,
        subgroups: false,
        count_accesses: false,
        checks,
        instrumented: true,
        replay: false,
        storage: StorageLayout::new(2, 6, u64::from(workgroups), 4, false, None).expect("layout"),
        storage_sites: Vec::new(),
        site_facts: Vec::new(),
        barriers_order_both: false,
        timeline: false,
        value_sites: 0,
    }
}

/// The shape of what the harness runs.
pub struct Shape {
    /// Workgroups of the dispatch the steps pretend to come from.
    pub workgroups: u32,
    /// Words of variable 0, the one the steps access.
    pub words: u32,
    /// Variable 0's first word of the checks' 64-bit state.
    pub atomic_base: u32,
    /// Binding (in group 0) and 64-bit words of that state.
    pub state_binding: u32,
    pub state_words: u64,
}

pub struct Harness {
    device: wgpu::Device,
    queue: wgpu::Queue,
    pipeline: wgpu::ComputePipeline,
    state: wgpu::Buffer,
    log: wgpu::Buffer,
    examples: wgpu::Buffer,
    readback: wgpu::Buffer,
    group0: wgpu::BindGroup,
}

impl Harness {
    /// `source` compiled on an adapter with 64-bit atomics, or `None` when
    /// there is none (which CI must have: the test then fails there).
    pub fn new(source: String, shape: &Shape) -> Option<Harness> {
        let h = Harness::on_adapter(source, shape);
        if h.is_none() {
            crate::common::skipped_without_an_adapter();
        }
        h
    }

    fn on_adapter(source: String, shape: &Shape) -> Option<Harness> {
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
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("trace harness"),
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
        let params = buffer(
            (size_of::<abi::Params>() + size_of::<abi::Var>()) as u64,
            wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
        );
        let state = buffer(shape.state_words.max(1) * 8, usage);
        let log = buffer(log_words() * 4, usage);
        let examples = buffer(EXAMPLE_BYTES + SPREAD_TABLE_WORDS * 4, usage);
        let readback =
            buffer(log_words() * 4 + EXAMPLE_BYTES, wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST);
        let [spread_cells_x, spread_cells_y, _, spread_shifts] = abi::spread_grid([shape.workgroups, 1, 1]).packed();
        let header = abi::Params {
            chunk_base: 0,
            total_workgroups: shape.workgroups,
            witness_mask: 0,
            cache_bits: 0,
            dispatch: [shape.workgroups, 1, 1, 0],
            pair_capacity: PAIRS,
            storage_words: 0,
            witness_shift: 0,
            trace_capacity: 0,
            spread_cells_x,
            spread_cells_y,
            spread_shifts,
            ..abi::Params::default()
        };
        let var = abi::Var {
            base: 0,
            words: shape.words,
            range_shift: abi::range_shift(shape.words),
            atomic_base: shape.atomic_base,
        };
        let mut bytes = bytemuck::bytes_of(&header).to_vec();
        bytes.extend_from_slice(bytemuck::bytes_of(&var));
        queue.write_buffer(&params, 0, &bytes);
        let table = abi::spread_table([shape.workgroups, 1, 1], &[0; 64]);
        queue.write_buffer(&examples, EXAMPLE_BYTES, bytemuck::cast_slice(&table));
        let group0 = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: None,
            layout: &pipeline.get_bind_group_layout(0),
            entries: &[
                wgpu::BindGroupEntry { binding: 0, resource: params.as_entire_binding() },
                wgpu::BindGroupEntry { binding: 2, resource: log.as_entire_binding() },
                wgpu::BindGroupEntry { binding: 3, resource: examples.as_entire_binding() },
                wgpu::BindGroupEntry { binding: shape.state_binding, resource: state.as_entire_binding() },
            ],
        });
        Some(Harness { device, queue, pipeline, state, log, examples, readback, group0 })
    }

    /// Feeds `steps` through the harness's `main` from cleared state and
    /// returns the log followed by the race table's examples.
    pub fn run<T: bytemuck::Pod>(&self, steps: &[T]) -> Vec<u32> {
        let steps_buffer = self.device.create_buffer(&wgpu::BufferDescriptor {
            label: None,
            size: size_of_val(steps) as u64,
            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        self.queue.write_buffer(&steps_buffer, 0, bytemuck::cast_slice(steps));
        let group1 = self.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: None,
            layout: &self.pipeline.get_bind_group_layout(1),
            entries: &[wgpu::BindGroupEntry { binding: 0, resource: steps_buffer.as_entire_binding() }],
        });
        let mut encoder = self.device.create_command_encoder(&Default::default());
        encoder.clear_buffer(&self.state, 0, None);
        encoder.clear_buffer(&self.log, 0, None);
        encoder.clear_buffer(&self.examples, 0, Some(EXAMPLE_BYTES));
        {
            let mut pass = encoder.begin_compute_pass(&Default::default());
            pass.set_pipeline(&self.pipeline);
            pass.set_bind_group(0, &self.group0, &[]);
            pass.set_bind_group(1, &group1, &[]);
            pass.dispatch_workgroups(1, 1, 1);
        }
        encoder.copy_buffer_to_buffer(&self.log, 0, &self.readback, 0, log_words() * 4);
        encoder.copy_buffer_to_buffer(&self.examples, 0, &self.readback, log_words() * 4, EXAMPLE_BYTES);
        self.queue.submit([encoder.finish()]);
        self.readback.map_async(wgpu::MapMode::Read, .., |r| r.expect("map"));
        self.device.poll(wgpu::PollType::wait_indefinitely()).expect("poll");
        let data: Vec<u32> = bytemuck::pod_collect_to_vec(&self.readback.get_mapped_range(..).expect("range"));
        self.readback.unmap();
        data
    }
}

/// The race table of a log [`Harness::run`] returned: (key, count,
/// examples) of each entry in use.
pub fn table(log: &[u32]) -> Vec<(u32, u32, &[u32])> {
    let pairs = &log[HEADER..HEADER + PAIRS as usize * PAIR_WORDS];
    let examples = &log[log_words() as usize..];
    pairs
        .chunks_exact(PAIR_WORDS)
        .zip(examples.chunks_exact(abi::EXAMPLES_PER_RECORD * 4))
        .filter(|(p, _)| p[0] != 0)
        .map(|(p, e)| (p[0], p[1], e))
        .collect()
}
