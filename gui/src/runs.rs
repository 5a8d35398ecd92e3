//! Runs from the viewer: a form for the run spec, runs of the `wgrace`
//! command on a worker thread with their progress and a way to cancel them,
//! watching the shader file to run again when it changes, the history of
//! the runs, and what changed between two of them.
//!
//! The viewer starts `wgrace run SHADER … --format json --progress lines`
//! as a child process rather than linking the checker: a shader that hangs
//! or crashes the driver takes the child down, not the window, and cancel
//! ends it at once.

use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime};

use wgrace_report::Report;

use crate::model::{self, Row};

/// The run spec as the form edits it: the shader and the flags of `wgrace
/// run` (empty fields are left to the shader's `// wgrace:` lines and the
/// defaults).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RunForm {
    /// The shader file.
    pub shader: String,
    /// `--entry`.
    pub entry: String,
    /// `--dispatch X[,Y[,Z]]`.
    pub dispatch: String,
    /// `--buffer NAME=LEN`, several separated by spaces.
    pub buffers: String,
    /// `--fill NAME=VALUE`, several separated by spaces.
    pub fills: String,
    /// `--mode`: `addr` or `stmt` (empty: the default).
    pub mode: String,
    /// `--adapter SUBSTRING|all`.
    pub adapter: String,
    /// Any other flags, as on the command line.
    pub other: String,
}

impl RunForm {
    /// The form for re-running the shader of `report`.
    pub fn of(report: &Report) -> RunForm {
        let mut form = RunForm { shader: report.shader.path.clone(), ..RunForm::default() };
        if let [run] = report.runs.as_slice() {
            form.entry = run.entry_point.clone();
        }
        form
    }

    /// The arguments of `wgrace` for this run, the report in JSON on
    /// stdout and progress lines on stderr.
    pub fn args(&self) -> Vec<String> {
        let mut args = vec!["run".to_string(), self.shader.trim().to_string()];
        let mut flag = |name: &str, value: &str| {
            if !value.trim().is_empty() {
                args.push(name.to_string());
                args.push(value.trim().to_string());
            }
        };
        flag("--entry", &self.entry);
        flag("--dispatch", &self.dispatch);
        for b in self.buffers.split_whitespace() {
            flag("--buffer", b);
        }
        for f in self.fills.split_whitespace() {
            flag("--fill", f);
        }
        flag("--mode", &self.mode);
        flag("--adapter", &self.adapter);
        args.extend(self.other.split_whitespace().map(str::to_string));
        args.extend(["--format", "json", "--progress", "lines"].map(str::to_string));
        args
    }
}

/// What a run's worker thread reports.
enum Event {
    /// A progress line of `wgrace run` (`run ENTRY on ADAPTER`, `chunks
    /// D/T`).
    Progress(String),
    /// The run ended: its report, or why there is none.
    Done(Result<Report, String>),
}

/// A run of `wgrace` in progress.
pub struct Job {
    events: Receiver<Event>,
    child: Arc<Mutex<Option<Child>>>,
    started: Instant,
    /// The last progress line.
    pub progress: String,
    /// The command line, for messages.
    pub command: String,
}

impl Job {
    /// Starts `program` with `form`'s arguments on a worker thread.
    pub fn start(program: &Path, form: &RunForm) -> Result<Job, String> {
        let args = form.args();
        let command = format!("{} {}", program.display(), args.join(" "));
        let mut child = Command::new(program)
            .args(&args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| {
                format!(
                    "cannot start {}: {e} (the viewer runs the `wgrace` command beside it or on PATH; `cargo build \
                     --release -p wgrace-cli` builds it)",
                    program.display()
                )
            })?;
        let (stdout, stderr) = (child.stdout.take(), child.stderr.take());
        let child = Arc::new(Mutex::new(Some(child)));
        let (send, events) = mpsc::channel();
        let waiter = Arc::clone(&child);
        std::thread::spawn(move || {
            // stdout on a thread of its own, so that neither pipe fills up.
            let reader = std::thread::spawn(move || {
                let mut json = String::new();
                if let Some(mut out) = stdout {
                    let _ = out.read_to_string(&mut json);
                }
                json
            });
            let mut errors = Vec::new();
            if let Some(err) = stderr {
                for line in BufReader::new(err).lines().map_while(Result::ok) {
                    match line.strip_prefix("progress: ") {
                        Some(p) => {
                            let _ = send.send(Event::Progress(p.to_string()));
                        }
                        None => errors.push(line),
                    }
                }
            }
            let json = reader.join().unwrap_or_default();
            let status = waiter.lock().ok().and_then(|mut c| c.take()).map(|mut c| c.wait());
            let result = match status {
                None => Err("cancelled".to_string()),
                Some(Err(e)) => Err(format!("waiting for wgrace: {e}")),
                // 0: no race, 1: races; 2 and anything else: no report.
                Some(Ok(s)) if matches!(s.code(), Some(0 | 1)) => serde_json::from_str::<Report>(&json)
                    .map_err(|e| format!("wgrace wrote no report this viewer reads: {e}")),
                Some(Ok(s)) => {
                    Err(if errors.is_empty() { format!("wgrace ended with {s}") } else { errors.join("\n") })
                }
            };
            let _ = send.send(Event::Done(result));
        });
        Ok(Job { events, child, started: Instant::now(), progress: "starting".into(), command })
    }

    /// Ends the run: the worker reports it cancelled.
    pub fn cancel(&self) {
        if let Ok(mut child) = self.child.lock()
            && let Some(mut c) = child.take()
        {
            let _ = c.kill();
            let _ = c.wait();
        }
    }

    /// Seconds since it started.
    pub fn elapsed(&self) -> f32 {
        self.started.elapsed().as_secs_f32()
    }

    /// Takes the worker's news: `Some` with the outcome once the run ended.
    pub fn poll(&mut self) -> Option<Result<Report, String>> {
        while let Ok(event) = self.events.try_recv() {
            match event {
                Event::Progress(p) => self.progress = p,
                Event::Done(result) => return Some(result),
            }
        }
        None
    }
}

impl Drop for Job {
    /// A run nobody waits for any more (the window closed) ends.
    fn drop(&mut self) {
        self.cancel();
    }
}

/// One run of the history.
pub struct Entry {
    /// `Run N`, in order.
    pub number: usize,
    /// What it found: `race, 2 finding(s)`.
    pub summary: String,
    pub report: Report,
    /// Where it came from.
    pub origin: Origin,
}

/// Where a run of the history came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// The report the viewer opened (not kept: it has its own file).
    Opened,
    /// A run from this window.
    Run,
    /// A run from the viewer in an earlier session, kept on disk.
    Earlier,
}

impl Entry {
    /// Its line in the history: `Run 2: race, 1 finding(s)`.
    pub fn label(&self) -> String {
        let earlier = if self.origin == Origin::Earlier { " (earlier session)" } else { "" };
        format!("Run {}: {}{earlier}", self.number, self.summary)
    }
}

/// Runs of one shader kept on disk, at most this many (the last ones).
pub const KEPT_RUNS: usize = 20;

/// The history file's contents.
#[derive(serde::Serialize, serde::Deserialize)]
struct Kept {
    /// The shader, as the viewer was given it.
    shader: String,
    /// Its runs from the viewer, oldest first.
    runs: Vec<Report>,
}

/// Where the history of `shader` is kept in `dir`: a file named after the
/// shader's file name and a hash of its full path, so that shaders of one
/// name in different folders keep their own.
pub fn history_file(dir: &Path, shader: &Path) -> PathBuf {
    let full = std::fs::canonicalize(shader).unwrap_or_else(|_| shader.to_path_buf());
    // FNV-1a: stable across runs and builds (std's hasher is not).
    let hash = full
        .to_string_lossy()
        .bytes()
        .fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3));
    let name = shader.file_name().map_or_else(|| "shader".into(), |n| n.to_string_lossy().into_owned());
    dir.join(format!("{name}-{hash:016x}.json"))
}

/// The platform's place for the viewer's run history
/// (`~/.local/share/wgrace/history` on Linux), if it has one.
pub fn default_history_dir() -> Option<PathBuf> {
    dirs::data_dir().map(|d| d.join("wgrace").join("history"))
}

/// The history's runs and what the last one was asked to do.
#[derive(Default)]
pub struct Runs {
    pub form: RunForm,
    pub job: Option<Job>,
    /// Why the last run gave no report.
    pub error: Option<String>,
    pub history: Vec<Entry>,
    /// Run again when the shader file changes.
    pub watch: bool,
    /// The shader file's modification time when last looked at.
    seen: Option<SystemTime>,
    /// When the file was last looked at.
    looked: Option<Instant>,
    /// The two runs compared (indices into `history`).
    pub compare: [usize; 2],
    /// The `wgrace` command.
    pub program: PathBuf,
    /// The file that keeps the runs from the viewer across sessions, if any.
    pub kept_in: Option<PathBuf>,
}

/// How often watch mode looks at the shader file.
pub const WATCH_INTERVAL: Duration = Duration::from_millis(500);

impl Runs {
    /// Runs of `report`'s shader, with `program` (`wgrace`); the report is
    /// the first entry of the history.
    pub fn new(report: &Report, program: PathBuf) -> Runs {
        let mut runs = Runs { form: RunForm::of(report), program, ..Runs::default() };
        runs.seen = modified(Path::new(&runs.form.shader));
        runs.push_from(report.clone(), Origin::Opened);
        runs
    }

    /// Runs of the shader at `path` that has not run yet (the history is
    /// empty).
    pub fn of_shader(path: &Path, program: PathBuf) -> Runs {
        let form = RunForm { shader: path.display().to_string(), ..RunForm::default() };
        Runs { seen: modified(path), form, program, ..Runs::default() }
    }

    /// Adds a finished run to the history; compares it with the one before.
    pub fn push(&mut self, report: Report) {
        self.push_from(report, Origin::Run);
    }

    fn push_from(&mut self, report: Report, origin: Origin) {
        let number = self.history.len() + 1;
        let summary = summary(&report);
        self.history.push(Entry { number, summary, report, origin });
        let last = self.history.len() - 1;
        self.compare = [last.saturating_sub(1), last];
    }

    /// Keeps the runs from the viewer in `dir`, across sessions: shows the
    /// runs an earlier session kept there for this shader first, and writes
    /// the history there after each run. A file that cannot be read or
    /// written is said in the Runs tab, and the history goes on in memory.
    pub fn keep_history_in(&mut self, dir: &Path) {
        let file = history_file(dir, Path::new(&self.form.shader));
        match std::fs::read_to_string(&file) {
            Ok(text) => match serde_json::from_str::<Kept>(&text) {
                Ok(kept) => {
                    let now = std::mem::take(&mut self.history);
                    for report in kept.runs {
                        self.push_from(report, Origin::Earlier);
                    }
                    for entry in now {
                        self.push_from(entry.report, entry.origin);
                    }
                }
                Err(e) => {
                    self.error = Some(format!("the run history {} is unreadable ({e}); starting anew", file.display()))
                }
            },
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => self.error = Some(format!("cannot read the run history {}: {e}", file.display())),
        }
        self.kept_in = Some(file);
    }

    /// Writes the runs from the viewer (the last [`KEPT_RUNS`]) to the
    /// history file.
    fn save(&mut self) {
        let Some(file) = &self.kept_in else { return };
        let runs: Vec<&Report> =
            self.history.iter().filter(|e| e.origin != Origin::Opened).map(|e| &e.report).collect();
        let runs = runs[runs.len().saturating_sub(KEPT_RUNS)..].iter().map(|r| (*r).clone()).collect();
        let kept = Kept { shader: self.form.shader.clone(), runs };
        let written = file.parent().map_or(Ok(()), std::fs::create_dir_all).and_then(|()| {
            let json = serde_json::to_string(&kept).map_err(std::io::Error::other)?;
            // Whole or not at all: a new file, then renamed over the old.
            let part = file.with_extension("json.part");
            std::fs::write(&part, json)?;
            std::fs::rename(&part, file)
        });
        if let Err(e) = written {
            self.error = Some(format!("cannot keep the run history in {}: {e}", file.display()));
        }
    }

    /// Starts a run of the form's spec, unless one is running.
    pub fn start(&mut self) {
        if self.job.is_some() {
            return;
        }
        self.seen = modified(Path::new(&self.form.shader));
        match Job::start(&self.program, &self.form) {
            Ok(job) => {
                self.job = Some(job);
                self.error = None;
            }
            Err(e) => self.error = Some(e),
        }
    }

    /// Whether watch mode should run now: the shader file changed since the
    /// last run started, no run is going on, and the file was last looked
    /// at [`WATCH_INTERVAL`] ago.
    pub fn file_changed(&mut self) -> bool {
        if !self.watch || self.job.is_some() || self.looked.is_some_and(|t| t.elapsed() < WATCH_INTERVAL) {
            return false;
        }
        self.looked = Some(Instant::now());
        let now = modified(Path::new(&self.form.shader));
        now.is_some() && now != self.seen
    }

    /// The finished run's report, when the job ended with one; records an
    /// error otherwise.
    pub fn poll(&mut self) -> Option<Report> {
        let outcome = self.job.as_mut()?.poll()?;
        self.job = None;
        match outcome {
            Ok(report) => {
                self.push(report.clone());
                self.save();
                Some(report)
            }
            Err(e) => {
                self.error = Some(e);
                None
            }
        }
    }
}

fn modified(path: &Path) -> Option<SystemTime> {
    std::fs::metadata(path).and_then(|m| m.modified()).ok()
}

/// A run's outcome in a few words.
pub fn summary(report: &Report) -> String {
    let verdict = match report.verdict {
        wgrace_report::Verdict::Race => "race",
        wgrace_report::Verdict::NoRace => "no race",
    };
    let rows = model::rows(report).len();
    format!("{verdict}, {rows} finding(s){}", if report.complete { "" } else { ", incomplete" })
}

/// What changed from one run to another: findings fixed (in the first
/// only), new (in the second only) and unchanged, each in a few words.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Comparison {
    pub fixed: Vec<String>,
    pub new: Vec<String>,
    pub unchanged: Vec<String>,
}

/// Compares the findings of two runs. A racing pair is the same in both
/// when its variable and the source text of its two accesses are (lines
/// move when the author edits above them); another finding when its check
/// and message are.
pub fn compare(before: &Report, after: &Report) -> Comparison {
    let keyed = |report: &Report| -> Vec<(String, String)> {
        let mut keys: Vec<(String, String)> = model::rows(report).iter().map(|r| (key(r), describe(r))).collect();
        keys.sort();
        keys.dedup_by(|a, b| a.0 == b.0);
        keys
    };
    let (a, b) = (keyed(before), keyed(after));
    let mut out = Comparison::default();
    for (k, text) in &a {
        if b.iter().any(|(l, _)| l == k) {
            out.unchanged.push(text.clone());
        } else {
            out.fixed.push(text.clone());
        }
    }
    out.new = b.iter().filter(|(k, _)| !a.iter().any(|(l, _)| l == k)).map(|(_, t)| t.clone()).collect();
    out
}

/// What identifies a row across runs of an edited shader.
fn key(row: &Row) -> String {
    format!("{} {} {} {}", row.run_label, row.check, row.variable, row.identity)
}

/// A row in a few words: `data-race on tile, lines 13 and 14`.
fn describe(row: &Row) -> String {
    let lines: Vec<String> = row.lines.iter().flatten().map(u32::to_string).collect();
    let place = if row.variable.is_empty() { String::new() } else { format!(" on {}", row.variable) };
    let run = if row.run_label.is_empty() { String::new() } else { format!(" ({})", row.run_label) };
    format!("{} ({}){place}, line {}{run}", row.check, row.classes.join(", "), lines.join(" and "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_form_becomes_the_flags_of_wgrace_run() {
        let form = RunForm {
            shader: "k.wgsl".into(),
            entry: " main ".into(),
            dispatch: "4,4".into(),
            buffers: "a=256  b=16".into(),
            fills: "a=iota".into(),
            mode: "stmt".into(),
            adapter: String::new(),
            other: "--max-races 10".into(),
        };
        assert_eq!(
            form.args().join(" "),
            "run k.wgsl --entry main --dispatch 4,4 --buffer a=256 --buffer b=16 --fill a=iota --mode stmt \
             --max-races 10 --format json --progress lines"
        );
        let empty = RunForm { shader: "k.wgsl".into(), ..RunForm::default() };
        assert_eq!(empty.args().join(" "), "run k.wgsl --format json --progress lines");
    }

    fn report(shader: &str) -> Report {
        let info = wgrace_report::ShaderInfo {
            path: shader.into(),
            language: wgrace_report::Language::Wgsl,
            source: Some(String::new()),
            source_file: None,
        };
        Report::new(info, Vec::new(), Vec::new(), Vec::new())
    }

    #[test]
    fn the_history_keeps_the_last_runs_of_each_shader() {
        let dir = std::env::temp_dir().join(format!("wgrace-history-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        // Two shaders of one name in different folders keep their own.
        assert_ne!(history_file(&dir, Path::new("a/k.wgsl")), history_file(&dir, Path::new("b/k.wgsl")));
        assert!(history_file(&dir, Path::new("a/k.wgsl")).to_string_lossy().contains("k.wgsl-"));

        let mut runs = Runs::new(&report("a/k.wgsl"), PathBuf::new());
        runs.keep_history_in(&dir);
        for _ in 0..KEPT_RUNS + 5 {
            runs.push(report("a/k.wgsl"));
        }
        runs.save();
        assert_eq!(runs.error, None);

        // The next session: the kept runs first, then the report it opened.
        let mut next = Runs::new(&report("a/k.wgsl"), PathBuf::new());
        next.keep_history_in(&dir);
        assert_eq!(next.history.len(), KEPT_RUNS + 1);
        assert!(next.history[..KEPT_RUNS].iter().all(|e| e.origin == Origin::Earlier));
        assert_eq!(next.history[0].label(), "Run 1: no race, 0 finding(s) (earlier session)");
        assert_eq!(next.history[KEPT_RUNS].label(), format!("Run {}: no race, 0 finding(s)", KEPT_RUNS + 1));
        assert_eq!(next.compare, [KEPT_RUNS - 1, KEPT_RUNS]);

        // An unreadable file is said, and the history goes on.
        std::fs::write(history_file(&dir, Path::new("c/k.wgsl")), "not json").expect("write");
        let mut broken = Runs::new(&report("c/k.wgsl"), PathBuf::new());
        broken.keep_history_in(&dir);
        assert!(broken.error.as_deref().is_some_and(|e| e.contains("unreadable")), "{:?}", broken.error);
        assert_eq!(broken.history.len(), 1);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
