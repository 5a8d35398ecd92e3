//! Every sample gets the verdict its header states, and every race wgrace
//! reports on it is a pair the header lists (format: samples/README.md).
//!
//! Checking the samples is most of the suite's time (lavapipe compiles each
//! instrumented kernel), so each configuration below checks them once per
//! test binary ([`results`]), and the tests that compare two configurations
//! read the results the others made.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::OnceLock;

use wgrace::Plan;
use wgrace::corpus::{Expectation, KernelResult, LinePair, Status, check_kernel, header_text, kernels, load_kernel};
use wgrace::spec::{ModeArg, RunArgs, TimelineFocus};
use wgrace_instrument::Replay;
use wgrace_instrument::report::{RaceClass, Verdict};
use wgrace_tests::samples_dir;

use crate::support::gpu;

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

    /// Whether it checks every sample, or only the [`compared_kernels`].
    fn every_kernel(self) -> bool {
        matches!(self, Config::Default | Config::Statement)
    }
}

/// Each sample's result in `config`, by path: checked on the first call, in
/// whichever test makes it; the others wait for it and read the same
/// results.
fn results(config: Config) -> &'static HashMap<PathBuf, KernelResult> {
    static RESULTS: [OnceLock<HashMap<PathBuf, KernelResult>>; 4] = [const { OnceLock::new() }; 4];
    RESULTS[config as usize].get_or_init(|| {
        let list = if config.every_kernel() { kernels(&samples_dir()).expect("samples") } else { compared_kernels() };
        let flags = config.flags();
        list.iter().map(|(path, suite)| (path.clone(), check_kernel(gpu(), path, suite, &flags))).collect()
    })
}

#[test]
fn every_sample_gets_its_verdict_and_only_listed_pairs() {
    check_every_sample(Config::Default);
}

/// Statement mode also fails a sample when a listed pair is missing: it must
/// report every racing statement pair.
#[test]
fn statement_mode_reports_every_listed_pair_and_only_those() {
    check_every_sample(Config::Statement);
}

/// The kernels the comparisons of two configurations below run: every
/// sample except ScoR's application ports (`scor_app_*`). Each of those
/// takes lavapipe 20 s to 3 minutes to compile, and a configuration more
/// would take CI past its time; they get their verdicts in both modes
/// above.
fn compared_kernels() -> Vec<(std::path::PathBuf, String)> {
    let mut list = kernels(&samples_dir()).expect("samples");
    list.retain(|(path, _)| !path.to_string_lossy().contains(APPLICATION_PORTS));
    list
}

/// What the names of ScoR's application ports (samples/corpus/spirv) contain.
const APPLICATION_PORTS: &str = "scor_app_";

/// The static analyzer only removes instrumentation it proved unnecessary:
/// with it off every kernel gets the same verdict and findings as with it on
/// (the default, checked above), and still only listed pairs. Without it the
/// kernels are checked in place; the test below compares that with replay.
#[test]
fn the_analyzer_changes_no_verdict() {
    let differences = differences(Config::Default, Config::NoAnalyzerInPlace, |_, _| false);
    assert!(differences.is_empty(), "{} kernels differ:\n{}", differences.len(), differences.join("\n"));
}

/// The kernels whose results differ between configurations `a` and `b`
/// (verdict or findings), or that fail in `b`, or fail in `a` where
/// `excused(a, b)` does not excuse it.
fn differences(a: Config, b: Config, excused: impl Fn(&KernelResult, &KernelResult) -> bool) -> Vec<String> {
    let (first, second) = (results(a), results(b));
    compared_kernels()
        .iter()
        .filter_map(|(path, _)| {
            let (x, y) = (&first[path], &second[path]);
            let same = x.verdict == y.verdict && x.findings == y.findings;
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
/// pair of statements) every WGSL sample of `samples/` keeps its verdict and
/// its racing line pairs. The headers describe the small dispatch, so the
/// two runs are compared with each other, not with the header.
///
/// Samples with a `loops` finding are left out: their loops run to the
/// iteration budget (or spin on other workgroups) in every invocation, and
/// at this size one of them took lavapipe longer than all the others
/// together. Their accesses are compared at the header's size above.
#[test]
fn the_analyzer_changes_no_verdict_on_a_large_dispatch() {
    let samples = samples_dir();
    let list: Vec<_> = kernels(&samples)
        .expect("samples")
        .into_iter()
        .filter(|(path, _)| path.parent() == Some(&samples) && path.extension().is_some_and(|e| e == "wgsl"))
        .filter(|(path, _)| {
            let header = Expectation::parse(&header_text(path).expect("kernel")).expect("header");
            !header.findings.iter().any(|f| f == "loops")
        })
        .collect();
    let mut compared = 0;
    let differences: Vec<String> = list
        .iter()
        .filter_map(|(path, _)| {
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
            let (with, without) = (race_pairs(path, &text, &large)?, race_pairs(path, &text, &off)?);
            compared += 1;
            (with != without).then(|| {
                format!("{} at {x}x{scale},{y},{z}: with the analyzer {with:?}, without {without:?}", path.display())
            })
        })
        .collect();
    assert!(differences.is_empty(), "{} kernels differ:\n{}", differences.len(), differences.join("\n"));
    assert!(compared * 5 >= list.len() * 4, "only {compared} of {} samples were compared", list.len());
}

/// A run's verdict and racing line pairs, with their classes.
type RacePairs = (Verdict, Vec<(RaceClass, u32, u32)>);

/// The verdict and the racing line pairs of one run, or `None` where the
/// run needs more memory than the adapter allows.
fn race_pairs(path: &std::path::Path, header: &str, flags: &RunArgs) -> Option<RacePairs> {
    let (shader, mut spec) = load_kernel(path, header, flags).expect("load");
    spec.timeline = TimelineFocus::Off;
    let plan = Plan::new(shader, spec).expect("plan");
    let run = match plan.check(gpu(), &mut |_, _| {}) {
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
/// analyzer), every kernel gets the same verdict and findings both ways, and
/// only listed pairs; a replay cut short by lavapipe's loop limit must say so.
#[test]
fn record_and_replay_changes_no_verdict() {
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
        let result = check_kernel(gpu(), &path, "wrong", &RunArgs::default());
        assert!(matches!(result.status, Status::Fail(_)), "{name}: {:?}", result.status);
    }
    let xfail = dir.join("xfail.wgsl");
    // Appended, so that the racing lines keep their numbers.
    std::fs::write(&xfail, format!("{text}// xfail: checking that xfail works\n")).expect("write");
    assert_eq!(check_kernel(gpu(), &xfail, "wrong", &RunArgs::default()).status, Status::UnexpectedPass);
}
