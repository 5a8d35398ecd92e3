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
