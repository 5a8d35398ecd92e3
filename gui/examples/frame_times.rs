//! Frame times of the viewer over a large report: `cargo run --release -p
//! wgrace-gui --features frame-times --example frame_times -- REPORT.json
//! [ROWS]`.
//!
//! Copies the report's races until its first run has ROWS of them (4096 by
//! default, each a pair of its own), then moves the selection down one row
//! per frame for 300 frames (the list scrolls to it, the source to its
//! lines) and prints the median and the longest frame: the UI pass and
//! rendering with egui's wgpu renderer (lavapipe without a GPU), the
//! image's read-back included (a window would present it instead). A
//! measurement for docs/viewer.md, not a test.

use std::time::Instant;

use egui_kittest::Harness;
use wgrace_gui::{Viewer, egui};

#[path = "common/large.rs"]
mod large;

fn main() -> anyhow::Result<()> {
    let mut args = std::env::args().skip(1);
    let path = args.next().ok_or_else(|| anyhow::anyhow!("usage: frame_times REPORT.json [ROWS]"))?;
    let rows: usize = args.next().map_or(Ok(4096), |a| a.parse())?;
    let report = large::report(&path, rows)?;
    let mut harness = Harness::builder()
        .with_size(egui::vec2(1280.0, 800.0))
        .allow_missing_glyphs()
        .wgpu()
        .build_ui_state(|ui, viewer: &mut Viewer| viewer.ui(ui), Viewer::new(report));
    harness.run_steps(3);
    let shown = harness.state().shown().count();
    let (mut passes, mut frames) = (Vec::new(), Vec::new());
    for _ in 0..300 {
        harness.key_press(egui::Key::ArrowDown);
        let start = Instant::now();
        harness.step();
        passes.push(start.elapsed().as_secs_f64() * 1e3);
        harness.render().map_err(|e| anyhow::anyhow!("{e}"))?;
        frames.push(start.elapsed().as_secs_f64() * 1e3);
    }
    println!("{shown} rows, 300 frames, each selecting the next row:");
    println!("  UI pass (layout of the window):        {}", large::summary(&mut passes));
    println!("  UI pass, render and image read-back:   {}", large::summary(&mut frames));
    Ok(())
}
