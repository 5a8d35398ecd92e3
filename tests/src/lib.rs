//! Helpers shared by wgrace's integration tests.

use std::path::{Path, PathBuf};

/// The workspace's `samples/` directory, or `$WGRACE_SAMPLES` (for running
/// a built test binary from another checkout, e.g. on another machine).
pub fn samples_dir() -> PathBuf {
    match std::env::var_os("WGRACE_SAMPLES") {
        Some(dir) => PathBuf::from(dir),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../samples"),
    }
}
