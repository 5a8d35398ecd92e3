//! The one place a report is assembled: the shader's entry points (every
//! compute entry point, or the one `--entry` names), each checked on every
//! adapter of the run, then what the checks say about the runs together
//! (outputs that differ between adapters).

use wgrace_instrument::Shader;
use wgrace_instrument::checks::CheckSet;
use wgrace_instrument::report::{OutputDigest, Report, Suppression};

use crate::buffers::{BindingKind, UserBuffer};
use crate::gpu::Gpu;
use crate::spec::RunSpec;
use crate::{Error, Plan};

/// The data-race check's id.
const DATA_RACE: &str = wgrace_instrument::checks::data_race::ID;

/// Why a run that `--checks` runs without the data-race check is
/// incomplete: its verdict says nothing about races.
pub const RACES_NOT_CHECKED: &str = "races were not checked: --checks leaves out data-race";

/// What one run leaves besides its part of the report: its buffers and
/// their final contents (for `--dump`).
pub struct RunOutput {
    /// The run's buffers, with their initial contents.
    pub buffers: Vec<UserBuffer>,
    /// Their contents after the run.
    pub contents: Vec<Vec<u8>>,
}

/// A checked shader: the report and each run's buffers, in the same order
/// as `report.runs`.
pub struct Checked {
    /// The report.
    pub report: Report,
    /// Each run's buffers.
    pub outputs: Vec<RunOutput>,
}

/// What a session reports as it goes.
pub enum Progress<'a> {
    /// A run starts: entry point, adapter name.
    Run(&'a str, &'a str),
    /// Chunks of the current run done, of how many.
    Chunks(u32, u32),
}

/// The compute entry points a session runs: `spec.entry`, or all of them.
pub fn entry_points(shader: &Shader, spec: &RunSpec) -> Vec<Option<String>> {
    if spec.entry.is_some() {
        return vec![spec.entry.clone()];
    }
    let all: Vec<Option<String>> = shader
        .module
        .entry_points
        .iter()
        .filter(|ep| ep.stage == naga::ShaderStage::Compute)
        .map(|ep| Some(ep.name.clone()))
        .collect();
    // With none, planning says that the shader has no compute entry point.
    if all.is_empty() { vec![None] } else { all }
}

/// Checks `shader` under `spec`, each entry point on each of `gpus`, with
/// `checks`, and assembles the report. With `stats`, also counts the
/// instrumentation with and without the analyzer (`wgrace run --stats`).
///
/// # Errors
/// [`Error`] when an entry point cannot be checked (the first such error).
pub fn check(
    shader: &Shader,
    spec: &RunSpec,
    gpus: &[Gpu],
    checks: &CheckSet,
    stats: bool,
    progress: &mut dyn FnMut(Progress<'_>),
) -> Result<Checked, Error> {
    let suppressions = suppressions(shader, spec)?;
    let all = checks;
    let checks = &spec.select_checks(all)?;
    let selected = checks.ids();
    // The checks a run would have run without `--checks` that this one
    // does not.
    let left_out: Vec<String> =
        all.enabled_by_default().ids().into_iter().filter(|id| !selected.contains(id)).collect();
    let mut runs = Vec::new();
    let mut outputs = Vec::new();
    let mut shader_info = None;
    for entry in entry_points(shader, spec) {
        let spec = RunSpec { entry, ..spec.clone() };
        let mut plan = Plan::new(shader.clone(), spec)?;
        plan.checks = checks.clone();
        shader_info.get_or_insert_with(|| plan.shader_info());
        for gpu in gpus {
            progress(Progress::Run(&plan.prepared.entry_point, &gpu.info.name));
            let (mut run, contents) = plan.check(gpu, &mut |done, total| progress(Progress::Chunks(done, total)))?;
            if stats {
                run.checked.instrumentation = Some(plan.instrumentation_stats(gpu)?);
            }
            if !left_out.is_empty() {
                run.notes.push(format!("checks left out (--checks): {}", left_out.join(", ")));
            }
            if left_out.iter().any(|id| id == DATA_RACE) {
                run.complete = false;
                run.incomplete.push(RACES_NOT_CHECKED.into());
            }
            runs.push(run);
            outputs.push(RunOutput { buffers: plan.buffers.clone(), contents });
        }
    }
    let findings = checks.compare_runs(&runs);
    let shader_info = shader_info.ok_or_else(|| Error::Internal("a session without entry points".into()))?;
    let mut report = Report::new(shader_info, checks.infos(), runs, findings);
    report.suppress(suppressions);
    Ok(Checked { report, outputs })
}

/// The suppressions of a session: the shader's `// wgrace: allow(…)`
/// comments, then the `--suppressions` files', then `--same-value-notes`'s.
///
/// # Errors
/// [`Error::Spec`] for a malformed comment.
pub fn suppressions(shader: &Shader, spec: &RunSpec) -> Result<Vec<Suppression>, Error> {
    // Comments are in the source: a SPIR-V module's is the file its debug
    // information names.
    let source = shader.source_file.as_deref().unwrap_or(&shader.path);
    let mut all = crate::suppress::from_source(source, shader.text.as_deref().unwrap_or(""))?;
    all.extend(spec.suppressions.iter().cloned());
    if spec.same_value_notes {
        all.push(Suppression::same_value_writes());
    }
    Ok(all)
}

/// Runs the static analyzer alone (`wgrace check`) on each entry point and
/// assembles its report: runs without an adapter, whose races are the ones
/// the analyzer proved.
///
/// # Errors
/// [`Error`] when an entry point cannot be analysed.
pub fn analyze(shader: &Shader, spec: &RunSpec) -> Result<Report, Error> {
    let suppressions = suppressions(shader, spec)?;
    let mut runs = Vec::new();
    let mut shader_info = None;
    for entry in entry_points(shader, spec) {
        let plan = Plan::new(shader.clone(), RunSpec { entry, ..spec.clone() })?;
        shader_info.get_or_insert_with(|| plan.shader_info());
        runs.push(crate::check::static_run(&plan)?);
    }
    let shader_info = shader_info.ok_or_else(|| Error::Internal("a session without entry points".into()))?;
    let infos = spec.select_checks(&CheckSet::default())?.static_infos();
    let mut report = Report::new(shader_info, infos, runs, Vec::new());
    report.suppress(suppressions);
    Ok(report)
}

/// SHA-256 digests of the writable buffers' `contents`.
pub fn digests(buffers: &[UserBuffer], contents: &[Vec<u8>]) -> Vec<OutputDigest> {
    use sha2::Digest;
    buffers
        .iter()
        .zip(contents)
        .filter(|(b, _)| b.kind == BindingKind::StorageReadWrite || b.texture().is_some_and(|t| t.written()))
        .map(|(b, bytes)| OutputDigest {
            variable: b.name.clone(),
            group: b.group,
            binding: b.binding,
            bytes: bytes.len() as u64,
            sha256: sha2::Sha256::digest(bytes).iter().map(|byte| format!("{byte:02x}")).collect(),
        })
        .collect()
}
