//! A GPU shared by the tests of this binary.

use std::sync::OnceLock;

use wgrace::gpu::{AdapterChoice, Gpu};

/// The adapter the tests use (lavapipe in CI), opened once.
///
/// # Panics
/// When no usable adapter exists: the tests need one.
pub fn gpu() -> &'static Gpu {
    static GPU: OnceLock<Gpu> = OnceLock::new();
    GPU.get_or_init(|| {
        let name = std::env::var("WGRACE_TEST_ADAPTER").ok();
        Gpu::open(&AdapterChoice { name, backend: None }).unwrap_or_else(|e| panic!("the tests need an adapter: {e}"))
    })
}

/// The `wgrace` command, built (or found up to date) once: the viewer's runs
/// and the SPIR-V refusal tests start it.
///
/// It is the binary the workspace's test build makes (`cargo test
/// --workspace --no-run`), which has the features that build unifies for
/// every member. `cargo build -p wgrace-cli` would unify fewer (none of the
/// viewer's), so after the test build it would build wgpu and the rest a
/// second time: 9.5 minutes on 2 cores (2026-12-01). `scripts/test` runs
/// the same binary.
///
/// # Panics
/// When cargo cannot build it.
pub fn wgrace_command() -> &'static std::path::Path {
    static PATH: OnceLock<std::path::PathBuf> = OnceLock::new();
    PATH.get_or_init(|| {
        let status = std::process::Command::new(env!("CARGO"))
            .args(["test", "--quiet", "--workspace", "--no-run"])
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .status()
            .expect("cargo runs");
        assert!(status.success(), "cargo test --workspace --no-run failed");
        let target = std::env::var_os("CARGO_TARGET_DIR")
            .map_or_else(|| std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../target"), Into::into);
        target.join("debug").join(format!("wgrace{}", std::env::consts::EXE_SUFFIX))
    })
}
