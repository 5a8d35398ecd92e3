//! Adapters and devices.
//!
//! wgrace prefers a real GPU and falls back to a software one (Mesa's
//! lavapipe, "llvmpipe"); `--adapter` picks by name and `--backend` by API.
//! Errors wgpu reports asynchronously (validation, out of memory, device
//! lost) are collected and turned into [`Error`]s, never panics.

use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, PoisonError};

use wgrace_instrument::report::AdapterInfo;

use crate::Error;

/// How to pick an adapter.
#[derive(Clone, Debug, Default)]
pub struct AdapterChoice {
    /// Case-insensitive substring of the adapter's name (`all`: every
    /// usable adapter, with [`Gpu::open_each`]).
    pub name: Option<String>,
    /// Restrict to one backend.
    pub backend: Option<wgpu::Backend>,
}

/// What `wgrace adapters` lists.
#[derive(Clone, Debug, serde::Serialize)]
pub struct AdapterSummary {
    /// Name, backend, device type, driver, subgroup sizes.
    #[serde(flatten)]
    pub info: AdapterInfo,
    /// Whether it has what wgrace needs (64-bit atomics).
    pub supported: bool,
    /// If not, why.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub missing: Option<String>,
}

/// Told, from another thread, how long a pipeline has been compiling: what
/// is happening ("compiling the instrumented shader", or the wait for its
/// first dispatch, when lavapipe compiles it) and the whole seconds so far,
/// each second from [`COMPILE_PROGRESS_AFTER_S`] on; then `None` once it
/// ended (only if it was told a time).
pub type CompileProgress = Arc<dyn Fn(&str, Option<u64>) + Send + Sync>;

/// Seconds of compiling after which [`CompileProgress`] is first told.
pub const COMPILE_PROGRESS_AFTER_S: u64 = 3;

/// A feature of the device that shaders may use: wgpu's name for it, the
/// naga capability it gives shaders, and what a user would call it.
pub struct ShaderFeature {
    /// The device feature.
    pub feature: wgpu::Features,
    /// The shader capability it enables.
    pub capability: naga::valid::Capabilities,
    /// What the shader uses that needs it.
    pub uses: &'static str,
}

/// The device features a shader may need, each requested where the adapter
/// has it (see [`Gpu::lacks`] for the others).
pub const SHADER_FEATURES: [ShaderFeature; 10] = {
    use naga::valid::Capabilities as C;
    use wgpu::Features as F;
    const fn f(feature: F, capability: C, uses: &'static str) -> ShaderFeature {
        ShaderFeature { feature, capability, uses }
    }
    [
        f(F::SHADER_F64, C::FLOAT64, "f64"),
        f(F::SHADER_I16, C::SHADER_INT16, "i16 or u16"),
        f(F::SHADER_F16, C::SHADER_FLOAT16, "f16"),
        f(F::SHADER_INT64, C::SHADER_INT64, "i64 or u64"),
        f(F::SUBGROUP, C::SUBGROUP, "subgroup operations"),
        f(F::SUBGROUP_BARRIER, C::SUBGROUP_BARRIER, "subgroupBarrier"),
        f(F::IMMEDIATES, C::IMMEDIATES, "immediates (var<immediate>)"),
        f(F::SHADER_FLOAT32_ATOMIC, C::SHADER_FLOAT32_ATOMIC, "atomic<f32>"),
        f(F::SHADER_INT64_ATOMIC_MIN_MAX, C::SHADER_INT64_ATOMIC_MIN_MAX, "64-bit atomic min and max"),
        f(F::TEXTURE_ATOMIC, C::TEXTURE_ATOMIC, "texture atomics"),
    ]
};

/// What `module` (valid with every capability) uses of [`SHADER_FEATURES`]
/// that a device with features `has` lacks.
pub fn missing_features(module: &naga::Module, has: wgpu::Features) -> Vec<&'static str> {
    use naga::valid::{Capabilities, ValidationFlags, Validator};
    SHADER_FEATURES
        .iter()
        .filter(|f| !has.contains(f.feature))
        .filter(|f| {
            let without = Capabilities::all() - f.capability;
            Validator::new(ValidationFlags::all(), without).validate(module).is_err()
        })
        .map(|f| f.uses)
        .collect()
}

/// Features the checked run needs from the device.
pub const REQUIRED_FEATURES: wgpu::Features =
    wgpu::Features::SHADER_INT64.union(wgpu::Features::SHADER_INT64_ATOMIC_ALL_OPS);

/// Parses a `--backend` value.
///
/// # Errors
/// [`Error::Spec`] for an unknown name.
pub fn parse_backend(s: &str) -> Result<wgpu::Backend, Error> {
    match s.to_ascii_lowercase().as_str() {
        "vulkan" | "vk" => Ok(wgpu::Backend::Vulkan),
        "gl" | "gles" | "opengl" => Ok(wgpu::Backend::Gl),
        "metal" | "mtl" => Ok(wgpu::Backend::Metal),
        "dx12" | "d3d12" => Ok(wgpu::Backend::Dx12),
        other => Err(Error::Spec(format!("unknown backend `{other}`: use vulkan, gl, metal or dx12"))),
    }
}

/// The backends to probe: the one asked for, else the primary APIs. GL is
/// only probed on request: it has no 64-bit atomics, so wgrace cannot use
/// it, and probing it prints EGL noise on machines without a display.
fn instance_backends(backend: Option<wgpu::Backend>) -> wgpu::Backends {
    backend.map_or(wgpu::Backends::PRIMARY, wgpu::Backends::from)
}

fn instance(backend: Option<wgpu::Backend>) -> wgpu::Instance {
    wgpu::Instance::new(wgpu::InstanceDescriptor {
        backends: instance_backends(backend),
        flags: wgpu::InstanceFlags::empty(),
        ..wgpu::InstanceDescriptor::new_without_display_handle()
    })
}

fn summarize(adapter: &wgpu::Adapter) -> AdapterSummary {
    let info = adapter.get_info();
    let missing = REQUIRED_FEATURES - adapter.features();
    AdapterSummary {
        info: adapter_info(&info),
        supported: missing.is_empty(),
        missing: (!missing.is_empty()).then(|| format!("missing {missing:?} (64-bit atomics)")),
    }
}

/// Whether the adapter is Mesa's lavapipe (named "llvmpipe"), whose quirks
/// the runtime works around.
pub fn is_lavapipe(info: &AdapterInfo) -> bool {
    info.name.starts_with("llvmpipe")
}

/// The report's view of an adapter.
pub fn adapter_info(info: &wgpu::AdapterInfo) -> AdapterInfo {
    AdapterInfo {
        name: info.name.clone(),
        backend: info.backend.to_str().to_string(),
        device_type: match info.device_type {
            wgpu::DeviceType::Other => "other",
            wgpu::DeviceType::IntegratedGpu => "integrated-gpu",
            wgpu::DeviceType::DiscreteGpu => "discrete-gpu",
            wgpu::DeviceType::VirtualGpu => "virtual-gpu",
            wgpu::DeviceType::Cpu => "cpu",
        }
        .to_string(),
        driver: format!("{} {}", info.driver, info.driver_info).trim().to_string(),
        subgroup_size: [info.subgroup_min_size, info.subgroup_max_size],
    }
}

/// Every adapter wgpu can see.
pub fn list_adapters(backend: Option<wgpu::Backend>) -> Vec<AdapterSummary> {
    let instance = instance(backend);
    let adapters = pollster::block_on(instance.enumerate_adapters(instance_backends(backend)));
    adapters.iter().map(summarize).collect()
}

/// What to say when there is no adapter at all.
pub const NO_ADAPTER_HELP: &str = "no GPU adapter found. wgrace needs a Vulkan, Metal, DX12 or GL driver; \
on a machine without a GPU install Mesa's software Vulkan driver (lavapipe): \
`sudo apt-get install mesa-vulkan-drivers` on Debian/Ubuntu, then check with `wgrace adapters`";

/// An open device and what it ran into.
pub struct Gpu {
    /// Told how long a pipeline is taking to compile, when that is long
    /// (see [`CompileProgress`]); none by default.
    pub compile_progress: Option<CompileProgress>,
    /// The adapter.
    pub adapter: wgpu::Adapter,
    /// The device, with [`REQUIRED_FEATURES`] and the adapter's limits.
    pub device: wgpu::Device,
    /// Its queue.
    pub queue: wgpu::Queue,
    /// The adapter as reported.
    pub info: AdapterInfo,
    /// Whether timestamp queries are available (for `bench`).
    pub timestamps: bool,
    /// The pipelines it made lately, for checks that run a module again.
    pub(crate) pipelines: crate::pipelines::PipelineCache,
    errors: Arc<Mutex<Vec<String>>>,
    lost: Arc<Mutex<Option<String>>>,
}

impl Gpu {
    /// Opens the adapter `choice` selects: by name if given, else the first
    /// real GPU with the required features, else a software one.
    ///
    /// # Errors
    /// [`Error::NoAdapter`] when none fits, [`Error::Gpu`] when the device
    /// cannot be created.
    pub fn open(choice: &AdapterChoice) -> Result<Gpu, Error> {
        let instance = instance(choice.backend);
        let adapters = pollster::block_on(instance.enumerate_adapters(instance_backends(choice.backend)));
        if adapters.is_empty() {
            return Err(Error::NoAdapter(NO_ADAPTER_HELP.to_string()));
        }
        let names = || adapters.iter().map(|a| a.get_info().name).collect::<Vec<_>>().join(", ");
        let mut candidates: Vec<&wgpu::Adapter> = adapters
            .iter()
            .filter(|a| {
                choice.name.as_ref().is_none_or(|n| a.get_info().name.to_lowercase().contains(&n.to_lowercase()))
            })
            .collect();
        if candidates.is_empty() {
            return Err(Error::NoAdapter(format!(
                "no adapter matches `{}`; available: {}",
                choice.name.as_deref().unwrap_or(""),
                names()
            )));
        }
        let rank = |a: &wgpu::Adapter| match a.get_info().device_type {
            wgpu::DeviceType::DiscreteGpu => 0,
            wgpu::DeviceType::IntegratedGpu => 1,
            wgpu::DeviceType::VirtualGpu => 2,
            wgpu::DeviceType::Other => 3,
            wgpu::DeviceType::Cpu => 4,
        };
        candidates.sort_by_key(|a| (!a.features().contains(REQUIRED_FEATURES), rank(a)));
        Gpu::from_adapter(candidates[0].clone(), &names())
    }

    /// Opens every adapter wgrace can use when `choice` names `all`, else
    /// the one [`Gpu::open`] opens.
    ///
    /// # Errors
    /// [`Error::NoAdapter`] when none fits, [`Error::Gpu`] when a device
    /// cannot be created.
    pub fn open_each(choice: &AdapterChoice) -> Result<Vec<Gpu>, Error> {
        if choice.name.as_deref() != Some("all") {
            return Ok(vec![Gpu::open(choice)?]);
        }
        let instance = instance(choice.backend);
        let adapters = pollster::block_on(instance.enumerate_adapters(instance_backends(choice.backend)));
        let names = adapters.iter().map(|a| a.get_info().name).collect::<Vec<_>>().join(", ");
        let usable: Vec<wgpu::Adapter> = adapters.into_iter().filter(|a| summarize(a).supported).collect();
        if usable.is_empty() {
            return Err(Error::NoAdapter(if names.is_empty() {
                NO_ADAPTER_HELP.to_string()
            } else {
                format!("no adapter has the 64-bit atomics wgrace needs; available: {names}")
            }));
        }
        usable.into_iter().map(|a| Gpu::from_adapter(a, &names)).collect()
    }

    /// Opens another device on this one's adapter: a device of its own, with
    /// its own queue and errors, for work side by side with this one's
    /// (lavapipe compiles a device's shaders on its queue's thread), or to
    /// go on after this one was lost.
    ///
    /// # Errors
    /// [`Error::Gpu`] when the device cannot be created.
    pub fn open_another(&self) -> Result<Gpu, Error> {
        let mut gpu = Gpu::from_adapter(self.adapter.clone(), &self.info.name)?;
        gpu.compile_progress.clone_from(&self.compile_progress);
        Ok(gpu)
    }

    /// Whether the device was lost (every later use fails).
    pub fn is_lost(&self) -> bool {
        self.lost.lock().map_or(true, |l| l.is_some())
    }

    /// Opens a device on `adapter`; `names` lists the adapters there are,
    /// for the message when it lacks what wgrace needs.
    fn from_adapter(adapter: wgpu::Adapter, names: &str) -> Result<Gpu, Error> {
        let summary = summarize(&adapter);
        if !summary.supported {
            return Err(Error::NoAdapter(format!(
                "adapter `{}` ({}) lacks 64-bit atomics (SHADER_INT64_ATOMIC_ALL_OPS), which wgrace's shadow state \
                 needs; available adapters: {}",
                summary.info.name, summary.info.backend, names
            )));
        }
        // What wgrace needs, and what a shader may use that the adapter has.
        // Storage textures of more formats and accesses than WebGPU's core.
        let texture_formats = wgpu::Features::BGRA8UNORM_STORAGE
            | wgpu::Features::TEXTURE_ADAPTER_SPECIFIC_FORMAT_FEATURES
            | wgpu::Features::TEXTURE_FORMAT_16BIT_NORM;
        let optional =
            SHADER_FEATURES.iter().fold(wgpu::Features::TIMESTAMP_QUERY | texture_formats, |all, f| all | f.feature);
        let features = REQUIRED_FEATURES | (adapter.features() & optional);
        let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
            label: Some("wgrace"),
            required_features: features,
            required_limits: adapter.limits(),
            ..Default::default()
        }))
        .map_err(|e| Error::Gpu(format!("cannot open a device on `{}`: {e}", summary.info.name)))?;

        let errors = Arc::new(Mutex::new(Vec::new()));
        let sink = errors.clone();
        device.on_uncaptured_error(Arc::new(move |e: wgpu::Error| {
            if let Ok(mut v) = sink.lock() {
                v.push(e.to_string());
            }
        }));
        let lost = Arc::new(Mutex::new(None));
        let lost_sink = lost.clone();
        device.set_device_lost_callback(move |reason, message| {
            if let Ok(mut v) = lost_sink.lock() {
                *v = Some(format!("{reason:?}: {message}"));
            }
        });
        Ok(Gpu {
            compile_progress: None,
            timestamps: features.contains(wgpu::Features::TIMESTAMP_QUERY),
            info: summary.info,
            adapter,
            device,
            queue,
            pipelines: crate::pipelines::PipelineCache::default(),
            errors,
            lost,
        })
    }

    /// What `module` (valid with every capability) uses that this device
    /// lacks: the [`ShaderFeature::uses`] of each feature without which it
    /// does not validate.
    pub fn lacks(&self, module: &naga::Module) -> Vec<&'static str> {
        missing_features(module, self.device.features())
    }

    /// Waits for submitted work and reports any error wgpu raised meanwhile.
    ///
    /// # Errors
    /// [`Error::DeviceLost`] or [`Error::Gpu`].
    pub fn wait(&self) -> Result<(), Error> {
        let polled = self.device.poll(wgpu::PollType::wait_indefinitely());
        self.check()?;
        polled.map(|_| ()).map_err(|e| Error::Gpu(format!("waiting for the GPU: {e}")))
    }

    /// Reports errors wgpu raised so far.
    ///
    /// # Errors
    /// [`Error::DeviceLost`] or [`Error::Gpu`].
    pub fn check(&self) -> Result<(), Error> {
        if let Some(reason) = self.lost.lock().ok().and_then(|l| l.clone()) {
            return Err(Error::DeviceLost(reason));
        }
        let errors = self.errors.lock().map(|mut e| std::mem::take(&mut *e)).unwrap_or_default();
        if errors.is_empty() { Ok(()) } else { Err(Error::Gpu(errors.join("\n"))) }
    }

    /// Reads `size` bytes of `buffer` (which needs `COPY_SRC`).
    ///
    /// # Errors
    /// [`Error::Gpu`] when the copy or the mapping fails.
    pub fn read_buffer(&self, buffer: &wgpu::Buffer, size: u64) -> Result<Vec<u8>, Error> {
        self.read_buffer_at(buffer, 0, size)
    }

    /// Reads `size` bytes of `buffer` from `offset` (a multiple of 4).
    ///
    /// # Errors
    /// [`Error::Gpu`] if mapping fails.
    pub fn read_buffer_at(&self, buffer: &wgpu::Buffer, offset: u64, size: u64) -> Result<Vec<u8>, Error> {
        let size = size.next_multiple_of(4).max(4);
        let staging = self.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("wgrace readback"),
            size,
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let mut encoder = self.device.create_command_encoder(&Default::default());
        encoder.copy_buffer_to_buffer(buffer, offset, &staging, 0, size.min(buffer.size().saturating_sub(offset)));
        self.queue.submit([encoder.finish()]);
        let (tx, rx) = std::sync::mpsc::channel();
        staging.map_async(wgpu::MapMode::Read, .., move |r| {
            let _ = tx.send(r);
        });
        self.wait()?;
        rx.recv()
            .map_err(|_| Error::Gpu("buffer mapping was abandoned".into()))?
            .map_err(|e| Error::Gpu(format!("cannot map a buffer for reading: {e}")))?;
        let data =
            staging.get_mapped_range(..).map_err(|e| Error::Gpu(format!("cannot read a mapped buffer: {e}")))?.to_vec();
        staging.unmap();
        Ok(data)
    }
}

/// Devices of one adapter, for work side by side: each device does one
/// piece of work at a time ([`DevicePool::with`]), so that the errors a
/// device collects are that work's. lavapipe compiles a device's shaders
/// on its queue's thread, so on it each device keeps one core busy.
pub struct DevicePool {
    free: Mutex<Vec<Gpu>>,
    returned: Condvar,
    size: usize,
    info: AdapterInfo,
}

impl DevicePool {
    /// `first` and `size - 1` more devices on its adapter
    /// ([`Gpu::open_another`]); at least `first`.
    ///
    /// # Errors
    /// [`Error::Gpu`] when a device cannot be created.
    pub fn open(first: Gpu, size: usize) -> Result<DevicePool, Error> {
        let mut devices = Vec::with_capacity(size.max(1));
        for _ in 1..size {
            devices.push(first.open_another()?);
        }
        let info = first.info.clone();
        devices.push(first);
        Ok(DevicePool { size: devices.len(), free: Mutex::new(devices), returned: Condvar::new(), info })
    }

    /// How many devices it has.
    pub fn size(&self) -> usize {
        self.size
    }

    /// The adapter.
    pub fn info(&self) -> &AdapterInfo {
        &self.info
    }

    /// Runs `work` on a device no other work is using, waiting for one to
    /// be free. A device `work` lost is replaced by a new one on its
    /// adapter (where one opens), so that only the work that lost it fails.
    pub fn with<T>(&self, work: impl FnOnce(&Gpu) -> T) -> T {
        let mut free = self.free.lock().unwrap_or_else(PoisonError::into_inner);
        let gpu = loop {
            match free.pop() {
                Some(gpu) => break gpu,
                None => free = self.returned.wait(free).unwrap_or_else(PoisonError::into_inner),
            }
        };
        drop(free);
        // Given back even when `work` panics, which then goes on unwinding.
        let outcome = std::panic::catch_unwind(AssertUnwindSafe(|| work(&gpu)));
        self.give_back(gpu);
        outcome.unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    }

    /// Puts `gpu` back for the next work, a new device in its place where
    /// it was lost (and one opens).
    fn give_back(&self, mut gpu: Gpu) {
        if gpu.is_lost()
            && let Ok(new) = gpu.open_another()
        {
            gpu = new;
        }
        self.free.lock().unwrap_or_else(PoisonError::into_inner).push(gpu);
        self.returned.notify_one();
    }

    /// `work(device, item)` for every item of `items`, as many at a time as
    /// the pool has devices, each on a device of its own ([`DevicePool::with`]);
    /// the results in the order of `items`.
    pub fn map<I: Sync, T: Send>(&self, items: &[I], work: impl Fn(&Gpu, &I) -> T + Sync) -> Vec<T> {
        let next = AtomicUsize::new(0);
        let results: Mutex<Vec<Option<T>>> = Mutex::new(items.iter().map(|_| None).collect());
        std::thread::scope(|scope| {
            for _ in 0..self.size.min(items.len()) {
                scope.spawn(|| {
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(item) = items.get(i) else { break };
                        let result = self.with(|gpu| work(gpu, item));
                        results.lock().unwrap_or_else(PoisonError::into_inner)[i] = Some(result);
                    }
                });
            }
        });
        results.into_inner().unwrap_or_else(PoisonError::into_inner).into_iter().flatten().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_features_a_shader_uses_and_a_device_lacks_are_named() {
        let source = "enable wgpu_int16;
            @group(0) @binding(0) var<storage, read_write> wide: array<f64>;
            @group(0) @binding(1) var<storage, read_write> narrow: array<i16>;
            @compute @workgroup_size(1) fn main() { wide[0] = 1.0lf; narrow[0] = i16(2); }";
        let module = naga::front::wgsl::parse_str(source).expect("parses");
        assert_eq!(missing_features(&module, wgpu::Features::empty()), ["f64", "i16 or u16"]);
        assert_eq!(missing_features(&module, wgpu::Features::SHADER_F64), ["i16 or u16"]);
        let all = SHADER_FEATURES.iter().fold(wgpu::Features::empty(), |a, f| a | f.feature);
        assert!(missing_features(&module, all).is_empty());
    }
}
