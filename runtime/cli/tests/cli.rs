//! The `wgrace` binary: exit codes, report contents, errors, `--dump`, and
//! the viewer's runs of it (`viewer_runs`).
//!
//! These tests run the real executable on lavapipe (or whatever adapter
//! `WGRACE_TEST_ADAPTER` names).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

#[path = "cli/viewer_runs.rs"]
mod viewer_runs;

fn samples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../samples")
}

fn wgrace(args: &[&str]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_wgrace"));
    cmd.args(args);
    // The commands that open an adapter take `--adapter`.
    let opens_one = args.first().is_some_and(|c| ["run", "bench", "corpus"].contains(c));
    if let Ok(adapter) = std::env::var("WGRACE_TEST_ADAPTER")
        && opens_one
    {
        cmd.args(["--adapter", &adapter]).env_remove("WGRACE_TEST_ADAPTER");
    }
    cmd.output().expect("run wgrace")
}

/// `wgrace` without the adapter flag (for commands that do not take one).
fn wgrace_plain(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_wgrace")).args(args).output().expect("run wgrace")
}

/// Whether the `wgrace` command finds a usable adapter (lavapipe in CI):
/// asked once. Where it finds none and none is required (`CI` or
/// `WGRACE_REQUIRE_GPU` set, as `scripts/test` does), the tests that run
/// shaders pass without running, and the binary says so once on the
/// terminal.
///
/// # Panics
/// When there is none and one is required.
fn adapter_usable() -> bool {
    static USABLE: std::sync::OnceLock<Result<(), String>> = std::sync::OnceLock::new();
    static SAID: std::sync::OnceLock<()> = std::sync::OnceLock::new();
    let found = USABLE.get_or_init(|| {
        let o = wgrace_plain(&["adapters", "--format", "json"]);
        let adapters: Value = serde_json::from_slice(&o.stdout).unwrap_or(Value::Null);
        let usable = adapters.as_array().is_some_and(|a| a.iter().any(|a| a["supported"] == true));
        if usable { Ok(()) } else { Err(stderr(&o).lines().next().unwrap_or("no adapter listed").to_string()) }
    });
    let required =
        ["CI", "WGRACE_REQUIRE_GPU"].iter().any(|v| std::env::var_os(v).is_some_and(|x| !x.is_empty() && x != "0"));
    match found {
        Ok(()) => true,
        Err(why) if required => panic!("the tests need an adapter (CI or WGRACE_REQUIRE_GPU is set): {why}"),
        Err(why) => {
            SAID.get_or_init(|| {
                use std::io::Write as _;
                // Past the test harness's capture, so that a passing run
                // still shows it.
                let _ = writeln!(
                    std::io::stderr(),
                    "note: skipping the tests of this binary that run shaders: `wgrace adapters` lists no usable \
                     adapter ({why}); `scripts/ensure-deps` installs lavapipe"
                );
            });
            false
        }
    }
}

/// Ends the test, passing, where no adapter is usable and none is required
/// ([`adapter_usable`]).
macro_rules! require_adapter {
    () => {
        if !crate::adapter_usable() {
            return;
        }
    };
}
use require_adapter;

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn sample(name: &str) -> String {
    samples().join(name).display().to_string()
}

/// A fresh directory under the system's temporary directory.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("wgrace-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

fn write_shader(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write shader");
    path.display().to_string()
}

/// The output as JSON; a report or a SARIF log must also match its schema
/// (`report/schema/report.v2.json`, the official SARIF 2.1.0 schema).
fn json(o: &Output) -> Value {
    let value: Value =
        serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("not JSON ({e}): {}\n{}", stdout(o), stderr(o)));
    let schema = if value.get("runs").is_some() && value.get("shader").is_some() {
        Some(("report", schema("report/schema/report.v2.json")))
    } else if value["version"] == "2.1.0" {
        Some(("SARIF log", schema("tests/schemas/sarif-schema-2.1.0.json")))
    } else {
        None
    };
    if let Some((what, validator)) = schema {
        let errors: Vec<String> =
            validator.iter_errors(&value).map(|e| format!("{e} (at {})", e.instance_path())).collect();
        assert!(errors.is_empty(), "the {what} does not match its schema:\n{}", errors.join("\n"));
    }
    value
}

/// A validator of the schema at `path` below the workspace, built once.
fn schema(path: &'static str) -> &'static jsonschema::Validator {
    static SCHEMAS: std::sync::Mutex<Vec<(&'static str, &'static jsonschema::Validator)>> =
        std::sync::Mutex::new(Vec::new());
    let mut schemas = SCHEMAS.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some((_, v)) = schemas.iter().find(|(p, _)| *p == path) {
        return v;
    }
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").join(path);
    let text = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    let value: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    let validator = jsonschema::options().should_validate_formats(true).build(&value).unwrap_or_else(|e| panic!("{e}"));
    let validator: &'static jsonschema::Validator = Box::leak(Box::new(validator));
    schemas.push((path, validator));
    validator
}

#[test]
fn racy_sample_exits_1_with_both_lines_in_the_text_report() {
    require_adapter!();
    let o = wgrace(&["run", &sample("wg_missing_barrier.wgsl")]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let text = stdout(&o);
    // Pairs inside one subgroup and across subgroups are two races of one
    // pair of lines: one diagnostic, with a line per class.
    let headline = "error[intra-subgroup, intra-workgroup]: data race (read-write) on workgroup variable `tile`";
    assert_eq!(text.matches(headline).count(), 1, "{text}");
    assert_eq!(text.matches("data race (").count(), 1, "{text}");
    assert!(text.contains("= intra-subgroup: at tile["), "{text}");
    assert!(text.contains("= intra-workgroup: at tile["), "{text}");
    assert!(text.contains("note: intra-subgroup: invocations of one subgroup"), "{text}");
    // Lock-step hides the pair only where it hides both classes.
    assert!(text.contains("lock-step: race under WGSL; hidden by lock-step execution of width ≥ 64"), "{text}");
    assert!(text.contains("`tile` is declared here"), "{text}");
    assert!(text.contains("13 │     tile[lid] = lid * 2u;"), "{text}");
    assert!(text.contains("14 │     out[gid.x] = tile[(lid + 1u) % 64u];"), "{text}");
    assert!(text.contains("write by invocation"), "{text}");
    assert!(text.contains("help: put a workgroupBarrier()"), "{text}");
    assert!(text.contains("wgrace: 1 race (2 by class) found"), "{text}");
    // JSON keeps a race per class.
    let r = json(&wgrace(&["run", &sample("wg_missing_barrier.wgsl"), "--format", "json"]));
    let classes: Vec<&str> =
        r["runs"][0]["races"].as_array().expect("races").iter().filter_map(|r| r["class"].as_str()).collect();
    assert_eq!(classes, ["intra-subgroup", "intra-workgroup"], "{r}");
}

#[test]
fn race_free_sample_exits_0() {
    require_adapter!();
    let o = wgrace(&["run", &sample("wg_barrier.wgsl")]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("no race observed for this dispatch and input"), "{}", stdout(&o));
}

#[test]
fn json_report_has_the_documented_fields() {
    require_adapter!();
    let o = wgrace(&["run", &sample("wg_missing_barrier.wgsl"), "--format", "json"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let r = json(&o);
    assert_eq!(r["verdict"], "race");
    assert_eq!(r["complete"], true);
    assert_eq!(r["runs"][0]["dispatch"], serde_json::json!([2, 1, 1]));
    assert!(r["runs"][0]["adapter"]["name"].as_str().is_some_and(|n| !n.is_empty()));
    assert!(r["shader"]["source"].as_str().is_some_and(|s| s.contains("var<workgroup> tile")));
    assert!(r["runs"][0]["sites"]["sites"].as_array().is_some_and(|s| s.len() == 3));
    let races = r["runs"][0]["races"].as_array().expect("races");
    assert_eq!(races.len(), 2);
    let race = races.iter().find(|r| r["class"] == "intra-workgroup").expect("an intra-workgroup race");
    assert!(races.iter().any(|r| r["class"] == "intra-subgroup"), "{r}");
    assert_eq!(race["kind"], "read-write");
    assert_eq!(race["memory"]["space"], "workgroup");
    assert_eq!(race["memory"]["variable"], "tile");
    assert!(race["memory"]["element"].as_str().is_some_and(|e| e.starts_with("tile[")));
    assert_eq!(race["memory"]["byte_offset"].as_u64().map(|b| b % 4), Some(0));
    assert_eq!(race["first"]["access"], "write");
    assert_eq!(race["first"]["line"], 13);
    assert_eq!(race["first"]["column"], 5);
    assert_eq!(race["first"]["snippet"], "    tile[lid] = lid * 2u;");
    assert_eq!(race["second"]["access"], "read");
    assert_eq!(race["second"]["line"], 14);
    for side in ["first", "second"] {
        let inv = &race[side]["invocation"];
        assert_eq!(inv["workgroup_id"].as_array().map(Vec::len), Some(3), "{race}");
        assert_eq!(inv["local_invocation_id"].as_array().map(Vec::len), Some(3), "{race}");
    }
    // The two invocations differ and belong to one workgroup.
    assert_ne!(race["first"]["invocation"]["local_invocation_id"], race["second"]["invocation"]["local_invocation_id"]);
    assert_eq!(race["first"]["invocation"]["workgroup_id"], race["second"]["invocation"]["workgroup_id"]);
    // 64 words race in each of the 2 workgroups, split between the classes.
    let total: u64 = races.iter().filter_map(|r| r["occurrences"].as_u64()).sum();
    assert_eq!(total, 128, "{r}");
}

#[test]
fn barrier_divergence_exits_1_and_shows_both_invocations_barriers() {
    require_adapter!();
    let path = sample("wg_barrier_after_early_return.wgsl");
    let o = wgrace(&["run", &path]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.contains("error[barrier-divergence]: invocations of workgroup (3,0,0) executed different barriers"));
    assert!(text.contains("20 │     workgroupBarrier();"), "{text}");
    assert!(text.contains("executed no barrier"), "{text}");
    assert!(text.contains("executed 1 barrier, the last at line 20"), "{text}");
    assert!(text.contains("wgrace: 1 barrier-divergence finding; no race observed"), "{text}");

    let r = json(&wgrace(&["run", &path, "--format", "json"]));
    assert_eq!(r["verdict"], "no-race");
    let findings = r["runs"][0]["findings"].as_array().expect("findings");
    assert_eq!(findings.len(), 1, "{r}");
    let f = &findings[0];
    assert_eq!(f["check"], "barrier-divergence");
    assert_eq!(f["severity"], "error");
    assert_eq!(f["data"]["workgroup_id"], serde_json::json!([3, 0, 0]));
    assert_eq!(f["invocations"][0]["workgroup_id"], serde_json::json!([3, 0, 0]));
    // The one barrier of the table, at line 20.
    let barrier = &r["runs"][0]["barriers"][0];
    assert_eq!(
        (&barrier["location"]["line"], &barrier["kind"]),
        (&serde_json::json!(20), &serde_json::json!("workgroup"))
    );
    // Invocations 8..63 of the last workgroup (global ids 200..255) return
    // before the barrier that 0..7 execute; either kind may finish first.
    let (mut none, mut one) = (0, 0);
    for side in [&f["data"]["first"], &f["data"]["second"]] {
        match side["barriers"].as_u64() {
            Some(0) => {
                assert!(side["last_barrier"].is_null(), "{f}");
                none += 1;
            }
            Some(1) => {
                assert_eq!(side["last_barrier"], barrier["id"], "{f}");
                one += 1;
            }
            _ => panic!("unexpected barrier count in {f}"),
        }
    }
    assert_eq!((none, one), (1, 1), "{f}");
    assert_eq!(f["locations"][0]["line"], 20, "{f}");
    // The first of the workgroup to finish is compared with all 63 others.
    let divergent = f["occurrences"].as_u64().expect("count");
    assert!(divergent == 56 || divergent == 8, "{f}");
    assert_eq!(r["runs"][0]["barriers"].as_array().map(Vec::len), Some(1), "{r}");
}

#[test]
fn bank_conflicts_are_notes_per_line_that_leave_the_exit_status_alone() {
    require_adapter!();
    let path = sample("banks_transpose_tile.wgsl");
    let o = wgrace(&["run", &path]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = stdout(&o);
    let size = json(&wgrace(&["run", &path, "--format", "json"]))["runs"][0]["checked"]["subgroup_size"]
        .as_u64()
        .expect("subgroup size");
    // 4 workgroups of 256 invocations, each reading 4 columns.
    let accesses = 4 * 256 / size * 4;
    for line in [
        format!(
            "note[banks]: bank conflicts up to {size}-way: {accesses} of {accesses} subgroup accesses to `tile` \
             conflicted, {size}.0-way on average (32 banks of 4 bytes)"
        ),
        "22 │         output[(wid.x * 32u + r) * 64u + wid.y * 32u + lid.x] = tile[lid.x][r];".into(),
        "this read of `tile`, in `main`".into(),
        format!("accessed {size} words of `tile` on bank "),
        "= help: make a subgroup's invocations access consecutive words, or pad the array".into(),
        "wgrace: 1 banks finding; no race observed".into(),
    ] {
        assert!(text.contains(&line), "{line}\n{text}");
    }
    // Off without `--checks`; `--banks` counts other banks.
    let o = wgrace(&["run", &path, "--checks", "default"]);
    assert!(!stdout(&o).contains("[banks]"), "{}", stdout(&o));
    let r = json(&wgrace(&["run", &path, "--banks", "16", "--format", "json"]));
    let banks = &r["runs"][0]["findings"][0]["data"];
    assert_eq!((&banks["banks"], &banks["worst"]), (&serde_json::json!(16), &serde_json::json!(size)), "{r}");
    for (banks, why) in [("0", "--banks 0: use 1 to 1024 banks"), ("2000", "--banks 2000: use 1 to 1024 banks")] {
        let o = wgrace(&["run", &path, "--banks", banks]);
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert!(stderr(&o).contains(why), "{}", stderr(&o));
    }
}

#[test]
fn out_of_bounds_indices_are_errors_with_the_index_the_length_and_the_invocations() {
    require_adapter!();
    let path = sample("bounds_workgroup_halo_read.wgsl");
    let o = wgrace(&["run", &path]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let text = stdout(&o);
    for line in [
        "error[bounds]: index 4294967295 (-1 wrapped around) is out of bounds of `tile` (a workgroup array of 64 \
         elements), for 2 invocations",
        "18 │     let left = tile[lid - 1u];",
        "= invocation (0,0,0) of workgroup (1,0,0) used index 4294967295 (-1 wrapped around)",
        "error[bounds]: index 64 is out of bounds of `tile` (a workgroup array of 64 elements), for 2 invocations",
        "= invocation (63,0,0) of workgroup (0,0,0) used index 64",
        "incomplete report: 4 accesses were out of bounds of their variable and were not checked for races",
        "wgrace: 2 bounds findings; no race observed",
    ] {
        assert!(text.contains(line), "{line}\n{text}");
    }
    let r = json(&wgrace(&["run", &path, "--format", "json"]));
    let run = &r["runs"][0];
    assert_eq!(run["complete"], false, "{r}");
    let found: Vec<_> = run["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .map(|f| (f["locations"][0]["line"].clone(), f["data"]["index"].clone(), f["data"]["length"].clone()))
        .collect();
    assert_eq!(
        found,
        vec![
            (serde_json::json!(18), serde_json::json!(4294967295u32), serde_json::json!(64)),
            (serde_json::json!(19), serde_json::json!(64), serde_json::json!(64)),
        ],
        "{r}"
    );

    // Each address space, vectors, matrices and a nested array: one finding
    // per line, an i32 index read as one, a runtime-sized array's length
    // taken at run time.
    let messages = |name: &str| -> Vec<String> {
        let r = json(&wgrace(&["run", &sample(name), "--format", "json"]));
        let mut m: Vec<String> = r["runs"][0]["findings"]
            .as_array()
            .expect("findings")
            .iter()
            .map(|f| format!("{}: {}", f["locations"][0]["line"], f["message"].as_str().unwrap_or("")))
            .collect();
        m.sort();
        m
    };
    assert_eq!(
        messages("bounds_uniform_private_function.wgsl"),
        [
            "20: index 4 is out of bounds of `table.entries` (a uniform array of 4 elements), for 32 invocations",
            "22: index 4 is out of bounds of `history` (a private array of 4 elements), for 64 invocations",
            "25: index -1 is out of bounds of `lookup` (a function array of 8 elements), for 8 invocations",
        ]
    );
    assert_eq!(
        messages("bounds_vector_matrix_struct.wgsl"),
        [
            "18: index 4 is out of bounds of `v` (a vector of 4 components), for 3 invocations",
            "19: index 3 is out of bounds of `m` (a matrix of 3 columns), for 4 invocations",
            "20: index 8 is out of bounds of `grid.rows` (a workgroup array of 8 elements), for 2 invocations",
        ]
    );
    assert_eq!(
        messages("bounds_storage_write_past_end.wgsl"),
        ["16: index 100 is out of bounds of `out` (a storage runtime-sized array of 100 elements), for 28 invocations"]
    );
    // Sized for the dispatch, the same kernel is in bounds.
    let o = wgrace(&["run", &sample("bounds_storage_write_past_end.wgsl"), "--buffer", "out=128"]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));

    // Without the check, the out-of-bounds accesses still leave the race
    // check's report incomplete.
    let o = wgrace(&["run", &path, "--checks", "data-race"]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert!(!stdout(&o).contains("[bounds]"), "{}", stdout(&o));
    assert!(
        stdout(&o).contains(
            "incomplete report: 4 accesses were out of bounds of their variable and were not checked for races"
        ),
        "{}",
        stdout(&o)
    );

    // Clamped, wrapped, chosen and guarded indices: no finding.
    let o = wgrace(&["run", &sample("bounds_clamped_indices.wgsl")]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert!(!stdout(&o).contains("[bounds]"), "{}", stdout(&o));
}

#[test]
fn a_spin_wait_across_workgroups_is_a_warning_even_when_it_ends() {
    require_adapter!();
    let path = sample("loop_spin_wait_across_workgroups.wgsl");
    let o = wgrace(&["run", &path]);
    // A warning: the exit status stays 0, the report complete.
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = stdout(&o);
    for line in [
        "warning[loops]: a spin-wait: the loop waits for `state`, which other invocations write, and WGSL does not \
         promise that they run while it waits (3 invocations ran it, up to ",
        "25 │ ╭         loop {",
        "= note: WGSL promises no forward progress between workgroups",
        "wgrace: 1 loops finding; no race observed",
    ] {
        assert!(text.contains(line), "{line}\n{text}");
    }
    assert!(!text.contains("incomplete report"), "{text}");
    let r = json(&wgrace(&["run", &path, "--format", "json"]));
    let f = &r["runs"][0]["findings"][0];
    assert_eq!((&f["check"], &f["severity"]), (&serde_json::json!("loops"), &serde_json::json!("warning")), "{f}");
    assert_eq!(f["occurrences"], 3, "{f}");
    assert_eq!(r["runs"][0]["complete"], true, "{r}");
}

#[test]
fn a_runaway_loop_stops_at_its_budget_exits_1_and_leaves_the_report_incomplete() {
    require_adapter!();
    let path = sample("loop_bound_from_wrong_buffer.wgsl");
    let o = wgrace(&["run", &path, "--loop-budget", "1000"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(
        text.contains("error[loops]: a loop ran past its budget of 1000 iterations: 128 invocations stopped"),
        "{text}"
    );
    assert!(text.contains("18 │ ╭     for (var i = 0u; i <= len - 1u; i++) {"), "{text}");
    assert!(text.contains("started iteration 1001"), "{text}");
    assert!(
        text.contains(
            "incomplete report: 128 invocations stopped in the loop at line 18 after 1000 iterations \
             (--loop-budget): what they would have done after is not checked"
        ),
        "{text}"
    );

    let r = json(&wgrace(&["run", &path, "--loop-budget", "1000", "--format", "json"]));
    let run = &r["runs"][0];
    assert_eq!(run["complete"], false, "{r}");
    let f = &run["findings"][0];
    assert_eq!((&f["check"], &f["severity"]), (&serde_json::json!("loops"), &serde_json::json!("error")), "{f}");
    assert_eq!(f["occurrences"], 128, "{f}");
    assert_eq!(f["data"]["iterations"], 1001, "{f}");
    assert_eq!(f["locations"][0]["line"], 18, "{f}");
    assert_eq!(run["incomplete"][0], f["incomplete"], "{r}");

    // The fixed kernel's loops end by themselves: no finding.
    let o = wgrace(&["run", &sample("loop_bounded_row_sum.wgsl"), "--loop-budget", "1000"]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert!(!stdout(&o).contains("[loops]"), "{}", stdout(&o));
    // A budget of 8 iterations is too few for its 8 (the ninth start is the
    // exit test).
    let o = wgrace(&["run", &sample("loop_bounded_row_sum.wgsl"), "--loop-budget", "8"]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    assert!(stdout(&o).contains("a loop ran past its budget of 8 iterations"), "{}", stdout(&o));

    let o = wgrace(&["run", &path, "--loop-budget", "0"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--loop-budget must be at least 1 iteration"), "{}", stderr(&o));
}

#[test]
fn a_loop_in_a_helper_stops_its_invocation_which_writes_nothing_after() {
    require_adapter!();
    let dir = temp_dir("loop-helper");
    let o = wgrace(&[
        "run",
        &sample("loop_runaway_in_helper.wgsl"),
        "--loop-budget",
        "500",
        "--dump",
        &dir.display().to_string(),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("a loop ran past its budget of 500 iterations: 63 invocations stopped"),
        "{}",
        stdout(&o)
    );
    // Invocation 0 finds key 0 at once and stores 0; the 63 others stop in
    // the helper and store nothing (`found` starts as its index fill).
    let found = std::fs::read(dir.join("found.bin")).expect("dump");
    let words: Vec<u32> = found.chunks(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
    let fill: Vec<u32> = (0..64).collect();
    assert_eq!(words, fill);
}

#[test]
fn a_loop_the_adapter_cuts_short_is_a_warning_on_lavapipe() {
    require_adapter!();
    // 70,000 iterations (a bound the analyzer does not know: it is in a
    // read-write buffer): more than lavapipe lets an invocation's loops
    // run; within the budget given.
    let dir = temp_dir("loop-cut");
    let path = write_shader(
        &dir,
        "long.wgsl",
        "@group(0) @binding(0) var<storage, read_write> out: array<u32>;\n\
         @compute @workgroup_size(64)\n\
         fn main(@builtin(local_invocation_index) l: u32) {\n\
         \x20   var k = 0u;\n\
         \x20   for (var i = 0u; i < out[64]; i++) {\n\
         \x20       k += i & 1u;\n\
         \x20   }\n\
         \x20   out[l] = k;\n\
         }\n",
    );
    let r = json(&wgrace(&[
        "run",
        &path,
        "--buffer",
        "out=65",
        "--fill",
        "out=zero",
        "--set",
        "out[64]=70000",
        "--loop-budget",
        "100000",
        "--format",
        "json",
    ]));
    let run = &r["runs"][0];
    let lavapipe = run["adapter"]["name"].as_str().is_some_and(|n| n.contains("llvmpipe"));
    let findings = run["findings"].as_array().expect("findings");
    if lavapipe {
        assert_eq!(findings.len(), 1, "{r}");
        let f = &findings[0];
        assert_eq!((&f["check"], &f["severity"]), (&serde_json::json!("loops"), &serde_json::json!("warning")), "{f}");
        assert_eq!(f["message"], "the adapter ended a loop before its exit condition held, for 64 invocations");
        assert_eq!(f["locations"][0]["line"], 5, "{f}");
        assert!(f["data"]["iterations"].as_u64().is_some_and(|n| n < 70_000), "{f}");
        assert_eq!(run["complete"], false, "{r}");
    } else {
        assert!(findings.is_empty(), "{r}");
        assert_eq!(run["complete"], true, "{r}");
    }
}

#[test]
fn output_file_receives_the_report() {
    require_adapter!();
    let dir = temp_dir("output");
    let out = dir.join("report.json");
    let o = wgrace(&["run", &sample("wg_missing_barrier.wgsl"), "--format", "json", "-o", &out.display().to_string()]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(o.stdout.is_empty());
    let r: Value = serde_json::from_slice(&std::fs::read(&out).expect("report")).expect("json");
    assert_eq!(r["verdict"], "race");
}

#[test]
fn sarif_report_of_a_racy_sample_exits_1() {
    require_adapter!();
    let o = wgrace(&["run", &sample("wg_missing_barrier.wgsl"), "--format", "sarif"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stdout(&o).contains("\"version\": \"2.1.0\""), "{}", stdout(&o));
    let log = json(&o);
    let result = &log["runs"][0]["results"][0];
    assert_eq!(result["ruleId"], "data-race");
    assert_eq!(result["locations"][0]["physicalLocation"]["region"]["startLine"], 13);
    assert_eq!(result["relatedLocations"][0]["physicalLocation"]["region"]["startLine"], 14);
}

#[test]
fn sarif_is_for_the_reports_of_run_and_check() {
    require_adapter!();
    let shader = sample("wg_missing_barrier.wgsl");
    // `wgrace check` proves the race: its SARIF names the two lines too.
    let o = wgrace(&["check", &shader, "--format", "sarif"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let result = &json(&o)["runs"][0]["results"][0];
    assert_eq!(result["ruleId"], "data-race");
    assert_eq!(result["locations"][0]["physicalLocation"]["region"]["startLine"], 13);
    assert_eq!(result["relatedLocations"][0]["physicalLocation"]["region"]["startLine"], 14);
    let corpus = samples().join("corpus").display().to_string();
    for args in [
        vec!["bench", shader.as_str(), "--format", "sarif"],
        vec!["corpus", corpus.as_str(), "--format", "sarif"],
        vec!["adapters", "--format", "sarif"],
        vec!["checks", "--format", "sarif"],
    ] {
        let o = wgrace_plain(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("--format sarif is for `wgrace run` and `wgrace check`"),
            "{args:?}: {}",
            stderr(&o)
        );
        assert!(o.stdout.is_empty(), "{args:?}: {}", stdout(&o));
    }
}

#[test]
fn invalid_wgsl_gets_nagas_diagnostic_and_exit_2() {
    require_adapter!();
    let dir = temp_dir("invalid");
    let path = write_shader(&dir, "bad.wgsl", "@compute @workgroup_size(1)\nfn main() {\n    let x: u32 = 1.5;\n}\n");
    let o = wgrace(&["run", &path]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(err.contains("error:"), "{err}");
    assert!(err.contains("bad.wgsl:3"), "{err}");
    assert!(err.contains("let x: u32 = 1.5;"), "{err}");

    let path = write_shader(&dir, "syntax.wgsl", "fn main( {\n");
    let o = wgrace(&["run", &path]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("syntax.wgsl:1"), "{}", stderr(&o));
}

#[test]
fn bad_input_exits_2_with_a_message_saying_what_to_do() {
    require_adapter!();
    let dir = temp_dir("bad-input");
    let racy = sample("wg_missing_barrier.wgsl");
    let cases: Vec<(Vec<String>, &str)> = vec![
        (
            vec!["run".into(), racy.clone(), "--entry".into(), "nope".into()],
            "no compute entry point named `nope`; the shader has: main",
        ),
        (vec!["run".into(), racy.clone(), "--buffer".into(), "nope=4".into()], "no buffer named `nope`"),
        (vec!["run".into(), racy.clone(), "--fill".into(), "out=ones".into()], "--fill expects zero, index"),
        (vec!["run".into(), racy.clone(), "--dispatch".into(), "0".into()], "--dispatch expects X[,Y[,Z]]"),
        (vec!["run".into(), racy.clone(), "--override".into(), "k=1".into()], "no override named `k`"),
        (vec!["run".into(), racy.clone(), "--set".into(), "out.x=1".into()], "--set out.x=1"),
        (vec!["run".into(), racy.clone(), "--backend".into(), "glide".into()], "unknown backend `glide`"),
        (
            vec!["run".into(), racy.clone(), "--adapter".into(), "no-such-gpu".into()],
            "no adapter matches `no-such-gpu`",
        ),
        (vec!["run".into(), dir.join("missing.wgsl").display().to_string()], "cannot read"),
    ];
    for (args, expected) in cases {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let o = wgrace_plain(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(expected), "{args:?}: expected `{expected}` in:\n{}", stderr(&o));
    }
    // The reason, once.
    let missing = dir.join("missing.wgsl").display().to_string();
    assert_eq!(
        stderr(&wgrace_plain(&["run", &missing])),
        format!("error: cannot read {missing}: No such file or directory (os error 2)\n")
    );
}

/// A module that is not valid SPIR-V, and GLSL or HLSL source given where a
/// module is expected, exit with status 2 and a message: what is wrong, or
/// the command that compiles the source (not a WGSL parse error at its
/// `#version` line). `tests/tests/spirv.rs` checks each kind of corrupt
/// module's message in process.
#[test]
fn corrupt_spirv_and_shader_sources_exit_2_with_what_to_do() {
    require_adapter!();
    let dir = temp_dir("refused");
    let module = std::fs::read(samples().join("corpus/spirv/iguard_warpsync.spv")).expect("a SPIR-V sample");
    let cut = dir.join("cut_in_a_word.spv");
    std::fs::write(&cut, &module[..module.len() - 3]).expect("write");
    let not_spirv = dir.join("not_spirv.spv");
    std::fs::write(&not_spirv, &b"this is not a SPIR-V module"[..24]).expect("write");
    let unnamed = dir.join("kernel.txt");
    std::fs::write(&unnamed, "#version 450\nlayout(local_size_x = 1) in;\nvoid main() {}\n").expect("write");
    let hlsl = dir.join("kernel.hlsl");
    std::fs::write(&hlsl, "[numthreads(1, 1, 1)] void main() {}\n").expect("write");
    let glsl = samples().join("corpus/spirv/iguard_warpsync.comp");
    let source = "source; wgrace reads WGSL (.wgsl) and SPIR-V (.spv)";
    let cases = [
        (cut, "invalid SPIR-V: ".to_string(), "not a whole number of 4-byte words (truncated?)".to_string()),
        (not_spirv, "invalid SPIR-V: ".to_string(), "not the SPIR-V magic number".to_string()),
        (glsl.clone(), source.into(), format!("glslangValidator -V -g --target-env vulkan1.3 {} -o ", glsl.display())),
        (
            unnamed.clone(),
            source.into(),
            format!("glslangValidator -V -g --target-env vulkan1.3 -S comp {} -o ", unnamed.display()),
        ),
        (hlsl.clone(), source.into(), format!("dxc -spirv -T cs_6_0 -E main -Zi {} -Fo ", hlsl.display())),
    ];
    for (path, what, how) in cases {
        let o = wgrace(&["run", &path.display().to_string()]);
        assert_eq!(o.status.code(), Some(2), "{}: {}", path.display(), stderr(&o));
        let err = stderr(&o);
        assert!(err.contains(&what) && err.contains(&how) && !err.contains("panicked"), "{}: {err}", path.display());
    }
}

#[test]
fn shader_without_a_compute_entry_point_is_rejected() {
    require_adapter!();
    let dir = temp_dir("no-compute");
    let path =
        write_shader(&dir, "vs.wgsl", "@vertex fn vs() -> @builtin(position) vec4<f32> { return vec4<f32>(0.0); }\n");
    let o = wgrace(&["run", &path]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("no compute entry point"), "{}", stderr(&o));
}

#[test]
fn every_entry_point_is_checked_and_unused_flags_are_warnings() {
    require_adapter!();
    let dir = temp_dir("two-entries");
    // The `// wgrace:` line serves `b`; `a` does not use `e`.
    let text = "// wgrace: --buffer e=64 --fill e=zero\n\
                @group(0) @binding(0) var<storage, read_write> d: array<u32>;\n\
                @group(0) @binding(1) var<storage, read_write> e: array<u32>;\n\
                @compute @workgroup_size(64) fn a(@builtin(local_invocation_index) l: u32) { d[0] = l; }\n\
                @compute @workgroup_size(64) fn b(@builtin(global_invocation_id) g: vec3<u32>) { e[g.x] = g.x; }\n";
    let path = write_shader(&dir, "two.wgsl", text);
    let o = wgrace(&["run", &path]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.contains("── entry point `a` on "), "{text}");
    assert!(text.contains("── entry point `b` on "), "{text}");
    assert!(text.contains("warning: --buffer e…: the entry point does not use `e`; the flag is ignored"), "{text}");
    assert!(text.contains("wgrace: 2 runs; races or errors in 1: `a` on "), "{text}");

    let r = json(&wgrace(&["run", &path, "--format", "json"]));
    assert_eq!(r["verdict"], "race");
    let runs = r["runs"].as_array().expect("runs");
    let got: Vec<(&str, &str)> = runs
        .iter()
        .map(|run| (run["entry_point"].as_str().unwrap_or(""), run["verdict"].as_str().unwrap_or("")))
        .collect();
    assert_eq!(got, [("a", "race"), ("b", "no-race")], "{r}");
    assert_eq!(runs[1]["warnings"], serde_json::json!([]), "{r}");
    assert_eq!(runs[1]["outputs"][0]["variable"], "e", "{r}");
    assert_eq!(runs[1]["outputs"][0]["sha256"].as_str().map(str::len), Some(64), "{r}");

    // --entry picks one; a flag naming no binding at all is still an error.
    let o = wgrace(&["run", &path, "--entry", "b"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(!stdout(&o).contains("── entry point"), "{}", stdout(&o));
    let o = wgrace(&["run", &path, "--fill", "f=zero"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("the shader has no buffer named `f`; buffers: d (0:0), e (0:1)"), "{}", stderr(&o));
}

#[test]
fn emit_instrumented_writes_the_module_of_each_entry_point() {
    require_adapter!();
    let dir = temp_dir("emit");
    let text = "@group(0) @binding(0) var<storage, read_write> d: array<u32>;\n\
                @compute @workgroup_size(64) fn a(@builtin(local_invocation_index) l: u32) { d[0] = l; }\n\
                @compute @workgroup_size(64) fn b(@builtin(local_invocation_index) l: u32) { d[l] = l; }\n";
    let path = write_shader(&dir, "two.wgsl", text);
    let out = dir.join("out.wgsl");
    let o = wgrace(&["run", &path, "--emit-instrumented", &out.display().to_string()]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    for entry in ["a", "b"] {
        let file = dir.join(format!("out.{entry}.wgsl"));
        let wgsl = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        assert!(wgsl.contains("wgrace_begin("), "{wgsl}");
        assert!(wgsl.contains(&format!("fn {entry}(")), "{wgsl}");
    }
    // The racy store of `a` is checked: its hook is there.
    let a = std::fs::read_to_string(dir.join("out.a.wgsl")).expect("out.a.wgsl");
    assert!(a.contains("wgrace_storage_access("), "{a}");
    let o = wgrace(&["run", &path, "--entry", "b", "--emit-instrumented", &out.display().to_string()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(out.exists());
}

#[test]
fn emit_instrumented_writes_the_replay_pass_beside_a_recording_module() {
    require_adapter!();
    let dir = temp_dir("emit-replay");
    let text = "@group(0) @binding(0) var<storage, read_write> d: array<u32>;\n\
                @compute @workgroup_size(64) fn main(@builtin(local_invocation_index) l: u32) { d[0] = l; }\n";
    let path = write_shader(&dir, "racy.wgsl", text);
    let out = dir.join("out.wgsl");
    let o = wgrace(&["run", &path, "--replay", "always", "--emit-instrumented", &out.display().to_string()]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    // The shader records its accesses; the state machines are in the pass.
    let shader = std::fs::read_to_string(&out).expect("out.wgsl");
    assert!(shader.contains("wgrace_storage_access("), "{shader}");
    assert!(!shader.contains("fn wgrace_replay("), "{shader}");
    let pass = std::fs::read_to_string(dir.join("out.replay.wgsl")).expect("out.replay.wgsl");
    assert!(pass.contains("fn wgrace_replay_pass("), "{pass}");
    assert!(pass.contains("@workgroup_size(64, 1, 1)"), "{pass}");
    // Checked in place, there is no pass.
    let inline = dir.join("inline.wgsl");
    let o = wgrace(&["run", &path, "--replay", "never", "--emit-instrumented", &inline.display().to_string()]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(inline.exists());
    assert!(!dir.join("inline.replay.wgsl").exists());
}

#[test]
fn view_without_the_viewer_built_says_how_to_build_it() {
    // A copy of `wgrace` with no `wgrace-gui` beside it and none on PATH.
    let dir = temp_dir("no-viewer");
    let wgrace = dir.join("wgrace");
    std::fs::copy(env!("CARGO_BIN_EXE_wgrace"), &wgrace).expect("copy wgrace");
    let o = Command::new(&wgrace).args(["view", "report.json"]).env("PATH", "").output().expect("run wgrace");
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("the viewer is not built: `cargo build --release -p wgrace-gui` builds `wgrace-gui`"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn bad_flags_in_the_shader_are_reported() {
    require_adapter!();
    let dir = temp_dir("bad-line");
    let path = write_shader(&dir, "s.wgsl", "// wgrace: --dispach 2\n@compute @workgroup_size(1) fn main() {}\n");
    let o = wgrace(&["run", &path]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("in a `// wgrace:` line"), "{}", stderr(&o));
}

#[test]
fn command_line_flags_override_the_shaders() {
    require_adapter!();
    // The sample says --dispatch 2; with one workgroup the occurrences halve.
    let o = wgrace(&["run", &sample("wg_missing_barrier.wgsl"), "--format", "json", "--dispatch", "1"]);
    let r = json(&o);
    assert_eq!(r["runs"][0]["dispatch"], serde_json::json!([1, 1, 1]));
    let total: u64 =
        r["runs"][0]["races"].as_array().expect("races").iter().filter_map(|race| race["occurrences"].as_u64()).sum();
    assert_eq!(total, 64, "{r}");
}

#[test]
fn a_full_race_table_keeps_the_verdict_and_says_the_report_is_incomplete() {
    require_adapter!();
    let dir = temp_dir("overflow");
    // Three distinct racing pairs on `d[0]`, a race table of one entry.
    let text = "// wgrace: --dispatch 2\n\
                @group(0) @binding(0) var<storage, read_write> d: array<u32>;\n\
                @compute @workgroup_size(4)\n\
                fn main(@builtin(local_invocation_index) i: u32) {\n\
                \x20   d[0] = i;\n\
                \x20   let a = d[0];\n\
                \x20   d[1] = a;\n\
                }\n";
    let path = write_shader(&dir, "s.wgsl", text);
    let o = wgrace(&["run", &path, "--format", "json", "--max-races", "1"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let r = json(&o);
    assert_eq!(r["verdict"], "race");
    assert_eq!(r["complete"], false);
    assert_eq!(r["runs"][0]["races"].as_array().map(Vec::len), Some(1));
    assert!(r["runs"][0]["stats"]["dropped_detections"].as_u64().is_some_and(|d| d > 0));
    assert!(r["runs"][0]["incomplete"][0].as_str().is_some_and(|s| s.contains("--max-races")), "{r}");
    let text = wgrace(&["run", &path, "--max-races", "1"]);
    assert!(stdout(&text).contains("warning: incomplete report"), "{}", stdout(&text));

    let full = json(&wgrace(&["run", &path, "--format", "json"]));
    assert_eq!(full["complete"], true);
    assert!(full["runs"][0]["races"].as_array().is_some_and(|r| r.len() >= 3), "{full}");
}

#[test]
fn out_of_bounds_accesses_are_counted_not_checked() {
    require_adapter!();
    let dir = temp_dir("oob");
    let text = "// wgrace: --buffer d=4 --set n.v=100\n\
                struct N { v: u32 }\n\
                @group(0) @binding(0) var<storage, read_write> d: array<u32>;\n\
                @group(0) @binding(1) var<uniform> n: N;\n\
                @compute @workgroup_size(2)\n\
                fn main(@builtin(local_invocation_index) i: u32) {\n\
                \x20   d[n.v + i] = i;\n\
                }\n";
    let path = write_shader(&dir, "s.wgsl", text);
    let r = json(&wgrace(&["run", &path, "--format", "json"]));
    assert_eq!(r["complete"], false, "{r}");
    assert_eq!(r["runs"][0]["stats"]["out_of_bounds_accesses"], 2);
}

/// `--dump` writes what the run left in each writable buffer, and a checked
/// run (in either mode) leaves what the original shader leaves
/// (`--no-detect`): on a WGSL sample, and on a SPIR-V module without debug
/// information, which takes its flags from the GLSL source in the folder
/// above. The integration tests compare every race-free sample's outputs in
/// process (`tests/tests/samples.rs`); this is the command's own path.
#[test]
fn dumps_of_checked_runs_hold_the_original_s_buffers() {
    require_adapter!();
    let dir = temp_dir("dumps");
    let nodebug_source = samples().join("corpus/spirv/atomic_plain_own_words.comp");
    let header = std::fs::read_to_string(&nodebug_source).expect("source");
    let header_flags: Vec<&str> = header
        .lines()
        .filter_map(|l| l.trim_start().strip_prefix("// wgrace:"))
        .flat_map(str::split_whitespace)
        .collect();
    let cases: [(PathBuf, &[&str]); 2] = [
        (samples().join("wg_barrier.wgsl"), &[]),
        (samples().join("corpus/spirv/nodebug/atomic_plain_own_words.spv"), &header_flags),
    ];
    for (n, (path, flags)) in cases.iter().enumerate() {
        let p = path.display().to_string();
        let run = |args: &[&str]| {
            let mut all: Vec<&str> = args.to_vec();
            all.extend(flags.iter());
            wgrace(&all)
        };
        let native = dir.join(format!("{n}-native"));
        let o = run(&["run", &p, "--no-detect", "--dump", &native.display().to_string()]);
        assert_eq!(o.status.code(), Some(0), "{p}: {}", stderr(&o));
        let files = dumped_files(&native);
        assert!(!files.is_empty(), "{p}: nothing dumped");
        for mode in ["addr", "stmt"] {
            let checked = dir.join(format!("{n}-{mode}"));
            let o = run(&["run", &p, "--mode", mode, "--dump", &checked.display().to_string()]);
            assert_eq!(o.status.code(), Some(0), "{p} ({mode} mode): {}{}", stdout(&o), stderr(&o));
            assert_eq!(dumped_files(&checked), files, "{p} ({mode} mode)");
            for f in &files {
                let (x, y) =
                    (std::fs::read(checked.join(f)).expect("dump"), std::fs::read(native.join(f)).expect("dump"));
                assert!(x == y, "{p}: {} differs between the {mode}-mode and the original run", f.display());
            }
        }
    }
}

/// The files under `dir`, by their paths relative to it, sorted.
fn dumped_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![PathBuf::new()];
    while let Some(rel) = stack.pop() {
        for e in std::fs::read_dir(dir.join(&rel)).expect("dump") {
            let e = e.expect("entry");
            let path = rel.join(e.file_name());
            if e.file_type().expect("type").is_dir() { stack.push(path) } else { out.push(path) }
        }
    }
    out.sort();
    out
}

#[test]
fn a_large_dispatch_runs_in_chunks_in_bounded_memory() {
    require_adapter!();
    let o = wgrace(&["run", &sample("scale/workgroups_4096.wgsl"), "--format", "json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let r = json(&o);
    assert_eq!(r["runs"][0]["checked"]["invocations"], 4096 * 256);
    assert!(r["runs"][0]["stats"]["chunks"].as_u64().is_some_and(|c| c > 1), "{}", r["runs"][0]["stats"]);
    // 4 MiB of storage (24 bytes of shadow per word) plus at most 32 MiB of
    // workgroup-memory slots and the race table, and at most 256 MiB of
    // replay streams (128 MiB, lavapipe's largest binding).
    assert!(
        r["runs"][0]["stats"]["shadow_bytes"].as_u64().is_some_and(|b| b <= (24 + 33 + 256) << 20),
        "{}",
        r["runs"][0]["stats"]
    );
}

/// An invocation that makes thousands of accesses, in a dispatch of many
/// workgroups, through a helper inlined in enough places that checking in
/// place would compile many copies of the state machines: recording them
/// all for the replay would leave chunks of a few workgroups, so by default
/// they are checked in place after all, and the report says why; `--replay
/// always` replays them anyway, in small chunks, with the same verdict.
#[test]
fn long_loops_over_many_workgroups_are_checked_in_place() {
    require_adapter!();
    let dir = temp_dir("in-place");
    std::fs::create_dir_all(&dir).expect("dir");
    let path = dir.join("long_loop.wgsl");
    std::fs::write(
        &path,
        "@group(0) @binding(0) var<storage, read_write> out: array<u32>;
fn add(i: u32, v: u32) {
    out[i % 10240u] += v;
}
@compute @workgroup_size(128)
fn main(@builtin(global_invocation_id) g: vec3<u32>) {
    for (var i = 0u; i < 1000u; i++) {
        add(g.x, i);
    }
    add(g.x + 1u, 1u);
    add(g.x + 2u, 2u);
    add(g.x + 3u, 3u);
    add(g.x + 4u, 4u);
}
",
    )
    .expect("write");
    let p = path.display().to_string();
    // 2,008 entries of 8 bytes for each of 128 invocations: lavapipe's
    // 128 MiB binding holds 65 workgroups' streams, fewer than the 80 of the
    // dispatch (and the 128 a chunk should have).
    let args = ["run", &p, "--dispatch", "80", "--buffer", "out=10240", "--no-analyzer", "--format", "json"];
    let o = wgrace(&args);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let r = json(&o);
    let run = &r["runs"][0];
    assert_eq!(run["complete"], true, "{run}");
    // An adapter with larger bindings than lavapipe's holds the streams of
    // a chunk, and records them.
    let lavapipe = run["adapter"]["name"].as_str().is_some_and(|n| n.contains("llvmpipe"));
    if lavapipe {
        assert!(run["notes"].to_string().contains("checked where they happen"), "{}", run["notes"]);
    }
    // The neighbour's word, written after its loop: a race between workgroups
    // (and within one), found in place as on replay.
    assert_eq!(run["verdict"], "race", "{run}");

    let o = wgrace(&[&args[..], &["--replay", "always"]].concat());
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let r = json(&o);
    let replayed = &r["runs"][0];
    assert_eq!(replayed["complete"], true, "{replayed}");
    assert!(!replayed["notes"].to_string().contains("checked where they happen"), "{}", replayed["notes"]);
    if lavapipe {
        assert!(replayed["stats"]["chunks"].as_u64().is_some_and(|c| c > 1), "{}", replayed["stats"]);
    }
    assert_eq!(replayed["verdict"], "race");
    assert_eq!(replayed["races"].as_array().map(Vec::len), run["races"].as_array().map(Vec::len));
}

/// lavapipe ends a shader's loops after 65,535 iterations in all, and the
/// replay's loops take a few per recorded access: a replay that ends before
/// checking what was recorded says so (`complete: false`), and by default
/// the accesses are checked in place instead, with a note. (A helper with a
/// barrier, called four times in the loop: nine copies to check in place,
/// so `--replay auto` records.)
#[test]
fn a_replay_cut_short_by_the_driver_is_reported_and_checked_in_place() {
    require_adapter!();
    let p = write_shader(
        &temp_dir("replay-cut"),
        "long.wgsl",
        "var<workgroup> tile: array<u32, 8>;
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
fn step(lid: u32, j: u32) -> u32 {
    tile[lid] = j;
    workgroupBarrier();
    return tile[(lid + 1u) % 8u];
}
@compute @workgroup_size(8)
fn main(@builtin(local_invocation_index) lid: u32) {
    var sum = 0u;
    for (var j = 0u; j < 700u; j++) {
        sum += step(lid, j) + step(lid, j + 1u) + step(lid, j + 2u) + step(lid, j + 3u);
    }
    out[lid] = sum;
}
",
    );
    let run = |extra: &[&str]| {
        let args = [&["run", p.as_str(), "--dispatch", "1", "--no-analyzer", "--format", "json"][..], extra].concat();
        let o = wgrace(&args);
        assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
        json(&o)["runs"][0].clone()
    };
    let replayed = run(&["--replay", "always"]);
    let default = run(&[]);
    assert_eq!(replayed["verdict"], "race", "{replayed}");
    assert_eq!(default["verdict"], "race", "{default}");
    if replayed["adapter"]["name"].as_str().is_some_and(|n| n.contains("llvmpipe")) {
        assert_eq!(replayed["complete"], false, "{replayed}");
        assert!(replayed["stats"]["replay_events_unreached"].as_u64().is_some_and(|n| n > 0), "{replayed}");
        assert!(replayed["incomplete"].to_string().contains("the replay's loops ended"), "{replayed}");
        assert_eq!(default["complete"], true, "{default}");
        assert!(default["notes"].to_string().contains("the replay's loops ended before checking"), "{default}");
    }
}

#[test]
fn no_detect_runs_the_original_shader() {
    require_adapter!();
    let o = wgrace(&["run", &sample("wg_missing_barrier.wgsl"), "--no-detect"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stderr(&o).contains("ran the original shader without checking"));
}

#[test]
fn adapters_lists_name_backend_type_and_subgroup_size() {
    require_adapter!();
    let o = wgrace_plain(&["adapters", "--format", "json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let list = json(&o);
    let first = &list[0];
    for field in ["name", "backend", "device_type", "subgroup_size", "supported"] {
        assert!(!first[field].is_null(), "missing {field} in {first}");
    }
    let text = stdout(&wgrace_plain(&["adapters"]));
    assert!(text.contains("subgroup size"), "{text}");
}

/// The classic warp-synchronous reduction tail: racy under WGSL, race-free
/// for hardware that runs 32 invocations in lock-step (GRace's rule).
#[test]
fn warp_synchronous_reduction_is_intra_subgroup_and_hidden_only_by_lockstep_of_32() {
    require_adapter!();
    let tail = sample("wg_unrolled_warp_tail.wgsl");
    let o = wgrace(&["run", &tail, "--mode", "stmt", "--format", "json"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let r = json(&o);
    assert_eq!(r["runs"][0]["checked"]["mode"], "stmt");
    let subgroup = r["runs"][0]["checked"]["subgroup_size"].as_u64().expect("subgroup size");
    let races = r["runs"][0]["races"].as_array().expect("races");
    assert!(races.iter().any(|race| race["class"] == "intra-subgroup"), "no intra-subgroup race: {r}");
    let mut widest = 0;
    for race in races {
        let hidden = race["lockstep"]["hidden_from"].as_u64().unwrap_or_else(|| panic!("never hidden: {race}"));
        widest = widest.max(hidden);
        let visible: Vec<u64> =
            race["lockstep"]["visible_at"].as_array().expect("visible_at").iter().filter_map(Value::as_u64).collect();
        assert_eq!(visible, [4, 8, 16, 32, 64].into_iter().filter(|&w| w < hidden).collect::<Vec<_>>(), "{race}");
        // Each example's invocations share a block of `hidden` and, for an
        // intra-subgroup race, a subgroup.
        for e in race["examples"].as_array().expect("examples") {
            let t = |side: &str| e[side]["local_invocation_id"][0].as_u64().expect("invocation");
            assert_eq!(t("first") / hidden, t("second") / hidden, "{race}");
            let same_subgroup = t("first") / subgroup == t("second") / subgroup;
            assert_eq!(same_subgroup, race["class"] == "intra-subgroup", "{race}");
        }
    }
    // Steps 1-5 read across blocks of 16; all stay within the first 32.
    assert_eq!(widest, 32, "{r}");

    // The legacy semantics: no race with lock-step warps of 32 ...
    let o = wgrace(&["run", &tail, "--assume-lockstep", "32", "--format", "json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    let r = json(&o);
    assert_eq!(r["verdict"], "no-race");
    assert!(r["runs"][0]["stats"]["hidden_by_lockstep"].as_u64().is_some_and(|n| n > 0), "{r}");
    assert!(r["runs"][0]["notes"].to_string().contains("--assume-lockstep"), "{r}");
    // ... but still races with warps of 16.
    assert_eq!(wgrace(&["run", &tail, "--assume-lockstep", "16"]).status.code(), Some(1));
}

#[test]
fn assume_lockstep_needs_statement_mode_and_a_width_of_4_to_64() {
    require_adapter!();
    let tail = sample("wg_unrolled_warp_tail.wgsl");
    let o = wgrace(&["run", &tail, "--mode", "addr", "--assume-lockstep", "32"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--assume-lockstep needs --mode stmt"), "{}", stderr(&o));
    let o = wgrace(&["run", &tail, "--assume-lockstep", "12"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("4, 8, 16, 32 or 64"), "{}", stderr(&o));
}

#[test]
fn statement_mode_lists_every_racing_statement_pair_where_addr_mode_gives_some() {
    require_adapter!();
    let tail = sample("wg_unrolled_warp_tail.wgsl");
    let pairs = |mode: &str| -> std::collections::BTreeSet<(u64, u64)> {
        let r = json(&wgrace(&["run", &tail, "--mode", mode, "--format", "json"]));
        r["runs"][0]["races"]
            .as_array()
            .expect("races")
            .iter()
            .map(|race| (race["first"]["line"].as_u64().unwrap_or(0), race["second"]["line"].as_u64().unwrap_or(0)))
            .collect()
    };
    let (addr, stmt) = (pairs("addr"), pairs("stmt"));
    // The header lists 21 racing line pairs (lines 38-43, each with itself
    // and every later one).
    let all: std::collections::BTreeSet<(u64, u64)> =
        (38..=43).flat_map(|a| (a..=43).map(move |b| (a, b))).filter(|&(a, b)| (a, b) != (38, 38)).collect();
    assert_eq!(stmt, all);
    assert!(addr.is_subset(&all) && addr.len() <= stmt.len(), "{addr:?}");
}

#[test]
fn statement_mode_says_when_a_word_has_more_statements_than_slots() {
    require_adapter!();
    let o =
        wgrace(&["run", &sample("wg_unrolled_warp_tail.wgsl"), "--mode", "stmt", "--slots", "2", "--format", "json"]);
    let r = json(&o);
    assert_eq!(r["complete"], false, "{r}");
    assert!(r["runs"][0]["stats"]["slot_overflows"].as_u64().is_some_and(|n| n > 0), "{r}");
    assert!(r["runs"][0]["incomplete"].to_string().contains("--slots"), "{r}");
}

#[test]
fn bench_reports_both_times_and_the_extra_memory() {
    require_adapter!();
    let o = wgrace(&["bench", &sample("wg_barrier.wgsl"), "--repetitions", "3", "--warmup", "1", "--format", "json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let r = json(&o);
    assert_eq!(r["repetitions"], 3);
    assert_eq!(r["native_samples"].as_array().map(Vec::len), Some(3));
    assert!(r["native_ms"].as_f64().is_some_and(|t| t > 0.0), "{r}");
    assert!(r["checked_ms"].as_f64().is_some_and(|t| t > 0.0), "{r}");
    assert!(r["overhead"].as_f64().is_some_and(|x| x > 0.0), "{r}");
    assert!(r["log_bytes"].as_u64().is_some_and(|b| b > 0), "{r}");
}

#[test]
fn spirv_input_is_checked_like_wgsl() {
    require_adapter!();
    let dir = temp_dir("spirv");
    for (name, racy) in [("wg_missing_barrier", true), ("wg_barrier", false)] {
        let source = std::fs::read_to_string(samples().join(format!("{name}.wgsl"))).expect("sample");
        let module = naga::front::wgsl::parse_str(&source).expect("parse");
        let info = naga::valid::Validator::new(naga::valid::ValidationFlags::all(), naga::valid::Capabilities::all())
            .validate(&module)
            .expect("valid");
        let words =
            naga::back::spv::write_vec(&module, &info, &naga::back::spv::Options::default(), None).expect("spv");
        let path = dir.join(format!("{name}.spv"));
        std::fs::write(&path, bytemuck_words(&words)).expect("write spv");
        let o = wgrace(&["run", &path.display().to_string(), "--dispatch", "2", "--format", "json"]);
        assert_eq!(o.status.code(), Some(if racy { 1 } else { 0 }), "{name}: {}", stderr(&o));
        let r = json(&o);
        assert_eq!(r["shader"]["language"], "spirv");
        if racy {
            let race = &r["runs"][0]["races"][0];
            assert!(race["class"] == "intra-workgroup" || race["class"] == "intra-subgroup", "{race}");
            // Each side points at the instruction that made the access.
            let first = race["first"]["snippet"].as_str().unwrap_or("");
            let second = race["second"]["snippet"].as_str().unwrap_or("");
            assert!(first.starts_with("OpStore (SPIR-V word"), "{race}");
            assert!(second.starts_with("OpLoad (SPIR-V word"), "{race}");
            let text = stdout(&wgrace(&["run", &path.display().to_string(), "--dispatch", "2"]));
            assert!(text.contains("intra-workgroup]: data race"), "{text}");
        }
    }
}

fn bytemuck_words(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

#[test]
fn without_any_driver_the_error_says_how_to_install_lavapipe() {
    let o = Command::new(env!("CARGO_BIN_EXE_wgrace"))
        .args(["run", &sample("wg_barrier.wgsl")])
        .env("VK_DRIVER_FILES", "/nonexistent/icd.json")
        .env("VK_ICD_FILENAMES", "/nonexistent/icd.json")
        .output()
        .expect("run wgrace");
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("apt-get install mesa-vulkan-drivers"), "{}", stderr(&o));
}

#[test]
fn a_buffer_beyond_the_adapters_limit_is_refused() {
    require_adapter!();
    // 64 Mi elements of 4 bytes: 256 MiB, over lavapipe's 128 MiB bindings
    // (other adapters allow more: the test is lavapipe's).
    if std::env::var("WGRACE_TEST_ADAPTER").is_ok_and(|a| !a.contains("llvmpipe")) {
        return;
    }
    let o = wgrace(&["run", &sample("wg_barrier.wgsl"), "--buffer", "out=67108864"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("buffer `out` needs 268435456 bytes"), "{}", stderr(&o));
}

/// `name.wgsl` compiled to SPIR-V by naga, with `OpSource`/`OpLine` debug
/// information when `debug`.
fn spirv_of(dir: &Path, name: &str, debug: bool) -> String {
    let source = std::fs::read_to_string(samples().join(format!("{name}.wgsl"))).expect("sample");
    let module = naga::front::wgsl::parse_str(&source).expect("parse");
    let info = naga::valid::Validator::new(naga::valid::ValidationFlags::all(), naga::valid::Capabilities::all())
        .validate(&module)
        .expect("valid");
    let file_name = format!("{name}.wgsl");
    let mut flags = naga::back::spv::Options::default().flags;
    // naga's default writes debug instructions only in debug builds.
    flags.set(naga::back::spv::WriterFlags::DEBUG, debug);
    let options = naga::back::spv::Options {
        flags,
        debug_info: debug.then(|| naga::back::spv::DebugInfo {
            source_code: &source,
            file_name: &file_name,
            language: naga::back::spv::SourceLanguage::WGSL,
        }),
        ..Default::default()
    };
    let words = naga::back::spv::write_vec(&module, &info, &options, None).expect("spv");
    let path = dir.join(format!("{name}{}.spv", if debug { "-debug" } else { "" }));
    std::fs::write(&path, bytemuck_words(&words)).expect("write spv");
    path.display().to_string()
}

#[test]
fn spirv_debug_information_gives_source_lines() {
    require_adapter!();
    let dir = temp_dir("spirv-debug");
    let path = spirv_of(&dir, "wg_missing_barrier", true);
    let r = json(&wgrace(&["run", &path, "--dispatch", "2", "--format", "json"]));
    let race = &r["runs"][0]["races"][0];
    assert_eq!(race["first"]["line"], 13, "{race}");
    assert_eq!(race["first"]["snippet"], "    tile[lid] = lid * 2u;");
    assert_eq!(race["second"]["line"], 14, "{race}");
    assert!(r["shader"]["source"].as_str().is_some_and(|s| s.contains("var<workgroup> tile")));
}

#[test]
fn spirv_from_naga_checks_its_zero_initialised_workgroup_atomic() {
    require_adapter!();
    // naga's writer zero-initialises the workgroup atomic `local_count` with
    // a plain store that a barrier orders before its atomics: memory both
    // atomic and plain, which the atomic-plain check follows within each
    // workgroup. Its workgroup-scope atomics on workgroup memory cannot be
    // used outside their scope, and its storage atomics are device-scope:
    // nothing is left unchecked.
    let dir = temp_dir("spirv-atomic");
    let path = spirv_of(&dir, "atomic_counter", false);
    let r = json(&wgrace(&["run", &path, "--format", "json", "--dispatch", "4"]));
    assert_eq!((&r["verdict"], &r["complete"]), (&"no-race".into(), &true.into()), "{r}");
    assert_eq!(r["runs"][0]["incomplete"], serde_json::json!([]), "{r}");
}

#[test]
fn corpus_scores_a_folder_and_fails_on_a_wrong_kernel() {
    require_adapter!();
    // The samples' verdicts are the integration tests' (tests/tests/
    // samples.rs); here a folder of a few, two at a time, each on a device
    // of its own, is scored in the folder's order.
    let robust = samples().join("robust");
    let o = wgrace(&["corpus", &robust.display().to_string(), "--format", "json", "--jobs", "2"]);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    let board = json(&o);
    let on_disk = std::fs::read_dir(&robust).expect("samples").count();
    assert_eq!(board["total"]["kernels"].as_u64(), Some(on_disk as u64), "{}", board["total"]);
    assert_eq!(board["total"]["right"], board["total"]["kernels"]);
    assert_eq!(board["total"]["false_positives"], 0);
    assert_eq!(board["total"]["false_negatives"], 0);
    assert_eq!(board["total"]["pair_precision"], 1.0);
    assert!(board["suites"].as_array().is_some_and(|s| s.iter().any(|s| s["suite"] == "robust")));
    let paths: Vec<&str> =
        board["kernels"].as_array().expect("kernels").iter().filter_map(|k| k["path"].as_str()).collect();
    let mut sorted = paths.clone();
    sorted.sort_unstable();
    assert!(paths.len() == on_disk && paths == sorted, "{paths:?}");
    let o = wgrace(&["corpus", &robust.display().to_string(), "--jobs", "0"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));

    let dir = temp_dir("corpus");
    std::fs::create_dir_all(dir.join("mine")).expect("dir");
    let text = std::fs::read_to_string(samples().join("wg_barrier.wgsl")).expect("sample");
    std::fs::write(dir.join("mine/ok.wgsl"), &text).expect("write");
    std::fs::write(dir.join("mine/wrong.wgsl"), text.replace("workgroupBarrier();", "")).expect("write");
    let o = wgrace(&["corpus", &dir.display().to_string()]);
    assert_eq!(o.status.code(), Some(1), "{}{}", stdout(&o), stderr(&o));
    let text = stdout(&o);
    assert!(text.contains("FAIL") && text.contains("wrong.wgsl: false positive"), "{text}");
    assert!(text.contains("mine"), "{text}");

    // `--skip` leaves the wrong kernel out, and says so.
    let o = wgrace(&["corpus", &dir.display().to_string(), "--skip", "wrong."]);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    let text = stdout(&o);
    assert!(text.contains("wgrace corpus: all 1 kernels right (0 xfail), 1 skipped, on "), "{text}");
    let o = wgrace(&["corpus", &dir.display().to_string(), "--skip", "wrong.", "--format", "json"]);
    let skipped = json(&o)["skipped"].clone();
    assert_eq!(skipped.as_array().map(Vec::len), Some(1), "{skipped}");
    assert!(skipped[0].as_str().is_some_and(|p| p.ends_with("mine/wrong.wgsl")), "{skipped}");
    let o = wgrace(&["corpus", &dir.display().to_string(), "--skip", "mine"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("--skip leaves out every kernel under"), "{}", stderr(&o));

    let o = wgrace(&["corpus", &dir.join("missing").display().to_string()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}

#[test]
fn stats_count_instrumented_accesses_with_and_without_the_analyzer() {
    require_adapter!();
    // 128 invocations read a flag; the 64 with an odd flag read and write
    // out[0] 16 times. The analyzer proves the flag reads race-free and
    // records the loop-invariant out[0] accesses once per loop.
    let o = wgrace(&["run", &sample("storage_accumulate_in_guarded_loop.wgsl"), "--stats", "--format", "json"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let i = &json(&o)["runs"][0]["checked"]["instrumentation"];
    assert_eq!(i["without_analyzer"]["sites"], 3, "{i}");
    assert_eq!(i["without_analyzer"]["accesses"], 128 + 64 * 2 * 16, "{i}");
    assert_eq!(i["with_analyzer"]["sites"], 2, "{i}");
    assert_eq!(i["with_analyzer"]["accesses"], 64 * 2, "{i}");
    let text = stdout(&wgrace(&["check", &sample("storage_accumulate_in_guarded_loop.wgsl")]));
    assert!(text.contains("line 18: write of `out`") && text.contains("recorded once per loop"), "{text}");
}

#[test]
fn storage_state_takes_four_bytes_per_word_and_a_cache_takes_fewer() {
    require_adapter!();
    let path = sample("storage_accumulate_in_guarded_loop.wgsl");
    let plain = json(&wgrace(&["run", &path, "--format", "json"]));
    let shadow = &plain["runs"][0]["checked"]["shadow"];
    assert_eq!(shadow["storage_words"], 4096, "{shadow}");
    assert_eq!(shadow["state_bytes"], 4 * 4096, "{shadow}");
    assert!(shadow.get("cache_ratio").is_none(), "{shadow}");

    // Invocation g writes data[g] and reads data[g + 1] (mod 128): every
    // word has one write and one read, so the races found, their classes and
    // their counts do not depend on the order the GPU ran them in (where
    // several invocations race on one word, which pair is reported does).
    // With one state per 16 words, the 4097 words get 512 entries, entry =
    // word mod 512: the 128 words touched have entries of their own, so the
    // cached run must find exactly what the plain run finds and be complete.
    // Without the analyzer every access is checked by the runtime's states.
    let dir = temp_dir("cache");
    let ring = write_shader(
        &dir,
        "ring.wgsl",
        "@group(0) @binding(0) var<storage, read_write> data: array<u32>;
         @group(0) @binding(1) var<storage, read_write> sink: array<u32>;
         @compute @workgroup_size(64)
         fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
             data[gid.x] = gid.x;
             let next = data[(gid.x + 1u) % 128u];
             if next == 12345678u { sink[0] = next; }
         }",
    );
    let ring_run = |extra: &[&str]| {
        let args = ["run", &ring, "--dispatch", "2", "--buffer", "data=4096", "--buffer", "sink=1", "--no-analyzer"];
        let o = wgrace(&[&args[..], &["--format", "json"], extra].concat());
        assert_eq!(o.status.code(), Some(1), "{extra:?}: {}", stderr(&o));
        json(&o)
    };
    let races = |r: &Value| -> Vec<String> {
        let mut v: Vec<_> = r["runs"][0]["races"]
            .as_array()
            .expect("races")
            .iter()
            .map(|race| {
                let (class, kind, n) = (&race["class"], &race["kind"], &race["occurrences"]);
                format!("{class} {kind} {}-{} x{n}", race["first"]["line"], race["second"]["line"])
            })
            .collect();
        v.sort();
        v
    };
    let plain = ring_run(&[]);
    let cached = ring_run(&["--shadow-cache", "16"]);
    assert_eq!(cached["runs"][0]["checked"]["shadow"]["state_bytes"], 512 * 4, "{}", cached["runs"][0]["checked"]);
    assert_eq!(cached["runs"][0]["checked"]["shadow"]["cache_ratio"], 16);
    assert_eq!(cached["runs"][0]["stats"]["cache_evictions"], 0);
    assert_eq!(cached["complete"], true);
    // One race per word.
    let occurrences: u64 =
        plain["runs"][0]["races"].as_array().expect("races").iter().filter_map(|r| r["occurrences"].as_u64()).sum();
    assert_eq!(occurrences, 128, "{}", plain["runs"][0]["races"]);
    assert_eq!(races(&cached), races(&plain));

    // Here words of one entry are touched together: evictions are counted
    // and the report says it may have missed races.
    let o = wgrace(&["run", &sample("storage_stencil_2d_inplace.wgsl"), "--format", "json", "--shadow-cache", "16"]);
    let r = json(&o);
    assert!(r["runs"][0]["stats"]["cache_evictions"].as_u64().is_some_and(|n| n > 0), "{}", r["runs"][0]["stats"]);
    assert_eq!(r["complete"], false);
    assert!(r["runs"][0]["incomplete"].to_string().contains("--shadow-cache"), "{}", r["runs"][0]["incomplete"]);

    for (flags, says) in
        [(&["--shadow-cache", "3"][..], "power of two"), (&["--shadow-cache", "16", "--mode", "stmt"][..], "addr mode")]
    {
        let o = wgrace(&[&["run", &path][..], flags].concat());
        assert_eq!(o.status.code(), Some(2), "{flags:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(says), "{flags:?}: {}", stderr(&o));
    }
}

#[test]
fn reads_a_whole_subgroup_makes_keep_their_classes_and_lock_step_widths() {
    require_adapter!();
    // Invocation 0 writes, all 64 read behind a storageBarrier(). Reads of
    // one word by a whole subgroup are checked for its lowest and highest
    // invocation: in subgroup 0 the lowest is the writer, so the pairs there
    // come from the highest, S - 1 (S the subgroup size), hidden from width
    // S; the pairs in other subgroups are barrier-kind, the farthest reader
    // (63) hidden from width 64 only.
    let dir = temp_dir("broadcast");
    let shader = write_shader(
        &dir,
        "broadcast.wgsl",
        "var<workgroup> value: u32;
         @group(0) @binding(0) var<storage, read_write> out: array<u32>;
         @compute @workgroup_size(64)
         fn main(@builtin(local_invocation_index) lid: u32, @builtin(global_invocation_id) gid: vec3<u32>) {
             if lid == 0u { value = gid.x + 1u; }
             storageBarrier();
             out[gid.x] = value;
         }",
    );
    let o = wgrace(&["run", &shader, "--dispatch", "2", "--format", "json"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let r = json(&o);
    let size = r["runs"][0]["checked"]["subgroup_size"].as_u64().expect("subgroup size");
    let mut got: Vec<(String, Option<u64>)> = r["runs"][0]["races"]
        .as_array()
        .expect("races")
        .iter()
        .map(|race| (race["class"].as_str().unwrap_or("").to_string(), race["lockstep"]["hidden_from"].as_u64()))
        .collect();
    got.sort();
    let mut expected = Vec::new();
    if size < 64 {
        expected.push(("barrier-kind".to_string(), Some(64)));
    }
    if size > 1 {
        expected.push(("intra-subgroup".to_string(), Some(size)));
    }
    assert_eq!(got, expected, "subgroup size {size}: {}", r["runs"][0]["races"]);
}

#[test]
fn checks_lists_the_registry() {
    require_adapter!();
    let o = wgrace(&["checks"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = stdout(&o);
    for id in [
        "data-race (error)",
        "barrier-divergence (error)",
        "output-difference (warning)",
        "scope (error, part of data-race)",
        "loops (error)",
        "bounds (error)",
        "banks (note, off by default)",
    ] {
        assert!(text.contains(id), "{text}");
    }
}

#[test]
fn a_read_and_a_write_on_one_line_get_labels_of_their_own() {
    require_adapter!();
    let dir = temp_dir("same-line");
    let text = "var<workgroup> tile: array<u32, 65>;\n\
                @compute @workgroup_size(64)\n\
                fn main(@builtin(local_invocation_index) l: u32) {\n    tile[l] = tile[l + 1u] + 1u;\n}\n";
    let path = write_shader(&dir, "s.wgsl", text);
    let r = json(&wgrace(&["run", &path, "--format", "json"]));
    let race = &r["runs"][0]["races"][0];
    let (first, second) = (&race["first"], &race["second"]);
    assert_eq!((&first["line"], &second["line"]), (&serde_json::json!(4), &serde_json::json!(4)), "{race}");
    // The write covers `tile[l]`, the read `tile[l + 1u]`: no overlap.
    let span = |a: &Value| (a["span"][0].as_u64().unwrap_or(0), a["span"][1].as_u64().unwrap_or(0));
    let (write, read) =
        if first["access"] == "write" { (span(first), span(second)) } else { (span(second), span(first)) };
    assert_eq!(&text[write.0 as usize..write.1 as usize], "tile[l]", "{race}");
    assert_eq!(&text[read.0 as usize..read.1 as usize], "tile[l + 1u]", "{race}");
    let out = stdout(&wgrace(&["run", &path]));
    assert!(out.contains("4 │     tile[l] = tile[l + 1u] + 1u;\n  │     -------   ------------ read by"), "{out}");
}

#[test]
fn progress_lines_tell_programs_what_a_run_is_doing() {
    require_adapter!();
    let sample = samples().join("wg_missing_barrier.wgsl").display().to_string();
    let o = wgrace(&["run", &sample, "--format", "json", "--progress", "lines"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let err = stderr(&o);
    let lines: Vec<&str> = err.lines().filter(|l| l.starts_with("progress: ")).collect();
    assert!(lines.first().is_some_and(|l| l.starts_with("progress: run main on ")), "{err}");
    assert_eq!(lines.last(), Some(&"progress: chunks 1/1"), "{err}");
    // The report on stdout is untouched.
    json(&o);
    let o = wgrace(&["run", &sample, "--format", "json", "--progress", "none"]);
    assert!(!stderr(&o).contains("progress: "));
    let o = wgrace(&["run", &sample, "--progress", "sometimes"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn the_timeline_is_gathered_for_json_reports_unless_asked_otherwise() {
    require_adapter!();
    let racy = sample("wg_missing_barrier.wgsl");
    let o = wgrace(&["run", &racy, "--format", "json"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let timeline = &json(&o)["runs"][0]["timeline"];
    assert_eq!(timeline["workgroup_id"], serde_json::json!([0, 0, 0]));
    assert_eq!(timeline["focus"], "first-racy");
    assert_eq!(timeline["invocations"], 64);
    // Named, or off.
    let o = wgrace(&["run", &racy, "--format", "json", "--timeline", "1"]);
    assert_eq!(json(&o)["runs"][0]["timeline"]["workgroup_id"], serde_json::json!([1, 0, 0]));
    let o = wgrace(&["run", &racy, "--format", "json", "--timeline", "off"]);
    assert!(json(&o)["runs"][0].get("timeline").is_none());
    // A workgroup outside the dispatch: exit 2, saying why.
    let o = wgrace(&["run", &racy, "--timeline", "2"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--timeline 2,0,0: the dispatch has 2x1x1 workgroups"), "{}", stderr(&o));
}

#[test]
fn same_value_notes_keep_races_whose_writes_stored_one_value_out_of_the_verdict() {
    require_adapter!();
    // The sample's header asks for --same-value-notes: each statement wrote
    // only 1, so every race (of workgroup and storage memory, of one
    // statement and of two) is a note, and the run passes.
    let benign = sample("same_value_benign_flags.wgsl");
    let o = wgrace(&["run", &benign]);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    let text = stdout(&o);
    assert!(
        text.starts_with(
            "note: suppressed by same-value writes at --same-value-notes (the two writes of each stored the same \
             value): the intra-subgroup race on `ready` (line 18); "
        ),
        "{text}"
    );
    assert!(text.contains("the inter-workgroup race on `done` (lines 20 and 22)\n"), "{text}");
    assert!(text.contains("wgrace: no race observed for this dispatch and input, 8 suppressed"), "{text}");
    assert!(!text.contains("unused suppression"), "{text}");
    let report = json(&wgrace(&["run", &benign, "--format", "json"]));
    assert_eq!(report["verdict"], "no-race");
    assert_eq!(report["suppressions"][0]["same_value"], true);
    assert_eq!(report["suppressions"][0]["matched"], 8);
    let kept = report["runs"][0]["suppressed"].as_array().expect("suppressed");
    assert!(kept.iter().all(|k| k["race"]["same_value"] == true && k["race"]["kind"] == "write-write"), "{kept:?}");

    // The same shader without the option: the same races fail the run, and
    // none is marked (the run gathered no values).
    let dir = temp_dir("same_value");
    let plain = dir.join("plain.wgsl");
    let source = std::fs::read_to_string(&benign).expect("read");
    std::fs::write(&plain, source.replace("// wgrace: --dispatch 2 --same-value-notes", "// wgrace: --dispatch 2"))
        .expect("write");
    let report = json(&wgrace(&["run", &plain.display().to_string(), "--format", "json"]));
    assert_eq!(report["verdict"], "race");
    let races = report["runs"][0]["races"].as_array().expect("races");
    assert_eq!(races.len(), 8, "{races:?}");
    assert!(races.iter().all(|r| r.get("same_value").is_none()), "{races:?}");

    // `wgrace check` proves the races but cannot know the values: they stay
    // errors, and it says so.
    let o = wgrace(&["check", &benign]);
    assert_eq!(o.status.code(), Some(1), "{}{}", stdout(&o), stderr(&o));
    assert!(
        stdout(&o).contains(
            "note: --same-value-notes needs the values written, which only `wgrace run` learns: the write-write \
             races proven here stay errors\n"
        ),
        "{}",
        stdout(&o)
    );

    // Word by word: statements that wrote many values, two writers of each
    // word storing one (storage and workgroup memory), in both modes; and
    // the same races without the option.
    let pairs = sample("same_value_pairs.wgsl");
    for mode in ["addr", "stmt"] {
        let o = wgrace(&["run", &pairs, "--mode", mode]);
        assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
        assert!(
            stdout(&o).starts_with(
                "note: suppressed by same-value writes at --same-value-notes (the two writes of each stored the \
                 same value): the intra-subgroup race on `half` (line 17); the intra-subgroup race on `pairs` \
                 (line 18)\n"
            ),
            "{}",
            stdout(&o)
        );
        assert!(stdout(&o).contains(", 2 suppressed"), "{}", stdout(&o));
    }
    let plain = dir.join("pairs.wgsl");
    let source = std::fs::read_to_string(&pairs).expect("read");
    std::fs::write(&plain, source.replace(" --same-value-notes", "")).expect("write");
    let o = wgrace(&["run", &plain.display().to_string()]);
    assert_eq!(o.status.code(), Some(1), "{}{}", stdout(&o), stderr(&o));
    assert!(stdout(&o).contains("wgrace: 2 races found"), "{}", stdout(&o));

    // Writes of two values keep their races, in both modes: to one word
    // from two statements, word by word, and in workgroup memory beside
    // arrays written one value (their races alone are notes): each class
    // of `c`'s race stays.
    let differs = sample("same_value_differs.wgsl");
    for mode in ["addr", "stmt"] {
        let o = wgrace(&["run", &differs, "--mode", mode]);
        assert_eq!(o.status.code(), Some(1), "{}{}", stdout(&o), stderr(&o));
        for var in ["last", "flag", "pairs"] {
            let line = format!("data race (write-write) on storage variable `{var}`");
            assert!(stdout(&o).contains(&line), "{}", stdout(&o));
        }
        let c = "error[intra-subgroup, intra-workgroup]: data race (write-write) on workgroup variable `c`\n";
        assert!(stdout(&o).contains(c), "{mode}: {}", stdout(&o));
        // `a` and `b`: notes (statement mode finds fewer classes).
        assert!(stdout(&o).contains("wgrace: 4 races ("), "{mode}: {}", stdout(&o));
        assert!(stdout(&o).contains(" found, 4 suppressed "), "{mode}: {}", stdout(&o));
        assert!(!stdout(&o).contains("race on `c`"), "{mode}: {}", stdout(&o));
    }
}

#[test]
fn suppressions_keep_races_out_of_the_verdict_and_unused_ones_are_reported() {
    require_adapter!();
    let dir = temp_dir("suppressions");
    // The sample's comment suppresses every race on `done`: exit 0, each
    // race named in a note, the count in the summary.
    let benign = sample("suppressed_benign_flag.wgsl");
    let o = wgrace(&["run", &benign]);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    let text = stdout(&o);
    let note =
        format!("note: suppressed by allow(data-race) lines=14 at {benign}:14 (every invocation writes 1): the intra-");
    assert!(text.starts_with(&note), "{text}");
    assert!(text.contains("the inter-workgroup race on `done` (line 14)\n"), "{text}");
    assert!(text.contains("wgrace: no race observed for this dispatch and input, "), "{text}");
    assert!(text.contains(" suppressed (entry point `main`"), "{text}");

    // A file: the line's conditions must all hold; one that matches nothing
    // is a warning, and the unsuppressed race still fails the run.
    let racy = sample("wg_missing_barrier.wgsl");
    let file = dir.join("ci.supp");
    std::fs::write(
        &file,
        "# reviewed\nallow(data-race) variable=out lines=13-14\n\nallow(data-race) variable=tile lines=99 # stale\n",
    )
    .expect("write");
    let supp = file.display().to_string();
    let o = wgrace(&["run", &racy, "--suppressions", &supp]);
    assert_eq!(o.status.code(), Some(1), "{}{}", stdout(&o), stderr(&o));
    let text = stdout(&o);
    assert!(!text.contains("note: suppressed"), "{text}");
    assert!(
        text.contains(&format!(
            "warning: unused suppression: allow(data-race) variable=out lines=13,14 at {supp}:2 matched nothing\n"
        )),
        "{text}"
    );
    assert!(
        text.contains(&format!(
            "warning: unused suppression: allow(data-race) variable=tile lines=99 at {supp}:4 matched nothing\n"
        )),
        "{text}"
    );
    std::fs::write(
        &file,
        "allow(data-race) variable=tile lines=13-14 shader=wg_missing_barrier.wgsl # tile is read early\n",
    )
    .expect("write");
    let o = wgrace(&["run", &racy, "--suppressions", &supp]);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    assert!(!stdout(&o).contains("unused"), "{}", stdout(&o));

    // JSON lists the suppressions with their counts and each run's
    // suppressed races (and matches the schema); SARIF marks them.
    let report = json(&wgrace(&["run", &racy, "--suppressions", &supp, "--format", "json"]));
    assert_eq!(report["verdict"], "no-race");
    assert_eq!(report["suppressions"][0]["origin"], format!("{supp}:1"));
    assert_eq!(report["suppressions"][0]["reason"], "tile is read early");
    let kept = report["runs"][0]["suppressed"].as_array().expect("suppressed").len();
    assert!(kept >= 1 && report["suppressions"][0]["matched"] == kept as u64, "{report}");
    assert_eq!(report["runs"][0]["suppressed"][0]["race"]["memory"]["variable"], "tile");
    let sarif = json(&wgrace(&["run", &racy, "--suppressions", &supp, "--format", "sarif"]));
    let results = sarif["runs"][0]["results"].as_array().expect("results");
    assert_eq!(results.len(), kept);
    assert!(
        results.iter().all(|r| r["suppressions"][0]["kind"] == "external"
            && r["suppressions"][0]["justification"] == "tile is read early"),
        "{results:?}"
    );
    let sarif = json(&wgrace(&["run", &benign, "--format", "sarif"]));
    assert_eq!(sarif["runs"][0]["results"][0]["suppressions"][0]["kind"], "inSource");

    // A SPIR-V module's comments come from the source it carries, named as
    // its debug information names it; without debug information it has none.
    let spv = spirv_of(&dir, "suppressed_benign_flag", true);
    let o = wgrace(&["run", &spv, "--dispatch", "2"]);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    assert!(
        stdout(&o).contains("note: suppressed by allow(data-race) lines=14 at suppressed_benign_flag.wgsl:14 "),
        "{}",
        stdout(&o)
    );
    let sarif = json(&wgrace(&["run", &spv, "--dispatch", "2", "--format", "sarif"]));
    assert_eq!(sarif["runs"][0]["results"][0]["suppressions"][0]["kind"], "inSource");
    let o = wgrace(&["run", &spirv_of(&dir, "suppressed_benign_flag", false), "--dispatch", "2"]);
    assert_eq!(o.status.code(), Some(1), "{}{}", stdout(&o), stderr(&o));

    // Bad suppressions stop the run with exit status 2, naming the line.
    let bad = write_shader(
        &dir,
        "bad.wgsl",
        "@compute @workgroup_size(1)\nfn main() {\n    // wgrace: allow(data-rcae)\n}\n",
    );
    let o = wgrace(&["run", &bad]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o)
            .contains(&format!("{bad}:3: unknown check `data-rcae` in `allow(data-rcae)`; the checks are data-race, ")),
        "{}",
        stderr(&o)
    );
    std::fs::write(&file, "allow(barrier-divergence, inter-workgroup)\n").expect("write");
    let o = wgrace(&["run", &racy, "--suppressions", &supp]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains(&format!(
            "{supp}:1: `barrier-divergence` findings have no class: write allow(barrier-divergence)"
        )),
        "{}",
        stderr(&o)
    );
    std::fs::write(&file, "allow(data-race) color=red\n").expect("write");
    let o = wgrace(&["run", &racy, "--suppressions", &supp]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("`color=red` is not a condition"), "{}", stderr(&o));
    let o = wgrace(&["run", &racy, "--suppressions", &dir.join("missing.supp").display().to_string()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("reading the suppressions file"), "{}", stderr(&o));
}

#[test]
fn checks_selects_the_checks_that_run() {
    require_adapter!();
    // Without `loops` the runaway loop gets no finding (lavapipe ends it);
    // without `barrier-divergence` the early return gets none. The report
    // lists the checks that ran, and a note the ones left out.
    let runaway = sample("loop_bound_from_wrong_buffer.wgsl");
    let o = wgrace(&["run", &runaway, "--checks", "data-race", "--format", "json"]);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    let report = json(&o);
    let ids: Vec<&str> = report["checks"].as_array().expect("checks").iter().filter_map(|c| c["id"].as_str()).collect();
    assert_eq!(ids, ["data-race", "scope", "atomic-plain", "missing-fence", "lockset"]);
    assert_eq!(report["runs"][0]["findings"].as_array().map(Vec::len), Some(0));
    let notes = &report["runs"][0]["notes"];
    assert!(
        notes
            .as_array()
            .expect("notes")
            .iter()
            .any(|n| n == "checks left out (--checks): barrier-divergence, output-difference, loops, bounds"),
        "{notes}"
    );
    let o = wgrace(&["run", &runaway, "--checks", "data-race,loops"]);
    assert_eq!(o.status.code(), Some(1), "{}{}", stdout(&o), stderr(&o));
    assert!(stdout(&o).contains("error[loops]"), "{}", stdout(&o));

    // `default` and `all` name the checks on by default and every one.
    let o = wgrace(&["run", &runaway, "--checks", "default", "--format", "json"]);
    assert_eq!(o.status.code(), Some(1), "{}{}", stdout(&o), stderr(&o));
    let report = json(&o);
    assert!(report["checks"].as_array().expect("checks").iter().all(|c| c["id"] != "banks"), "{report}");
    assert!(report["runs"][0]["notes"].as_array().expect("notes").iter().all(|n| !n.to_string().contains("--checks")));
    let o = wgrace(&["run", &runaway, "--checks", "all", "--format", "json"]);
    let report = json(&o);
    assert!(report["checks"].as_array().expect("checks").iter().any(|c| c["id"] == "banks"), "{report}");
    let o = wgrace(&["run", &runaway, "--checks", "data-race,bank"]);
    assert_eq!(o.status.code(), Some(2), "{}{}", stdout(&o), stderr(&o));
    assert!(stderr(&o).contains("--checks: unknown check `bank`; the checks are data-race, "), "{}", stderr(&o));
    assert!(stderr(&o).contains(", bounds, banks (or `default`, `all`)"), "{}", stderr(&o));

    let early = sample("wg_barrier_after_early_return.wgsl");
    let o = wgrace(&["run", &early, "--checks", "loops,data-race"]);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    assert!(
        stdout(&o).contains("note: checks left out (--checks): barrier-divergence, output-difference, bounds\n"),
        "{}",
        stdout(&o)
    );

    // Without data-race no access is instrumented, and the report says that
    // races were not checked: the racy sample passes, incomplete.
    let racy = sample("wg_missing_barrier.wgsl");
    let o = wgrace(&["run", &racy, "--checks", "loops,barrier-divergence"]);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    let text = stdout(&o);
    assert!(
        text.contains("warning: incomplete report: races were not checked: --checks leaves out data-race\n"),
        "{text}"
    );
    assert!(
        text.contains("\nwgrace: no finding; races not checked (--checks) (entry point `main`, 128 invocations, on "),
        "{text}"
    );
    let report = json(&wgrace(&["run", &racy, "--checks", "loops", "--format", "json"]));
    assert_eq!(report["complete"], false);
    assert_eq!(report["runs"][0]["checked"]["checked_sites"], 0);
    let o = wgrace(&["run", &early, "--checks", "barrier-divergence"]);
    assert_eq!(o.status.code(), Some(1), "{}{}", stdout(&o), stderr(&o));
    assert!(
        stdout(&o).contains("wgrace: 1 barrier-divergence finding; races not checked (--checks)"),
        "{}",
        stdout(&o)
    );

    // Lists that cannot run: exit status 2 and why.
    for (list, message) in [
        ("nope", "--checks: unknown check `nope`; the checks are data-race, barrier-divergence, "),
        (
            "scope",
            "--checks: `scope` is part of the `data-race` check (its races are races that check finds and classes): list `data-race`, which runs it",
        ),
    ] {
        let o = wgrace(&["run", &early, "--checks", list]);
        assert_eq!(o.status.code(), Some(2), "{list}: {}", stderr(&o));
        assert!(stderr(&o).contains(message), "{list}: {}", stderr(&o));
    }
}

#[test]
fn a_compiler_panic_is_an_error_naming_the_construct_and_a_workaround() {
    require_adapter!();
    // naga 30's SPIR-V backend panics on a pointer to part of a local
    // variable passed as an argument, with the original shader too.
    let dir = temp_dir("backend_panic");
    let shader = dir.join("member.wgsl");
    std::fs::write(
        &shader,
        "struct S { a: u32, b: u32 }\n\
         @group(0) @binding(0) var<storage, read_write> out: array<u32>;\n\
         fn bump(p: ptr<function, u32>) { *p = *p + 1u; }\n\
         @compute @workgroup_size(4)\n\
         fn main(@builtin(global_invocation_id) g: vec3<u32>) {\n\
         \x20   var s = S(g.x, 2u);\n\
         \x20   bump(&s.a);\n\
         \x20   out[g.x] = s.a + s.b;\n\
         }\n",
    )
    .expect("write");
    let path = shader.display().to_string();
    for (flags, which) in [(&[][..], "instrumented"), (&["--no-detect"][..], "original")] {
        let o = wgrace(&[&["run", path.as_str()][..], flags].concat());
        assert_eq!(o.status.code(), Some(2), "{}{}", stdout(&o), stderr(&o));
        let err = stderr(&o);
        assert!(
            err.starts_with(&format!("error: naga's SPIR-V backend failed on the {which} shader: it panicked (")),
            "{err}"
        );
        assert!(
            err.contains(&format!(
                "\n  {path}:7:11: `&s.a` passes a pointer to part of a variable (a member, element or column) as a \
                 function argument, which naga 30's SPIR-V backend cannot compile (a known naga bug); pass the \
                 whole variable, or copy the part to a local variable and pass a pointer to that\n"
            )),
            "{err}"
        );
        assert!(!err.contains("panicked at") && !err.contains("backtrace"), "{err}");
    }
}

#[test]
fn browser_directives_overrides_by_id_device_features_and_immediates() {
    require_adapter!();
    // `enable subgroups;` (Tint's): read without it, with a note.
    let o = wgrace(&["run", &sample("tint_enable_subgroups.wgsl")]);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    assert!(
        stdout(&o).starts_with(
            "note: line 7: `enable subgroups;` is for Tint; naga needs no directive for subgroup built-in values \
             and functions, so wgrace read the shader without it\n"
        ),
        "{}",
        stdout(&o)
    );

    // An `@id` override, set by name (the sample's header) or by id; without
    // a value, an error that names it, its type and the flag.
    let by_id = sample("override_by_id.wgsl");
    for flags in [&[][..], &["--override", "1300=3"][..]] {
        let o = wgrace(&[&["run", by_id.as_str()][..], flags].concat());
        assert_eq!(o.status.code(), Some(0), "{flags:?}: {}{}", stdout(&o), stderr(&o));
    }
    let dir = temp_dir("override_by_id");
    let bare = dir.join("bare.wgsl");
    let source = std::fs::read_to_string(&by_id).expect("read");
    std::fs::write(&bare, source.replace("// wgrace: --override gain=2\n", "")).expect("write");
    let o = wgrace(&["run", &bare.display().to_string()]);
    assert_eq!(o.status.code(), Some(2), "{}{}", stdout(&o), stderr(&o));
    assert_eq!(
        stderr(&o),
        "error: override `gain` (f32, @id(1300)) has no default value: set it with --override gain=VALUE\n"
    );

    // f64 and i16: lavapipe has them, and the device asks for them.
    let o = wgrace(&["run", &sample("f64_i16_race.wgsl")]);
    assert_eq!(o.status.code(), Some(1), "{}{}", stdout(&o), stderr(&o));
    assert!(stdout(&o).contains("data race (write-write) on storage variable `wide`"), "{}", stdout(&o));

    // Immediates get their values from the run spec: the stride decides
    // the race, and the checked run leaves what the original does.
    let immediate = sample("immediate_stride_race.wgsl");
    let o = wgrace(&["run", &immediate]);
    assert_eq!(o.status.code(), Some(1), "{}{}", stdout(&o), stderr(&o));
    assert!(stdout(&o).contains("wgrace: 1 race found"), "{}", stdout(&o));
    let (checked, original) = (dir.join("checked"), dir.join("original"));
    for (out, extra) in [(&checked, None), (&original, Some("--no-detect"))] {
        let out = out.display().to_string();
        let args = ["run", immediate.as_str(), "--set", "step.stride=1", "--dump", out.as_str()];
        let o = wgrace(&[&args[..], extra.as_slice()].concat());
        assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    }
    let written = std::fs::read(checked.join("out.bin")).expect("dump");
    assert_eq!(written, std::fs::read(original.join("out.bin")).expect("dump"));
    assert_eq!(written[..8], [5, 0, 0, 0, 6, 0, 0, 0]);
    let o = wgrace(&["run", &immediate, "--set", "nope.x=1"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("buffers: out (0:0), step (immediate)"), "{}", stderr(&o));
}

#[test]
fn a_race_on_a_storage_texture_names_its_texel_in_every_format() {
    require_adapter!();
    let filter = sample("textures/inplace_filter_race.wgsl");
    let o = wgrace(&["run", &filter]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.contains("data race (read-write) on storage texture `img`"), "{text}");
    // Invocation x reads texel x - 1 and x + 1, which their invocations write.
    assert!(text.lines().any(|l| l.contains("= intra-subgroup: at img(") && l.contains("(byte offset ")), "{text}");
    let report = json(&wgrace(&["run", &filter, "--format", "json"]));
    let races = report["runs"][0]["races"].as_array().expect("races");
    for race in races {
        let texel = &race["memory"]["texel"];
        let [x, y] = [&texel["coordinates"][0], &texel["coordinates"][1]].map(|c| c.as_u64().expect("coordinate"));
        assert!(x < 16 && y < 8, "{texel}");
        assert_eq!(race["memory"]["element"], format!("img({x}, {y})"));
        // Texels are 4 bytes (r32float), rows 16 texels.
        assert_eq!(race["memory"]["byte_offset"], (y * 16 + x) * 4);
        assert_eq!(race["examples"][0]["texel"], *texel);
    }
    let sarif = json(&wgrace(&["run", &filter, "--format", "sarif"]));
    let result = &sarif["runs"][0]["results"][0];
    assert!(result["properties"]["memory"]["texel"]["coordinates"].is_array(), "{result}");

    // Array layers and mip levels.
    let layers = json(&wgrace(&["run", &sample("textures/layers_race.wgsl"), "--format", "json"]));
    let memory = &layers["runs"][0]["races"][0]["memory"];
    let layer = memory["texel"]["layer"].as_u64().expect("layer");
    assert!(layer < 2, "{memory}");
    assert!(memory["element"].as_str().expect("element").ends_with(&format!(" layer {layer}")), "{memory}");
    let mip = json(&wgrace(&["run", &sample("textures/mip_generate_race.wgsl"), "--format", "json"]));
    let memory = &mip["runs"][0]["races"][0]["memory"];
    assert_eq!(memory["texel"]["mip_level"], 1, "{memory}");
    assert!(memory["element"].as_str().expect("element").ends_with(" mip 1"), "{memory}");
}

#[test]
fn storage_barrier_does_not_order_texels_and_texture_barrier_does() {
    require_adapter!();
    let o = wgrace(&["run", &sample("textures/texture_barrier.wgsl")]);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    let o = wgrace(&["run", &sample("textures/storage_barrier_not_texture.wgsl")]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.contains("only textureBarrier() orders the texels of a storage texture"), "{text}");
    assert!(text.contains("put a textureBarrier() between"), "{text}");
}

#[test]
fn bad_texture_specs_exit_2_naming_what_is_wrong() {
    require_adapter!();
    let dir = temp_dir("texture-specs");
    let shader = write_shader(
        &dir,
        "t.wgsl",
        "@group(0) @binding(0) var src: texture_2d<f32>;\n\
         @group(0) @binding(1) var ms: texture_multisampled_2d<f32>;\n\
         @group(0) @binding(2) var dst: texture_storage_2d<r32float, write>;\n\
         @compute @workgroup_size(1) fn main() {\n\
         textureStore(dst, vec2<u32>(0u), textureLoad(src, vec2<u32>(0u), 0) + textureLoad(ms, vec2<u32>(0u), 0));\n}\n",
    );
    let png = samples().join("textures/gradient_32.png").display().to_string();
    let cases: [(&[&str], &str); 7] = [
        (&["--texture", "src=0x4"], "--texture src=…: sizes must be at least 1"),
        (&["--texture", "src=16x16:rgba9unorm"], "unknown format `rgba9unorm`"),
        (&["--texture", "src=16x16:r32uint"], "r32uint does not fit the binding's type"),
        (&["--texture", "dst=16x16:rgba8unorm"], "a storage texture has its type's format, r32float"),
        (&["--texture", "src=16x16:mip=5"], "a texture of 16 texels has no mip level 5"),
        (&["--fill", "ms=random"], "a multisampled texture takes only zero and const fills"),
        (&["--fill", &format!("src=file:{png}")], "the image is 32x32, the view 64x64x1"),
    ];
    for (flags, message) in cases {
        let mut args = vec!["run", shader.as_str()];
        args.extend_from_slice(flags);
        let o = wgrace(&args);
        assert_eq!(o.status.code(), Some(2), "{flags:?}: {}{}", stdout(&o), stderr(&o));
        assert!(stderr(&o).contains(message), "{flags:?}: {}", stderr(&o));
    }
}

#[test]
fn texture_fills_reach_the_shader_and_dumps_hold_the_views_texels() {
    require_adapter!();
    let dir = temp_dir("texture-fills");
    let shader = write_shader(
        &dir,
        "copy.wgsl",
        "@group(0) @binding(0) var src: texture_2d<u32>;\n\
         @group(0) @binding(1) var dst: texture_storage_2d<rgba32uint, write>;\n\
         @compute @workgroup_size(4, 2) fn main(@builtin(global_invocation_id) g: vec3<u32>) {\n\
         textureStore(dst, g.xy, textureLoad(src, g.xy, 0) * 2u);\n}\n",
    );
    let out = dir.join("out");
    let o =
        wgrace(&["run", &shader, "--texture", "src=4x2", "--texture", "dst=4x2", "--dump", &out.display().to_string()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // `index`: every component of texel (x, y) holds x + 4y.
    let words: Vec<u32> = std::fs::read(out.join("dst.bin"))
        .expect("dump")
        .chunks(4)
        .map(|b| u32::from_le_bytes(b.try_into().expect("word")))
        .collect();
    let expected: Vec<u32> = (0..8).flat_map(|i| [2 * i; 4]).collect();
    assert_eq!(words, expected);
    let o = wgrace(&["run", &shader, "--texture", "src=4x2", "--texture", "dst=4x2", "--fill", "src=const:1,2,3,4"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

#[test]
fn texture_atomics_beside_loads_leave_the_report_incomplete() {
    require_adapter!();
    let dir = temp_dir("texture-atomics");
    let body = |extra: &str| {
        format!(
            "@group(0) @binding(0) var img: texture_storage_2d<r32uint, atomic>;\n\
             @group(0) @binding(1) var<storage, read_write> out: array<u32, 8>;\n\
             @compute @workgroup_size(8) fn main(@builtin(global_invocation_id) g: vec3<u32>) {{\n\
             textureAtomicAdd(img, vec2<u32>(0u), 1u);\n{extra}}}\n"
        )
    };
    let alone = write_shader(&dir, "alone.wgsl", &body(""));
    let report = json(&wgrace(&["run", &alone, "--format", "json"]));
    assert_eq!(report["complete"], true, "{report}");
    let mixed = write_shader(&dir, "mixed.wgsl", &body("out[g.x] = textureLoad(img, vec2<u32>(1u, 0u)).x;\n"));
    let report = json(&wgrace(&["run", &mixed, "--format", "json"]));
    assert_eq!(report["complete"], false, "{report}");
    assert_eq!(
        report["runs"][0]["incomplete"][0],
        "line 4: the texture atomic on `img` is not checked against the texture's loads and stores (data-race)"
    );
}

#[test]
fn texel_stores_out_of_bounds_race_with_nothing_and_are_reported_unchecked() {
    require_adapter!();
    // Invocation i stores to texel (i - 8, 0) and (i + 16, 1) of a 16x4
    // texture, and to layer 2 of a 2-layer one: only invocations 8..23's
    // first stores are in bounds, each to its own texel. Taken as words of
    // the texture (x - 8 wraps, x + 16 lands on the next row) they would
    // race; out of bounds, WGSL lets a store write nothing or some texel in
    // bounds, which wgrace does not check and says so.
    let dir = temp_dir("texel-bounds");
    let shader = write_shader(
        &dir,
        "oob.wgsl",
        "@group(0) @binding(0) var img: texture_storage_2d<r32sint, write>;\n\
         @group(0) @binding(1) var arr: texture_storage_2d_array<r32sint, write>;\n\
         \n\
         @compute @workgroup_size(32)\n\
         fn main(@builtin(local_invocation_index) i: u32) {\n\
             textureStore(img, vec2<i32>(i32(i) - 8, 0), vec4<i32>(i32(i)));\n\
             textureStore(img, vec2<i32>(i32(i) + 16, 1), vec4<i32>(-1));\n\
             textureStore(arr, vec2<i32>(i32(i % 16u), 0), 2, vec4<i32>(-2));\n\
             textureStore(arr, vec2<i32>(i32(i % 16u), 3), i32(i / 16u), vec4<i32>(1));\n\
         }\n",
    );
    let report =
        json(&wgrace(&["run", &shader, "--texture", "img=16x4", "--texture", "arr=16x4x2", "--format", "json"]));
    assert_eq!(report["verdict"], "no-race", "{report}");
    assert_eq!(
        report["runs"][0]["incomplete"][0],
        "80 accesses were out of bounds of their variable and were not checked for races"
    );
}

#[test]
fn a_shader_ordering_buffers_and_textures_each_with_their_barrier_is_incomplete() {
    require_adapter!();
    let dir = temp_dir("two-barriers");
    let both = write_shader(
        &dir,
        "both.wgsl",
        "@group(0) @binding(0) var img: texture_storage_1d<r32uint, read_write>;\n\
         @group(0) @binding(1) var<storage, read_write> buf: array<u32, 64>;\n\
         @group(0) @binding(2) var<storage, read_write> out: array<u32, 64>;\n\
         @compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) {\n\
         buf[i] = i;\n\
         textureStore(img, i, vec4<u32>(i));\n\
         storageBarrier();\n\
         textureBarrier();\n\
         out[i] = buf[(i + 1u) % 64u] + textureLoad(img, (i + 1u) % 64u).x;\n\
         }\n",
    );
    let report = json(&wgrace(&["run", &both, "--texture", "img=64", "--format", "json"]));
    assert_eq!(report["complete"], false, "{report}");
    let incomplete = report["runs"][0]["incomplete"][0].as_str().expect("a line");
    assert!(incomplete.starts_with("textureBarrier() was taken to order no texture accesses"), "{incomplete}");
    // storageBarrier() orders the buffer; the texture's race is the one
    // the line warns of.
    let races = report["runs"][0]["races"].as_array().expect("races");
    assert!(races.iter().all(|r| r["memory"]["variable"] == "img"), "{races:?}");
    assert!(!races.is_empty());
}
