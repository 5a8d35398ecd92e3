//! `wgrace bench`: GPU time of the original and the instrumented shader, from
//! timestamp queries, in one process on one device.
//!
//! Each measured run starts from the same initial buffers (and, for the
//! instrumented shader, cleared shadow state); those resets happen outside
//! the timed pass. The figure reported is the median of the repetitions
//! after a warm-up.

use std::time::Instant;

use serde::Serialize;

use crate::engine::{NativeRun, Timer};
use crate::gpu::Gpu;
use crate::{CheckedOutcome, Error, Plan};

/// Measurements of one shader.
#[derive(Clone, Debug, Serialize)]
pub struct BenchResult {
    /// Shader path.
    pub shader: String,
    /// Entry point.
    pub entry_point: String,
    /// Adapter name and backend.
    pub adapter: String,
    /// Workgroup counts.
    pub dispatch: [u32; 3],
    /// Invocations per dispatch.
    pub invocations: u64,
    /// Median GPU time of the original shader, in milliseconds.
    pub native_ms: f64,
    /// Detection mode of the instrumented shader (`addr` or `stmt`).
    pub mode: String,
    /// Median GPU time of the instrumented shader, in ms (statement mode:
    /// with its storage check pass).
    pub checked_ms: f64,
    /// `checked_ms / native_ms`.
    pub overhead: f64,
    /// Timed repetitions of each.
    pub repetitions: u32,
    /// Every native sample, in ms.
    pub native_samples: Vec<f64>,
    /// Every instrumented sample, in ms.
    pub checked_samples: Vec<f64>,
    /// Bytes of the user's buffers.
    pub buffer_bytes: u64,
    /// Bytes of storage shadow state.
    pub shadow_bytes: u64,
    /// How the storage shadow is made up.
    pub shadow: wgrace_instrument::report::ShadowSummary,
    /// Bytes of the log (race table and any workgroup shadow slots).
    pub log_bytes: u64,
    /// Bytes of the replay streams.
    pub trace_bytes: u64,
    /// Dispatches the instrumented run was split into.
    pub chunks: u32,
    /// Whether the static analyzer pruned the instrumentation.
    pub analyzer: bool,
    /// Sites instrumented, of all checked sites.
    pub instrumented_sites: usize,
    /// Wall time of creating the original shader's pipeline, in ms.
    pub native_pipeline_ms: f64,
    /// Wall time of its first dispatch, in ms: some drivers (lavapipe)
    /// compile there rather than when the pipeline is created.
    pub native_first_run_ms: f64,
    /// Wall time of creating the instrumented shader's pipeline, in ms.
    pub checked_pipeline_ms: f64,
    /// Wall time of its first complete run, in ms: instrumenting, the
    /// first dispatch, and any run again with longer replay streams (or
    /// checking in place), less the pipeline's creation.
    pub checked_first_run_ms: f64,
    /// Bytes of the original module as SPIR-V.
    pub native_module_bytes: usize,
    /// Bytes of the instrumented module as SPIR-V, and of the replay pass's
    /// when it records.
    pub checked_module_bytes: usize,
    pub sites: usize,
}

fn median(samples: &mut [f64]) -> f64 {
    samples.sort_by(f64::total_cmp);
    let n = samples.len();
    if n == 0 {
        0.0
    } else if n % 2 == 1 {
        samples[n / 2]
    } else {
        (samples[n / 2 - 1] + samples[n / 2]) / 2.0
    }
}

/// Measures `plan` on `gpu`: `warmup` untimed runs, then `repetitions`
/// timed ones, of each shader.
///
/// # Errors
/// [`Error::Unsupported`] without timestamp queries; any run error.
pub fn bench(plan: &Plan, gpu: &Gpu, warmup: u32, repetitions: u32) -> Result<BenchResult, Error> {
    let timer = Timer::new(gpu).ok_or_else(|| {
        Error::Unsupported(format!("adapter `{}` has no timestamp queries, which `wgrace bench` needs", gpu.info.name))
    })?;
    let dispatch = plan.spec.dispatch;
    let native = NativeRun::new(gpu, &plan.prepared, &plan.buffers, dispatch).map_err(|e| plan.explain(e))?;
    let start = Instant::now();
    native.run(gpu, None)?;
    let native_first_run_ms = start.elapsed().as_secs_f64() * 1e3;
    let start = Instant::now();
    let CheckedOutcome { inst, run: checked, log, .. } =
        plan.run_checked(gpu, plan.spec.analyzer, false, &mut |_, _| {})?;
    let checked_first_run_ms = start.elapsed().as_secs_f64() * 1e3 - checked.pipeline_ms();
    // The first run sized the replay streams: give them what it recorded,
    // so that chunks hold as many workgroups as they can.
    let needed = crate::log::header(&log).trace_needed.max(1);
    let checked = if checked.layout.trace_capacity > 0 && needed != checked.layout.trace_capacity {
        checked.with_trace_capacity(gpu, &inst, &plan.buffers, needed)?
    } else {
        checked
    };

    let mut native_samples = Vec::new();
    let mut checked_samples = Vec::new();
    for i in 0..warmup + repetitions {
        native.reset(gpu, &plan.buffers);
        native.run(gpu, Some(&timer))?;
        let n = timer.read_ms(gpu)?;
        checked.reset(gpu, &plan.buffers);
        checked.run(gpu, Some(&timer), &mut |_| {})?;
        let c = timer.read_ms(gpu)?;
        if i >= warmup {
            native_samples.push(n);
            checked_samples.push(c);
        }
    }
    let native_ms = median(&mut native_samples.clone());
    let checked_ms = median(&mut checked_samples.clone());
    Ok(BenchResult {
        shader: plan.shader.path.clone(),
        entry_point: plan.prepared.entry_point.clone(),
        adapter: format!("{} ({})", gpu.info.name, gpu.info.backend),
        dispatch,
        invocations: crate::invocations(&plan.prepared, dispatch),
        native_ms,
        mode: inst.mode().as_str().to_string(),
        checked_ms,
        overhead: if native_ms > 0.0 { checked_ms / native_ms } else { f64::NAN },
        repetitions,
        native_samples,
        checked_samples,
        buffer_bytes: plan.buffers.iter().map(|b| b.size()).sum(),
        shadow_bytes: checked.layout.shadow_bytes(),
        shadow: checked.layout.shadow_summary(&inst),
        log_bytes: checked.layout.log.bytes() + checked.layout.log.examples_buffer_bytes(),
        trace_bytes: checked.layout.trace_bytes(&inst),
        chunks: checked.layout.chunks,
        analyzer: plan.spec.analyzer,
        instrumented_sites: inst.sites.checked(),
        native_pipeline_ms: native.pipeline_ms,
        native_first_run_ms,
        checked_pipeline_ms: checked.pipeline_ms(),
        checked_first_run_ms,
        native_module_bytes: spirv_bytes(&plan.prepared.module, &plan.prepared.info)?,
        checked_module_bytes: spirv_bytes(&inst.module, &inst.info)?
            + match checked.replay_pass() {
                Some((module, info)) => spirv_bytes(module, info)?,
                None => 0,
            },
        sites: inst.sites.len(),
    })
}

/// Bytes of `module` written as SPIR-V: what a Vulkan driver compiles.
fn spirv_bytes(module: &naga::Module, info: &naga::valid::ModuleInfo) -> Result<usize, Error> {
    naga::back::spv::write_vec(module, info, &naga::back::spv::Options::default(), None)
        .map(|words| words.len() * 4)
        .map_err(|e| Error::Internal(format!("writing a module as SPIR-V: {e}")))
}

fn mib(bytes: u64) -> String {
    format!("{:.2} MiB", bytes as f64 / (1024.0 * 1024.0))
}

/// A result as text.
pub fn text(r: &BenchResult) -> String {
    format!(
        "shader        {} (entry `{}`, dispatch {}x{}x{}, {} invocations)\n\
         adapter       {}\n\
         native        {:.3} ms (median of {})\n\
         {} mode     {:.3} ms (median of {}, {} chunk{}; {} of {} sites instrumented{})\n\
         overhead      {:.2}x\n\
         compile       native: pipeline {:.0} ms, first dispatch {:.0} ms; instrumented: pipeline {:.0} ms, first \
         complete run {:.0} ms\n\
         module        native {} bytes, instrumented {} bytes of SPIR-V ({:.2}x)\n\
         extra memory  {} (shadow {}{}, log {}, replay streams {}); buffers {}\n",
        r.shader,
        r.entry_point,
        r.dispatch[0],
        r.dispatch[1],
        r.dispatch[2],
        r.invocations,
        r.adapter,
        r.native_ms,
        r.repetitions,
        r.mode,
        r.checked_ms,
        r.repetitions,
        r.chunks,
        if r.chunks == 1 { "" } else { "s" },
        r.instrumented_sites,
        r.sites,
        if r.analyzer { "" } else { ", no static analyzer" },
        r.overhead,
        r.native_pipeline_ms,
        r.native_first_run_ms,
        r.checked_pipeline_ms,
        r.checked_first_run_ms,
        r.native_module_bytes,
        r.checked_module_bytes,
        r.checked_module_bytes as f64 / r.native_module_bytes.max(1) as f64,
        mib(r.shadow_bytes + r.log_bytes + r.trace_bytes),
        mib(r.shadow_bytes),
        if r.shadow.storage_words == 0 {
            String::new()
        } else {
            format!(
                ": {:.2} bytes of state per tracked storage word",
                r.shadow.state_bytes as f64 / r.shadow.storage_words as f64
            )
        },
        mib(r.log_bytes),
        mib(r.trace_bytes),
        mib(r.buffer_bytes),
    )
}
