//! The pipelines a device compiled lately, for a check that runs the same
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

use std::collections::VecDeque;
use std::fmt::Write as _;
use std::sync::{Mutex, PoisonError};

use sha2::{Digest, Sha256};

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

#[cfg(test)]
mod tests {
    use super::{KEPT, PipelineCache, PipelineKey};

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
}
