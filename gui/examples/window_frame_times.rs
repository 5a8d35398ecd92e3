//! Frame times of the viewer in a real window: `xvfb-run -a cargo run
//! --release -p wgrace-gui --features frame-times --example
//! window_frame_times -- REPORT.json [ROWS]` (or without xvfb-run on a
//! desktop).
//!
//! The report is made large as for the `frame_times` example. The window
//! opens (it prints the time from the start to its first frame, and between
//! the next ten, which size the panels), then selects the next row every
//! frame for 300 frames, the list and the source scrolling with it, and
//! prints the UI pass's time (eframe's `cpu_usage`) and the time from one
//! frame to the next (layout, render and presentation), then closes. A
//! measurement for docs/viewer.md, not a test.

use std::time::Instant;

use wgrace_gui::{Viewer, egui};

#[path = "common/large.rs"]
mod large;

const FRAMES: usize = 300;

struct Timed {
    viewer: Viewer,
    frame: usize,
    last: Option<Instant>,
    passes: Vec<f64>,
    intervals: Vec<f64>,
    /// From the start of `main` to each of the first frames.
    started: Instant,
    opening: Vec<String>,
}

impl eframe::App for Timed {
    fn ui(&mut self, ui: &mut egui::Ui, frame: &mut eframe::Frame) {
        let now = Instant::now();
        // The first frames open the window and size the panels.
        if self.frame <= 10 {
            let since = self.last.unwrap_or(self.started);
            self.opening.push(format!("{:.1}", (now - since).as_secs_f64() * 1e3));
        }
        if self.frame > 10 {
            if let Some(last) = self.last {
                self.intervals.push((now - last).as_secs_f64() * 1e3);
            }
            if let Some(cpu) = frame.info().cpu_usage {
                self.passes.push(f64::from(cpu) * 1e3);
            }
            self.viewer.select_shown(self.frame - 10);
        }
        self.last = Some(now);
        self.viewer.ui(ui);
        self.frame += 1;
        if self.intervals.len() == FRAMES {
            println!("{} rows, {FRAMES} frames in a window, each selecting the next row:", self.viewer.shown().count());
            println!("  opening (ms: to the first frame, then between the next ten): {}", self.opening.join(", "));
            println!("  UI pass (eframe's cpu_usage):              {}", large::summary(&mut self.passes));
            println!("  frame to frame (layout, render, present):  {}", large::summary(&mut self.intervals));
            ui.ctx().send_viewport_cmd(egui::ViewportCommand::Close);
        }
        ui.ctx().request_repaint();
    }

    /// As the viewer's window (`wgrace_gui::App`): cleared to the panels'
    /// colour, which leave their background to it.
    fn clear_color(&self, visuals: &egui::Visuals) -> [f32; 4] {
        visuals.panel_fill.to_normalized_gamma_f32()
    }
}

fn main() -> anyhow::Result<()> {
    let started = Instant::now();
    let mut args = std::env::args().skip(1);
    let path = args.next().ok_or_else(|| anyhow::anyhow!("usage: window_frame_times REPORT.json [ROWS]"))?;
    let rows: usize = args.next().map_or(Ok(4096), |a| a.parse())?;
    let mut viewer = Viewer::new(large::report(&path, rows)?);
    // `FILL_PANELS=1`: the panels paint their background, as before
    // 2026-11-26 (for comparison).
    if std::env::var_os("FILL_PANELS").is_none() {
        viewer.leave_background_to_window();
    }
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default().with_inner_size([1280.0, 800.0]),
        ..Default::default()
    };
    let app =
        Timed { viewer, frame: 0, last: None, passes: Vec::new(), intervals: Vec::new(), started, opening: Vec::new() };
    eframe::run_native("wgrace frame times", options, Box::new(|_| Ok(Box::new(app))))
        .map_err(|e| anyhow::anyhow!("cannot open a window: {e}"))
}
