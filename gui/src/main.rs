//! `wgrace-gui`: the viewer's window over a saved report (`wgrace view`
//! starts it).

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;
use wgrace_gui::{App, Viewer};

/// Inspect a wgrace report: its findings, the shader's source and each
/// finding's details.
#[derive(Parser)]
#[command(name = "wgrace-gui", version)]
struct Args {
    /// The report (`wgrace run SHADER --format json -o REPORT.json`), or a
    /// shader (.wgsl, .spv) to run with `wgrace` and show.
    report: PathBuf,
    /// Render the window to this PNG file instead of opening it (no display
    /// needed).
    #[arg(long, value_name = "OUT.png")]
    screenshot: Option<PathBuf>,
    /// Keep no run history: by default the runs from the viewer are kept,
    /// per shader, in the platform's data directory
    /// (~/.local/share/wgrace/history on Linux), and shown again next time.
    #[arg(long)]
    no_history: bool,
    /// Window size for --screenshot, in points: WIDTHxHEIGHT.
    #[arg(long, value_name = "WxH", default_value = "1280x800", value_parser = parse_size)]
    size: [f32; 2],
}

fn parse_size(s: &str) -> Result<[f32; 2], String> {
    let (w, h) = s.split_once('x').ok_or("expected WIDTHxHEIGHT, e.g. 1280x800")?;
    let parse = |v: &str| v.trim().parse::<f32>().ok().filter(|v| *v >= 200.0 && *v <= 8192.0);
    match (parse(w), parse(h)) {
        (Some(w), Some(h)) => Ok([w, h]),
        _ => Err("each side must be a number from 200 to 8192".into()),
    }
}

fn main() -> ExitCode {
    let args = Args::parse();
    match run(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}

fn run(args: Args) -> anyhow::Result<()> {
    let mut viewer = Viewer::open(&args.report)?;
    if let Some(out) = args.screenshot {
        return wgrace_gui::screenshot(viewer, args.size, &out);
    }
    if !args.no_history
        && let Some(dir) = wgrace_gui::runs::default_history_dir()
    {
        viewer.keep_history_in(&dir);
    }
    let title = format!("wgrace — {}", viewer.report().shader.path);
    let options = eframe::NativeOptions {
        viewport: eframe::egui::ViewportBuilder::default().with_inner_size([1280.0, 800.0]).with_title(&title),
        ..Default::default()
    };
    eframe::run_native("wgrace", options, Box::new(|_| Ok(Box::new(App::new(viewer)))))
        .map_err(|e| anyhow::anyhow!("cannot open a window ({e}); without a display, use --screenshot OUT.png"))
}
