//! What the tests of this binary share: the GPU, the tier, the matrix.

use std::io::Write as _;
use std::path::PathBuf;
use std::sync::OnceLock;

use wgrace::gpu::{AdapterChoice, DevicePool, Gpu};
use wgrace::session::{self, Checked};
use wgrace::spec::RunSpec;
use wgrace::{Error, Shader};
use wgrace_instrument::checks::CheckSet;
use wgrace_tests::samples_dir;

/// The adapter the tests use (lavapipe in CI, or `$WGRACE_TEST_ADAPTER`),
/// opened once; `None` where there is none and none is required
/// ([`gpu_required`]), after saying so once on the terminal.
///
/// # Panics
/// When no usable adapter exists and one is required.
pub fn try_gpu() -> Option<&'static Gpu> {
    static GPU: OnceLock<Result<Gpu, String>> = OnceLock::new();
    static SAID: OnceLock<()> = OnceLock::new();
    let opened = GPU.get_or_init(|| {
        let name = std::env::var("WGRACE_TEST_ADAPTER").ok();
        Gpu::open(&AdapterChoice { name, backend: None }).map_err(|e| e.to_string())
    });
    match opened {
        Ok(gpu) => Some(gpu),
        Err(why) if gpu_required() => panic!("the tests need an adapter (CI or WGRACE_REQUIRE_GPU is set): {why}"),
        Err(why) => {
            SAID.get_or_init(|| {
                // Past the test harness's capture, so that a passing run
                // still shows it.
                let _ = writeln!(
                    std::io::stderr(),
                    "note: skipping the GPU tests of this binary: no usable adapter ({}); `scripts/ensure-deps` \
                     installs lavapipe, and CI=true or WGRACE_REQUIRE_GPU=1 makes this a failure",
                    why.lines().next().unwrap_or("")
                );
            });
            None
        }
    }
}

/// The adapter, for a test that has already passed [`require_gpu!`].
///
/// # Panics
/// When there is none.
pub fn gpu() -> &'static Gpu {
    try_gpu().expect("a GPU test begins with require_gpu!()")
}

/// Devices of the tests' adapter for checking side by side (see
/// [`DevicePool`]): `$WGRACE_TEST_DEVICES` of them, by default one per core.
/// lavapipe compiles each device's kernels on one thread (its queue's), so
/// tests that shared one device would compile by turns, on one core.
///
/// # Panics
/// When a device cannot be opened, or before [`require_gpu!`].
pub fn pool() -> &'static DevicePool {
    static POOL: OnceLock<DevicePool> = OnceLock::new();
    POOL.get_or_init(|| {
        let size = match std::env::var("WGRACE_TEST_DEVICES") {
            Ok(n) => n.parse().unwrap_or_else(|_| panic!("WGRACE_TEST_DEVICES is `{n}`: it is a number of devices")),
            Err(_) => std::thread::available_parallelism().map_or(1, usize::from),
        };
        let first = gpu().open_another().unwrap_or_else(|e| panic!("{e}"));
        DevicePool::open(first, size).unwrap_or_else(|e| panic!("{e}"))
    })
}

/// `work` on a device of the [`pool`] that no other test is using, for as
/// long as it runs.
pub fn on_a_device<T>(work: impl FnOnce(&Gpu) -> T) -> T {
    pool().with(work)
}

/// `wgrace run`'s check of `shader` with `checks`, on a device of its own
/// ([`on_a_device`]).
///
/// # Errors
/// As [`session::check`].
pub fn check_shader(shader: &Shader, spec: &RunSpec, checks: &CheckSet) -> Result<Checked, Error> {
    on_a_device(|gpu| session::check(shader, spec, std::slice::from_ref(gpu), checks, false, &mut |_| {}))
}

/// Whether a missing adapter fails the GPU tests instead of skipping them:
/// in CI (`CI` set) and wherever `WGRACE_REQUIRE_GPU` is set
/// (`scripts/test` sets it).
fn gpu_required() -> bool {
    ["CI", "WGRACE_REQUIRE_GPU"].iter().any(|v| std::env::var_os(v).is_some_and(|x| !x.is_empty() && x != "0"))
}

/// Ends the test, passing, where there is no adapter and none is required
/// (see [`try_gpu`]).
macro_rules! require_gpu {
    () => {
        if crate::support::try_gpu().is_none() {
            return;
        }
    };
}
pub(crate) use require_gpu;

/// The tiers of the suite (docs/testing.md), from `$WGRACE_TEST_TIER`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tier {
    /// `scripts/test`, what CI runs: the differential configurations over
    /// the matrix (`samples/matrix.txt`).
    Default,
    /// `scripts/test full`: every configuration over every sample.
    Full,
}

/// The tier this run is in.
///
/// # Panics
/// On a value of `WGRACE_TEST_TIER` other than `default` and `full`.
pub fn tier() -> Tier {
    match std::env::var("WGRACE_TEST_TIER").as_deref() {
        Err(_) | Ok("" | "default") => Tier::Default,
        Ok("full") => Tier::Full,
        Ok(other) => panic!("WGRACE_TEST_TIER is `{other}`: it is `default` or `full`"),
    }
}

/// The matrix: the kernels the default tier checks in the differential
/// configurations, from `samples/matrix.txt` (its coverage is asserted by
/// `samples::the_matrix_covers_every_kind`).
pub fn matrix() -> &'static [PathBuf] {
    static MATRIX: OnceLock<Vec<PathBuf>> = OnceLock::new();
    MATRIX.get_or_init(|| {
        let samples = samples_dir();
        wgrace::corpus::read_list(&samples, &samples.join(MATRIX_FILE)).unwrap_or_else(|e| panic!("{e}"))
    })
}

/// The matrix's file, under `samples/`.
pub const MATRIX_FILE: &str = "matrix.txt";
