//! SPIR-V's front door: modules from glslang with and without debug
//! information (`-g`, `-gVS`), anonymous blocks, specialization constants,
//! fences around barriers, and corrupt modules. The GLSL sources are in `tests/data/spirv/`; each
//! test compiles them with glslang (`glslang-tools`, which
//! `scripts/ensure-deps` installs).

use std::path::{Path, PathBuf};

use wgrace::report::{AccessKind, BarrierKind, RaceClass, RaceKind, Report, Verdict};
use wgrace::spec::RunArgs;
use wgrace::{Error, Plan};
use wgrace_instrument::checks::CheckSet;

use crate::support::{gpu, require_gpu};

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("data/spirv")
}

/// Compiles `tests/data/spirv/<name>.comp` with glslang and `flags` into a
/// folder of its own; returns the module's path.
pub fn compile(name: &str, flags: &[&str]) -> PathBuf {
    compile_with("glslangValidator", &["-V", "--target-env", "vulkan1.1"], name, flags)
}

/// Compiles `tests/data/spirv/<name>.comp` with `compiler`, `base` and
/// `flags` into a folder of its own (tests run at once: each compile gets
/// one), emptied first (an earlier test process with the same process id
/// may have left files there); returns the module's path.
fn compile_with(compiler: &str, base: &[&str], name: &str, flags: &[&str]) -> PathBuf {
    static COMPILES: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = COMPILES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir()
        .join(format!("wgrace-spirv-{}", std::process::id()))
        .join(format!("{n}-{compiler}{}", flags.join("")));
    // Absent is fine: the folder is made just below.
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let out = dir.join(format!("{name}.spv"));
    // Run from the sources' folder, so the module names the source
    // `<name>.comp`, as a user compiling beside their shader gets.
    let result = std::process::Command::new(compiler)
        .args(base)
        .args(flags)
        .arg(format!("{name}.comp"))
        .arg("-o")
        .arg(&out)
        .current_dir(data_dir())
        .output()
        .unwrap_or_else(|e| panic!("these tests need {compiler} (scripts/ensure-deps installs it): {e}"));
    let output = format!("{}{}", String::from_utf8_lossy(&result.stdout), String::from_utf8_lossy(&result.stderr));
    assert!(result.status.success(), "{compiler} failed on {name}.comp: {output}");
    out
}

fn check(path: &Path, flags: RunArgs) -> Result<Report, Error> {
    let (shader, _, spec) = wgrace::load_with_flags(path, flags)?;
    Ok(crate::support::check_shader(&shader, &spec, &CheckSet::default())?.report)
}

/// Each race of `run` as (class, lower line, higher line), sorted, once.
fn class_and_lines(run: &wgrace::report::Run) -> Vec<(RaceClass, u32, u32)> {
    let mut races: Vec<(RaceClass, u32, u32)> = run
        .races
        .iter()
        .map(|r| {
            let (a, b) = (r.first.location.line.unwrap_or(0), r.second.location.line.unwrap_or(0));
            (r.class, a.min(b), a.max(b))
        })
        .collect();
    races.sort();
    races.dedup();
    races
}

/// Checks `module` with `flags` in addr and in statement mode, and asserts
/// that each report is complete, with the races (class and lines) of
/// `expected` and exactly `notes`; `what` names the case in messages.
fn complete_in_both_modes(
    module: &Path,
    flags: &[&str],
    expected: &[(RaceClass, u32, u32)],
    notes: &[&str],
    what: &str,
) -> Vec<Report> {
    let mut reports = Vec::new();
    for mode in ["addr", "stmt"] {
        let report = check(module, args(&[flags, &["--mode", mode]].concat())).expect("runs");
        let run = &report.runs[0];
        assert!(report.complete, "{what} {mode}: {:?}", run.incomplete);
        assert_eq!(class_and_lines(run), expected, "{what} {mode}");
        assert_eq!(run.notes, notes, "{what} {mode}");
        reports.push(report);
    }
    reports
}

fn args(flags: &[&str]) -> RunArgs {
    RunArgs::parse_flags(&flags.iter().map(ToString::to_string).collect::<Vec<_>>()).expect("flags")
}

#[test]
fn races_point_at_glsl_lines_with_debug_information_and_at_instructions_without() {
    require_gpu!();
    for flags in [&["-g"][..], &["-gVS"]] {
        let report = check(&compile("racy_neighbour", flags), args(&["--dispatch", "2"])).expect("runs");
        assert_eq!(report.verdict, Verdict::Race, "{flags:?}");
        let json = serde_json::to_value(&report).expect("serialises");
        let errors: Vec<String> = crate::formats::report_schema().iter_errors(&json).map(|e| e.to_string()).collect();
        assert!(errors.is_empty(), "{flags:?}: {errors:?}");
        let sarif: serde_json::Value = serde_json::from_str(&wgrace::sarif::sarif(&report)).expect("parses");
        let uri = &sarif["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"];
        assert_eq!(uri, "racy_neighbour.comp", "{flags:?}");
        assert_eq!(report.shader.source_file.as_deref(), Some("racy_neighbour.comp"), "{flags:?}");
        let source = report.shader.source.as_deref().expect("the module carries its source");
        assert!(source.starts_with("#version 450\n"), "{flags:?}: glslang's header is left out: {source}");
        let race = report.races().next().expect("a race");
        assert_eq!(race.memory.variable, "Data", "{flags:?}");
        for access in [&race.first, &race.second] {
            assert_eq!(access.location.line, Some(7), "{flags:?}");
            assert_eq!(access.location.snippet, "    data[i] = data[i + 1];", "{flags:?}");
            let (start, end) = access.location.span.expect("a span in the GLSL");
            assert_eq!(&source[start as usize..end as usize], "data[i] = data[i + 1];", "{flags:?}");
            assert!(access.location.spirv_word.is_some(), "{flags:?}");
        }
    }

    let report = check(&compile("racy_neighbour", &[]), args(&["--dispatch", "2"])).expect("runs");
    assert_eq!(report.verdict, Verdict::Race);
    assert_eq!((report.shader.source_file.as_deref(), report.shader.source.as_deref()), (None, None));
    let race = report.races().next().expect("a race");
    let snippets = [&race.first, &race.second].map(|a| (a.location.line, a.location.snippet.clone()));
    for (line, snippet) in snippets {
        assert_eq!(line, None);
        assert!(
            snippet.starts_with("OpLoad (SPIR-V word ") || snippet.starts_with("OpStore (SPIR-V word "),
            "{snippet}"
        );
    }
}

#[test]
fn modules_from_glslc_are_checked_too() {
    require_gpu!();
    // shaderc's glslc: with -g, lines as from glslang; optimised (-O), no
    // names at all, so the block is `group0_binding0`, sized by its binding.
    let report =
        check(&compile_with("glslc", &[], "racy_neighbour", &["-g"]), args(&["--dispatch", "2"])).expect("runs");
    let race = report.races().next().expect("a race");
    assert_eq!((race.memory.variable.as_str(), race.first.location.line), ("Data", Some(7)));

    let optimised = compile_with("glslc", &[], "racy_neighbour", &["-O"]);
    let report = check(&optimised, args(&["--dispatch", "2", "--buffer", "0:0=129"])).expect("runs");
    assert_eq!(report.verdict, Verdict::Race);
    let race = report.races().next().expect("a race");
    assert_eq!((race.memory.variable.as_str(), race.first.location.line), ("group0_binding0", None));
    assert_eq!(report.runs[0].checked.variables[0].bytes, 129 * 4);
}

#[test]
fn a_source_file_the_module_names_but_does_not_carry_is_read_from_beside_it() {
    require_gpu!();
    // glslang always embeds the text with -g: drop it from `OpSource`, and
    // put the file beside the module.
    let module = compile("racy_neighbour", &["-g"]);
    let bytes = std::fs::read(&module).expect("module");
    let mut binary = wgrace_instrument::spirv::binary::Binary::read(&bytes).expect("reads");
    for inst in &mut binary.instructions {
        if inst.op == Some(spirv::Op::Source) {
            inst.operands.truncate(3);
        }
    }
    let dir = module.parent().expect("dir").join("beside");
    std::fs::create_dir_all(&dir).expect("dir");
    let stripped = dir.join("racy_neighbour.spv");
    std::fs::write(&stripped, binary.words().iter().flat_map(|w| w.to_le_bytes()).collect::<Vec<u8>>()).expect("write");
    let without_file = check(&stripped, args(&["--dispatch", "2"])).expect("runs");
    assert_eq!(without_file.shader.source, None);
    let first = &without_file.races().next().expect("a race").first.location;
    assert_eq!(first.line, Some(7));
    assert!(first.snippet.starts_with("Op") && first.snippet.contains("(SPIR-V word "), "{}", first.snippet);

    std::fs::copy(data_dir().join("racy_neighbour.comp"), dir.join("racy_neighbour.comp")).expect("copy");
    let with_file = check(&stripped, args(&["--dispatch", "2"])).expect("runs");
    let text = std::fs::read_to_string(data_dir().join("racy_neighbour.comp")).expect("source");
    assert_eq!(with_file.shader.source.as_deref(), Some(text.as_str()));
    assert_eq!(with_file.races().next().expect("a race").first.location.snippet, "    data[i] = data[i + 1];");
}

/// The final contents of buffer `name` after a native run of `path`.
fn run_native(path: &Path, flags: &[&str], name: &str) -> Vec<u32> {
    let (shader, _, spec) = wgrace::load_with_flags(path, args(flags)).expect("loads");
    let plan = Plan::new(shader, spec).expect("plans");
    let index = plan.buffers.iter().position(|b| b.name == name).expect("the buffer");
    let data = crate::support::on_a_device(|gpu| plan.run_native(gpu)).expect("runs");
    data[index].chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()
}

#[test]
fn anonymous_blocks_are_named_by_their_type_and_flags_name_their_members() {
    require_gpu!();
    let module = compile("anonymous_blocks", &[]);
    let report = check(&module, args(&["--buffer", "data=8", "--buffer", "values=8"])).expect("runs");
    let mut names: Vec<&str> = report.runs[0].checked.variables.iter().map(|v| v.name.as_str()).collect();
    names.sort_unstable();
    // (naga reads `readonly` members as writable: `Input` is checked too.)
    assert_eq!(names, ["Input", "Output"]);
    // `scale`, `data` (of `Input`) and `values` (of `Output`) by member
    // name; `0:1` is `Output`.
    let flags = ["--buffer", "data=8", "--buffer", "0:1=8", "--set", "scale=3", "--fill", "data=const:2"];
    assert_eq!(run_native(&module, &flags, "Output"), [6, 6, 6, 6, 4, 5, 6, 7]);
    let flags = ["--buffer", "data=4", "--buffer", "values=4", "--set", "Input.scale=5", "--fill", "0:1=zero"];
    assert_eq!(run_native(&module, &flags, "Output"), [0, 5, 10, 15]);

    let error = |flags: &[&str]| match check(&module, args(flags)) {
        Err(e) => e.to_string(),
        Ok(_) => panic!("{flags:?} is refused"),
    };
    assert_eq!(
        error(&["--buffer", "scale=4"]),
        "--buffer scale=…: `scale` is a fixed-size member of `Input`; --buffer sets the length of runtime-sized arrays"
    );
    assert_eq!(
        error(&["--fill", "nothing=zero"]),
        "--fill nothing…: the shader has no buffer named `nothing`; buffers: Input (0:0), Output (0:1)"
    );
    assert_eq!(
        error(&["--fill", "1:0=zero"]),
        "--fill 1:0…: the shader has no binding 1:0 (GROUP:BINDING); bindings: Input (0:0), Output (0:1)"
    );
}

#[test]
fn specialization_constants_set_the_workgroup_size_and_values_by_id_or_name() {
    require_gpu!();
    for flags in [&[][..], &["-g"], &["-gVS"]] {
        let module = compile("spec_workgroup_size", flags);
        // Defaults: a workgroup of 1, SHIFTED = 2 * 2 + 1, OFFSET = -1.
        let report = check(&module, args(&["--dispatch", "4"])).expect("runs");
        assert_eq!(report.runs[0].workgroup_size, [1, 1, 1], "{flags:?}");
        assert_eq!(report.verdict, Verdict::NoRace, "{flags:?}");
        assert_eq!(run_native(&module, &["--dispatch", "4", "--buffer", "values=4"], "Output"), [u32::MAX; 4]);
        // By `SpecId` and by name: a workgroup of 4, SHIFTED = 3 * 2 + 1.
        let set = ["--override", "0=4", "--override", "SCALE=3", "--override", "OFFSET=1", "--buffer", "values=4"];
        let report = check(&module, args(&set)).expect("runs");
        assert_eq!(report.runs[0].workgroup_size, [4, 1, 1], "{flags:?}");
        assert_eq!(report.runs[0].checked.invocations, 4, "{flags:?}");
        assert_eq!(run_native(&module, &set, "Output"), [1, 8, 15, 22], "{flags:?}");
    }

    let module = compile("spec_workgroup_size", &[]);
    let error = |flags: &[&str]| match check(&module, args(flags)) {
        Err(e) => e.to_string(),
        Ok(_) => panic!("{flags:?} is refused"),
    };
    assert_eq!(
        error(&["--override", "GAIN=2"]),
        "the shader has no override named `GAIN`; it has: SCALE (id 1, u32 = 2), OFFSET (id 2, i32 = -1), id 0 (u32 = 1)"
    );
    assert_eq!(
        error(&["--override", "SCALE=-2"]),
        "cannot resolve overrides: --override SCALE: `-2` is not a u32 (from 0 to 4294967295)"
    );
}

#[test]
fn corrupt_and_unsupported_modules_are_refused_with_a_message() {
    require_gpu!();
    let module = std::fs::read(compile("racy_neighbour", &[])).expect("module");
    let dir = std::env::temp_dir().join(format!("wgrace-spirv-{}", std::process::id())).join("bad");
    std::fs::create_dir_all(&dir).expect("dir");

    // A capability naga does not support: `Linkage`, in place of `Shader`.
    let binary = wgrace_instrument::spirv::binary::Binary::read(&module).expect("reads");
    let mut unsupported = binary.clone();
    let capability = unsupported.instructions.iter_mut().find(|i| i.op == Some(spirv::Op::Capability)).expect("one");
    capability.operands[0] = spirv::Capability::Linkage as u32;
    let unsupported: Vec<u8> = unsupported.words().iter().flat_map(|w| w.to_le_bytes()).collect();

    // The module up to the first word of its last `OpStore`.
    let store = binary.instructions.iter().rev().find(|i| i.op == Some(spirv::Op::Store)).expect("a store");
    let cut_in_an_instruction = module[..(store.at + 1) * 4].to_vec();

    // A control barrier of device execution scope, which Vulkan refuses
    // (naga's reader would drop it).
    let device_barrier = std::fs::read(compile("device_barrier", &[])).expect("module");

    let cases: [(&str, Vec<u8>, &str); 7] = [
        ("cut_in_a_word.spv", module[..module.len() - 3].to_vec(), "not a whole number of 4-byte words (truncated?)"),
        ("cut_in_an_instruction.spv", cut_in_an_instruction, "but the module ends after"),
        ("cut_in_a_function.spv", module[..module.len() - 8].to_vec(), "ends inside function"),
        ("header_only.spv", module[..12].to_vec(), "fewer than the 5 of a SPIR-V header"),
        ("not_spirv.spv", b"this is not a SPIR-V module".to_vec()[..24].to_vec(), "not the SPIR-V magic number"),
        ("unsupported.spv", unsupported, "Linkage"),
        (
            "device_barrier.spv",
            device_barrier,
            "has execution scope Device; Vulkan allows only Workgroup and Subgroup (VUID-StandaloneSpirv-None-04636)",
        ),
    ];
    for (name, bytes, message) in cases {
        let path = dir.join(name);
        std::fs::write(&path, bytes).expect("write");
        let error = check(&path, RunArgs::default()).err().unwrap_or_else(|| panic!("{name} is refused")).to_string();
        assert!(error.starts_with(&format!("{}: invalid SPIR-V: ", path.display())), "{name}: {error}");
        assert!(error.contains(message), "{name}: {error}");
    }
    // (`wgrace run` prints these with exit status 2:
    // runtime/cli/tests/cli.rs, `corrupt_spirv_and_shader_sources_exit_2_with_what_to_do`.)
}

#[test]
fn every_glsl_sample_s_module_carries_its_current_source() {
    // The GLSL kernels under samples/ are checked through the modules beside
    // them (`scripts/build-spirv`): each must exist and carry the source's
    // current text, from which the corpus reads the header; corpus kernels
    // also through a module without debug information.
    let mut sources = Vec::new();
    let mut dirs = vec![wgrace_tests::samples_dir()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).expect("samples") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "comp") {
                sources.push(path);
            }
        }
    }
    assert!(sources.len() >= 8, "{sources:?}");
    for source in sources {
        let module = source.with_extension("spv");
        let shader = wgrace_instrument::Shader::load(&module)
            .unwrap_or_else(|e| panic!("{}: {e} (run scripts/build-spirv)", module.display()));
        let text = std::fs::read_to_string(&source).expect("source");
        assert!(
            shader.text.as_deref() == Some(text.as_str()),
            "{} does not carry the current text of {} (run scripts/build-spirv)",
            module.display(),
            source.display()
        );
        let name = source.file_name().map(|n| n.to_string_lossy().into_owned());
        assert_eq!(shader.source_file, name, "{}", module.display());
        if source.starts_with(wgrace_tests::samples_dir().join("corpus")) {
            corpus_module_without_debug_information_is_current(&source);
        }
    }
}

/// A corpus kernel's `nodebug/NAME.spv` is what glslang makes of its
/// current source without `-g` (as scripts/build-spirv compiles it).
fn corpus_module_without_debug_information_is_current(source: &Path) {
    let (dir, stem) = (source.parent().expect("folder"), source.file_stem().expect("name"));
    let module = dir.join("nodebug").join(stem).with_extension("spv");
    let committed =
        std::fs::read(&module).unwrap_or_else(|e| panic!("{}: {e} (run scripts/build-spirv)", module.display()));
    let fresh = std::env::temp_dir().join(format!("wgrace-nodebug-{}-{}.spv", std::process::id(), stem.display()));
    let compiled = std::process::Command::new("glslangValidator")
        .args(["-V", "--target-env", "vulkan1.3"])
        .arg(source)
        .arg("-o")
        .arg(&fresh)
        .output()
        .expect("glslangValidator (scripts/ensure-deps installs it)");
    assert!(compiled.status.success(), "{}: {}", source.display(), String::from_utf8_lossy(&compiled.stdout));
    let fresh_bytes = std::fs::read(&fresh).expect("compiled module");
    let _ = std::fs::remove_file(&fresh);
    assert!(
        committed == fresh_bytes,
        "{} is not {} compiled without -g (run scripts/build-spirv)",
        module.display(),
        source.display()
    );
    let shader = wgrace_instrument::Shader::load(&module).expect("module");
    assert!(shader.text.is_none() && shader.source_file.is_none(), "{} carries debug information", module.display());
}

#[test]
fn synchronization_wgrace_does_not_model_yet_is_reported() {
    require_gpu!();
    // What can hide a race makes the report incomplete; what can only make
    // a race appear that the Vulkan memory model does not have is a note.
    let module = compile("unmodelled_synchronization", &["-g", "--target-env", "vulkan1.3"]);
    let report = check(&module, args(&["--dispatch", "2"])).expect("runs");
    assert!(!report.complete);
    // Its subgroup-scope ticket is used by both workgroups: a scope race;
    // `count` is read plainly while the other workgroup adds to it: an
    // atomic-plain race.
    let mut classes: Vec<RaceClass> = report.races().map(|r| r.class).collect();
    classes.sort();
    assert_eq!(classes, [RaceClass::Scope, RaceClass::AtomicPlain]);
    // The engine follows the subgroup barrier beside the fence, and checks
    // the subgroup-scope ticket's atomics against each other (release and
    // acquire synchronization could order them); but 128 unordered adds
    // fill the word's history, which the report says. Its program with
    // every atomic at device scope cannot decide some acquires either, which
    // leaves the atomic-plain race's class unsure: a note. `Data`'s plain
    // accesses are private, which nothing orders: a note says its race is
    // one whatever the synchronization.
    let incomplete = &report.runs[0].incomplete;
    assert!(
        incomplete.len() == 1
            && incomplete[0].contains("the happens-before engine could not follow")
            && incomplete[0].contains("a word with more than 8 unordered accesses"),
        "{incomplete:?}"
    );
    let notes = &report.runs[0].notes;
    assert!(
        notes.len() == 2
            && notes[0].starts_with("races on `Data` are races whatever the module's synchronization")
            && notes[1].contains(
                "times the happens-before engine could not follow synchronization in the programs \
                                  that class races"
            ),
        "{notes:?}"
    );
    assert!(report.runs[0].stats.race_classes_unsure > 0);

    // A module with nothing of the kind is complete.
    let report = check(&compile("racy_neighbour", &["-g"]), args(&["--dispatch", "2"])).expect("runs");
    assert!(report.complete && report.runs[0].incomplete.is_empty() && report.runs[0].notes.is_empty());
}

#[test]
fn explanations_and_hints_use_spirv_s_terms() {
    require_gpu!();
    let module = wgrace_tests::samples_dir().join("corpus/spirv/buffer_exchange_barrier_only.spv");
    let report = check(&module, RunArgs::default()).expect("runs");
    let text = wgrace::print::text(&report, false);
    for line in [
        "   ┌─ buffer_exchange_barrier_only.comp:13:5",
        "   = note: barrier-kind: a control barrier separates the accesses, but its memory semantics do not include \
         buffer memory (UniformMemory): GLSL's barrier() orders shared memory only",
        "   = help: put a control barrier with UniformMemory semantics (GLSL's controlBarrier(gl_ScopeWorkgroup, \
         gl_ScopeWorkgroup, gl_StorageSemanticsBuffer, gl_SemanticsAcquireRelease), or barrier() with \
         memoryBarrierBuffer() right before and right after it) between the two accesses (in uniform control flow)",
    ] {
        assert!(text.lines().any(|l| l == line), "no line {line:?} in\n{text}");
    }
    assert!(text.contains("= lock-step: race under the Vulkan memory model; hidden by lock-step"), "{text}");
    assert!(!text.contains("WGSL") && !text.contains("workgroupBarrier") && !text.contains("storageBarrier"), "{text}");
}

#[test]
fn plain_accesses_to_memory_atomics_share_are_checked_against_each_other_and_the_atomics() {
    require_gpu!();
    // `count` is atomic in naga's module (an atomicAdd touches it); the
    // plain read (line 8) and write (line 9) of the first invocation of each
    // workgroup still race across workgroups, with each other and with the
    // atomicAdd of other workgroups (line 6).
    let report = check(&compile("plain_beside_atomic", &["-g"]), args(&["--dispatch", "3"])).expect("runs");
    let mut pairs: Vec<(String, u32, u32)> = report
        .races()
        .map(|r| {
            let lines = [r.first.location.line.unwrap_or(0), r.second.location.line.unwrap_or(0)];
            (r.class.as_str().to_string(), lines[0].min(lines[1]), lines[0].max(lines[1]))
        })
        .collect();
    pairs.sort();
    pairs.retain(|p| p.0 != "atomic-plain");
    assert_eq!(pairs, [("inter-workgroup".to_string(), 8, 9), ("inter-workgroup".to_string(), 9, 9)]);
    // The plain read and write of invocation 0 race with the atomicAdd of
    // the other invocations of its workgroup and of other workgroups; one
    // pair is reported for the word (the read comes first).
    let atomic_plain: Vec<(u32, u32)> = report
        .races()
        .filter(|r| r.class == RaceClass::AtomicPlain)
        .map(|r| (r.first.location.line.unwrap_or(0), r.second.location.line.unwrap_or(0)))
        .collect();
    assert!(!atomic_plain.is_empty() && atomic_plain.iter().all(|p| [(6, 8), (6, 9)].contains(p)), "{atomic_plain:?}");
    assert!(report.complete, "{:?}", report.runs[0].incomplete);
}

#[test]
fn a_line_in_an_included_file_is_named_in_the_snippet() {
    require_gpu!();
    // Reports give lines of the main source file; an access in an included
    // file names the file and line in its snippet instead of a wrong line.
    for flags in [&["-g"][..], &["-gVS"]] {
        let report = check(&compile("racy_include", flags), args(&["--dispatch", "2"])).expect("runs");
        let race = report.races().next().expect("a race");
        for access in [&race.first, &race.second] {
            assert_eq!(access.location.line, None, "{flags:?}");
            assert_eq!(access.location.snippet, "./neighbour.h:3: data[i] = data[i + 1];", "{flags:?}");
        }
    }
}

#[test]
fn a_barrier_between_a_release_and_an_acquire_fence_orders_what_the_fences_name() {
    require_gpu!();
    // memoryBarrierBuffer(); barrier(); memoryBarrierBuffer(); orders the
    // buffer: no race, and no note about the fences.
    let report = check(&compile("fenced_barrier", &["-g"]), args(&["--dispatch", "2"])).expect("runs");
    assert_eq!(report.verdict, Verdict::NoRace, "{:?}", report.runs[0].races);
    assert!(report.complete && report.runs[0].notes.is_empty(), "{:?}", report.runs[0].notes);
    let barrier = &report.runs[0].barriers[0];
    assert_eq!((barrier.kind, barrier.location.line), (BarrierKind::WorkgroupAndStorage, Some(29)));

    // With atomics in the module the fences could also synchronize with
    // them: the happens-before engine follows them (the module does not
    // declare the Vulkan memory model, and need not), and the buffer is
    // still ordered. The note says the buffers were taken as coherent.
    let incoherent = "`Data`, `Out` are not declared `coherent`: GLSL makes fences and barriers order other \
                      invocations' accesses only of coherent variables (a driver may cache the others), and wgrace \
                      checked this module, which does not declare the Vulkan memory model, as if every buffer were \
                      coherent";
    let report = check(&compile("fenced_barrier", &["-g", "-DWITH_ATOMIC"]), args(&["--dispatch", "2"])).expect("runs");
    assert_eq!(report.verdict, Verdict::NoRace, "{:?}", report.runs[0].races);
    assert!(report.complete, "{:?}", report.runs[0].incomplete);
    assert_eq!(report.runs[0].notes, [incoherent]);

    // Without the acquire fence after the barrier, or with fences of shared
    // memory, the buffer accesses across the barrier race. A load between
    // the first fence and the barrier is not the idiom the check models, but
    // the happens-before engine follows the fences (release fence, barrier,
    // acquire fence) and finds the buffer ordered. Fences of buffer memory
    // that the check does not model are the engine's, with the note above.
    for (variant, races) in [("FENCE_BEFORE_ONLY", true), ("SHARED_FENCES", true), ("LOAD_BETWEEN", false)] {
        let define = format!("-D{variant}");
        let report = check(&compile("fenced_barrier", &["-g", &define]), args(&["--dispatch", "2"])).expect("runs");
        let run = &report.runs[0];
        let lines: Vec<_> =
            run.races.iter().map(|r| (r.first.location.line, r.second.location.line, r.class)).collect();
        if races {
            assert!(
                lines.iter().any(|&(a, b, class)| (a, b, class) == (Some(20), Some(35), RaceClass::BarrierKind)),
                "{variant}: {lines:?}"
            );
        } else {
            assert_eq!(report.verdict, Verdict::NoRace, "{variant}: {lines:?}");
        }
        assert_eq!(run.barriers[0].kind, BarrierKind::Workgroup, "{variant}");
        assert!(report.complete, "{variant}: {:?}", run.incomplete);
        let notes: &[&str] = if variant == "SHARED_FENCES" { &[] } else { &[incoherent] };
        assert_eq!(run.notes, notes, "{variant}");
    }
}

/// The report's line for plain accesses a Vulkan-memory-model module's
/// barriers cannot order, for `what`.
fn private_line(what: &str) -> String {
    format!(
        "under the Vulkan memory model the module declares, {what} are private (no NonPrivatePointer) or not made \
         available or visible (no MakePointerAvailable, MakePointerVisible, or MakeAvailable and MakeVisible semantics \
         on the barriers): barriers do not order them between invocations, but the check takes them as ordered, so \
         races between them that a barrier separates are not reported (GLSL: declare the buffer `coherent`)"
    )
}

#[test]
fn under_the_vulkan_memory_model_no_barrier_orders_a_buffer_whose_stores_are_private() {
    require_gpu!();
    // Buffers are `StorageBuffer` variables for Vulkan 1.1 and later, and
    // `Uniform` ones of a `BufferBlock` type for Vulkan 1.0.
    for env in ["vulkan1.3", "vulkan1.0"] {
        buffer_with_private_stores(&["-g", "--target-env", env]);
    }
}

fn buffer_with_private_stores(flags: &[&str]) {
    // Coherent: every access is non-private and made available or visible;
    // the barriers order them, and the report is complete.
    let module = compile("vmm_exchange", &[flags, &["-DCOHERENT"]].concat());
    let report = check(&module, args(&["--dispatch", "2"])).expect("a module with MakePointerVisible scopes loads");
    assert_eq!(report.verdict, Verdict::NoRace, "{:?}", report.runs[0].races);
    assert!(report.complete, "{:?}", report.runs[0].incomplete);

    // Plain buffer: its stores are private, and the model location-orders
    // private accesses of different invocations only between dispatches.
    // The write and the neighbour's read across the first barrier race, and
    // so do that read and the neighbour's write across the second, in both
    // modes and however addr mode checks, with a complete report.
    let module = compile("vmm_exchange", flags);
    for mode in
        [&["--mode", "addr", "--replay", "never"][..], &["--mode", "addr", "--replay", "always"], &["--mode", "stmt"]]
    {
        let report = check(&module, args(&[&["--dispatch", "2"][..], mode].concat())).expect("runs");
        let run = &report.runs[0];
        assert!(report.complete, "{flags:?} {mode:?}: {:?}", run.incomplete);
        let mut pairs: Vec<(u32, u32, String)> = run
            .races
            .iter()
            .filter(|r| r.class == RaceClass::BarrierKind)
            .map(|r| {
                (r.first.location.line.unwrap_or(0), r.second.location.line.unwrap_or(0), r.memory.variable.clone())
            })
            .collect();
        pairs.sort();
        pairs.dedup();
        // Statement mode reports every racing pair; addr mode the first
        // race of each word.
        let all = [(25, 31, "Data".to_string()), (31, 34, "Data".to_string())];
        if mode[1] == "stmt" {
            assert_eq!(pairs, all, "{mode:?}: {:?}", run.races);
        } else {
            assert!(pairs.contains(&all[0]) && pairs.iter().all(|p| all.contains(p)), "{mode:?}: {pairs:?}");
        }
        let race = run.races.iter().find(|r| r.class == RaceClass::BarrierKind).expect("a barrier-kind race");
        assert!(race.explanation.contains("this buffer's stores are private"), "{}", race.explanation);
        assert!(race.hint.starts_with("declare the buffer coherent"), "{}", race.hint);
    }

    // A coherent member beside a plain one: barriers order the coherent
    // member's accesses and not the plain one's stores, which the check
    // takes as ordered: the report says so.
    let module = compile("vmm_exchange", &[flags, &["-DMIXED"]].concat());
    let report = check(&module, args(&["--dispatch", "2"])).expect("runs");
    assert_eq!(report.verdict, Verdict::NoRace, "{:?}", report.runs[0].races);
    assert_eq!(report.runs[0].incomplete, [private_line("1 plain load(s) and store(s) of `Data`")]);
}

#[test]
fn under_the_vulkan_memory_model_no_barrier_orders_private_accesses_with_atomics() {
    require_gpu!();
    let flags = ["-g", "--target-env", "vulkan1.3"];
    // Coherent: the plain read is made visible, the atomics make their
    // writes available, and the barrier orders them.
    let module = compile("private_beside_atomic", &[&flags[..], &["-DCOHERENT"]].concat());
    let report = check(&module, args(&["--dispatch", "2"])).expect("runs");
    assert_eq!(report.verdict, Verdict::NoRace, "{:?}", report.runs[0].races);
    assert!(report.complete, "{:?}", report.runs[0].incomplete);

    // Plain buffer: the read is private, and races with the atomicAdd of the
    // other invocations of its workgroup across the barrier.
    let module = compile("private_beside_atomic", &flags);
    for mode in ["addr", "stmt"] {
        let report = check(&module, args(&["--dispatch", "1", "--mode", mode])).expect("runs");
        let run = &report.runs[0];
        assert!(report.complete, "{mode}: {:?}", run.incomplete);
        let races: Vec<(RaceClass, u32, u32)> = run
            .races
            .iter()
            .map(|r| (r.class, r.first.location.line.unwrap_or(0), r.second.location.line.unwrap_or(0)))
            .collect();
        assert_eq!(races, [(RaceClass::AtomicPlain, 19, 22)], "{mode}");
        let race = &run.races[0];
        assert_eq!(
            race.first.invocation.as_ref().map(|i| i.workgroup_id),
            race.second.invocation.as_ref().map(|i| i.workgroup_id)
        );
        assert!(race.explanation.contains("this buffer's plain accesses are private"), "{}", race.explanation);
    }
}

#[test]
fn a_subgroup_barrier_is_not_a_workgroup_barrier_for_the_divergence_check() {
    require_gpu!();
    // Only the subgroup waits at subgroupBarrier(): reaching it in one
    // subgroup of the workgroup is no divergence.
    let flags = ["-g", "--target-env", "vulkan1.3"];
    let report = check(&compile("subgroup_barrier_divergent", &flags), args(&["--dispatch", "1"])).expect("runs");
    let run = &report.runs[0];
    assert!(run.findings.is_empty(), "{:?}", run.findings);
    assert_eq!(report.verdict, Verdict::NoRace, "{:?}", run.races);
    // The happens-before engine follows the subgroup barrier.
    assert!(report.complete, "{:?}", run.incomplete);

    // barrier() in the same place is reached by one subgroup only.
    let report = check(
        &compile("subgroup_barrier_divergent", &[&flags[..], &["-DWORKGROUP_BARRIER"]].concat()),
        args(&["--dispatch", "1"]),
    )
    .expect("runs");
    let checks: Vec<_> = report.runs[0].findings.iter().map(|f| f.check.as_str()).collect();
    assert_eq!(checks, ["barrier-divergence"]);
}

#[test]
fn a_subgroup_barrier_orders_memory_within_its_subgroup_only() {
    require_gpu!();
    // Shared memory, or a buffer, exchanged across subgroupBarrier(): within
    // a subgroup, race-free; between subgroups, a `scope` race. In both
    // modes, with and without debug information.
    for debug in [true, false] {
        for memory in [&[][..], &["-DBUFFER"][..]] {
            let flags: Vec<&str> =
                [&["--target-env", "vulkan1.3"][..], if debug { &["-g"][..] } else { &[][..] }, memory].concat();
            let within = compile("subgroup_barrier_exchange", &flags);
            let across = compile("subgroup_barrier_exchange", &[&flags[..], &["-DACROSS"]].concat());
            for mode in ["addr", "stmt"] {
                let what = format!("{flags:?}, {mode}");
                let report = check(&within, args(&["--dispatch", "1", "--mode", mode])).expect("runs");
                assert!(report.complete, "{what}: {:?}", report.runs[0].incomplete);
                assert_eq!(report.verdict, Verdict::NoRace, "{what}: {:?}", report.runs[0].races);
                let report = check(&across, args(&["--dispatch", "1", "--mode", mode])).expect("runs");
                assert!(report.complete, "{what}: {:?}", report.runs[0].incomplete);
                let classes: Vec<RaceClass> = report.races().map(|r| r.class).collect();
                assert_eq!(classes, [RaceClass::Scope], "{what}");
                if debug {
                    assert_eq!(class_and_lines(&report.runs[0]), [(RaceClass::Scope, 19, 22)], "{what}");
                }
            }
        }
    }
}

#[test]
fn the_static_analyzer_proves_nothing_across_a_subgroup_barrier() {
    require_gpu!();
    let module = compile("subgroup_barrier_shared_word", &["-g", "--target-env", "vulkan1.3"]);
    let report = check(&module, args(&["--dispatch", "1"])).expect("runs");
    assert!(report.complete, "{:?}", report.runs[0].incomplete);
    let pairs: std::collections::BTreeSet<(u32, u32)> =
        class_and_lines(&report.runs[0]).iter().map(|&(_, a, b)| (a, b)).collect();
    // The writes with each other, and the reads with other subgroups'
    // writes.
    assert_eq!(pairs, [(17, 17), (17, 21)].into(), "{:?}", class_and_lines(&report.runs[0]));
    assert!(class_and_lines(&report.runs[0]).contains(&(RaceClass::Scope, 17, 21)));
}

#[test]
fn a_control_barrier_orders_memory_only_within_its_memory_scope() {
    require_gpu!();
    let flags = ["-g", "--target-env", "vulkan1.3"];
    let run = |define: &[&str]| {
        let module = compile("barrier_memory_scopes", &[&flags[..], define].concat());
        check(&module, args(&["--dispatch", "1"])).expect("runs")
    };
    // Of workgroup scope: the read is ordered after the other's write.
    let report = run(&[]);
    assert_eq!(report.verdict, Verdict::NoRace, "{:?}", report.runs[0].races);
    assert!(report.complete, "{:?}", report.runs[0].incomplete);
    assert_eq!(report.runs[0].barriers[0].kind, BarrierKind::Workgroup);

    // Of invocation scope: an execution barrier, which orders no memory.
    let report = run(&["-DINVOCATION"]);
    let run0 = &report.runs[0];
    assert!(report.complete, "{:?}", run0.incomplete);
    assert_eq!(run0.barriers[0].kind, BarrierKind::Execution);
    let pairs: Vec<_> = run0
        .races
        .iter()
        .map(|r| {
            (
                r.class,
                r.first.location.line.min(r.second.location.line),
                r.first.location.line.max(r.second.location.line),
            )
        })
        .collect();
    assert_eq!(pairs, [(RaceClass::IntraWorkgroup, Some(16), Some(28))]);

    // Of subgroup scope: it orders memory within each subgroup only, and
    // the read is of another subgroup's word: too narrow a scope.
    let report = run(&["-DSUBGROUP"]);
    assert!(report.complete, "{:?}", report.runs[0].incomplete);
    assert_eq!(class_and_lines(&report.runs[0]), [(RaceClass::Scope, 16, 28)]);
    // Where the happens-before engine, which follows such barriers, does not
    // run (more than 1,024 invocations), they are taken as ordering the
    // workgroup, and the report says so.
    let module = compile("barrier_memory_scopes", &[&flags[..], &["-DSUBGROUP"]].concat());
    let report = check(&module, args(&["--dispatch", "17"])).expect("runs");
    assert!(!report.complete);
    assert_eq!(
        report.runs[0].incomplete,
        ["1 control barrier(s) of workgroup execution scope have subgroup memory scope and are checked as ordering \
          memory across the workgroup: accesses of different subgroups that only such a barrier separates are taken \
          as ordered (the happens-before engine, which follows such barriers, did not run: the dispatch has 1088 \
          invocations, and the happens-before engine follows dispatches of at most 1024)"]
    );

    // An execution barrier that half the workgroup skips diverges, and
    // orders nothing.
    let report = run(&["-DDIVERGENT"]);
    let run0 = &report.runs[0];
    let checks: Vec<_> = run0.findings.iter().map(|f| f.check.as_str()).collect();
    assert_eq!(checks, ["barrier-divergence"]);
    assert_eq!(run0.barriers[0].kind, BarrierKind::Execution);
}

#[test]
fn barriers_of_subgroup_memory_scope_are_followed_beside_relaxed_atomics() {
    require_gpu!();
    // tests/data/spirv/subgroup_memory_barrier_counter.comp: a relaxed
    // counter beside an exchange across a barrier of subgroup memory scope.
    // The engine follows the barriers (the report is complete), for shared
    // memory, and the program whose atomics release and acquire, for the
    // buffers (the missing-fence check).
    let flags = ["-g", "--target-env", "vulkan1.3"];
    let compiled = |define: &[&str]| compile("subgroup_memory_barrier_counter", &[&flags[..], define].concat());
    for mode in ["addr", "stmt"] {
        let run = |module: &Path| check(module, args(&["--dispatch", "1", "--mode", mode])).expect("runs");
        let within = run(&compiled(&[]));
        assert!(within.complete, "{mode}: {:?}", within.runs[0].incomplete);
        assert_eq!(within.verdict, Verdict::NoRace, "{mode}: {:?}", within.runs[0].races);
        let across = run(&compiled(&["-DACROSS"]));
        assert!(across.complete, "{mode}: {:?}", across.runs[0].incomplete);
        assert_eq!(class_and_lines(&across.runs[0]), [(RaceClass::Scope, 16, 19)], "{mode}");
        assert!(across.runs[0].notes.is_empty(), "{mode}: {:?}", across.runs[0].notes);
        let unordered = run(&compiled(&["-DUNORDERED"]));
        assert!(unordered.complete, "{mode}: {:?}", unordered.runs[0].incomplete);
        let lines: Vec<(u32, u32)> = class_and_lines(&unordered.runs[0]).iter().map(|&(_, a, b)| (a, b)).collect();
        assert!(lines.contains(&(21, 24)), "{mode}: {lines:?}");
        assert!(unordered.runs[0].notes.is_empty(), "{mode}: {:?}", unordered.runs[0].notes);
    }
}

#[test]
fn subgroup_barriers_are_followed_beside_release_and_acquire_of_buffers() {
    require_gpu!();
    // tests/data/spirv/subgroup_barrier_message_passing.comp: message
    // passing between workgroups through fences, beside an exchange of a
    // buffer's words across subgroupBarrier(). The engine follows both, in
    // both modes.
    let flags = ["-g", "--target-env", "vulkan1.3"];
    let compiled = |define: &[&str]| compile("subgroup_barrier_message_passing", &[&flags[..], define].concat());
    for (define, expected) in [
        (&[][..], vec![]),
        (&["-DACROSS"], vec![(RaceClass::Scope, 24, 30)]),
        (&["-DNO_FENCE"], vec![(RaceClass::MissingFence, 39, 49)]),
        // Through shared memory, which the engine checks on clocks of its
        // own beside the buffers'.
        (&["-DSHARED"], vec![]),
    ] {
        let module = compiled(define);
        for mode in ["addr", "stmt"] {
            let report =
                check(&module, args(&["--dispatch", "2", "--fill", "Flag=zero", "--mode", mode])).expect("runs");
            let run = &report.runs[0];
            assert!(report.complete, "{define:?} {mode}: {:?}", run.incomplete);
            assert_eq!(class_and_lines(run), expected, "{define:?} {mode}");
            let noted = run.notes.iter().any(|n| n.starts_with("the module synchronizes"));
            assert!(!noted, "{define:?} {mode}: {:?}", run.notes);
        }
    }
}

#[test]
fn release_and_acquire_through_a_flag_in_shared_memory_order_buffers() {
    require_gpu!();
    // tests/data/spirv/shared_flag_message_passing.comp: within a
    // workgroup, a flag in shared memory whose atomics release and acquire
    // buffer memory orders a buffer's write and read. The engine follows
    // atomics of workgroup memory (each workgroup's copy on locations of its
    // own), in both modes (two workgroups, each passing its own message).
    let flags = ["-g", "--target-env", "vulkan1.3"];
    let module = compile("shared_flag_message_passing", &flags);
    complete_in_both_modes(&module, &["--dispatch", "2"], &[], &[], "buffer data");
    // Without semantics nothing orders them: a race between the data's
    // write and read, the missing-fence check's (the same program with the
    // flag's atomics releasing and acquiring orders it).
    let relaxed = compile("shared_flag_message_passing", &[&flags[..], &["-DRELAXED"]].concat());
    for mode in ["addr", "stmt"] {
        let report = check(&relaxed, args(&["--dispatch", "2", "--mode", mode])).expect("runs");
        assert!(report.complete, "{mode}: {:?}", report.runs[0].incomplete);
        assert_eq!(class_and_lines(&report.runs[0]), [(RaceClass::MissingFence, 39, 44)], "{mode}");
    }
    // Release and acquire of shared memory itself: the engine checks
    // shared memory on clocks of its own, which synchronization naming
    // shared memory orders (and naming buffers too), and naming buffers
    // only does not: a race, the missing-fence check's, as is the same
    // protocol with relaxed atomics (whose explanation speaks of shared
    // memory).
    let missing_fence = vec![(RaceClass::MissingFence, 39, 44)];
    for (defines, expected) in [
        (&["-DSHARED_DATA"][..], vec![]),
        (&["-DSHARED_DATA", "-DBOTH"][..], vec![]),
        (&["-DSHARED_DATA", "-DWRONG_MEMORY"][..], missing_fence.clone()),
        (&["-DSHARED_DATA", "-DRELAXED"][..], missing_fence),
    ] {
        let module = compile("shared_flag_message_passing", &[&flags[..], defines].concat());
        for mode in ["addr", "stmt"] {
            let report = check(&module, args(&["--dispatch", "2", "--mode", mode])).expect("runs");
            let run = &report.runs[0];
            assert!(report.complete, "{defines:?} {mode}: {:?}", run.incomplete);
            assert_eq!(class_and_lines(run), expected, "{defines:?} {mode}");
            assert!(run.notes.is_empty(), "{defines:?} {mode}: {:?}", run.notes);
            if let Some(race) = run.races.first() {
                assert!(race.explanation.contains("(no Release or Acquire semantics on WorkgroupMemory)"), "{race:?}");
                assert!(race.hint.contains("gl_StorageSemanticsShared, gl_SemanticsRelease"), "{race:?}");
            }
        }
    }
}

#[test]
fn atomic_and_plain_accesses_of_shared_memory_race_unless_ordered() {
    require_gpu!();
    // tests/data/spirv/shared_word_atomic_and_plain.comp: a shared counter
    // cleared and read with plain accesses, added to atomically. Barriers
    // order the three (the atomic-plain check's state within each
    // workgroup counts the barriers that order workgroup memory); without
    // one, the atomics and the plain access race. A flag whose release and
    // acquire name shared memory orders a plain store before an atomicAdd
    // (the happens-before engine checks the word's atomics then); with the
    // store after the release, or relaxed atomics, they race. Every report
    // is complete, in both modes.
    let unclassed = "the missing-fence check did not look at `count`: a race there that a flag or lock of relaxed \
                     atomics leaves unordered (one that release/acquire semantics would order) is reported under its \
                     data-race or atomic-plain class";
    let atomic_plain = |first, second| vec![(RaceClass::AtomicPlain, first, second)];
    for (defines, expected, notes) in [
        (&[][..], vec![], vec![]),
        (&["-DNO_CLEAR_BARRIER"][..], atomic_plain(29, 33), vec![unclassed]),
        (&["-DNO_READ_BARRIER"][..], atomic_plain(33, 37), vec![unclassed]),
        (&["-DFLAG"][..], vec![], vec![]),
        (&["-DFLAG", "-DSTORE_AFTER"][..], atomic_plain(46, 51), vec![]),
        (&["-DFLAG", "-DRELAXED"][..], atomic_plain(42, 51), vec![unclassed]),
    ] {
        let module = compile("shared_word_atomic_and_plain", &[&["-g"][..], defines].concat());
        let flags = ["--dispatch", "2", "--buffer", "totals=128"];
        for report in complete_in_both_modes(&module, &flags, &expected, &notes, &format!("{defines:?}")) {
            if let Some(race) = report.runs[0].races.first() {
                assert_eq!(race.explanation, wgrace_instrument::checks::atomic_plain::SHARED_EXPLANATION);
                assert_eq!(race.hint, wgrace_instrument::checks::atomic_plain::SHARED_HINT);
            }
        }
    }
}

#[test]
fn a_flag_of_relaxed_buffer_atomics_ordering_shared_data_is_a_missing_fence_race() {
    require_gpu!();
    // tests/data/spirv/buffer_flag_shared_data.comp: a flag in a buffer,
    // the data in shared memory. Its release and acquire (naming shared
    // memory) order the data; relaxed, they do not, and the engine, which
    // runs for the missing-fence check alone, follows shared memory too: a
    // missing-fence race. Where the engine also runs for release/acquire
    // synchronization elsewhere (-DCOUNTED) it does not follow shared memory
    // for relaxed buffer atomics: the race is intra-workgroup, and a note
    // says the missing-fence check did not look at `data`. The flags start
    // at zero: with the default fill flags[1] is 1 before any store, and
    // where the reader runs first (the H100) workgroup 1's read races.
    let not_looked = "the missing-fence check did not look at `data`: a race there that a flag or lock of relaxed \
                      atomics leaves unordered (one that release/acquire semantics would order) is reported under its \
                      data-race or atomic-plain class";
    for (defines, expected, notes) in [
        (&[][..], vec![], vec![]),
        (&["-DCOUNTED"][..], vec![], vec![]),
        (&["-DRELAXED"][..], vec![(RaceClass::MissingFence, 28, 33)], vec![]),
        (&["-DRELAXED", "-DCOUNTED"][..], vec![(RaceClass::IntraWorkgroup, 28, 33)], vec![not_looked]),
    ] {
        let module = compile("buffer_flag_shared_data", &[&["-g", "--target-env", "vulkan1.3"][..], defines].concat());
        let flags = ["--dispatch", "2", "--fill", "Flags=zero"];
        complete_in_both_modes(&module, &flags, &expected, &notes, &format!("{defines:?}"));
    }
}

#[test]
fn fences_order_through_atomics_without_the_vulkan_memory_model() {
    require_gpu!();
    // samples/corpus/spirv/glsl450_*.comp: GLSL without
    // `#pragma use_vulkan_memory_model`, whose atomics carry no semantics.
    // memoryBarrierBuffer() around them passes messages and totals between
    // workgroups; without it, or with groupMemoryBarrier() (workgroup
    // scope), the data race, named after what they lacked. The engine
    // follows them in both modes, with no note that a race may not be one.
    let corpus = wgrace_tests::samples_dir().join("corpus/spirv");
    for mode in ["addr", "stmt"] {
        for (kernel, fill, expected) in [
            ("glsl450_message_passing_fences", "Flag=zero", vec![]),
            ("glsl450_message_passing_no_fences", "Flag=zero", vec![(RaceClass::MissingFence, 18, 22)]),
            ("glsl450_message_passing_group_fences", "Flag=zero", vec![(RaceClass::Scope, 21, 27)]),
            ("glsl450_last_workgroup_reduction", "Count=zero", vec![]),
            ("glsl450_last_workgroup_reduction_no_fence", "Count=zero", vec![(RaceClass::MissingFence, 14, 20)]),
        ] {
            let dispatch = if kernel.contains("reduction") { "4" } else { "2" };
            let flags = ["--dispatch", dispatch, "--fill", fill, "--mode", mode];
            let report = check(&corpus.join(format!("{kernel}.spv")), args(&flags)).expect("runs");
            let run = &report.runs[0];
            assert!(report.complete, "{kernel} {mode}: {:?}", run.incomplete);
            let noted = run.notes.iter().any(|n| n.starts_with("the module synchronizes"));
            assert!(!noted, "{kernel} {mode}: {:?}", run.notes);
            // The engine runs for the missing-fence check alone here. On a
            // busy machine every try of it can leave something unfollowed
            // (a workgroup's thread preempted while it holds a location's
            // lock makes the other give up waiting: 3 runs of
            // glsl450_message_passing_no_fences in 80 beside a corpus run,
            // 2026-12-01); the shader is then checked without it, and the
            // race keeps its data-race class, with a note saying so.
            // (Each workgroup is one invocation: a data-race class is
            // inter-workgroup.)
            let given_way = run
                .notes
                .iter()
                .any(|n| n.starts_with("the missing-fence check did not run: its happens-before engine"));
            let races = class_and_lines(run);
            if given_way {
                let classed = expected.iter().map(|&(_, a, b)| (RaceClass::InterWorkgroup, a, b)).collect::<Vec<_>>();
                assert_eq!(races, classed, "{kernel} {mode}");
                continue;
            }
            assert_eq!(races, expected, "{kernel} {mode}");
        }
    }
}

#[test]
fn a_fence_in_a_loop_is_checked_in_place_on_lavapipe() {
    require_gpu!();
    let flags = ["-g", "--target-env", "vulkan1.3"];
    // Recorded for the replay as asked, unless the adapter loses private
    // variables across fences in loops; outside a loop, recorded either way.
    let replays = |module: &Path, lossy: bool| {
        let shader = wgrace_instrument::Shader::load(module).expect("loads");
        let prepared =
            wgrace_instrument::prepare(&shader, Some("main"), &[], wgrace::SHADER_CAPABILITIES).expect("prepares");
        let options = wgrace_instrument::InstrumentOptions {
            replay: wgrace_instrument::Replay::Always,
            fences_lose_private_variables: lossy,
            ..wgrace_instrument::InstrumentOptions::default()
        };
        let inst =
            wgrace_instrument::instrument(&shader, &prepared.module, &prepared.info, &prepared.entry_point, &options)
                .expect("instruments");
        (inst.memory_barrier_in_loop, inst.prelude.replays())
    };
    let in_loop = compile("fence_in_loop", &flags);
    assert_eq!(replays(&in_loop, false), (true, true));
    assert_eq!(replays(&in_loop, true), (true, false));
    let no_loop = compile("fence_in_loop", &[&flags[..], &["-DNO_LOOP"]].concat());
    assert_eq!(replays(&no_loop, true), (false, true));

    // Both ways, the race is found, and on lavapipe the report says why it
    // was checked in place.
    for replay in ["always", "never"] {
        let report = check(&in_loop, args(&["--replay", replay])).expect("runs");
        assert_eq!(report.verdict, Verdict::Race, "--replay {replay}");
        let lavapipe = report.runs[0].adapter.as_ref().is_some_and(|a| a.name.starts_with("llvmpipe"));
        let noted = report.runs[0].notes.iter().any(|n| n.starts_with("lavapipe (Mesa 22.3) can lose private"));
        assert_eq!(noted, lavapipe, "{:?}", report.runs[0].notes);
    }
}

#[test]
fn workgroup_scope_atomics_used_by_several_workgroups_are_scope_races() {
    require_gpu!();
    let dispatch = args(&["--dispatch", "4"]);
    let report = check(&compile("scoped_atomics", &["-g"]), dispatch.clone()).expect("runs");
    let json = serde_json::to_value(&report).expect("serialises");
    let errors: Vec<String> = crate::formats::report_schema().iter_errors(&json).map(|e| e.to_string()).collect();
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(report.verdict, Verdict::Race);
    let races: Vec<_> = report.races().collect();
    assert_eq!(races.len(), 1, "{races:#?}");
    let race = races[0];
    assert_eq!((race.class, race.kind), (RaceClass::Scope, RaceKind::WriteWrite));
    assert_eq!((race.memory.element.as_str(), race.memory.byte_offset), ("Counters.total", 0));
    for access in [&race.first, &race.second] {
        assert_eq!(access.location.line, Some(23));
        assert_eq!(access.access, AccessKind::Write);
    }
    let [a, b] = [&race.first, &race.second].map(|a| a.invocation.expect("recorded").workgroup_id);
    assert_ne!(a, b, "a scope race is between workgroups");
    assert_eq!(json["runs"][0]["races"][0]["class"], "scope");
    let run = &report.runs[0];
    assert_eq!(run.checked.atomic_checked_sites, 3);
    assert!(report.complete, "{:?}", run.incomplete);
    let text = wgrace::print::text(&report, false);
    assert!(text.contains("error[scope]: data race (write-write) on storage variable `Counters`"), "{text}");
    assert!(text.contains("3 atomic sites checked,"), "{text}");
    let sarif: serde_json::Value = serde_json::from_str(&wgrace::sarif::sarif(&report)).expect("parses");
    assert_eq!(sarif["runs"][0]["results"][0]["properties"]["classes"][0], "scope");
    assert_eq!(sarif["runs"][0]["results"][0]["ruleId"], "scope");
    let rules = &sarif["runs"][0]["tool"]["driver"]["rules"];
    let index = sarif["runs"][0]["results"][0]["ruleIndex"].as_u64().expect("a rule index") as usize;
    assert_eq!(rules[index]["id"], "scope");

    // Within one workgroup of one subgroup: atomics of subgroup scope are
    // mutually ordered; of invocation scope, with no other invocation's.
    let one = args(&["--dispatch", "1"]);
    let subgroup = check(&compile("scoped_atomics", &["-g", "-DONE_SUBGROUP", "-DSUBGROUP_SCOPE"]), one.clone());
    let subgroup = subgroup.expect("runs");
    assert_eq!(subgroup.verdict, Verdict::NoRace, "{:#?}", subgroup.runs[0].races);
    assert!(subgroup.complete, "{:?}", subgroup.runs[0].incomplete);
    for mode in ["addr", "stmt"] {
        let flags = ["-g", "-DONE_SUBGROUP", "-DINVOCATION_SCOPE"];
        let report =
            check(&compile("scoped_atomics", &flags), args(&["--dispatch", "1", "--mode", mode])).expect("runs");
        let races: Vec<_> = report.races().collect();
        assert_eq!(races.len(), 1, "{mode}: {races:#?}");
        assert_eq!(
            (races[0].class, races[0].first.location.line, races[0].second.location.line),
            (RaceClass::Scope, Some(21), Some(21))
        );
        let [a, b] = [&races[0].first, &races[0].second].map(|a| a.invocation.expect("recorded"));
        assert_ne!(a.local_invocation_id, b.local_invocation_id, "{mode}");
        assert!(report.complete, "{mode}: {:?}", report.runs[0].incomplete);
    }
    // Across workgroups and subgroups as well.
    let report = check(&compile("scoped_atomics", &["-g", "-DINVOCATION_SCOPE"]), dispatch.clone()).expect("runs");
    assert_eq!(report.races().map(|r| r.class).collect::<Vec<_>>(), [RaceClass::Scope]);
    assert!(report.complete, "{:?}", report.runs[0].incomplete);

    // At device scope the shared counter is fine; the per-workgroup words
    // still have workgroup-scope atomics, and race with nothing.
    let device = compile("scoped_atomics", &["-g", "-DDEVICE_SCOPE"]);
    let report = check(&device, dispatch).expect("runs");
    assert_eq!(report.verdict, Verdict::NoRace, "{:#?}", report.runs[0].races);
    assert_eq!(report.runs[0].checked.atomic_checked_sites, 3);

    // The instrumented module computes what the original does.
    let flags = ["--dispatch", "4", "--fill", "Counters=zero"];
    let (shader, _, spec) = wgrace::load_with_flags(&device, args(&flags)).expect("loads");
    let checked = crate::support::check_shader(&shader, &spec, &CheckSet::default()).expect("runs");
    let output = &checked.outputs[0];
    let index = output.buffers.iter().position(|b| b.name == "Counters").expect("Counters");
    let instrumented: Vec<u32> =
        output.contents[index].chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
    assert_eq!(instrumented, run_native(&device, &flags, "Counters"));
    assert_eq!(instrumented, [64, 16, 16, 16, 16]);
}

#[test]
fn plain_and_atomic_accesses_within_a_workgroup_are_checked_where_their_state_fits() {
    require_gpu!();
    // The plain clear (line 24) and the atomicAdd (line 26) race within each
    // workgroup, and across workgroups (every workgroup touches the same
    // eight words).
    let within = "within one workgroup are not checked (across workgroups they are)";
    for (define, line) in [
        ("-DSMALL", None),
        (
            "-DSMALL -DFULL_SHARED",
            Some(format!(
                "races between plain and atomic accesses of `Data` {within}: checking them would take 576 bytes of \
             workgroup memory (72 per word), more than the 0 left"
            )),
        ),
        (
            "-DRUNTIME",
            Some(format!(
                "races between plain and atomic accesses of `Data` {within}: they index a runtime-sized array"
            )),
        ),
        (
            "-DLARGE",
            Some(format!(
                "races between plain and atomic accesses of `Data` {within}: checking them would take 73728 bytes of \
             workgroup memory (72 per word), more than the 4096 left"
            )),
        ),
    ] {
        let defines: Vec<&str> = define.split(' ').collect();
        let module = compile("plain_beside_atomic_array", &[&["-g"][..], &defines].concat());
        // Shared memory filled up to 32 bytes short of the adapter's limit.
        let filler = format!("FILLER={}", (gpu().device.limits().max_compute_workgroup_storage_size - 32) / 4);
        let flags: &[&str] = match define {
            "-DRUNTIME" => &["--dispatch", "2", "--buffer", "counts=8"],
            "-DSMALL -DFULL_SHARED" => &["--dispatch", "2", "--override", &filler],
            _ => &["--dispatch", "2"],
        };
        let report = check(&module, args(flags)).expect("runs");
        let run = &report.runs[0];
        assert_eq!(run.incomplete, line.into_iter().collect::<Vec<_>>(), "{define}");
        let lines: Vec<_> = report
            .races()
            .filter(|r| r.class == RaceClass::AtomicPlain)
            .map(|r| (r.first.location.line, r.second.location.line))
            .collect();
        assert_eq!(lines, [(Some(24), Some(26))], "{define}");
        let sarif: serde_json::Value = serde_json::from_str(&wgrace::sarif::sarif(&report)).expect("parses");
        let rules: Vec<&str> = sarif["runs"][0]["results"]
            .as_array()
            .expect("results")
            .iter()
            .filter_map(|r| r["ruleId"].as_str())
            .collect();
        assert!(rules.contains(&"atomic-plain"), "{define}: {rules:?}");
    }
}

#[test]
fn release_and_acquire_order_accesses_between_workgroups() {
    require_gpu!();
    // tests/data/spirv/release_acquire.comp: message passing both ways
    // between two workgroups; the data written at line 20, read at 30 once
    // the other's flag (stored at 24, loaded at 26) was seen.
    let data = |class| (class, 20, 30);
    let flags = (RaceClass::Scope, 24, 26);
    for (defines, expected) in [
        // Device-scope release and acquire, through the atomics or through
        // fences around relaxed ones: each write happens before its read.
        (&["-DSCOPE=gl_ScopeDevice"][..], vec![]),
        (&["-DSCOPE=gl_ScopeDevice", "-DFENCES"], vec![]),
        // Relaxed flags order nothing; release and acquire would
        // (missing-fence), and so would the acquire fence left out.
        (&["-DSCOPE=gl_ScopeDevice", "-DRELAXED"], vec![data(RaceClass::MissingFence)]),
        (&["-DSCOPE=gl_ScopeDevice", "-DFENCES", "-DNO_ACQUIRE_FENCE"], vec![data(RaceClass::MissingFence)]),
        // Workgroup-scope flags or fences do not reach the other workgroup:
        // the data races, as device scope would order it (scope), and the
        // flags' atomics race too.
        (&["-DSCOPE=gl_ScopeWorkgroup"], vec![data(RaceClass::Scope), flags]),
        (&["-DSCOPE=gl_ScopeWorkgroup", "-DFENCES"], vec![data(RaceClass::Scope), flags]),
        // Narrow and relaxed: neither device scope nor release and acquire
        // alone would order the data.
        (&["-DSCOPE=gl_ScopeWorkgroup", "-DRELAXED"], vec![data(RaceClass::InterWorkgroup), flags]),
    ] {
        let module = compile("release_acquire", &[&["-g", "--target-env", "vulkan1.3"][..], defines].concat());
        for mode in ["addr", "stmt"] {
            let flags = ["--dispatch", "2", "--fill", "Flag=zero", "--mode", mode];
            let report = check(&module, args(&flags)).expect("runs");
            let run = &report.runs[0];
            assert!(report.complete, "{defines:?} {mode}: {:?}", run.incomplete);
            assert_eq!(run.stats.happens_before_unchecked, 0, "{defines:?} {mode}");
            // No note that a race may not be one (lavapipe's note on fences
            // in loops aside).
            let noted = run.notes.iter().any(|n| n.starts_with("the module synchronizes"));
            assert!(!noted, "{defines:?} {mode}: {:?}", run.notes);
            let races = class_and_lines(run);
            // Relaxed device-scope flags: the engine runs for the
            // missing-fence check alone. Where its run leaves something
            // unchecked (on lavapipe, a workgroup's thread preempted while
            // it holds a location's lock, on a busy machine, makes the other
            // give up waiting for it) wgrace checks again without it, or
            // where the strong program cannot decide an acquire, the race
            // stands, its class is the data race's, and a note says so.
            let given_way = run.notes.iter().any(|n| n.starts_with("the missing-fence check did not run"));
            let degraded = given_way || run.stats.race_classes_unsure > 0;
            if degraded && expected == [data(RaceClass::MissingFence)] && defines.contains(&"-DRELAXED") {
                assert_eq!(races, [data(RaceClass::InterWorkgroup)], "{defines:?} {mode}");
                continue;
            }
            assert_eq!(races, expected, "{defines:?} {mode}");
            // The text report names the class.
            if defines.contains(&"-DRELAXED") && defines.contains(&"-DSCOPE=gl_ScopeDevice") {
                let text = wgrace::print::text(&report, false);
                let header = "error[missing-fence]: data race (read-write) on storage variable `Data`";
                assert!(text.lines().any(|l| l == header), "{defines:?} {mode}: {text}");
            }
            // Each class explains itself in SPIR-V's terms: the flags' race
            // as the happens-before engine judged it where the module
            // releases and acquires (it found nothing ordering them as plain
            // accesses), and as the scope check's state machines did where
            // it does not (no barrier between them).
            let relaxed = defines.contains(&"-DRELAXED");
            for race in &run.races {
                let (start, marker) = match (race.class, race.memory.variable.as_str()) {
                    (RaceClass::MissingFence, _) => ("a flag or lock orders these accesses only if its atomics", ""),
                    (RaceClass::Scope, "Data") => {
                        ("the accesses are ordered only through synchronization whose scope", "")
                    }
                    (RaceClass::Scope, _) if relaxed => ("atomic accesses of one word", "with no barrier between"),
                    (RaceClass::Scope, _) => {
                        ("atomic accesses of one word", "that nothing orders as it would order plain accesses")
                    }
                    _ => ("different workgroups of one dispatch", ""),
                };
                assert!(race.explanation.starts_with(start), "{defines:?} {mode}: {}", race.explanation);
                assert!(race.explanation.contains(marker), "{defines:?} {mode}: {}", race.explanation);
            }
        }
    }
}

#[test]
fn a_buffer_whose_stores_are_private_races_whatever_the_synchronization() {
    require_gpu!();
    // tests/data/spirv/private_message_passing.comp: workgroup 0 writes the
    // data (line 19) and releases a flag; workgroup 1 acquires it and reads
    // the data (line 24). Without `coherent` the data's stores are private,
    // which release and acquire do not order: an inter-workgroup race, and a
    // note that says why it is one, never that it may not be.
    let private_note = "races on `Data` are races whatever the module's synchronization: under the Vulkan memory \
                        model the module declares, the buffer's plain stores (beside atomics, its plain accesses) \
                        are private";
    let flags = ["--dispatch", "2", "--fill", "Flag=zero"];
    for (defines, expected) in [
        (&["-DSCOPE=gl_ScopeDevice"][..], vec![(RaceClass::InterWorkgroup, 19, 24)]),
        // A flag of workgroup scope across workgroups races too.
        (&["-DSCOPE=gl_ScopeWorkgroup"], vec![(RaceClass::InterWorkgroup, 19, 24), (RaceClass::Scope, 20, 23)]),
        (&["-DSCOPE=gl_ScopeDevice", "-DCOHERENT"], vec![]),
    ] {
        let module = compile("private_message_passing", &[&["-g", "--target-env", "vulkan1.3"][..], defines].concat());
        let report = check(&module, args(&flags)).expect("runs");
        let run = &report.runs[0];
        assert!(report.complete, "{defines:?}: {:?}", run.incomplete);
        assert_eq!(class_and_lines(run), expected, "{defines:?}");
        let maybe = run.notes.iter().any(|n| n.starts_with("the module synchronizes"));
        assert!(!maybe, "{defines:?}: {:?}", run.notes);
        let noted = run.notes.iter().filter(|n| n.starts_with(private_note)).count();
        assert_eq!(noted, usize::from(!expected.is_empty()), "{defines:?}: {:?}", run.notes);
    }
}

#[test]
fn accesses_under_no_common_lock_are_lockset_races() {
    require_gpu!();
    // tests/data/spirv/spin_lock.comp: two workgroups write the data (line
    // 26 under the lock, line 20 without one) holding a spin lock that
    // acquires and releases.
    for (defines, expected) in [
        // One lock: the lock orders the writes.
        (&["-DLOCK=0"][..], vec![]),
        // Another lock, or none: the lock orders nothing between them.
        (&["-DLOCK=1"][..], vec![(RaceClass::Lockset, 26, 26)]),
        (&["-DNO_LOCK"][..], vec![(RaceClass::Lockset, 20, 26)]),
    ] {
        let module = compile("spin_lock", &[&["-g", "--target-env", "vulkan1.3"][..], defines].concat());
        for mode in ["addr", "stmt"] {
            let flags = ["--dispatch", "2", "--fill", "Lock=zero", "--mode", mode];
            let report = check(&module, args(&flags)).expect("runs");
            let run = &report.runs[0];
            assert!(report.complete, "{defines:?} {mode}: {:?}", run.incomplete);
            let races = class_and_lines(run);
            assert_eq!(races, expected, "{defines:?} {mode}");
            if !expected.is_empty() {
                let text = wgrace::print::text(&report, false);
                let header = "error[lockset]: data race (write-write) on storage variable `Data`";
                assert!(text.lines().any(|l| l == header), "{defines:?} {mode}: {text}");
            }
            for race in &run.races {
                assert_eq!(race.class.check(), "lockset");
                assert!(race.explanation.starts_with("the invocations held no lock in common"), "{}", race.explanation);
                assert!(race.hint.starts_with("make both accesses while holding the same lock"), "{}", race.hint);
            }
        }
    }
}

#[test]
fn a_compare_exchange_nothing_frees_takes_no_lock() {
    require_gpu!();
    // tests/data/spirv/claimed_slot.comp: each workgroup claims a slot of
    // its own with a compare-exchange from 0 that nothing frees, then both
    // write the data (line 13).
    let module = compile("claimed_slot", &["-g", "--target-env", "vulkan1.3"]);
    let report = check(&module, args(&["--dispatch", "2", "--fill", "Slots=zero"])).expect("runs");
    let run = &report.runs[0];
    assert!(report.complete, "{:?}", run.incomplete);
    let races: Vec<(RaceClass, Option<u32>)> = run.races.iter().map(|r| (r.class, r.first.location.line)).collect();
    assert_eq!(races, [(RaceClass::InterWorkgroup, Some(13))]);
}

#[test]
fn atomics_the_engine_follows_run_between_fences() {
    // naga's reader makes every atomic relaxed: in the instrumented module
    // each atomic the engine follows runs, under its location's lock,
    // between two fences of device scope that acquire and release buffer
    // memory, so that the module is at least as strong as the original.
    // (Not on lavapipe, which loses private variables across fences in
    // loops, and whose atomics need none.)
    let module = compile("spin_lock", &["-g", "--target-env", "vulkan1.3"]);
    let shader = wgrace_instrument::Shader::load(&module).expect("loads");
    let prepared =
        wgrace_instrument::prepare(&shader, Some("main"), &[], wgrace::SHADER_CAPABILITIES).expect("prepares");
    let instrument = |lossy: bool| {
        let options = wgrace_instrument::InstrumentOptions {
            workgroups: 2,
            fences_lose_private_variables: lossy,
            ..wgrace_instrument::InstrumentOptions::default()
        };
        wgrace_instrument::instrument(&shader, &prepared.module, &prepared.info, &prepared.entry_point, &options)
            .expect("instruments")
    };
    let fences = |m: &naga::Module| {
        let mut n = 0;
        let mut count = |block: &naga::Block| {
            n += format!("{block:?}").matches("MemoryBarrier(").count();
        };
        m.functions.iter().for_each(|(_, f)| count(&f.body));
        m.entry_points.iter().for_each(|e| count(&e.function.body));
        n
    };
    assert_eq!(fences(&instrument(true).module), 0);
    let inst = instrument(false);
    let m = &inst.module;
    let named = |name: &str| m.functions.iter().find(|(_, f)| f.name.as_deref() == Some(name)).map(|(h, _)| h);
    let (try_lock, unlock) =
        (named("wgrace_hb_try_lock").expect("try_lock"), named("wgrace_hb_unlock").expect("unlock"));
    // The locked branches: the block of each `if wgrace_hb_try_lock(..)`.
    fn branches<'a>(block: &'a naga::Block, try_lock: naga::Handle<naga::Function>, out: &mut Vec<&'a naga::Block>) {
        let mut taken = false;
        for s in block.iter() {
            match s {
                naga::Statement::Call { function, .. } => taken = *function == try_lock,
                naga::Statement::If { accept, reject, .. } => {
                    if taken {
                        out.push(accept);
                    }
                    branches(accept, try_lock, out);
                    branches(reject, try_lock, out);
                }
                naga::Statement::Loop { body, continuing, .. } => {
                    branches(body, try_lock, out);
                    branches(continuing, try_lock, out);
                }
                naga::Statement::Block(b) => branches(b, try_lock, out),
                naga::Statement::Switch { cases, .. } => cases.iter().for_each(|c| branches(&c.body, try_lock, out)),
                _ => {}
            }
        }
    }
    let mut locked = Vec::new();
    for (_, f) in m.functions.iter() {
        branches(&f.body, try_lock, &mut locked);
    }
    branches(&m.entry_points[0].function.body, try_lock, &mut locked);
    // The compare-exchange and the store of the lock.
    assert_eq!(locked.len(), 2);
    let fence = |s: &naga::Statement| matches!(s, naga::Statement::MemoryBarrier(b) if *b == naga::Barrier::STORAGE);
    for block in locked {
        let statements: Vec<&naga::Statement> = block.iter().collect();
        let n = statements.len();
        assert!(fence(statements[0]), "{statements:?}");
        assert!(n >= 2 && fence(statements[n - 2]), "{statements:?}");
        assert!(matches!(statements[n - 1], naga::Statement::Call { function, .. } if *function == unlock));
        let atomics =
            statements.iter().filter(|s| matches!(s, naga::Statement::Atomic { .. } | naga::Statement::Store { .. }));
        assert!(atomics.count() >= 1, "{statements:?}");
        // The branch does not leave the loop (below).
        assert!(!statements.iter().any(|s| matches!(s, naga::Statement::Break)), "{statements:?}");
    }
    // Each lock's loop ends after the branch (`break if` the lock was
    // taken), so that the winner and the invocations of its subgroup that
    // lost meet after it before they try again: with a `break` in the
    // branch, NVIDIA's driver ran the losers' tries first, all of them.
    let debug = format!("{:?}", m.entry_points[0].function.body)
        + &m.functions.iter().map(|(_, f)| format!("{:?}", f.body)).collect::<String>();
    assert_eq!(debug.matches("break_if: Some(").count(), 2, "{debug}");
}

#[test]
fn release_and_acquire_through_runtime_sized_buffers_are_followed_at_the_run_s_lengths() {
    require_gpu!();
    // samples/corpus/spirv/message_passing_runtime_sized*.comp: data and
    // flags in runtime-sized arrays, the data written at line 20 and read at
    // 24. The engine follows them at the lengths --buffer gives, in both
    // modes; where its state would take more than 128 MiB it does not run,
    // and the report says why.
    let corpus = wgrace_tests::samples_dir().join("corpus/spirv");
    let sized = |flags: &str, data: &str| {
        let buffer = |name: &str, len: &str| format!("{name}={len}");
        let (f, m, s) = (buffer("Flag", flags), buffer("Message", data), buffer("Seen", data));
        args(&["--dispatch", "2", "--fill", "Flag=zero", "--buffer", &f, "--buffer", &m, "--buffer", &s])
    };
    for mode in ["addr", "stmt"] {
        let in_mode = |len| RunArgs { mode: Some(mode.parse().expect("mode")), ..sized(len, len) };
        let fenced = check(&corpus.join("message_passing_runtime_sized.spv"), in_mode("1000")).expect("runs");
        assert_eq!(class_and_lines(&fenced.runs[0]), [], "{mode}");
        assert!(fenced.runs[0].notes.is_empty() && fenced.complete, "{mode}: {:?}", fenced.runs[0].notes);
        let relaxed = check(&corpus.join("message_passing_runtime_sized_relaxed.spv"), in_mode("1000")).expect("runs");
        assert_eq!(class_and_lines(&relaxed.runs[0]), [(RaceClass::MissingFence, 20, 24)], "{mode}");
    }
    // Tens of thousands of words of data and thousands of atomic words, as
    // long as its state fits in 128 MiB.
    let large = check(&corpus.join("message_passing_runtime_sized.spv"), sized("5000", "70000")).expect("runs");
    assert_eq!(class_and_lines(&large.runs[0]), []);
    assert!(large.runs[0].notes.is_empty() && large.complete, "{:?}", large.runs[0].notes);
    let beyond = check(&corpus.join("message_passing_runtime_sized.spv"), sized("2", "600000")).expect("runs");
    assert_eq!(class_and_lines(&beyond.runs[0]), [(RaceClass::InterWorkgroup, 20, 24)]);
    let note = &beyond.runs[0].notes[0];
    assert!(
        note.contains("(following it over 2 invocations, 2 atomic words and 600000 words of memory to check takes ")
            && note.ends_with(" MiB of state, more than the 128 MiB wgrace gives it)"),
        "{note}"
    );
}

#[test]
fn data_in_a_block_with_its_flags_is_ordered_by_them() {
    require_gpu!();
    // tests/data/spirv/flags_beside_data.comp: flags and data in one block,
    // the data written at line 32 and read at 36, the flag loaded at 35.
    // The engine follows the block's plain words beside its atomic ones,
    // and, where a word is accessed both ways in a module that releases and
    // acquires, the atomics' accesses of it against the plain ones (the
    // atomic-plain check's races).
    let compile_as =
        |defines: &[&str]| compile("flags_beside_data", &[&["-g", "--target-env", "vulkan1.3"][..], defines].concat());
    let flags = || args(&["--dispatch", "2", "--fill", "Message=zero", "--buffer", "Message=2", "--buffer", "Seen=2"]);
    type Case = (&'static [&'static str], &'static [(RaceClass, u32, u32)]);
    let cases: [Case; 5] = [
        (&[], &[]),
        (&["-DRELAXED"], &[(RaceClass::MissingFence, 32, 36)]),
        // A plain load of a flag word that only atomic loads share.
        (&["-DPLAIN_READ"], &[]),
        // A plain store of a flag word that the other workgroup may still
        // be loading.
        (&["-DPLAIN_WRITE"], &[(RaceClass::AtomicPlain, 35, 41)]),
        // The data read with an atomic load, after the flag's acquire.
        (&["-DATOMIC_DATA"], &[]),
    ];
    for (defines, expected) in cases {
        let module = compile_as(defines);
        for mode in ["addr", "stmt"] {
            // lavapipe ends every loop of an invocation after 65,535
            // iterations in all, and a workgroup that spins long on a busy
            // machine, its locks contended, gets there: the engine then
            // counts what it could not follow, and the report, incomplete,
            // may miss or invent a race. The verdict is judged on a complete
            // report (a few runs at most).
            let run_in_mode = || {
                let in_mode = RunArgs { mode: Some(mode.parse().expect("mode")), ..flags() };
                check(&module, in_mode).expect("runs")
            };
            let report = (1..5)
                .map(|_| run_in_mode())
                .find(|r| r.complete)
                .unwrap_or_else(|| panic!("{defines:?} {mode}: no complete report in four runs"));
            let run = &report.runs[0];
            assert_eq!(class_and_lines(run), expected, "{defines:?} {mode}");
            assert!(run.notes.is_empty(), "{defines:?} {mode}: {:?}", run.notes);
        }
    }
    // With relaxed flags nothing but barriers orders an atomic and a plain
    // access of one word, which the atomic-plain check's own state follows;
    // the engine (for the missing-fence check) leaves such a block alone,
    // and the report says so.
    let not_run = "the missing-fence check did not run (some words of `Message` are accessed both atomically and \
                   plainly, which it follows only in modules that release and acquire): a race that a flag or lock \
                   of relaxed atomics leaves unordered is reported under its data-race or atomic-plain class";
    let relaxed_write = check(&compile_as(&["-DPLAIN_WRITE", "-DRELAXED"]), flags()).expect("runs");
    let run = &relaxed_write.runs[0];
    assert_eq!(class_and_lines(run), [(RaceClass::InterWorkgroup, 32, 36), (RaceClass::AtomicPlain, 35, 41)]);
    assert_eq!(run.notes, [not_run]);
    let relaxed_data = check(&compile_as(&["-DATOMIC_DATA", "-DRELAXED"]), flags()).expect("runs");
    let run = &relaxed_data.runs[0];
    assert_eq!(class_and_lines(run), [(RaceClass::AtomicPlain, 32, 36)]);
    assert_eq!(run.notes, [not_run]);
    // Beside another buffer the engine follows, it runs for the
    // missing-fence check alone, leaving `Message` alone; where it cannot
    // follow everything, the shader is checked again without it, and the
    // report says the missing-fence check did not run.
    let beside = check(&compile_as(&["-DPLAIN_WRITE", "-DRELAXED", "-DEXTRA"]), flags()).expect("runs");
    let run = &beside.runs[0];
    assert!(run.races.iter().any(|r| r.class == RaceClass::AtomicPlain), "{:?}", run.races);
    assert!(beside.complete, "{:?}", run.incomplete);
    let left_alone = "the missing-fence check did not look at `Message`: a race there that a flag or lock of relaxed \
                      atomics leaves unordered (one that release/acquire semantics would order) is reported under its \
                      data-race or atomic-plain class";
    let given_way = "the missing-fence check did not run: its happens-before engine could not follow every access";
    assert!(
        run.notes == [left_alone] || (run.notes.len() == 1 && run.notes[0].starts_with(given_way)),
        "{:?}",
        run.notes
    );
}

#[test]
fn release_and_acquire_the_engine_cannot_follow_are_a_note() {
    require_gpu!();
    // Its clocks have an entry per invocation: a dispatch of more than 1024
    // is checked without them, and the report says so.
    let module = compile("release_acquire", &["-g", "--target-env", "vulkan1.3", "-DSCOPE=gl_ScopeDevice"]);
    let report = check(&module, args(&["--dispatch", "2000", "--fill", "Flag=zero"])).expect("runs");
    assert_eq!(
        report.runs[0].notes,
        ["the module synchronizes with 2 atomic instruction(s) with acquire or release semantics, and the \
          happens-before engine that follows the Vulkan memory model's release/acquire synchronization did not \
          run for it, so a race reported between accesses they order (message passing between workgroups, say) \
          may not be one (the dispatch has 2000 invocations, and the happens-before engine follows dispatches of \
          at most 1024)"]
    );
    // Relaxed flags, with no release or acquire: the data race stands, and
    // the note says that the missing-fence check did not look at it.
    let module =
        compile("release_acquire", &["-g", "--target-env", "vulkan1.3", "-DSCOPE=gl_ScopeDevice", "-DRELAXED"]);
    let report = check(&module, args(&["--dispatch", "2000", "--fill", "Flag=zero"])).expect("runs");
    let run = &report.runs[0];
    assert!(run.races.iter().any(|r| r.class == RaceClass::InterWorkgroup), "{:?}", run.races);
    assert_eq!(
        run.notes,
        ["the missing-fence check did not run (the dispatch has 2000 invocations, and the happens-before engine \
          follows dispatches of at most 1024): a race that a flag or lock of relaxed atomics leaves unordered is \
          reported under its data-race or atomic-plain class"]
    );
}

#[test]
fn a_check_the_driver_ends_early_makes_the_report_incomplete() {
    require_gpu!();
    // tests/data/spirv/long_spin_then_shared_race.comp: a race on shared
    // memory after a long spin. Addr mode finds it where it happens; in
    // statement mode the spinning invocation checks its share of the words
    // at the end, which lavapipe's loop budget can end early: the report
    // then says so rather than claim there is no race.
    let module = compile("long_spin_then_shared_race", &["-g", "--target-env", "vulkan1.3"]);
    let report = check(&module, args(&["--dispatch", "1"])).expect("runs");
    assert_eq!(class_and_lines(&report.runs[0]), [(RaceClass::IntraWorkgroup, 25, 29)]);
    let report = check(&module, args(&["--dispatch", "1", "--mode", "stmt"])).expect("runs");
    let run = &report.runs[0];
    let found = class_and_lines(run) == [(RaceClass::IntraWorkgroup, 25, 29)];
    assert!(found || !report.complete, "{:?}", class_and_lines(run));
    let lavapipe = run.adapter.as_ref().is_some_and(|a| a.name.starts_with("llvmpipe"));
    if lavapipe && !found {
        assert_eq!(run.stats.checks_cut_short, 1);
        assert!(
            run.incomplete.iter().any(|l| l.contains("could not finish checking their share")),
            "{:?}",
            run.incomplete
        );
    }
}

#[test]
fn the_engine_run_for_classes_alone_gives_way_to_the_barrier_epochs_when_it_cannot_follow() {
    require_gpu!();
    // tests/data/spirv/broadcast_beside_relaxed_counter.comp: relaxed
    // atomics on a shared counter start the happens-before engine for the
    // missing-fence check, and 64 unordered reads of one shared word fill
    // its history. The shader is checked again without the engine (nothing
    // but barriers orders its memory, which the barrier epochs check): a
    // complete report, and a race there keeps its data-race class, with a
    // note saying the missing-fence check did not run.
    let flags = ["-g", "--target-env", "vulkan1.3"];
    let module = compile("broadcast_beside_relaxed_counter", &flags);
    let racy = compile("broadcast_beside_relaxed_counter", &[&flags[..], &["-DRACE"]].concat());
    complete_in_both_modes(&module, &["--dispatch", "2"], &[], &[], "race-free");
    for mode in ["addr", "stmt"] {
        let report = check(&racy, args(&["--dispatch", "2", "--mode", mode])).expect("runs");
        let run = &report.runs[0];
        assert!(report.complete, "{mode}: {:?}", run.incomplete);
        let races = class_and_lines(run);
        assert!(races.contains(&(RaceClass::IntraWorkgroup, 25, 27)), "{mode}: {races:?}");
        assert!(races.iter().all(|&(class, a, b)| class.check() == "data-race" && (a, b) == (25, 27)), "{races:?}");
        assert!(
            run.notes.iter().any(|n| n.starts_with("the missing-fence check did not run: its happens-before engine")),
            "{mode}: {:?}",
            run.notes
        );
    }
}
