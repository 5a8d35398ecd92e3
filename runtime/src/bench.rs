//! `wgrace bench`: GPU time of the original and the instrumented shader, from
//! timestamp queries, in one process on one device.
//!
//! Each measured run starts from the same initial buffers (and, for the
//! instrumented shader, cleared shadow state); those resets happen outside
//! the timed pass. The figure reported is the median of the repetitions
//! after a warm-up.

use serde::Serialize;

use crate::engine::{CheckedRun, NativeRun, Timer};
use crate::gpu::Gpu;
use crate::{Error, Plan};

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
    /// Dispatches the instrumented run was split into.
    pub chunks: u32,
    /// Whether the static analyzer pruned the instrumentation.
    pub analyzer: bool,
    /// Sites instrumented, of all checked sites.
    pub instrumented_sites: usize,
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
    let native = NativeRun::new(gpu, &plan.prepared, &plan.buffers, dispatch)?;
    let inst = plan.instrument(gpu)?;
    let checked = CheckedRun::new(gpu, &inst, &plan.buffers, dispatch, plan.spec.max_races)?;

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
        log_bytes: checked.layout.log.bytes() + checked.layout.log.examples_bytes(),
        chunks: checked.layout.chunks,
        analyzer: plan.spec.analyzer,
        instrumented_sites: inst.sites.checked(),
        sites: inst.sites.len(),
    })
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
         extra memory  {} (shadow {}{}, log {}); buffers {}\n",
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
        mib(r.shadow_bytes + r.log_bytes),
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
        mib(r.buffer_bytes),
    )
}
