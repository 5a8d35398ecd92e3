//! Making compute pipelines: the module given to the driver without the
//! names it does not need (`without_names`), its compile watched for
//! progress (`watched`: drivers take minutes over large shaders), and the
//! pipelines a device made lately, kept for a check that runs the same
//! module again on it: the corpus runs a kernel again when a run was
//! unsettled by the schedule (`corpus::LAVAPIPE_RUNS`), and the tests
//! likewise. Mesa's disk cache spares such a run LLVM, not the rest of the
//! driver's work: the corpus's three runs of
//! `nodebug/scor_app_graph_coloring_racy.spv` (its engine gives way each
//! time) took 19.0 s with the compiled code in Mesa's cache, 9.3 s with the
//! pipelines kept here (2026-12-07).
//!
//! A pipeline is found by a digest of what made it: the module as the driver
//! gets it (its Debug form, which holds every part of it), the entry point
//! and the label. A pipeline is immutable, so a second check on it computes
//! what a fresh one would.

use std::borrow::Cow;
use std::collections::VecDeque;
use std::fmt::Write as _;
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use sha2::{Digest, Sha256};

use crate::Error;
use crate::gpu::Gpu;

/// How many pipelines a device keeps: a check makes up to six (the
/// instrumented shader, the original, the replay pass, statement mode's
/// storage check and the same-value passes), and the engine's fallback run
/// one more.
const KEPT: usize = 8;

/// What made a pipeline.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct PipelineKey([u8; 32]);

impl PipelineKey {
    /// The key of `module`'s entry point `entry`, made under `label`.
    pub fn of(module: &naga::Module, entry: &str, label: &str) -> PipelineKey {
        /// Feeds what is written to the digest, without the text in memory.
        struct Feed(Sha256);
        impl std::fmt::Write for Feed {
            fn write_str(&mut self, s: &str) -> std::fmt::Result {
                self.0.update(s.as_bytes());
                Ok(())
            }
        }
        let mut feed = Feed(Sha256::new());
        // Writing to the digest cannot fail.
        let _ = write!(feed, "{module:?}\0{entry}\0{label}");
        PipelineKey(feed.0.finalize().into())
    }
}

/// A device's latest pipelines, the most recently used last.
pub struct PipelineCache<P = wgpu::ComputePipeline> {
    kept: Mutex<VecDeque<(PipelineKey, P)>>,
}

impl<P> Default for PipelineCache<P> {
    fn default() -> Self {
        PipelineCache { kept: Mutex::new(VecDeque::new()) }
    }
}

impl<P: Clone> PipelineCache<P> {
    /// The pipeline made from `key`, if it is kept.
    pub fn get(&self, key: &PipelineKey) -> Option<P> {
        let mut kept = self.kept.lock().unwrap_or_else(PoisonError::into_inner);
        let at = kept.iter().position(|(k, _)| k == key)?;
        let entry = kept.remove(at)?;
        let pipeline = entry.1.clone();
        kept.push_back(entry);
        Some(pipeline)
    }

    /// Keeps `pipeline`, made from `key`, in place of the least recently
    /// used when there are [`KEPT`].
    pub fn keep(&self, key: PipelineKey, pipeline: &P) {
        let mut kept = self.kept.lock().unwrap_or_else(PoisonError::into_inner);
        kept.retain(|(k, _)| *k != key);
        if kept.len() == KEPT {
            kept.pop_front();
        }
        kept.push_back((key, pipeline.clone()));
    }
}

/// The pipeline of `module`'s entry point `entry` on `gpu`: one it made
/// lately from the same module, or a new one.
pub(crate) fn pipeline(
    gpu: &Gpu,
    module: &naga::Module,
    entry: &str,
    label: &str,
) -> Result<wgpu::ComputePipeline, Error> {
    let module = without_names(module);
    let key = PipelineKey::of(&module, entry, label);
    if let Some(pipeline) = gpu.pipelines.get(&key) {
        return Ok(pipeline);
    }
    let pipeline = new_pipeline(gpu, module, entry, label)?;
    gpu.pipelines.keep(key, &pipeline);
    Ok(pipeline)
}

fn new_pipeline(gpu: &Gpu, module: naga::Module, entry: &str, label: &str) -> Result<wgpu::ComputePipeline, Error> {
    let scope = gpu.device.push_error_scope(wgpu::ErrorFilter::Validation);
    // naga's backends panic on some valid modules: a panic is the shader's
    // failure to compile, with what it was (`Plan::explain` adds the
    // constructs known to cause it).
    let created = watched(gpu.compile_progress.as_ref(), &format!("compiling the {label} shader"), || {
        crate::guard::catch(|| {
            let shader = gpu.device.create_shader_module(wgpu::ShaderModuleDescriptor {
                label: Some(label),
                source: wgpu::ShaderSource::Naga(Cow::Owned(module)),
            });
            gpu.device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                label: Some(label),
                layout: None,
                module: &shader,
                entry_point: Some(entry),
                compilation_options: Default::default(),
                cache: None,
            })
        })
    });
    let pipeline = created.map_err(|panic| {
        Error::Backend(crate::guard::BackendFailure { panic, shader: label.to_string(), causes: Vec::new() })
    })?;
    if let Some(e) = pollster::block_on(scope.pop()) {
        return Err(Error::Gpu(format!("the device rejected the {label} shader: {e}")));
    }
    gpu.check()?;
    Ok(pipeline)
}

/// `module` without the names the driver does not need: those of
/// constants, variables, functions, arguments and expressions (entry
/// points, overrides and types keep theirs; types are unique by name and
/// shape). Names are for people, and `--emit-instrumented` keeps them.
/// Modules that differ only in names, as naga's reader makes of a SPIR-V
/// module with and without debug information (a local named after an id),
/// are then one module to the driver's shader cache, and compile once.
fn without_names(module: &naga::Module) -> naga::Module {
    fn strip(function: &mut naga::Function) {
        function.name = None;
        for argument in &mut function.arguments {
            argument.name = None;
        }
        for (_, local) in function.local_variables.iter_mut() {
            local.name = None;
        }
        function.named_expressions.clear();
    }
    let mut module = module.clone();
    for (_, constant) in module.constants.iter_mut() {
        constant.name = None;
    }
    for (_, global) in module.global_variables.iter_mut() {
        global.name = None;
    }
    for (_, function) in module.functions.iter_mut() {
        strip(function);
    }
    for entry in &mut module.entry_points {
        let name = entry.function.name.take();
        strip(&mut entry.function);
        entry.function.name = name;
    }
    module
}

/// What a wait for the first dispatch of a pipeline does, as
/// [`Gpu::compile_progress`] is told: lavapipe compiles a shader at its
/// first dispatch, not when the pipeline is created.
pub(crate) const FIRST_DISPATCH_CHECKED: &str = "running the instrumented shader (the driver may be compiling it)";
pub(crate) const FIRST_DISPATCH_ORIGINAL: &str = "running the original shader (the driver may be compiling it)";

/// Runs `compile`, which does `what` (creates a pipeline, or waits for the
/// first dispatch of one, which lavapipe compiles then), telling `report`
/// (a [`Gpu::compile_progress`]) how long it is taking, each second after
/// the first few: drivers take minutes over large shaders.
pub(crate) fn watched<T>(report: Option<&crate::gpu::CompileProgress>, what: &str, compile: impl FnOnce() -> T) -> T {
    let Some(report) = report.cloned() else { return compile() };
    let (done, wait) = std::sync::mpsc::channel::<()>();
    std::thread::scope(|scope| {
        scope.spawn(move || {
            let start = Instant::now();
            let mut seconds = crate::gpu::COMPILE_PROGRESS_AFTER_S;
            let mut told = false;
            // Until `done` is dropped.
            while let Err(std::sync::mpsc::RecvTimeoutError::Timeout) =
                wait.recv_timeout(Duration::from_secs(seconds).saturating_sub(start.elapsed()))
            {
                report(what, Some(seconds));
                told = true;
                seconds += 1;
            }
            if told {
                report(what, None);
            }
        });
        let compiled = compile();
        drop(done);
        compiled
    })
}

#[cfg(test)]
mod tests {
    use std::sync::{Arc, Mutex};
    use std::time::Duration;

    use super::{KEPT, PipelineCache, PipelineKey, watched, without_names};

    fn module(source: &str) -> naga::Module {
        naga::front::wgsl::parse_str(source).expect("WGSL")
    }

    const SHADER: &str = "@group(0) @binding(0) var<storage, read_write> b: array<u32>;\n\
                          @compute @workgroup_size(1) fn main() { b[0] = 1u; }\n\
                          @compute @workgroup_size(1) fn other() { b[0] = 2u; }\n";

    #[test]
    fn keys_tell_apart_modules_entry_points_and_labels() {
        let key = PipelineKey::of(&module(SHADER), "main", "instrumented");
        assert_eq!(key, PipelineKey::of(&module(SHADER), "main", "instrumented"));
        assert_ne!(key, PipelineKey::of(&module(&SHADER.replace("1u;", "3u;")), "main", "instrumented"));
        assert_ne!(key, PipelineKey::of(&module(SHADER), "other", "instrumented"));
        assert_ne!(key, PipelineKey::of(&module(SHADER), "main", "original"));
    }

    #[test]
    fn the_cache_keeps_the_latest_used() {
        let key = |n: u8| PipelineKey([n; 32]);
        let cache = PipelineCache::<u32>::default();
        for n in 0..KEPT as u8 {
            cache.keep(key(n), &u32::from(n));
        }
        // Using 0 makes 1 the least recently used, which the next goes out for.
        assert_eq!(cache.get(&key(0)), Some(0));
        cache.keep(key(100), &100);
        assert_eq!(cache.get(&key(1)), None);
        assert_eq!(cache.get(&key(0)), Some(0));
        assert_eq!(cache.get(&key(100)), Some(100));
        // Kept again, a key holds its new pipeline once.
        cache.keep(key(2), &22);
        assert_eq!(cache.get(&key(2)), Some(22));
        assert_eq!(cache.kept.lock().expect("lock").len(), KEPT);
    }

    #[test]
    fn modules_that_differ_only_in_names_are_one_module_to_the_driver() {
        let source = |names: [&str; 4]| {
            let [global, helper, local, argument] = names;
            format!(
                "override scale: u32 = 2u;\n@group(0) @binding(0) var<storage, read_write> {global}: array<u32, 4>;\n\
                 fn {helper}({argument}: u32) -> u32 {{ var {local} = {argument} * scale; return {local}; }}\n\
                 @compute @workgroup_size(4) fn main(@builtin(local_invocation_index) i: u32) {{ \
                 {global}[i] = {helper}(i); }}\n"
            )
        };
        let spirv = |names| {
            let module = naga::front::wgsl::parse_str(&source(names)).expect("parses");
            let stripped = without_names(&module);
            assert_eq!(stripped.entry_points[0].name, "main");
            assert_eq!(stripped.overrides.iter().next().and_then(|(_, o)| o.name.as_deref()), Some("scale"));
            assert!(stripped.global_variables.iter().all(|(_, g)| g.name.is_none()));
            let mut validator =
                naga::valid::Validator::new(naga::valid::ValidationFlags::all(), naga::valid::Capabilities::all());
            let info = validator.validate(&stripped).expect("still valid");
            let constants = naga::back::PipelineConstants::default();
            let (resolved, info) =
                naga::back::pipeline_constants::process_overrides(&stripped, &info, None, &constants)
                    .expect("resolves");
            naga::back::spv::write_vec(&resolved, &info, &naga::back::spv::Options::default(), None).expect("writes")
        };
        assert_eq!(spirv(["data", "twice", "product", "x"]), spirv(["out", "double", "y", "value"]));
    }

    #[test]
    fn a_long_compile_is_told_each_second_after_the_first_few_and_then_its_end() {
        let told = Arc::new(Mutex::new(Vec::new()));
        let sink = told.clone();
        let report: crate::gpu::CompileProgress =
            Arc::new(move |shader, seconds| sink.lock().expect("lock").push((shader.to_string(), seconds)));
        let after = crate::gpu::COMPILE_PROGRESS_AFTER_S;
        let value = watched(Some(&report), "compiling the instrumented shader", || {
            std::thread::sleep(Duration::from_millis(after * 1000 + 1500));
            7
        });
        assert_eq!(value, 7);
        let told = told.lock().expect("lock").clone();
        let name = || "compiling the instrumented shader".to_string();
        assert_eq!(told, [(name(), Some(after)), (name(), Some(after + 1)), (name(), None)]);
        // A quick one is told nothing.
        let quiet = Arc::new(Mutex::new(0));
        let count = quiet.clone();
        let report: crate::gpu::CompileProgress = Arc::new(move |_, _| *count.lock().expect("lock") += 1);
        assert_eq!(watched(Some(&report), "compiling the instrumented shader", || 1), 1);
        assert_eq!(*quiet.lock().expect("lock"), 0);
    }
}
