//! Every sample gets the verdict its header states, and every race wgrace
//! reports on it is a pair the header lists (format: samples/README.md).
//!
//! Checking the samples is most of the suite's time (lavapipe compiles each
//! instrumented kernel), so each configuration below checks its kernels
//! once per test binary ([`results`]), and the tests that compare two
//! configurations, or a configuration with the uninstrumented shader, read
//! the results the others made.
//!
//! Which kernels a configuration checks depends on the tier
//! ([`crate::support::tier`], docs/testing.md): every sample gets its
//! verdict in the default configuration, and every sample with debug
//! information in statement mode; the differential configurations (no
//! analyzer, in place and replayed, and the large dispatch) check the
//! matrix (`samples/matrix.txt`) in the default tier and every sample in
//! the full tier. [`the_matrix_covers_every_kind`] keeps the matrix honest.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use wgrace::Plan;
use wgrace::corpus::{
    Expectation, KernelResult, LinePair, Status, check_kernel, check_kernels, header_text, kernels, load_kernel,
};
use wgrace::gpu::Gpu;
use wgrace::spec::{ModeArg, RunArgs, TimelineFocus};
use wgrace_instrument::Replay;
use wgrace_instrument::checks::CheckSet;
use wgrace_instrument::report::{RaceClass, Verdict};
use wgrace_instrument::{Instrumented, Space};
use wgrace_tests::samples_dir;

use crate::support::{MATRIX_FILE, Tier, gpu, matrix, on_a_device, pool, require_gpu, tier};

/// The configurations the samples are checked in.
#[derive(Clone, Copy, Debug)]
enum Config {
    /// The defaults: addr mode, the analyzer, replay chosen per kernel.
    Default,
    /// Statement mode.
    Statement,
    /// No analyzer (every access instrumented), checked where it happens.
    NoAnalyzerInPlace,
    /// No analyzer, recorded and checked by the replay pass.
    NoAnalyzerReplayed,
}

impl Config {
    fn flags(self) -> RunArgs {
        let no_analyzer = |replay| RunArgs { no_analyzer: true, replay: Some(replay), ..RunArgs::default() };
        match self {
            Config::Default => RunArgs::default(),
            Config::Statement => RunArgs { mode: Some(ModeArg::Stmt), ..RunArgs::default() },
            Config::NoAnalyzerInPlace => no_analyzer(Replay::Never),
            Config::NoAnalyzerReplayed => no_analyzer(Replay::Always),
        }
    }

    /// The kernels it checks in this tier.
    fn kernels(self) -> Vec<(PathBuf, String)> {
        let mut list = kernels(&samples_dir()).expect("samples");
        match (self, tier()) {
            (Config::Default, _) | (Config::Statement, Tier::Full) => {}
            // Debug information changes no verdict: the default
            // configuration shows it, on every module without it.
            (Config::Statement, Tier::Default) => list.retain(|(path, _)| !is_nodebug(path)),
            (Config::NoAnalyzerInPlace | Config::NoAnalyzerReplayed, Tier::Full) => {
                list.retain(|(path, _)| !path.to_string_lossy().contains(APPLICATION_PORTS));
            }
            (Config::NoAnalyzerInPlace | Config::NoAnalyzerReplayed, Tier::Default) => {
                list.retain(|(path, _)| matrix().contains(path));
            }
        }
        if matches!(self, Config::NoAnalyzerReplayed) {
            // Where the happens-before engine runs, the pass checks in place
            // even when asked to record (`Prelude::replays`): the two
            // configurations would run one module twice.
            list.retain(|(path, _)| records_for_the_replay(path));
        }
        list
    }
}

/// Whether `path` is a module without debug information
/// (`nodebug/NAME.spv`).
fn is_nodebug(path: &Path) -> bool {
    path.parent().is_some_and(|d| d.ends_with("nodebug"))
}

/// Whether the kernel, with every access instrumented and `--replay always`,
/// records its accesses for the replay pass.
fn records_for_the_replay(path: &Path) -> bool {
    let text = header_text(path).expect("kernel");
    let (shader, spec) = load_kernel(path, &text, &Config::NoAnalyzerReplayed.flags()).expect("load");
    let plan = Plan::new(shader, spec).expect("plan");
    plan.instrument(gpu()).is_ok_and(|inst| inst.prelude.replays())
}

/// Each kernel's result in `config`, by path: checked on the first call, in
/// whichever test makes it; the others wait for it and read the same
/// results.
fn results(config: Config) -> &'static HashMap<PathBuf, KernelResult> {
    static RESULTS: [OnceLock<HashMap<PathBuf, KernelResult>>; 4] = [const { OnceLock::new() }; 4];
    RESULTS[config as usize].get_or_init(|| {
        let list = config.kernels();
        let checked = check_kernels(pool(), &list, &config.flags(), &|_, _, _| {});
        list.into_iter().map(|(path, _)| path).zip(checked).collect()
    })
}

#[test]
fn every_sample_gets_its_verdict_and_only_listed_pairs() {
    require_gpu!();
    check_every_sample(Config::Default);
}

/// Statement mode also fails a sample when a listed pair is missing: it must
/// report every racing statement pair.
#[test]
fn statement_mode_reports_every_listed_pair_and_only_those() {
    require_gpu!();
    check_every_sample(Config::Statement);
}

/// What the names of ScoR's application ports (samples/corpus/spirv)
/// contain. Each takes lavapipe 20 s to 3 minutes to compile: they get
/// their verdicts in both modes, and the full tier leaves them out of the
/// differential configurations too.
const APPLICATION_PORTS: &str = "scor_app_";

/// The static analyzer only removes instrumentation it proved unnecessary:
/// with it off every kernel gets the same verdict and findings as with it on
/// (the default, checked above), and still only listed pairs. Without it the
/// kernels are checked in place; the test below compares that with replay.
#[test]
fn the_analyzer_changes_no_verdict() {
    require_gpu!();
    let differences = differences(Config::Default, Config::NoAnalyzerInPlace, |_, _| false);
    assert!(differences.is_empty(), "{} kernels differ:\n{}", differences.len(), differences.join("\n"));
}

/// The kernels checked in both configurations `a` and `b` whose results
/// differ (verdict or findings), or that fail in `b`, or fail in `a` where
/// `excused(a, b)` does not excuse it.
///
/// # Panics
/// When the two configurations share no kernel.
fn differences(a: Config, b: Config, excused: impl Fn(&KernelResult, &KernelResult) -> bool) -> Vec<String> {
    let (first, second) = (results(a), results(b));
    let both: BTreeSet<&PathBuf> = first.keys().filter(|path| second.contains_key(*path)).collect();
    assert!(!both.is_empty(), "{a:?} and {b:?} checked no kernel in common");
    both.into_iter()
        .filter_map(|path| {
            let (x, y) = (&first[path], &second[path]);
            // Findings that only some schedules give may come in one run
            // and not in the other.
            let certain = |k: &KernelResult| -> Vec<String> {
                k.findings.iter().filter(|f| !k.maybe_findings.contains(f)).cloned().collect()
            };
            let same = x.verdict == y.verdict && certain(x) == certain(y);
            let failed = (x.status.is_failure() && !excused(x, y)) || y.status.is_failure();
            (!same || failed).then(|| {
                format!(
                    "{}: {a:?} {:?} {:?} ({:?}), {b:?} {:?} {:?} ({:?})",
                    path.display(),
                    x.verdict,
                    x.findings,
                    x.status,
                    y.verdict,
                    y.findings,
                    y.status
                )
            })
        })
        .collect()
}

/// The same on a dispatch of 2¹⁸ invocations or more, where the analyzer
/// cannot enumerate the invocations and separates accesses by its
/// dependence tests instead: in statement mode (which reports every racing
/// pair of statements) every WGSL sample of `samples/` (of the matrix, in
/// the default tier) keeps its verdict and its racing line pairs. The
/// headers describe the small dispatch, so the two runs are compared with
/// each other, not with the header.
///
/// Samples with a `loops` finding are left out: their loops run to the
/// iteration budget (or spin on other workgroups) in every invocation, and
/// at this size one of them took lavapipe longer than all the others
/// together. Their accesses are compared at the header's size above.
#[test]
fn the_analyzer_changes_no_verdict_on_a_large_dispatch() {
    require_gpu!();
    let list = large_dispatch_kernels();
    assert!(!list.is_empty(), "no kernel to check on a large dispatch");
    let compared = std::sync::atomic::AtomicUsize::new(0);
    let differences: Vec<String> = pool()
        .map(&list, |gpu, path| {
            let text = header_text(path).expect("kernel");
            let (shader, spec) = load_kernel(path, &text, &RunArgs::default()).expect("load");
            let [x, y, z] = spec.dispatch;
            // Runtime-sized arrays grow with the dispatch, so that the
            // accesses stay in bounds as they are at the header's size.
            let buffers = spec.buffers.clone();
            let per_workgroup: u32 = Plan::new(shader, spec).expect("plan").prepared.workgroup_size.iter().product();
            let invocations = per_workgroup * x * y * z;
            let scale = ((1 << 18) / invocations).clamp(1, 65535 / x);
            let large = RunArgs {
                dispatch: Some(format!("{},{y},{z}", x * scale)),
                buffers: buffers.iter().map(|(name, len)| format!("{name}={}", len * u64::from(scale))).collect(),
                mode: Some(ModeArg::Stmt),
                ..RunArgs::default()
            };
            let off = RunArgs { no_analyzer: true, ..large.clone() };
            // A kernel whose shadow state outgrows a binding at this size
            // is left out (it cannot be checked either way).
            let (with, without) = (race_pairs(gpu, path, &text, &large)?, race_pairs(gpu, path, &text, &off)?);
            compared.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            (with != without).then(|| {
                format!("{} at {x}x{scale},{y},{z}: with the analyzer {with:?}, without {without:?}", path.display())
            })
        })
        .into_iter()
        .flatten()
        .collect();
    assert!(differences.is_empty(), "{} kernels differ:\n{}", differences.len(), differences.join("\n"));
    let compared = compared.into_inner();
    assert!(compared * 5 >= list.len() * 4, "only {compared} of {} samples were compared", list.len());
}

/// The kernels checked on a large dispatch in this tier: the WGSL samples
/// at the top of `samples/` without a `loops` finding (of the matrix, in
/// the default tier).
fn large_dispatch_kernels() -> Vec<PathBuf> {
    let samples = samples_dir();
    kernels(&samples)
        .expect("samples")
        .into_iter()
        .map(|(path, _)| path)
        .filter(|path| path.parent() == Some(&samples) && path.extension().is_some_and(|e| e == "wgsl"))
        .filter(|path| tier() == Tier::Full || matrix().contains(path))
        .filter(|path| {
            let header = Expectation::parse(&header_text(path).expect("kernel")).expect("header");
            !header.findings.iter().any(|f| f == "loops")
        })
        .collect()
}

/// A run's verdict and racing line pairs, with their classes.
type RacePairs = (Verdict, Vec<(RaceClass, u32, u32)>);

/// The verdict and the racing line pairs of one run, or `None` where the
/// run needs more memory than the adapter allows.
fn race_pairs(gpu: &Gpu, path: &Path, header: &str, flags: &RunArgs) -> Option<RacePairs> {
    let (shader, mut spec) = load_kernel(path, header, flags).expect("load");
    spec.timeline = TimelineFocus::Off;
    let plan = Plan::new(shader, spec).expect("plan");
    let run = match plan.check(gpu, &mut |_, _| {}) {
        Ok((run, _)) => run,
        Err(wgrace::Error::Limit(_)) => return None,
        Err(e) => panic!("{}: {e}", path.display()),
    };
    let mut pairs: Vec<_> = run
        .races
        .iter()
        .map(|r| (r.class, r.first.location.line.unwrap_or(0), r.second.location.line.unwrap_or(0)))
        .collect();
    pairs.sort();
    pairs.dedup();
    Some((run.verdict, pairs))
}

/// Recording accesses and checking them when the workgroup ends finds what
/// checking them where they happen finds: with every access instrumented (no
/// analyzer), every kernel that records gets the same verdict and findings
/// both ways, and only listed pairs; a replay cut short by lavapipe's loop
/// limit must say so.
#[test]
fn record_and_replay_changes_no_verdict() {
    require_gpu!();
    // A runaway loop records more than a replay on lavapipe can step
    // through (its loops end after 65,535 iterations): the replay must say
    // so, and find what the run in place finds.
    let replay_ran_out = |replayed: &KernelResult, in_place: &KernelResult| {
        in_place.findings.iter().any(|f| f == "loops")
            && matches!(&replayed.status, Status::Fail(why) if why.contains(REPLAY_RAN_OUT))
    };
    let differences = differences(Config::NoAnalyzerReplayed, Config::NoAnalyzerInPlace, replay_ran_out);
    assert!(differences.is_empty(), "{} kernels differ:\n{}", differences.len(), differences.join("\n"));
}

/// How a replay says that lavapipe's loop limit ended it early.
const REPLAY_RAN_OUT: &str = "the replay's loops ended before reaching them";

/// Instrumentation changes no result: on every race-free sample whose
/// output does not depend on the schedule, the checked runs of the default
/// configuration and of statement mode leave the same bytes in every
/// writable buffer and written texture as the uninstrumented shader.
///
/// Left out: racy kernels; kernels whose header says `// output:
/// nondeterministic` (atomics in an order no barrier fixes); kernels with
/// findings other than `bounds` and `banks` (barrier divergence, which WGSL
/// leaves undefined; runaway loops, which the check stops). Out-of-bounds
/// indices run as in the original (the same clamping); bank conflicts
/// change nothing.
#[test]
fn instrumented_runs_leave_the_same_outputs_as_the_original() {
    require_gpu!();
    let list: Vec<PathBuf> = kernels(&samples_dir())
        .expect("samples")
        .into_iter()
        .map(|(path, _)| path)
        .filter(|path| {
            let text = header_text(path).expect("kernel");
            let header = Expectation::parse(&text).expect("header");
            !header.racy
                && !text.lines().any(|l| l.trim_start().starts_with("// output: nondeterministic"))
                && header.findings.iter().all(|f| f == "bounds" || f == "banks")
        })
        .collect();
    // The original's runs first, while other tests check the samples.
    let native: Vec<(PathBuf, Vec<wgrace_instrument::report::OutputDigest>)> = pool()
        .map(&list, |gpu, path| {
            let text = header_text(path).expect("kernel");
            let (shader, spec) = load_kernel(path, &text, &RunArgs::default()).expect("load");
            let plan = Plan::new(shader, spec).expect("plan");
            let contents = plan.run_native(gpu).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            (path.clone(), wgrace::session::digests(&plan.buffers, &contents))
        })
        .into_iter()
        .filter(|(_, digests)| !digests.is_empty())
        .collect();
    let mut differ = Vec::new();
    let mut compared = 0;
    for config in [Config::Default, Config::Statement] {
        let results = results(config);
        for (path, digests) in &native {
            let Some(result) = results.get(path) else { continue };
            if result.verdict.is_none() {
                // Not checked at all; the verdict tests report why.
                continue;
            }
            compared += 1;
            let changed: Vec<&str> =
                digests.iter().filter(|d| !result.outputs.contains(d)).map(|d| d.variable.as_str()).collect();
            if !changed.is_empty() || result.outputs.len() != digests.len() {
                differ.push(format!("{} ({config:?}): {} differ", path.display(), changed.join(", ")));
            }
        }
    }
    assert!(differ.is_empty(), "{} checked runs left other outputs:\n{}", differ.len(), differ.join("\n"));
    assert!(compared >= 20, "only {compared} checked runs compared with the original");
}

/// `wgrace check` (no GPU) proves races only where a header lists them,
/// with a class that agrees, and proves one on most racy WGSL kernels.
#[test]
fn static_races_are_listed_pairs_of_racy_kernels() {
    let list = kernels(&samples_dir()).expect("samples");
    let (mut racy, mut proven) = (0, 0);
    let mut wrong = Vec::new();
    for (path, _) in &list {
        let text = header_text(path).expect("kernel");
        let mut expect = Expectation::parse(&text).expect("header");
        if expect.xfail.is_some() {
            // Known to be judged wrong (on the GPU): not a measure of this.
            continue;
        }
        let (shader, spec) = load_kernel(path, &text, &RunArgs::default()).expect("load");
        if spec.same_value_notes {
            // Its verdict depends on the values written, which the analyzer
            // does not know: its races stay (with a note saying so).
            continue;
        }
        if shader.text.is_none() {
            // A module without debug information: judged by classes.
            expect = expect.without_lines();
        }
        let report = wgrace::session::analyze(&shader, &spec).expect("check");
        // How often it proves a race is measured on WGSL: the SPIR-V corpus
        // is mostly synchronization through atomics, fences and spin loops,
        // which the analyzer leaves to the run.
        if path.extension().is_some_and(|e| e == "wgsl") {
            racy += usize::from(expect.racy);
            proven += usize::from(report.races().next().is_some());
        }
        for r in report.races() {
            let (a, b) = (r.first.location.line.unwrap_or(0), r.second.location.line.unwrap_or(0));
            let pair = LinePair { class: r.class, first: a.min(b), second: a.max(b) };
            if !expect.racy || !expect.agrees(&pair, true) {
                wrong.push(format!("{}: {pair}", path.display()));
            }
        }
    }
    assert!(wrong.is_empty(), "static races that are not listed pairs:\n{}", wrong.join("\n"));
    assert!(proven * 2 > racy, "only {proven} of {racy} racy kernels got a static race");
}

fn check_every_sample(config: Config) {
    let results = results(config);
    assert!(results.len() >= 25, "expected at least 25 samples, found {}", results.len());
    let mut failures: Vec<String> = results
        .values()
        .filter(|k| k.status.is_failure())
        .map(|k| format!("{}: {:?}", k.path.display(), k.status))
        .collect();
    failures.sort();
    assert!(failures.is_empty(), "{} of {} samples failed:\n{}", failures.len(), results.len(), failures.join("\n"));
}

#[test]
fn failures_are_detected() {
    require_gpu!();
    // A sample whose header is wrong must fail: the checker is not vacuous.
    let dir = std::env::temp_dir().join(format!("wgrace-wrong-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let text = std::fs::read_to_string(samples_dir().join("wg_missing_barrier.wgsl")).expect("sample");
    let cases = [
        (
            "verdict.wgsl",
            text.replace("// expect: race", "// expect: no-race").replace("// race: intra-workgroup 13 14\n", ""),
        ),
        ("unlisted.wgsl", text.replace("// race: intra-workgroup 13 14", "// race: intra-workgroup 13 13")),
        ("class.wgsl", text.replace("// race: intra-workgroup 13 14", "// race: barrier-kind 13 14")),
    ];
    for (name, text) in cases {
        let path = dir.join(name);
        std::fs::write(&path, text).expect("write");
        let result = on_a_device(|gpu| check_kernel(gpu, &path, "wrong", &RunArgs::default()));
        assert!(matches!(result.status, Status::Fail(_)), "{name}: {:?}", result.status);
    }
    let xfail = dir.join("xfail.wgsl");
    // Appended, so that the racing lines keep their numbers.
    std::fs::write(&xfail, format!("{text}// xfail: checking that xfail works\n")).expect("write");
    let checked = on_a_device(|gpu| check_kernel(gpu, &xfail, "wrong", &RunArgs::default()));
    assert_eq!(checked.status, Status::UnexpectedPass);
}

/// A `finding-maybe:` finding, one that only some schedules give, passes
/// both where the run gives it and where it does not.
#[test]
fn a_finding_some_schedules_give_may_be_there_or_not() {
    require_gpu!();
    let dir = std::env::temp_dir().join(format!("wgrace-maybe-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let read = |name: &str| std::fs::read_to_string(samples_dir().join(name)).expect("sample");
    let spin = read("loop_spin_wait_across_workgroups.wgsl");
    assert!(spin.contains("// finding: loops 25\n"), "the sample lists its spin-wait");
    let cases = [
        ("given.wgsl", spin.replace("// finding: loops 25\n", "// finding-maybe: loops\n")),
        // A header line may come anywhere in the file.
        ("not_given.wgsl", format!("{}// finding-maybe: loops\n", read("wg_barrier.wgsl"))),
    ];
    for (name, text) in cases {
        let path = dir.join(name);
        std::fs::write(&path, text).expect("write");
        let result = on_a_device(|gpu| check_kernel(gpu, &path, "maybe", &RunArgs::default()));
        assert_eq!(result.status, Status::Pass, "{name}");
    }
}

/// Instrumenting a kernel twice gives the same module, word for word: the
/// driver's shader cache then compiles a kernel once whatever the run, and
/// a module and its twin without debug information once between them
/// (`pipelines::without_names`); `--emit-instrumented` writes the same file
/// each time. Over the matrix and every SPIR-V sample with debug
/// information (the happens-before engine's kernels, where the pass
/// generates most), each instrumented twice in one process (each of its
/// hash maps seeded apart).
#[test]
fn instrumenting_a_kernel_twice_gives_the_same_module() {
    require_gpu!();
    let spirv = |path: &Path| path.extension().is_some_and(|e| e == "spv") && !is_nodebug(path);
    let mut list: Vec<PathBuf> =
        kernels(&samples_dir()).expect("samples").into_iter().map(|(path, _)| path).filter(|p| spirv(p)).collect();
    list.extend(matrix().iter().filter(|p| !spirv(p)).cloned());
    let written = |path: &Path| -> Option<Vec<u32>> {
        let text = header_text(path).expect("kernel");
        let (shader, spec) = load_kernel(path, &text, &RunArgs::default()).ok()?;
        let inst = Plan::new(shader, spec).ok()?.instrument(gpu()).ok()?;
        Some(
            naga::back::spv::write_vec(&inst.module, &inst.info, &naga::back::spv::Options::default(), None)
                .expect("SPIR-V"),
        )
    };
    let differ: Vec<String> = list
        .iter()
        .filter(|path| written(path) != written(path))
        .map(|path| path.strip_prefix(samples_dir()).unwrap_or(path).display().to_string())
        .collect();
    assert!(differ.is_empty(), "instrumented twice, these kernels gave two modules: {differ:?}");
}

/// The matrix (`samples/matrix.txt`), which the default tier checks in the
/// differential configurations, covers every kind of kernel they can tell
/// apart: every check and race class and finding kind, races on each
/// address space and on textures, each way the replay choice goes, each
/// program the happens-before engine follows, a module without debug
/// information, a kernel for the large dispatch, and every sample whose
/// verdict can depend on the subgroup size (which `scripts/test` checks at
/// lavapipe's subgroup sizes 8 and 4).
///
/// It fails naming each missing kind with samples that have it.
#[test]
fn the_matrix_covers_every_kind() {
    require_gpu!();
    let samples = samples_dir();
    let all: Vec<PathBuf> = kernels(&samples).expect("samples").into_iter().map(|(path, _)| path).collect();
    let covered: BTreeSet<String> = matrix().iter().flat_map(|path| kinds_of(path)).collect();
    let mut required: BTreeSet<String> = CheckSet::default()
        .ids()
        .into_iter()
        // Compares the runs of several adapters, not a kernel's.
        .filter(|id| id != "output-difference")
        .map(|id| format!("check {id}"))
        .collect();
    required.extend(RaceClass::ALL.iter().map(|c| format!("race class {}", c.as_str())));
    for path in &all {
        let header = Expectation::parse(&header_text(path).expect("kernel")).expect("header");
        required.extend(header.findings.iter().map(|f| format!("finding {f}")));
    }
    required.extend(
        [
            RACES_ON_WORKGROUP_MEMORY,
            RACES_ON_STORAGE_MEMORY,
            TEXTURES,
            AUTO_RECORDS,
            AUTO_IN_PLACE,
            ALWAYS_RECORDS,
            ALWAYS_IN_PLACE_FOR_THE_ENGINE,
            RECORDS_A_RUNAWAY_LOOP,
            ENGINE_STRONG,
            ENGINE_WIDE,
            ENGINE_LOCKS,
            ENGINE_SUBGROUP_BARRIERS,
            NODEBUG,
            LARGE_DISPATCH,
            SUBGROUP_SENSITIVE,
        ]
        .map(String::from),
    );
    let missing: Vec<&String> = required.difference(&covered).collect();
    // Every subgroup-sensitive sample, not one of them.
    let mut unlisted: Vec<&PathBuf> =
        all.iter().filter(|path| !is_nodebug(path) && subgroup_sensitive(path) && !matrix().contains(path)).collect();
    unlisted.sort();
    if missing.is_empty() && unlisted.is_empty() {
        return;
    }
    // What would cover each missing kind.
    let mut candidates: BTreeMap<&String, Vec<String>> = BTreeMap::new();
    for path in &all {
        let kinds = kinds_of(path);
        for kind in &missing {
            let list = candidates.entry(kind).or_default();
            if kinds.contains(*kind) && list.len() < 5 {
                list.push(path.strip_prefix(&samples).unwrap_or(path).display().to_string());
            }
        }
    }
    let mut message = format!("samples/{MATRIX_FILE} does not cover every kind:\n");
    for kind in &missing {
        message += &format!("- {kind}: none of it; samples that have it: {}\n", candidates[kind].join(", "));
    }
    for path in unlisted {
        message +=
            &format!("- subgroup-sensitive, not listed: {}\n", path.strip_prefix(&samples).unwrap_or(path).display());
    }
    panic!("{message}");
}

/// The kinds of [`the_matrix_covers_every_kind`] besides checks, classes
/// and findings.
const RACES_ON_WORKGROUP_MEMORY: &str = "races on workgroup memory only";
const RACES_ON_STORAGE_MEMORY: &str = "races on storage buffers only";
const TEXTURES: &str = "a storage texture";
const AUTO_RECORDS: &str = "replay auto: recorded for the replay pass";
const AUTO_IN_PLACE: &str = "replay auto: checked in place";
const ALWAYS_RECORDS: &str = "replay always, no analyzer: recorded";
const ALWAYS_IN_PLACE_FOR_THE_ENGINE: &str = "replay always, no analyzer: in place for the happens-before engine";
const RECORDS_A_RUNAWAY_LOOP: &str = "replay always, no analyzer: recorded, with a loops finding";
const ENGINE_STRONG: &str = "happens-before engine: the strong program";
const ENGINE_WIDE: &str = "happens-before engine: the wide program";
const ENGINE_LOCKS: &str = "happens-before engine: locks";
const ENGINE_SUBGROUP_BARRIERS: &str = "happens-before engine: subgroup barriers";
const NODEBUG: &str = "a module without debug information";
const LARGE_DISPATCH: &str = "a kernel for the large dispatch";
const SUBGROUP_SENSITIVE: &str = "a subgroup-sensitive kernel";

/// What `path` exercises: from its header, and from instrumenting it (no
/// dispatch) in the default configuration and with every access recorded.
fn kinds_of(path: &Path) -> BTreeSet<String> {
    let text = header_text(path).expect("kernel");
    let header = Expectation::parse(&text).expect("header");
    let mut kinds = BTreeSet::new();
    for pair in &header.races {
        kinds.insert(format!("race class {}", pair.class.as_str()));
        kinds.insert(format!("check {}", pair.class.check()));
    }
    for finding in &header.findings {
        kinds.insert(format!("finding {finding}"));
        kinds.insert(format!("check {finding}"));
    }
    let instrumented = |config: Config| -> Option<Instrumented> {
        let (shader, spec) = load_kernel(path, &text, &config.flags()).ok()?;
        Plan::new(shader, spec).ok()?.instrument(gpu()).ok()
    };
    let mut add = |yes: bool, kind: &str| {
        if yes {
            kinds.insert(kind.to_string());
        }
    };
    if let Some(inst) = instrumented(Config::Default) {
        add(inst.prelude.replays(), AUTO_RECORDS);
        add(!inst.prelude.replays(), AUTO_IN_PLACE);
    }
    if let Some(inst) = instrumented(Config::NoAnalyzerReplayed) {
        let records = inst.prelude.replays();
        let engine = inst.happens_before.as_ref();
        add(records, ALWAYS_RECORDS);
        add(!records && engine.is_some(), ALWAYS_IN_PLACE_FOR_THE_ENGINE);
        add(records && header.findings.iter().any(|f| f == "loops"), RECORDS_A_RUNAWAY_LOOP);
        add(engine.is_some_and(|e| e.programs.strong), ENGINE_STRONG);
        add(engine.is_some_and(|e| e.programs.wide), ENGINE_WIDE);
        add(engine.is_some_and(|e| e.locks), ENGINE_LOCKS);
        add(engine.is_some_and(|e| e.subgroup_barriers), ENGINE_SUBGROUP_BARRIERS);
        let plain = |space| inst.vars.iter().all(|v| v.space == space && v.texture.is_none());
        add(header.racy && !inst.vars.is_empty() && plain(Space::Workgroup), RACES_ON_WORKGROUP_MEMORY);
        add(header.racy && !inst.vars.is_empty() && plain(Space::Storage), RACES_ON_STORAGE_MEMORY);
        add(inst.vars.iter().any(|v| v.texture.is_some()), TEXTURES);
    }
    add(is_nodebug(path), NODEBUG);
    add(large_dispatch_candidate(path, &header), LARGE_DISPATCH);
    add(subgroup_sensitive(path), SUBGROUP_SENSITIVE);
    kinds
}

/// Whether the large-dispatch test checks `path` when it is in the matrix.
fn large_dispatch_candidate(path: &Path, header: &Expectation) -> bool {
    path.parent() == Some(&samples_dir())
        && path.extension().is_some_and(|e| e == "wgsl")
        && !header.findings.iter().any(|f| f == "loops")
}

/// Whether the subgroup size can change the kernel's verdict: it has a
/// subgroup operation or builtin in its code, its header lists an
/// intra-subgroup race, or it says that it relies on lock-step execution.
fn subgroup_sensitive(path: &Path) -> bool {
    let text = header_text(path).expect("kernel");
    let code = text.lines().filter(|l| !l.trim_start().starts_with("//"));
    let uses_subgroups = code.map(str::to_lowercase).any(|l| l.contains("subgroup"));
    let header = Expectation::parse(&text).expect("header");
    let lock_step =
        text.lines().any(|l| l.trim_start().starts_with("//") && (l.contains("lock-step") || l.contains("lockstep")));
    uses_subgroups || lock_step || header.races.iter().any(|p| p.class == RaceClass::IntraSubgroup)
}
