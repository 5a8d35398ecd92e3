//! Scoring wgrace on labelled kernels: `wgrace corpus DIR` and the sample
//! tests.
//!
//! Every `.wgsl` file under the folder, and every `.spv` module whose debug
//! information carries its source (GLSL compiled with `-g`), states what
//! wgrace must find in comment lines of that source (format in
//! `samples/README.md`). A module compiled without debug information, kept
//! in a `nodebug/` folder beside its GLSL source, takes its header from that
//! source, and is judged by classes instead of lines (its report has none):
//!
//! - `// expect: race` or `// expect: no-race` (exactly one);
//! - `// race: CLASS LINE LINE` for every pair of source lines whose accesses
//!   race, with the class wgrace must give them;
//! - `// finding: CHECK` for a finding of another check the kernel must get
//!   (a check's id, e.g. `barrier-divergence`; `wgrace checks` lists them);
//! - `// finding-maybe: CHECK` for one that only some schedules give (a
//!   spin-wait that waited): a report may have it, and need not;
//! - optionally `// xfail: REASON` for a kernel wgrace is known to get wrong,
//!   and `// original: …` naming the test it was ported from.
//!
//! A kernel passes when the verdict matches, every reported race is a listed
//! (class, line, line), a racy kernel has at least one listed pair reported,
//! the findings are those listed, and the report is complete but for what a
//! listed finding left unchecked (a runaway loop's stopped invocations).
//! Without lines, every reported race has a listed class, and a racy kernel
//! at least one. An `xfail` kernel is expected to fail; one that
//! passes is reported so that its marker can be removed.
//!
//! On lavapipe, a kernel whose report comes out incomplete is run again, up
//! to [`LAVAPIPE_RUNS`] times in all, and judged on its first complete
//! report (or its last): lavapipe ends an invocation's loops once they ran
//! 65,535 iterations in all, and a kernel that spins on another workgroup's
//! flag, with the happens-before engine's loops inside the spin, can get
//! there when the machine is busy; what was cut short is not followed, and
//! the report says so, but its verdict and classes are then not the
//! kernel's. So is a run whose engine, running for the missing-fence check
//! alone, gave way ([`crate::MISSING_FENCE_GAVE_WAY`]): on a busy machine an
//! invocation preempted while it holds one of the engine's locks makes
//! another give up, and the races keep their data-race classes.

use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};
use std::time::Instant;

use serde::Serialize;
use wgrace_instrument::Mode;
use wgrace_instrument::checks::CheckSet;
use wgrace_instrument::report::{OutputDigest, RaceClass, Run, Severity, Verdict};

use crate::gpu::{DevicePool, Gpu};
use crate::spec::{RunArgs, RunSpec};
use crate::{Error, Plan};

/// A racing pair of source lines, with its class (lines ordered).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct LinePair {
    /// The class.
    pub class: RaceClass,
    /// The lower line.
    pub first: u32,
    /// The higher line.
    pub second: u32,
}

impl LinePair {
    fn new(class: RaceClass, a: u32, b: u32) -> LinePair {
        LinePair { class, first: a.min(b), second: a.max(b) }
    }
}

impl std::fmt::Display for LinePair {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {} {}", self.class.as_str(), self.first, self.second)
    }
}

/// What a kernel's header says wgrace must find.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Expectation {
    /// Whether the kernel races.
    pub racy: bool,
    /// Every racing pair of lines.
    pub races: Vec<LinePair>,
    /// Pairs that race only under some schedules (`race-maybe:`): a report
    /// may list them, and need not.
    pub maybe: Vec<LinePair>,
    /// The findings of other checks it must get.
    pub findings: Vec<String>,
    /// Findings that only some schedules give (`finding-maybe:`): a report
    /// may have them, and need not.
    pub maybe_findings: Vec<String>,
    /// Where they must be, for a `finding:` line that lists lines: (check,
    /// line of the finding's primary location). A check with lines listed
    /// must have findings at those lines and at no others.
    pub finding_lines: Vec<(String, u32)>,
    /// Why wgrace is expected to get it wrong, if it is.
    pub xfail: Option<String>,
    /// The test it was ported from.
    pub original: Option<String>,
}

impl Expectation {
    /// Reads the header lines of `text`.
    ///
    /// # Errors
    /// A message naming the malformed line.
    pub fn parse(text: &str) -> Result<Expectation, String> {
        let mut racy = None;
        let mut races = Vec::new();
        let mut maybe = Vec::new();
        let mut findings = Vec::new();
        let mut maybe_findings = Vec::new();
        let mut finding_lines = Vec::new();
        let mut xfail = None;
        let mut original = None;
        for (n, line) in text.lines().enumerate() {
            let Some(comment) = line.trim_start().strip_prefix("//") else { continue };
            let comment = comment.trim();
            let at = |what: &str| format!("line {}: {what}", n + 1);
            if let Some(v) = comment.strip_prefix("expect:") {
                if racy.is_some() {
                    return Err(at("a second `expect:` line"));
                }
                racy = Some(match v.trim() {
                    "race" => true,
                    "no-race" => false,
                    other => return Err(at(&format!("`expect: {other}` should be `race` or `no-race`"))),
                });
            } else if let Some((r, optional)) = comment
                .strip_prefix("race:")
                .map(|r| (r, false))
                .or(comment.strip_prefix("race-maybe:").map(|r| (r, true)))
            {
                let parts: Vec<&str> = r.split_whitespace().collect();
                let [class, a, b] = parts[..] else {
                    return Err(at(&format!("`race:` expects CLASS LINE LINE, got `{}`", r.trim())));
                };
                let class: RaceClass = class.parse().map_err(|e: String| at(&e))?;
                let line = |s: &str| s.parse::<u32>().map_err(|_| at(&format!("`{s}` is not a line number")));
                let pair = LinePair::new(class, line(a)?, line(b)?);
                if optional { maybe.push(pair) } else { races.push(pair) }
            } else if let Some(f) = comment.strip_prefix("finding-maybe:") {
                let known = CheckSet::default().ids();
                match f.trim() {
                    id if known.iter().any(|k| k == id) => maybe_findings.push(id.to_string()),
                    other => {
                        return Err(at(&format!(
                            "`finding-maybe:` expects one check, got `{other}` (the checks are: {})",
                            known.join(", ")
                        )));
                    }
                }
            } else if let Some(f) = comment.strip_prefix("finding:") {
                let known = CheckSet::default().ids();
                let mut words = f.split_whitespace();
                match words.next().unwrap_or("") {
                    id if known.iter().any(|k| k == id) => {
                        findings.push(id.to_string());
                        for w in words {
                            let line = w.parse::<u32>().map_err(|_| at(&format!("`{w}` is not a line number")))?;
                            finding_lines.push((id.to_string(), line));
                        }
                    }
                    other => {
                        return Err(at(&format!("unknown finding `{other}` (the checks are: {})", known.join(", "))));
                    }
                }
            } else if let Some(reason) = comment.strip_prefix("xfail:") {
                xfail = Some(reason.trim().to_string());
            } else if let Some(o) = comment.strip_prefix("original:") {
                original = Some(o.trim().to_string());
            }
        }
        let racy = racy.ok_or("no `// expect: race` or `// expect: no-race` line")?;
        if racy && races.is_empty() {
            return Err("a racy kernel lists its racing pairs with `// race: CLASS LINE LINE`".into());
        }
        if !racy && !races.is_empty() {
            return Err("a race-free kernel lists no `// race:` pairs".into());
        }
        races.sort();
        races.dedup();
        findings.sort();
        findings.dedup();
        maybe_findings.sort();
        maybe_findings.dedup();
        if let Some(both) = maybe_findings.iter().find(|f| findings.contains(f)) {
            return Err(format!("`{both}` is listed both as a finding and as a `finding-maybe:`"));
        }
        finding_lines.sort();
        finding_lines.dedup();
        Ok(Expectation { racy, races, maybe, findings, maybe_findings, finding_lines, xfail, original })
    }

    /// The same expectation with every line 0: what a module without debug
    /// information, whose report has no lines, is judged against.
    pub fn without_lines(&self) -> Expectation {
        let strip = |pairs: &[LinePair]| pairs.iter().map(|l| LinePair { first: 0, second: 0, ..*l }).collect();
        Expectation { races: strip(&self.races), maybe: strip(&self.maybe), finding_lines: Vec::new(), ..self.clone() }
    }

    /// Whether a reported pair agrees with the header: it is listed or, when
    /// only its `second` line is known (`both_known` false), a listed pair of
    /// its class has that line. Classes compare with [`class_agrees`].
    pub fn agrees(&self, pair: &LinePair, both_known: bool) -> bool {
        let mut all = self.races.iter().chain(&self.maybe);
        if both_known {
            return all.any(|l| pair.same_lines(l) && class_agrees(pair.class, l.class));
        }
        all.any(|l| class_agrees(pair.class, l.class) && (l.first == pair.second || l.second == pair.second))
    }
}

impl LinePair {
    fn same_lines(&self, other: &LinePair) -> bool {
        (self.first, self.second) == (other.first, other.second)
    }
}

/// Whether a reported class agrees with a listed one. Which invocations share
/// a subgroup depends on the adapter's subgroup size, so an `intra-subgroup`
/// race also agrees with a listed same-workgroup class (`intra-workgroup`,
/// `barrier-kind`); a listed `intra-subgroup` needs exactly that.
pub fn class_agrees(reported: RaceClass, listed: RaceClass) -> bool {
    reported == listed
        || (reported == RaceClass::IntraSubgroup
            && matches!(listed, RaceClass::IntraWorkgroup | RaceClass::BarrierKind))
}

/// How a kernel fared.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "status", content = "reason", rename_all = "kebab-case")]
pub enum Status {
    /// Everything as expected.
    Pass,
    /// A wrong verdict, an unlisted pair, no listed pair, an incomplete report.
    Fail(String),
    /// wgrace could not check it (or its header is malformed).
    Error(String),
    /// Failed as its `xfail` line expects.
    ExpectedFailure(String),
    /// Passed although marked `xfail`.
    UnexpectedPass,
}

impl Status {
    /// Whether this status fails the corpus.
    pub fn is_failure(&self) -> bool {
        matches!(self, Status::Fail(_) | Status::Error(_) | Status::UnexpectedPass)
    }
}

/// The result of one kernel.
#[derive(Clone, Debug, Serialize)]
pub struct KernelResult {
    /// Its path.
    pub path: PathBuf,
    /// Its suite (the first folder under the corpus root).
    pub suite: String,
    /// The outcome.
    #[serde(flatten)]
    pub status: Status,
    /// Whether its header says it races (`None` if the header is malformed).
    pub expected_racy: Option<bool>,
    /// wgrace's verdict, when it could check.
    pub verdict: Option<Verdict>,
    /// Findings of other checks its header lists.
    pub expected_findings: Vec<String>,
    /// Findings its header says only some schedules give (`finding-maybe:`).
    pub maybe_findings: Vec<String>,
    /// Findings of other checks reported (kinds, each once).
    pub findings: Vec<String>,
    /// Listed racing line pairs.
    pub listed: usize,
    /// Distinct line pairs reported.
    pub reported: usize,
    /// Reported pairs that agree with the header (listed, or, for a race
    /// whose earlier access was not recorded, on a line of a listed pair).
    pub matched: usize,
    /// Listed pairs that were reported.
    pub recalled: usize,
    /// Wall time, load to report, in milliseconds.
    pub ms: f64,
    /// Digests of what the checked run left in its writable buffers and
    /// written textures, when it ran (the tests compare them with an
    /// uninstrumented run's); not in the scoreboard.
    #[serde(skip)]
    pub outputs: Vec<OutputDigest>,
}

/// Checks one kernel on `gpu`, with its `// wgrace:` flags and `flags` over
/// them (`--mode stmt`, say).
pub fn check_kernel(gpu: &Gpu, path: &Path, suite: &str, flags: &RunArgs) -> KernelResult {
    let start = Instant::now();
    let mut result = KernelResult {
        path: path.to_path_buf(),
        suite: suite.to_string(),
        status: Status::Pass,
        expected_racy: None,
        verdict: None,
        expected_findings: Vec::new(),
        maybe_findings: Vec::new(),
        findings: Vec::new(),
        listed: 0,
        reported: 0,
        matched: 0,
        recalled: 0,
        ms: 0.0,
        outputs: Vec::new(),
    };
    let header = header_text(path);
    let expectation = header.as_deref().map_err(Clone::clone).and_then(Expectation::parse);
    let outcome = match (expectation, header) {
        (Err(e), _) | (_, Err(e)) => Err(format!("bad header: {e}")),
        (Ok(expected), Ok(header)) => {
            result.expected_racy = Some(expected.racy);
            result.expected_findings = expected.findings.clone();
            result.maybe_findings = expected.maybe_findings.clone();
            result.listed = expected.races.len();
            let report = run(gpu, path, &header, flags).map_err(|e| e.to_string());
            let (status, by_lines) = match &report {
                Err(e) => (Status::Error(e.lines().next().unwrap_or("").to_string()), true),
                Ok((report, by_lines)) => {
                    result.outputs.clone_from(&report.outputs);
                    (judge(&expected, report, *by_lines, &mut result), *by_lines)
                }
            };
            Ok((expected, status, by_lines))
        }
    };
    result.status = match outcome {
        Err(e) => Status::Error(e),
        Ok((expected, status, by_lines)) => with_xfail(expected.xfail.as_deref(), status, by_lines),
    };
    result.ms = start.elapsed().as_secs_f64() * 1e3;
    result
}

/// Checks the kernels of `list` (path and suite) with [`check_kernel`] on
/// the devices of `pool`, as many at a time as it has, and returns their
/// results in the order of `list`. `progress(done, total, path)` is called
/// as each kernel ends.
pub fn check_kernels(
    pool: &DevicePool,
    list: &[(PathBuf, String)],
    flags: &RunArgs,
    progress: &(dyn Fn(usize, usize, &Path) + Sync),
) -> Vec<KernelResult> {
    let done = Mutex::new(0);
    pool.map(list, |gpu, (path, suite)| {
        let result = check_kernel(gpu, path, suite, flags);
        let mut done = done.lock().unwrap_or_else(PoisonError::into_inner);
        *done += 1;
        progress(*done, list.len(), path);
        result
    })
}

/// A kernel's status once its header's `xfail:` reason (if any) is taken
/// into account; `by_lines` false for a report judged by class alone.
fn with_xfail(xfail: Option<&str>, status: Status, by_lines: bool) -> Status {
    match (xfail, status) {
        (None, status) => status,
        // Judged by class alone, a kernel can pass whose failure is in its
        // line pairs; its module with lines still says when it passes.
        (Some(reason), Status::Pass) if !by_lines => {
            Status::ExpectedFailure(format!("{reason} (without lines, judged by class alone, it passes)"))
        }
        (Some(_), Status::Pass) => Status::UnexpectedPass,
        (Some(reason), _) => Status::ExpectedFailure(reason.to_string()),
    }
}

/// The text holding a kernel's header: a WGSL file's, or the source a SPIR-V
/// module carries, or for a module without debug information
/// (`nodebug/NAME.spv`) the GLSL source it was compiled from (`NAME.comp`
/// in the folder above).
///
/// # Errors
/// A message when the file cannot be read, or the module carries no source
/// and has no GLSL source where the corpus keeps it.
pub fn header_text(path: &Path) -> Result<String, String> {
    if !is_spirv(path) {
        return std::fs::read_to_string(path).map_err(|e| e.to_string());
    }
    let shader = wgrace_instrument::Shader::load(path).map_err(|e| e.to_string())?;
    if let Some(text) = shader.text {
        return Ok(text);
    }
    let source = glsl_source_of(path).ok_or_else(|| {
        "the module carries no source text to read a header from (compile it with -g, or keep it as \
         nodebug/NAME.spv below its NAME.comp)"
            .to_string()
    })?;
    std::fs::read_to_string(&source).map_err(|e| format!("{}: {e}", source.display()))
}

/// `DIR/NAME.comp` for a module `DIR/nodebug/NAME.spv`, if that file exists.
fn glsl_source_of(module: &Path) -> Option<PathBuf> {
    let folder = module.parent()?;
    if folder.file_name()? != "nodebug" {
        return None;
    }
    let source = folder.parent()?.join(module.file_stem()?).with_extension("comp");
    source.is_file().then_some(source)
}

fn is_spirv(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "spv")
}

/// Loads a kernel as the corpus runs it, with its `// wgrace:` flags and
/// `flags` over them: a module without debug information carries no flags,
/// and takes them from the `header` read from its GLSL source.
///
/// # Errors
/// [`Error::Load`] and bad flags.
pub fn load_kernel(path: &Path, header: &str, flags: &RunArgs) -> Result<(wgrace_instrument::Shader, RunSpec), Error> {
    let flags = match glsl_source_of(path) {
        Some(_) => flags.clone().over(RunArgs::parse_flags(&crate::spec::shader_flags(header))?),
        None => flags.clone(),
    };
    let (shader, _, spec) = crate::load_with_flags(path, flags)?;
    Ok((shader, spec))
}

/// Runs a kernel gets on lavapipe at most, until one's report is complete
/// (see the module's documentation).
pub const LAVAPIPE_RUNS: usize = 3;

/// The pause before each further run of a kernel on lavapipe, in
/// milliseconds.
const LAVAPIPE_RUN_PAUSE_MS: u64 = 500;

/// The kernel's run, and whether its report has source lines (a module
/// without debug information has none).
fn run(gpu: &Gpu, path: &Path, header: &str, flags: &RunArgs) -> Result<(Run, bool), Error> {
    let (shader, mut spec) = load_kernel(path, header, flags)?;
    let has_lines = shader.text.is_some();
    let mut suppressions = crate::session::suppressions(&shader, &spec)?;
    let shader_path = shader.path.clone();
    // The scoreboard judges verdicts and findings: no timeline to gather.
    spec.timeline = crate::spec::TimelineFocus::Off;
    let plan = Plan::new(shader, spec)?;
    let runs = if crate::gpu::is_lavapipe(&gpu.info) { LAVAPIPE_RUNS } else { 1 };
    // A run whose classes rest on an engine that gave way is as much the
    // schedule's as an incomplete one.
    // (An error finding's own incompleteness, a loop stopped past its
    // budget, is the kernel's; a loop lavapipe cut short, a warning, is the
    // schedule's, as when a spin waits for a workgroup that started late.)
    let by_findings = |r: &Run| {
        r.incomplete
            .iter()
            .all(|line| r.findings.iter().any(|f| f.severity == Severity::Error && f.incomplete.as_ref() == Some(line)))
    };
    let settled = |r: &Run| by_findings(r) && !r.notes.iter().any(|n| n == crate::MISSING_FENCE_GAVE_WAY);
    let mut report = plan.check(gpu, &mut |_, _| {})?.0;
    for _ in 1..runs {
        if settled(&report) {
            break;
        }
        // What unsettled it was most likely other work on the machine: let
        // it pass first.
        std::thread::sleep(std::time::Duration::from_millis(LAVAPIPE_RUN_PAUSE_MS));
        report = plan.check(gpu, &mut |_, _| {})?.0;
    }
    // The kernel's `// wgrace: allow(…)` comments, as `wgrace run` takes
    // them; one that matches nothing is stale.
    report.suppress(&shader_path, &mut suppressions);
    if let Some(unused) = suppressions.iter().find(|s| s.matched == 0 && !s.same_value) {
        return Err(Error::Spec(format!(
            "unused suppression: {} at {} matched nothing",
            unused.describe(),
            unused.origin
        )));
    }
    Ok((report, has_lines))
}

/// Judges `report` against the header (`listed`); `by_lines` false judges
/// its races by class alone (a module without debug information has no lines:
/// every line reads 0).
fn judge(listed: &Expectation, report: &Run, by_lines: bool, result: &mut KernelResult) -> Status {
    result.verdict = Some(report.verdict);
    let expected = if by_lines { listed.clone() } else { listed.without_lines() };
    // A race whose earlier access was not recorded names one line: it agrees
    // with the header if a listed pair of its class has that line.
    let mut pairs: Vec<(LinePair, bool)> = report
        .races
        .iter()
        .map(|r| {
            let (a, b) = (r.first.location.line.unwrap_or(0), r.second.location.line.unwrap_or(0));
            let (a, b) = if by_lines { (a, b) } else { (0, 0) };
            (LinePair::new(r.class, a, b), !by_lines || (r.first.site.is_some() && r.second.site.is_some()))
        })
        .collect();
    pairs.sort();
    pairs.dedup();
    let agrees = |(p, both): &(LinePair, bool)| expected.agrees(p, *both);
    result.reported = pairs.len();
    result.matched = pairs.iter().filter(|p| agrees(p)).count();
    let reported_listed =
        |l: &LinePair| pairs.iter().any(|(p, both)| *both && p.same_lines(l) && class_agrees(p.class, l.class));
    result.recalled = expected.races.iter().filter(|l| reported_listed(l)).count();
    // Statement pairs (line pairs, whatever the class) listed but not
    // reported; without lines, listed classes none of whose races was.
    let missed: Vec<&LinePair> = expected
        .races
        .iter()
        .filter(|l| {
            !pairs.iter().any(|(p, both)| *both && p.same_lines(l) && (by_lines || class_agrees(p.class, l.class)))
        })
        .collect();
    result.findings = report.findings.iter().map(|f| f.check.clone()).collect();
    result.findings.sort();
    result.findings.dedup();
    // What an incomplete report says is not the kernel's verdict: say so
    // first. A listed finding that leaves its run incomplete (a loop
    // stopped past its budget) is what the kernel is about.
    let excused: Vec<&String> = report
        .findings
        .iter()
        .filter(|f| expected.findings.contains(&f.check))
        .filter_map(|f| f.incomplete.as_ref())
        .collect();
    let unexcused: Vec<&str> =
        report.incomplete.iter().filter(|line| !excused.contains(line)).map(String::as_str).collect();
    if !unexcused.is_empty() {
        return Status::Fail(format!("incomplete report: {}", unexcused.join("; ")));
    }
    let racy = report.verdict == Verdict::Race;
    if racy != expected.racy {
        return Status::Fail(if racy { "false positive".into() } else { "false negative".into() });
    }
    if let Some(f) =
        result.findings.iter().find(|f| !expected.findings.contains(f) && !expected.maybe_findings.contains(f))
    {
        return Status::Fail(format!("reported {f}, which the header does not list"));
    }
    if let Some(f) = expected.findings.iter().find(|f| !result.findings.contains(f)) {
        return Status::Fail(format!("did not report {f}"));
    }
    // Findings at lines the header lists, for the checks it lists lines of.
    let mut found_at: Vec<(String, u32)> = report
        .findings
        .iter()
        .filter(|f| expected.finding_lines.iter().any(|(check, _)| *check == f.check))
        .filter_map(|f| {
            let primary = f.locations.iter().find(|l| l.primary).or(f.locations.first())?;
            Some((f.check.clone(), primary.location.line.unwrap_or(0)))
        })
        .collect();
    found_at.sort();
    found_at.dedup();
    if let Some((check, line)) = found_at.iter().find(|f| !expected.finding_lines.contains(f)) {
        return Status::Fail(format!("reported {check} at line {line}, which the header does not list"));
    }
    if let Some((check, line)) = expected.finding_lines.iter().find(|f| !found_at.contains(f)) {
        return Status::Fail(format!("did not report {check} at line {line}"));
    }
    if let Some((p, _)) = pairs.iter().find(|p| !agrees(p)) {
        return Status::Fail(format!("reported `{p}`, which the header does not list"));
    }
    if expected.racy && result.matched == 0 {
        return Status::Fail("none of the listed pairs was reported".into());
    }
    // Statement mode reports every racing statement pair.
    if report.checked.mode == Mode::Stmt.as_str()
        && let Some(l) = missed.first()
    {
        return Status::Fail(if by_lines {
            format!("statement mode did not report lines {} and {} (listed `{l}`)", l.first, l.second)
        } else {
            format!("statement mode reported no `{}` race (the module has no lines to compare)", l.class.as_str())
        });
    }
    Status::Pass
}

/// Scores of one suite (or of the whole corpus).
#[derive(Clone, Debug, Default, Serialize)]
pub struct Score {
    /// Suite name (`total` for the whole corpus).
    pub suite: String,
    /// Kernels run.
    pub kernels: usize,
    /// Kernels that passed: the expected verdict and findings, and only
    /// listed race pairs (xfail kernels excluded).
    pub right: usize,
    /// Race-free kernels reported racy, and kernels with a finding their
    /// header does not list.
    pub false_positives: usize,
    /// Racy kernels reported race-free, and kernels missing a finding their
    /// header lists.
    pub false_negatives: usize,
    /// Kernels wgrace could not check.
    pub errors: usize,
    /// Kernels marked xfail.
    pub xfail: usize,
    /// Kernels that failed (wrong verdict, unlisted pair, …), xfail excluded.
    pub failures: usize,
    /// Reported line pairs that agree with the headers ÷ reported line pairs.
    pub pair_precision: f64,
    /// Listed line pairs that were reported ÷ listed line pairs.
    pub pair_recall: f64,
    /// Wall time, in seconds.
    pub seconds: f64,
}

/// Every suite's score, the total, and each kernel's result.
#[derive(Clone, Debug, Serialize)]
pub struct Scoreboard {
    /// The adapter the corpus ran on.
    pub adapter: crate::report::AdapterInfo,
    /// Per suite, sorted by name.
    pub suites: Vec<Score>,
    /// The whole corpus.
    pub total: Score,
    /// Per kernel.
    pub kernels: Vec<KernelResult>,
    /// The kernels `--skip` left out, which were not run.
    pub skipped: Vec<PathBuf>,
}

impl Scoreboard {
    /// Whether any kernel failed.
    pub fn failed(&self) -> bool {
        self.kernels.iter().any(|k| k.status.is_failure())
    }
}

fn score(suite: &str, kernels: &[&KernelResult]) -> Score {
    let mut s = Score { suite: suite.to_string(), kernels: kernels.len(), ..Score::default() };
    let (mut listed, mut reported, mut matched, mut recalled) = (0, 0, 0, 0);
    for k in kernels {
        s.seconds += k.ms / 1e3;
        match &k.status {
            // Reported apart: their pairs count in no precision or recall.
            Status::ExpectedFailure(_) | Status::UnexpectedPass => {
                s.xfail += 1;
                continue;
            }
            Status::Error(_) => s.errors += 1,
            Status::Pass | Status::Fail(_) => {}
        }
        listed += k.listed;
        reported += k.reported;
        matched += k.matched;
        recalled += k.recalled;
        if k.status.is_failure() {
            s.failures += 1;
        }
        let (Some(expected), Some(verdict)) = (k.expected_racy, k.verdict) else { continue };
        let racy = verdict == Verdict::Race;
        let extra = k.findings.iter().any(|f| !k.expected_findings.contains(f) && !k.maybe_findings.contains(f));
        let missing = k.expected_findings.iter().any(|f| !k.findings.contains(f));
        if (!expected && racy) || extra {
            s.false_positives += 1;
        }
        if (expected && !racy) || missing {
            s.false_negatives += 1;
        }
        if k.status == Status::Pass {
            s.right += 1;
        }
    }
    s.pair_precision = if reported == 0 { 1.0 } else { matched as f64 / reported as f64 };
    s.pair_recall = if listed == 0 { 1.0 } else { recalled as f64 / listed as f64 };
    s
}

/// The `.wgsl` and `.spv` kernels under `dir`, sorted, with their suite
/// names.
///
/// # Errors
/// [`Error::Io`] when the folder cannot be read.
pub fn kernels(dir: &Path) -> Result<Vec<(PathBuf, String)>, Error> {
    let root_name = dir.canonicalize().ok().and_then(|d| d.file_name().map(|n| n.to_string_lossy().into_owned()));
    let root_name = root_name.unwrap_or_else(|| dir.display().to_string());
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let entries = std::fs::read_dir(&d).map_err(|e| Error::Io(format!("reading {}: {e}", d.display())))?;
        for entry in entries {
            let path = entry.map_err(|e| Error::Io(format!("reading {}: {e}", d.display())))?.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "wgsl") || is_spirv(&path) {
                let suite = path
                    .strip_prefix(dir)
                    .ok()
                    .and_then(|rel| rel.components().next().filter(|_| rel.components().count() > 1))
                    .map_or_else(|| root_name.clone(), |c| c.as_os_str().to_string_lossy().into_owned());
                out.push((path, suite));
            }
        }
    }
    out.sort();
    if out.is_empty() {
        return Err(Error::Io(format!("no .wgsl or .spv kernels under {}", dir.display())));
    }
    Ok(out)
}

/// The kernels a list file names (`wgrace corpus --list FILE`, and the
/// test suite's matrix, `samples/matrix.txt`): one path per line, relative
/// to the corpus folder `dir`; `#` starts a comment, and blank lines are
/// ignored. The paths come back joined to `dir`, in the file's order.
///
/// # Errors
/// [`Error::Io`] when the file cannot be read; [`Error::Spec`] naming the
/// line of a path that is not a kernel under `dir`, or listed twice.
pub fn read_list(dir: &Path, file: &Path) -> Result<Vec<PathBuf>, Error> {
    let text = std::fs::read_to_string(file).map_err(|e| Error::Io(format!("reading {}: {e}", file.display())))?;
    let mut out: Vec<PathBuf> = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let entry = line.split('#').next().unwrap_or("").trim();
        if entry.is_empty() {
            continue;
        }
        let at = || format!("{} line {}", file.display(), number + 1);
        let path = dir.join(entry);
        let kernel = path.extension().is_some_and(|e| e == "wgsl") || is_spirv(&path);
        if !kernel || !path.is_file() {
            return Err(Error::Spec(format!("{}: no .wgsl or .spv kernel {entry} under {}", at(), dir.display())));
        }
        if out.contains(&path) {
            return Err(Error::Spec(format!("{}: {entry} is listed twice", at())));
        }
        out.push(path);
    }
    Ok(out)
}

/// Which kernels under a corpus folder [`run_corpus`] runs.
#[derive(Clone, Debug, Default)]
pub struct Selection {
    /// Only these (from [`read_list`]), when given; the others are not
    /// run, and not counted.
    pub only: Option<Vec<PathBuf>>,
    /// Leave out the kernels whose path contains one of these (listed in
    /// the scoreboard as skipped).
    pub skip: Vec<String>,
}

/// Runs the kernels under `dir` that `selection` selects, on the devices of
/// `pool` side by side ([`check_kernels`]). `progress(done, total, path)` is called as
/// each kernel ends.
///
/// # Errors
/// [`Error::Io`] when the folder cannot be read, [`Error::Spec`] when the
/// selection leaves out every kernel. Kernels that cannot be checked are
/// results, not errors.
pub fn run_corpus(
    pool: &DevicePool,
    dir: &Path,
    flags: &RunArgs,
    selection: &Selection,
    progress: &(dyn Fn(usize, usize, &Path) + Sync),
) -> Result<Scoreboard, Error> {
    let mut all = kernels(dir)?;
    if let Some(only) = &selection.only {
        all.retain(|(path, _)| only.contains(path));
    }
    let skip = &selection.skip;
    let (skipped, list): (Vec<_>, Vec<_>) =
        all.into_iter().partition(|(path, _)| skip.iter().any(|s| path.to_string_lossy().contains(s.as_str())));
    if list.is_empty() {
        let by = if selection.only.is_some() { "--list and --skip leave" } else { "--skip leaves" };
        return Err(Error::Spec(format!("{by} out every kernel under {}", dir.display())));
    }
    let skipped = skipped.into_iter().map(|(path, _)| path).collect();
    let results = check_kernels(pool, &list, flags, progress);
    let mut names: Vec<&str> = results.iter().map(|k| k.suite.as_str()).collect();
    names.sort_unstable();
    names.dedup();
    let suites = names
        .iter()
        .map(|name| score(name, &results.iter().filter(|k| k.suite == *name).collect::<Vec<_>>()))
        .collect();
    let total = score("total", &results.iter().collect::<Vec<_>>());
    Ok(Scoreboard { adapter: pool.info().clone(), suites, total, kernels: results, skipped })
}

/// The scoreboard as a text table, followed by every failure.
pub fn text(board: &Scoreboard) -> String {
    let header = format!(
        "{:<14} {:>7} {:>6} {:>7} {:>7} {:>6} {:>6} {:>10} {:>8} {:>8}\n",
        "suite", "kernels", "right", "false+", "false-", "errors", "xfail", "precision", "recall", "time"
    );
    let row = |s: &Score| {
        format!(
            "{:<14} {:>7} {:>6} {:>7} {:>7} {:>6} {:>6} {:>9.1}% {:>7.1}% {:>7.1}s\n",
            s.suite,
            s.kernels,
            s.right,
            s.false_positives,
            s.false_negatives,
            s.errors,
            s.xfail,
            s.pair_precision * 100.0,
            s.pair_recall * 100.0,
            s.seconds
        )
    };
    let mut out = header;
    for s in &board.suites {
        out.push_str(&row(s));
    }
    out.push_str(&row(&board.total));
    out.push('\n');
    for k in &board.kernels {
        match &k.status {
            Status::Fail(why) => out.push_str(&format!("FAIL {}: {why}\n", k.path.display())),
            Status::Error(why) => out.push_str(&format!("ERROR {}: {why}\n", k.path.display())),
            Status::UnexpectedPass => {
                out.push_str(&format!("UNEXPECTED PASS {}: remove its `xfail:` line\n", k.path.display()))
            }
            Status::ExpectedFailure(why) => out.push_str(&format!("xfail {}: {why}\n", k.path.display())),
            Status::Pass => {}
        }
    }
    let t = &board.total;
    let sub = if board.adapter.subgroup_size[0] == board.adapter.subgroup_size[1] {
        board.adapter.subgroup_size[0].to_string()
    } else {
        format!("{}-{}", board.adapter.subgroup_size[0], board.adapter.subgroup_size[1])
    };
    let verdict = if board.failed() {
        format!(
            "{} of {} kernels failed",
            t.failures + board.kernels.iter().filter(|k| k.status == Status::UnexpectedPass).count(),
            t.kernels
        )
    } else {
        format!("all {} kernels right ({} xfail)", t.kernels - t.xfail, t.xfail)
    };
    let skipped = match board.skipped.len() {
        0 => String::new(),
        n => format!(", {n} skipped"),
    };
    out.push_str(&format!(
        "wgrace corpus: {verdict}{skipped}, on {} ({}), subgroup size {sub}\n",
        board.adapter.name, board.adapter.backend
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_are_parsed_and_checked() {
        let e = Expectation::parse(
            "// original: gpuverify: foo (xfail:NOT_ALL_VERIFIED)\n// expect: race\n// race: barrier-kind 9 4\n\
             // race: intra-workgroup 4 4\n",
        )
        .unwrap();
        assert!(e.racy);
        assert_eq!(
            e.races,
            [LinePair::new(RaceClass::IntraWorkgroup, 4, 4), LinePair::new(RaceClass::BarrierKind, 4, 9)]
        );
        assert_eq!(e.original.as_deref(), Some("gpuverify: foo (xfail:NOT_ALL_VERIFIED)"));
        assert!(Expectation::parse("// expect: maybe\n").unwrap_err().contains("line 1"));
        assert!(Expectation::parse("// expect: race\n").unwrap_err().contains("lists its racing pairs"));
        assert!(Expectation::parse("fn f() {}\n").is_err());
        assert!(Expectation::parse("// expect: no-race\n// race: inter-workgroup 1 2\n").is_err());
        assert!(Expectation::parse("// expect: race\n// race: sideways 1 2\n").unwrap_err().contains("unknown class"));
    }

    #[test]
    fn finding_lines_are_read() {
        let e = Expectation::parse("// expect: no-race\n// finding: barrier-divergence\n").unwrap();
        assert_eq!(e.findings, vec!["barrier-divergence".to_string()]);
        assert!(Expectation::parse("// expect: no-race\n").unwrap().findings.is_empty());
        let bad = Expectation::parse("// expect: no-race\n// finding: deadlock\n").unwrap_err();
        assert!(bad.contains("unknown finding `deadlock`"), "{bad}");
        let maybe = Expectation::parse("// expect: no-race\n// finding-maybe: loops\n").unwrap();
        assert_eq!((maybe.findings.len(), maybe.maybe_findings), (0, vec!["loops".to_string()]));
        let bad = Expectation::parse("// expect: no-race\n// finding-maybe: loops 12\n").unwrap_err();
        assert!(bad.contains("expects one check, got `loops 12`"), "{bad}");
        let bad = Expectation::parse("// expect: no-race\n// finding: loops\n// finding-maybe: loops\n").unwrap_err();
        assert!(bad.contains("both as a finding and as a `finding-maybe:`"), "{bad}");
    }

    #[test]
    fn a_race_with_one_unrecorded_side_agrees_by_its_line_and_class() {
        let e = Expectation::parse("// expect: race\n// race: inter-workgroup 10 28\n").unwrap();
        assert!(e.agrees(&LinePair::new(RaceClass::InterWorkgroup, 10, 28), true));
        assert!(!e.agrees(&LinePair::new(RaceClass::InterWorkgroup, 28, 28), true));
        assert!(e.agrees(&LinePair::new(RaceClass::InterWorkgroup, 0, 28), false));
        assert!(e.agrees(&LinePair::new(RaceClass::InterWorkgroup, 0, 10), false));
        assert!(!e.agrees(&LinePair::new(RaceClass::IntraWorkgroup, 0, 28), false));
        assert!(!e.agrees(&LinePair::new(RaceClass::InterWorkgroup, 0, 12), false));
    }

    #[test]
    fn an_xfail_kernel_that_passes_is_unexpected_only_where_its_lines_are_judged() {
        let fail = || Status::Fail("false positive".into());
        assert_eq!(with_xfail(Some("why"), Status::Pass, true), Status::UnexpectedPass);
        assert_eq!(
            with_xfail(Some("why"), Status::Pass, false),
            Status::ExpectedFailure("why (without lines, judged by class alone, it passes)".into())
        );
        assert_eq!(with_xfail(Some("why"), fail(), false), Status::ExpectedFailure("why".into()));
        assert_eq!(with_xfail(None, fail(), true), fail());
        assert_eq!(with_xfail(None, Status::Pass, false), Status::Pass);
    }

    #[test]
    fn a_module_without_lines_is_judged_by_class_against_its_glsl_header() {
        let e = Expectation::parse("// expect: race\n// race: scope 10 28\n// race-maybe: inter-workgroup 3 4\n")
            .unwrap()
            .without_lines();
        assert!(e.agrees(&LinePair::new(RaceClass::Scope, 0, 0), true));
        assert!(e.agrees(&LinePair::new(RaceClass::InterWorkgroup, 0, 0), true));
        assert!(!e.agrees(&LinePair::new(RaceClass::IntraWorkgroup, 0, 0), true));

        let dir = std::env::temp_dir().join(format!("wgrace-corpus-nodebug-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("nodebug")).unwrap();
        std::fs::write(dir.join("k.comp"), "// expect: no-race\n").unwrap();
        assert_eq!(glsl_source_of(&dir.join("nodebug/k.spv")), Some(dir.join("k.comp")));
        assert_eq!(glsl_source_of(&dir.join("nodebug/other.spv")), None);
        assert_eq!(glsl_source_of(&dir.join("k.spv")), None);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
