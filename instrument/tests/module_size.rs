//! The instrumented module's size is bounded: at most three times the
//! original's plus a constant (the runtime), whatever the number of access
//! sites. Sizes are of the modules written as SPIR-V, what a Vulkan driver
//! compiles. Drivers inline every call, so the size they compile also depends
//! on what each site calls: record and replay keeps that to a few
//! instructions per site (`shaders/wgsl/checks/data_race/hooks/replay.wgsl`); this
//! test bounds the module itself, on every sample and corpus kernel,
//! instrumented without the static analyzer (every access site hooked),
//! recording accesses (the instrumented module and the replay pass that
//! checks them) and checking them in place.

use std::path::{Path, PathBuf};

use naga::valid::Capabilities;
use wgrace_instrument::{InstrumentOptions, Replay, Shader, instrument, prepare, replay_pass_module};

fn samples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../samples")
}

fn wgsl_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir).expect("samples").map(|e| e.expect("entry").path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            wgsl_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "wgsl") {
            out.push(path);
        }
    }
}

fn spirv_bytes(module: &naga::Module, info: &naga::valid::ModuleInfo) -> usize {
    naga::back::spv::write_vec(module, info, &naga::back::spv::Options::default(), None).expect("SPIR-V").len() * 4
}

/// The `--override NAME=VALUE`s of a sample's `// wgrace:` lines.
fn overrides(text: &str) -> Vec<(String, f64)> {
    let mut out = Vec::new();
    for line in text.lines().filter_map(|l| l.trim().strip_prefix("// wgrace:")) {
        let mut words = line.split_whitespace();
        while let Some(w) = words.next() {
            let value = match w.strip_prefix("--override=") {
                Some(v) => Some(v.to_string()),
                None if w == "--override" => words.next().map(str::to_string),
                None => None,
            };
            if let Some((name, v)) = value.as_deref().and_then(|v| v.split_once('=')) {
                out.push((name.to_string(), v.parse().expect("override value")));
            }
        }
    }
    out
}

/// (original, instrumented) SPIR-V bytes of every compute entry point of a
/// shader.
fn sizes(path: &Path, text: &str, replay: Replay) -> Vec<(String, usize, usize)> {
    let shader = Shader::from_wgsl(&path.display().to_string(), text).unwrap_or_else(|e| panic!("{e}"));
    let entries: Vec<String> = shader
        .module
        .entry_points
        .iter()
        .filter(|ep| ep.stage == naga::ShaderStage::Compute)
        .map(|ep| ep.name.clone())
        .collect();
    let overrides = overrides(text);
    entries
        .into_iter()
        .map(|entry| {
            let prepared = prepare(&shader, Some(&entry), &overrides, Capabilities::all())
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let inst = instrument(
                &shader,
                &prepared.module,
                &prepared.info,
                &prepared.entry_point,
                // As much workgroup memory as lavapipe has (samples/scale
                // uses all of WebGPU's default 16 KiB).
                &InstrumentOptions { workgroup_memory_limit: 32768, replay, ..InstrumentOptions::default() },
            )
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            // Recording, the replay pass is compiled too.
            let replay_pass = if inst.prelude.replays() {
                let module = replay_pass_module(&inst).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
                let info = naga::valid::Validator::new(naga::valid::ValidationFlags::all(), Capabilities::all())
                    .validate(&module)
                    .expect("the replay pass validates");
                spirv_bytes(&module, &info)
            } else {
                0
            };
            (entry, spirv_bytes(&prepared.module, &prepared.info), spirv_bytes(&inst.module, &inst.info) + replay_pass)
        })
        .collect()
}

#[test]
fn recording_modules_are_at_most_three_times_the_original_plus_the_runtime() {
    check_bound(Replay::Always);
}

#[test]
fn checking_modules_are_at_most_three_times_the_original_plus_the_runtime() {
    check_bound(Replay::Never);
}

fn check_bound(replay: Replay) {
    // The constant: a kernel that does little but use every part of the
    // runtime (both memories, a barrier) is almost all runtime.
    let smallest = "var<workgroup> w: array<u32, 1>;\n\
                    @group(0) @binding(0) var<storage, read_write> a: array<u32>;\n\
                    @compute @workgroup_size(1) fn main() { w[0] = 1u; workgroupBarrier(); a[0] = w[0]; }\n";
    let runtime = sizes(Path::new("smallest.wgsl"), smallest, replay)[0].2;
    let mut files = Vec::new();
    wgsl_files(&samples(), &mut files);
    assert!(files.len() >= 300, "only {} samples", files.len());
    let mut checked = 0;
    let mut over = Vec::new();
    let mut worst = (0.0f64, String::new());
    for path in &files {
        let text = std::fs::read_to_string(path).expect("sample");
        for (entry, original, instrumented) in sizes(path, &text, replay) {
            checked += 1;
            let growth = instrumented.saturating_sub(runtime) as f64 / original as f64;
            if growth > worst.0 {
                worst = (growth, format!("{} ({entry})", path.display()));
            }
            if instrumented > 3 * original + runtime {
                over.push(format!(
                    "{} ({entry}): {instrumented} bytes, original {original}, bound {}",
                    path.display(),
                    3 * original + runtime
                ));
            }
        }
    }
    assert!(checked >= 300, "only {checked} entry points");
    assert!(over.is_empty(), "runtime {runtime} bytes; over the bound:\n{}", over.join("\n"));
    println!("runtime {runtime} bytes; most growth beyond it {:.2}x the original, {}", worst.0, worst.1);
}
