//! Command-line interface: `wgrace run`, `wgrace check`, `wgrace bench`,
//! `wgrace corpus`, `wgrace adapters`.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::{Parser, Subcommand};
use wgrace::gpu::{AdapterChoice, Gpu};
use wgrace::spec::{Format, RunArgs, RunSpec, TimelineFocus};
use wgrace::{Error, Plan, bench, buffers, gpu, print, session};
use wgrace_instrument::checks::CheckSet;

use crate::args::{FormatArg, ModeFlag, ReplayFlag, RunFlags};

/// wgrace finds data races in WGSL and SPIR-V compute shaders by running them,
/// instrumented, on the GPU (or on Mesa's lavapipe without one).
#[derive(Parser)]
#[command(name = "wgrace", version, max_term_width = 100)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Check a shader: run each compute entry point instrumented and report
    /// the races and other findings observed.
    ///
    /// Exit status: 0 no race observed, 1 races (or findings of severity error) found, 2 could not check.
    /// Flags may also be written in the shader as `// wgrace: FLAGS` lines;
    /// the command line wins.
    Run {
        /// The shader (.wgsl or .spv).
        shader: PathBuf,
        #[command(flatten)]
        args: RunFlags,
        /// Also count instrumented sites and executed instrumented accesses
        /// with and without the static analyzer (two more runs; GRace's
        /// Table 3).
        #[arg(long)]
        stats: bool,
        /// Write the instrumented module to FILE (WGSL, or SPIR-V for a .spv
        /// shader), to see what runs; with several entry points, one file
        /// each, named FILE with `.ENTRY` before its extension. When it
        /// records accesses, the replay pass that checks them goes to a file
        /// named with `.replay` before the extension.
        #[arg(long, value_name = "FILE")]
        emit_instrumented: Option<PathBuf>,
        /// Open the report in the viewer when the run ends (`wgrace view`).
        #[arg(long)]
        gui: bool,
        /// How to show progress on stderr: auto (a bar on a terminal, for
        /// runs of many chunks), lines (a line per step, for programs that
        /// start wgrace, such as the viewer: `progress: run ENTRY on
        /// ADAPTER`, `progress: chunks DONE/TOTAL`), none.
        #[arg(long, value_enum, default_value_t, value_name = "HOW")]
        progress: ProgressOutput,
    },
    /// Open a saved report (`wgrace run SHADER --format json -o REPORT.json`)
    /// in the desktop viewer, `wgrace-gui`, built beside `wgrace` with
    /// `cargo build --release -p wgrace-gui`; or a shader (.wgsl, .spv),
    /// which the viewer runs.
    ///
    /// Exit status: 0 the window closed, 2 the viewer could not start.
    View {
        /// The report, or a shader to run.
        report: PathBuf,
        /// Render the window to this PNG file instead of opening it (no
        /// display needed).
        #[arg(long, value_name = "OUT.png")]
        screenshot: Option<PathBuf>,
        /// Window size for --screenshot, in points: WIDTHxHEIGHT (default
        /// 1280x800).
        #[arg(long, value_name = "WxH")]
        size: Option<String>,
        /// Keep no run history: by default the runs from the viewer are
        /// kept, per shader, in the platform's data directory
        /// (~/.local/share/wgrace/history on Linux), and shown again next
        /// time.
        #[arg(long)]
        no_history: bool,
    },
    /// Prove what can be proved without running: races certain for this
    /// dispatch and input, and accesses that cannot race. Needs no GPU.
    ///
    /// The analysis assumes the run spec's dispatch and buffers (uniform and
    /// read-only buffer contents are constants), as `wgrace run` would use
    /// them. Exit status: 0 no race proven, 1 races proven, 2 could not check.
    Check {
        /// The shader (.wgsl or .spv).
        shader: PathBuf,
        #[command(flatten)]
        args: RunFlags,
    },
    /// Measure GPU time of the shader with and without checking.
    Bench {
        /// The shader (.wgsl or .spv).
        shader: PathBuf,
        #[command(flatten)]
        args: RunFlags,
        /// Timed repetitions of each (at least 1).
        #[arg(long, default_value_t = 20)]
        repetitions: u32,
        /// Untimed runs before measuring.
        #[arg(long, default_value_t = 3)]
        warmup: u32,
    },
    /// Check every labelled kernel under a folder and print a scoreboard.
    ///
    /// Each `.wgsl` file states its expected verdict and racing lines in its
    /// header (see samples/README.md); suites are the folder's subfolders.
    /// Exit status: 0 every kernel right, 1 some kernel wrong, 2 could not run.
    Corpus {
        /// The folder, e.g. samples/corpus.
        dir: PathBuf,
        /// Output format.
        #[arg(long, value_enum, default_value_t = FormatArg::Text)]
        format: FormatArg,
        /// Write the scoreboard to FILE instead of standard output.
        #[arg(short = 'o', long = "output", value_name = "FILE")]
        output: Option<PathBuf>,
        /// Use the adapter whose name contains SUBSTRING.
        #[arg(long, value_name = "SUBSTRING")]
        adapter: Option<String>,
        /// Use one graphics API: vulkan, gl, metal or dx12.
        #[arg(long, value_name = "API")]
        backend: Option<String>,
        /// Detection mode for every kernel: addr (default) or stmt. In stmt
        /// mode a kernel also fails when a listed pair is not reported.
        #[arg(long, value_enum)]
        mode: Option<ModeFlag>,
        /// Run every kernel without the static analyzer.
        #[arg(long)]
        no_analyzer: bool,
        /// Addr mode: where every kernel's accesses are checked: auto
        /// (default), always recorded and checked by the replay pass, or
        /// never (checked where they happen).
        #[arg(long, value_enum)]
        replay: Option<ReplayFlag>,
        /// Leave out the kernels whose path contains TEXT (repeatable); the
        /// scoreboard counts them as skipped.
        #[arg(long, value_name = "TEXT")]
        skip: Vec<String>,
        /// Run only the kernels FILE names: one path per line, relative to
        /// DIR; `#` starts a comment (the test suite's matrix,
        /// samples/matrix.txt, is one).
        #[arg(long, value_name = "FILE")]
        list: Option<PathBuf>,
        /// Check N kernels at a time, each on a device of its own (default:
        /// one per core; lavapipe compiles a device's shaders on one
        /// thread).
        #[arg(long, short = 'j', value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
        jobs: Option<u16>,
    },
    /// List the checks: their ids (as in reports, `// finding:` headers and
    /// SARIF rules), severity and what they find.
    Checks {
        /// Output format.
        #[arg(long, value_enum, default_value_t = FormatArg::Text)]
        format: FormatArg,
    },
    /// List the adapters wgpu can see and whether wgrace can use them.
    Adapters {
        /// Output format.
        #[arg(long, value_enum, default_value_t = FormatArg::Text)]
        format: FormatArg,
        /// Only this graphics API: vulkan, gl, metal or dx12.
        #[arg(long)]
        backend: Option<String>,
    },
}

/// Renders an error for the terminal: naga's diagnostics as they are, other
/// errors with their chain.
pub fn render_error(e: &anyhow::Error) -> String {
    let message = format!("{e:#}");
    if message.starts_with("error") { message } else { format!("error: {message}") }
}

pub fn main() -> anyhow::Result<ExitCode> {
    let cli = Cli::parse();
    match cli.command {
        Command::Run { shader, args, stats, emit_instrumented, gui, progress } => {
            run(shader, args.into(), RunOutputs { stats, emit: emit_instrumented, gui, progress })
        }
        Command::View { report, screenshot, size, no_history } => {
            let mut args = vec![report.into_os_string()];
            if let Some(out) = screenshot {
                args.extend(["--screenshot".into(), out.into_os_string()]);
            }
            if let Some(size) = size {
                args.extend(["--size".into(), size.into()]);
            }
            if no_history {
                args.push("--no-history".into());
            }
            view(&args)
        }
        Command::Check { shader, args } => check(shader, args.into()),
        Command::Bench { shader, args, repetitions, warmup } => run_bench(shader, args.into(), repetitions, warmup),
        Command::Corpus { dir, format, output, adapter, backend, mode, no_analyzer, replay, skip, list, jobs } => {
            let args = RunArgs { adapter, backend, output, format: Some(format.into()), ..RunArgs::default() };
            let each = RunArgs {
                mode: mode.map(Into::into),
                no_analyzer,
                replay: replay.map(Into::into),
                ..RunArgs::default()
            };
            let only = list.map(|file| wgrace::corpus::read_list(&dir, &file)).transpose()?;
            let jobs = jobs.map_or_else(|| std::thread::available_parallelism().map_or(1, usize::from), usize::from);
            corpus(&dir, &args, &each, &wgrace::corpus::Selection { only, skip }, jobs)
        }
        Command::Checks { format } => checks(format.into()),
        Command::Adapters { format, backend } => adapters(format.into(), backend),
    }
}

fn open_gpu(args: &RunArgs) -> Result<Gpu, Error> {
    let backend = args.backend.as_deref().map(gpu::parse_backend).transpose()?;
    Gpu::open(&AdapterChoice { name: args.adapter.clone(), backend })
}

/// The adapters of a run: `--adapter all` opens every usable one.
fn open_gpus(args: &RunArgs) -> Result<Vec<Gpu>, Error> {
    let backend = args.backend.as_deref().map(gpu::parse_backend).transpose()?;
    Gpu::open_each(&AdapterChoice { name: args.adapter.clone(), backend })
}

fn write_output(args: &RunArgs, text: &str) -> anyhow::Result<()> {
    match &args.output {
        Some(path) => std::fs::write(path, text).with_context(|| format!("writing {}", path.display())),
        None => {
            let mut out = std::io::stdout().lock();
            out.write_all(text.as_bytes())?;
            out.flush()?;
            Ok(())
        }
    }
}

/// The viewer's binary: `wgrace-gui` beside this `wgrace`, or on `PATH`.
fn viewer_binary() -> Option<PathBuf> {
    let name = format!("wgrace-gui{}", std::env::consts::EXE_SUFFIX);
    let beside = std::env::current_exe().ok().map(|exe| exe.with_file_name(&name));
    beside
        .into_iter()
        .chain(std::env::var_os("PATH").iter().flat_map(std::env::split_paths).map(|dir| dir.join(&name)))
        .find(|path| path.is_file())
}

/// Starts the viewer with `args` and waits for it.
fn view(args: &[std::ffi::OsString]) -> anyhow::Result<ExitCode> {
    let Some(binary) = viewer_binary() else {
        return Err(Error::Spec(
            "the viewer is not built: `cargo build --release -p wgrace-gui` builds `wgrace-gui` beside `wgrace` \
             (it needs a display, or --screenshot)"
                .into(),
        )
        .into());
    };
    let status = std::process::Command::new(&binary)
        .args(args)
        .status()
        .with_context(|| format!("starting the viewer {}", binary.display()))?;
    Ok(if status.success() { ExitCode::SUCCESS } else { ExitCode::from(2) })
}

/// What `wgrace run` does besides checking: the flags of `run` that are not
/// part of the run spec.
struct RunOutputs {
    stats: bool,
    emit: Option<PathBuf>,
    gui: bool,
    progress: ProgressOutput,
}

fn run(path: PathBuf, cli: RunArgs, outputs: RunOutputs) -> anyhow::Result<ExitCode> {
    let RunOutputs { stats, emit, gui, progress } = outputs;
    let (shader, args, mut spec) = wgrace::load_with_flags(&path, cli)?;
    let mut gpus = open_gpus(&args)?;
    for gpu in &mut gpus {
        gpu.compile_progress = compile_progress(progress);
    }
    let format = args.format.unwrap_or_default();
    // The timeline is for the viewer: gathered by default only for a
    // report it may open (JSON, --gui), as the text and SARIF reports do
    // not show it.
    if args.timeline.is_none() && format != Format::Json && !gui {
        spec.timeline = TimelineFocus::Off;
    }
    let entries = session::entry_points(&shader, &spec);
    if let Some(file) = &emit {
        for entry in &entries {
            let plan = Plan::new(shader.clone(), RunSpec { entry: entry.clone(), ..spec.clone() })?;
            let file = match (entries.len(), file.extension()) {
                (1, _) => file.clone(),
                (_, Some(ext)) => {
                    file.with_extension(format!("{}.{}", plan.prepared.entry_point, ext.to_string_lossy()))
                }
                (_, None) => file.with_extension(&plan.prepared.entry_point),
            };
            let (bytes, replay_pass) = plan.emit_instrumented(&gpus[0])?;
            std::fs::write(&file, bytes).with_context(|| format!("writing {}", file.display()))?;
            if let Some(bytes) = replay_pass {
                let file = match file.extension() {
                    Some(ext) => file.with_extension(format!("replay.{}", ext.to_string_lossy())),
                    None => file.with_extension("replay"),
                };
                std::fs::write(&file, bytes).with_context(|| format!("writing {}", file.display()))?;
            }
        }
    }

    // `--dump DIR` writes a run's buffers to DIR, to DIR/adapterN with
    // several adapters (N: the adapter's place in `--adapter all`'s order),
    // and below that to ENTRY with several entry points.
    let dump_dir = |dir: &std::path::Path, entry: &str, gpu: &Gpu| {
        let mut dir = dir.to_path_buf();
        if gpus.len() > 1 {
            dir.push(format!("adapter{}", gpus.iter().position(|g| std::ptr::eq(g, gpu)).unwrap_or(0)));
        }
        if entries.len() > 1 {
            dir.push(entry);
        }
        dir
    };
    if args.no_detect {
        for entry in entries.clone() {
            let plan = Plan::new(shader.clone(), RunSpec { entry, ..spec.clone() })?;
            for gpu in &gpus {
                let contents = plan.run_native(gpu)?;
                if let Some(dir) = &args.dump {
                    buffers::dump(&dump_dir(dir, &plan.prepared.entry_point, gpu), &plan.buffers, &contents)?;
                }
                status(&format!(
                    "wgrace: ran the original shader without checking (entry point `{}`, {} invocations, on {})",
                    plan.prepared.entry_point,
                    wgrace::invocations(&plan.prepared, plan.spec.dispatch),
                    gpu.info.name
                ));
            }
        }
        return Ok(ExitCode::SUCCESS);
    }

    let mut progress = Progress::new(progress);
    let checked = session::check(&shader, &spec, &gpus, &CheckSet::default(), stats, &mut |p| match p {
        session::Progress::Run(entry, adapter) => progress.run(entry, adapter),
        session::Progress::Chunks(done, total) => progress.update(done, total),
    })?;
    progress.finish();
    if let Some(dir) = &args.dump {
        for (run, output) in checked.report.runs.iter().zip(&checked.outputs) {
            let gpu = gpus.iter().find(|g| run.adapter.as_ref() == Some(&g.info)).unwrap_or(&gpus[0]);
            buffers::dump(&dump_dir(dir, &run.entry_point, gpu), &output.buffers, &output.contents)?;
        }
    }
    let report = &checked.report;
    let rendered = match format {
        Format::Json => print::json(report) + "\n",
        Format::Text => print::text(report, args.output.is_none() && std::io::stdout().is_terminal()),
        Format::Sarif => wgrace::sarif::sarif(report) + "\n",
    };
    write_output(&args, &rendered)?;
    if gui {
        // The viewer reads the report from a file of its own.
        let file = std::env::temp_dir().join(format!("wgrace-report-{}.json", std::process::id()));
        std::fs::write(&file, print::json(report)).with_context(|| format!("writing {}", file.display()))?;
        let viewed = view(&[file.clone().into_os_string()]);
        let _ = std::fs::remove_file(&file);
        viewed?;
    }
    Ok(if report.failed() { ExitCode::from(1) } else { ExitCode::SUCCESS })
}

/// `--format sarif` given to a subcommand that writes no report (exit
/// status 2).
fn sarif_is_for_run(command: &str) -> anyhow::Error {
    Error::Spec(format!(
        "--format sarif is for `wgrace run` and `wgrace check`; `wgrace {command}` writes text or json"
    ))
    .into()
}

#[allow(clippy::print_stderr, reason = "status message of the binary")]
fn status(message: &str) {
    eprintln!("{message}");
}

fn check(shader: PathBuf, cli: RunArgs) -> anyhow::Result<ExitCode> {
    let (shader, args, spec) = wgrace::load_with_flags(&shader, cli)?;
    let report = session::analyze(&shader, &spec)?;
    let rendered = match args.format.unwrap_or_default() {
        Format::Json => print::json(&report) + "\n",
        Format::Text => print::static_text(&report, args.output.is_none() && std::io::stdout().is_terminal()),
        Format::Sarif => wgrace::sarif::sarif(&report) + "\n",
    };
    write_output(&args, &rendered)?;
    Ok(if report.failed() { ExitCode::from(1) } else { ExitCode::SUCCESS })
}

fn run_bench(shader: PathBuf, cli: RunArgs, repetitions: u32, warmup: u32) -> anyhow::Result<ExitCode> {
    if repetitions == 0 {
        return Err(Error::Spec("--repetitions must be at least 1".into()).into());
    }
    let (shader, args, spec) = wgrace::load_with_flags(&shader, cli)?;
    if args.format == Some(Format::Sarif) {
        return Err(sarif_is_for_run("bench"));
    }
    let plan = Plan::new(shader, spec)?;
    let gpu = open_gpu(&args)?;
    let result = bench::bench(&plan, &gpu, warmup, repetitions)?;
    let rendered = match args.format.unwrap_or_default() {
        Format::Json => serde_json::to_string_pretty(&result)? + "\n",
        Format::Text => bench::text(&result),
        Format::Sarif => return Err(sarif_is_for_run("bench")),
    };
    write_output(&args, &rendered)?;
    Ok(ExitCode::SUCCESS)
}

fn corpus(
    dir: &std::path::Path,
    args: &RunArgs,
    kernel_flags: &RunArgs,
    selection: &wgrace::corpus::Selection,
    jobs: usize,
) -> anyhow::Result<ExitCode> {
    if args.format == Some(Format::Sarif) {
        return Err(sarif_is_for_run("corpus"));
    }
    let pool = wgrace::gpu::DevicePool::open(open_gpu(args)?, jobs)?;
    let bar = std::io::stderr().is_terminal().then(|| {
        let bar = indicatif::ProgressBar::new(0);
        bar.set_style(
            indicatif::ProgressStyle::with_template("{bar:30} {pos}/{len} {msg}")
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        bar
    });
    let board = wgrace::corpus::run_corpus(&pool, dir, kernel_flags, selection, &|done, total, path| {
        if let Some(bar) = &bar {
            bar.set_length(total as u64);
            bar.set_position(done as u64);
            bar.set_message(path.display().to_string());
        }
    })?;
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let rendered = match args.format.unwrap_or_default() {
        Format::Json => serde_json::to_string_pretty(&board)? + "\n",
        Format::Text => wgrace::corpus::text(&board),
        Format::Sarif => return Err(sarif_is_for_run("corpus")),
    };
    write_output(args, &rendered)?;
    Ok(if board.failed() { ExitCode::from(1) } else { ExitCode::SUCCESS })
}

fn checks(format: Format) -> anyhow::Result<ExitCode> {
    let set = CheckSet::default();
    let infos = set.infos();
    let on = set.enabled_by_default().ids();
    let text = match format {
        Format::Sarif => return Err(sarif_is_for_run("checks")),
        Format::Json => serde_json::to_string_pretty(&infos)? + "\n",
        Format::Text => infos
            .iter()
            .map(|c| {
                let mut part = set.part_of(&c.id).map_or(String::new(), |whole| format!(", part of {whole}"));
                if !on.contains(&c.id) {
                    part.push_str(", off by default");
                }
                format!("{} ({}{part})\n    {}\n", c.id, c.severity.as_str(), c.short_description)
            })
            .collect(),
    };
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())?;
    Ok(ExitCode::SUCCESS)
}

fn adapters(format: Format, backend: Option<String>) -> anyhow::Result<ExitCode> {
    let backend = backend.as_deref().map(gpu::parse_backend).transpose()?;
    let list = gpu::list_adapters(backend);
    if list.is_empty() {
        return Err(Error::NoAdapter(gpu::NO_ADAPTER_HELP.into()).into());
    }
    let text = match format {
        Format::Json => serde_json::to_string_pretty(&list)? + "\n",
        Format::Sarif => return Err(sarif_is_for_run("adapters")),
        Format::Text => {
            let mut s = String::new();
            for a in &list {
                let i = &a.info;
                let sub = if i.subgroup_size[0] == i.subgroup_size[1] {
                    i.subgroup_size[0].to_string()
                } else {
                    format!("{}-{}", i.subgroup_size[0], i.subgroup_size[1])
                };
                s.push_str(&format!(
                    "{}\n    backend {}, {}, subgroup size {}, driver {}{}\n",
                    i.name,
                    i.backend,
                    i.device_type,
                    sub,
                    i.driver,
                    a.missing.as_ref().map(|m| format!("\n    not usable: {m}")).unwrap_or_default()
                ));
            }
            s
        }
    };
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())?;
    Ok(ExitCode::SUCCESS)
}

/// How `wgrace run` shows its progress on stderr (`--progress`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum ProgressOutput {
    /// A bar on a terminal, for runs of many chunks.
    #[default]
    Auto,
    /// A line per step, for programs that start wgrace.
    Lines,
    /// Nothing.
    None,
}

/// Progress on stderr: a bar for runs split into many chunks, or lines.
/// What to show while a driver compiles a pipeline for long: on a terminal
/// a line rewritten each second, elsewhere a line every 10 s, for the
/// viewer a `progress:` line each second.
fn compile_progress(output: ProgressOutput) -> Option<gpu::CompileProgress> {
    let terminal = std::io::stderr().is_terminal();
    let show: gpu::CompileProgress = match output {
        ProgressOutput::None => return None,
        ProgressOutput::Lines => std::sync::Arc::new(|what, seconds| {
            if let Some(s) = seconds {
                eprintln!("progress: {what}, {s} s");
            }
        }),
        ProgressOutput::Auto if terminal => std::sync::Arc::new(|what, seconds| match seconds {
            Some(s) => eprint!("\r\x1b[K{what}, {s} s"),
            None => eprint!("\r\x1b[K"),
        }),
        ProgressOutput::Auto => std::sync::Arc::new(|what, seconds| {
            if let Some(s) = seconds.filter(|s| s % 10 == 0) {
                eprintln!("wgrace: {what}, {s} s");
            }
        }),
    };
    Some(show)
}

struct Progress {
    output: ProgressOutput,
    bar: Option<indicatif::ProgressBar>,
}

impl Progress {
    fn new(output: ProgressOutput) -> Progress {
        Progress { output, bar: None }
    }

    /// A run of entry point `entry` on `adapter` starts.
    fn run(&mut self, entry: &str, adapter: &str) {
        self.finish();
        if self.output == ProgressOutput::Lines {
            eprintln!("progress: run {entry} on {adapter}");
        }
    }

    fn update(&mut self, done: u32, total: u32) {
        if self.output == ProgressOutput::Lines {
            eprintln!("progress: chunks {done}/{total}");
            return;
        }
        if self.output == ProgressOutput::None || total <= 16 || !std::io::stderr().is_terminal() {
            return;
        }
        let bar = self.bar.get_or_insert_with(|| {
            let bar = indicatif::ProgressBar::new(u64::from(total));
            bar.set_style(
                indicatif::ProgressStyle::with_template("checking {bar:40} {pos}/{len} chunks ({eta} left)")
                    .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
            );
            bar
        });
        bar.set_position(u64::from(done));
    }

    fn finish(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
    }
}
