//! Helpers shared by wgrace's integration tests: reading the expectations
//! written in the headers of `samples/` (format in `samples/README.md`).

use std::path::{Path, PathBuf};

/// What a sample says wgrace must find.
#[derive(Clone, Debug)]
pub struct Sample {
    /// Its path.
    pub path: PathBuf,
    /// Whether it races.
    pub racy: bool,
    /// The racing pairs: (class, lower line, higher line).
    pub races: Vec<(String, u32, u32)>,
}

impl Sample {
    /// Reads the header of the sample at `path`.
    ///
    /// # Panics
    /// On a malformed header, naming the file: a broken sample is a test failure.
    pub fn read(path: &Path) -> Sample {
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let mut racy = None;
        let mut races = Vec::new();
        for line in text.lines() {
            let Some(comment) = line.trim_start().strip_prefix("//") else { continue };
            let comment = comment.trim();
            if let Some(v) = comment.strip_prefix("expect:") {
                assert!(racy.is_none(), "{}: more than one `expect:` line", path.display());
                racy = Some(match v.trim() {
                    "race" => true,
                    "no-race" => false,
                    other => panic!("{}: `expect: {other}` should be race or no-race", path.display()),
                });
            } else if let Some(r) = comment.strip_prefix("race:") {
                let parts: Vec<&str> = r.split_whitespace().collect();
                let [class, a, b] = parts[..] else {
                    panic!("{}: `race:` expects CLASS LINE LINE, got `{r}`", path.display())
                };
                assert!(
                    ["intra-workgroup", "barrier-kind", "inter-workgroup"].contains(&class),
                    "{}: unknown class `{class}`",
                    path.display()
                );
                let (a, b): (u32, u32) = (a.parse().expect("line"), b.parse().expect("line"));
                races.push((class.to_string(), a.min(b), a.max(b)));
            }
        }
        let racy = racy.unwrap_or_else(|| panic!("{}: no `// expect:` line", path.display()));
        assert_eq!(
            racy,
            !races.is_empty(),
            "{}: a racy sample lists its racing pairs, a race-free one none",
            path.display()
        );
        Sample { path: path.to_path_buf(), racy, races }
    }
}

/// The workspace's `samples/` directory, or `$WGRACE_SAMPLES` (for running
/// a built test binary from another checkout, e.g. on another machine).
pub fn samples_dir() -> PathBuf {
    match std::env::var_os("WGRACE_SAMPLES") {
        Some(dir) => PathBuf::from(dir),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../samples"),
    }
}

/// Every sample shader under `dir`, sorted.
pub fn all_samples(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display())) {
            let path = entry.expect("dir entry").path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "wgsl" || e == "spv") {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}
