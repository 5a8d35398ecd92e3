//! Snapshot tests of the viewer's main views: each is rendered headless
//! with egui's wgpu renderer (lavapipe in CI) and compared with the PNG in
//! `tests/snapshots/` within egui_kittest's default per-pixel tolerance.
//! After a deliberate change to a view, `UPDATE_SNAPSHOTS=1 cargo test -p
//! wgrace-gui --test gui snapshots::` writes the new images (look at them
//! before committing them).

use std::path::Path;

use egui_kittest::kittest::Queryable;
use egui_kittest::{Harness, SnapshotOptions};
use wgrace_gui::{Viewer, egui};

/// The viewer over a saved report of `tests/data/`, 1280x900 points.
fn harness(report: &str) -> Harness<'static, Viewer> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(report);
    let viewer = Viewer::open(&path).unwrap_or_else(|e| panic!("{e}"));
    let mut h = Harness::builder()
        .with_size(egui::vec2(1280.0, 900.0))
        .with_max_steps(16)
        .wgpu()
        .build_ui_state(|ui, viewer: &mut Viewer| viewer.ui(ui), viewer);
    h.run();
    h
}

fn snapshot(h: &mut Harness<'static, Viewer>, name: &str) {
    let options = SnapshotOptions::new().output_path(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots"));
    h.snapshot_options(name, &options);
}

#[test]
fn the_findings_the_source_the_details_and_the_heat_maps() {
    // lavapipe's report of samples/storage_races_in_three_workgroups.wgsl.
    let mut h = harness("races_in_three_workgroups.json");
    h.get_by_label("Finding 2").click();
    h.run();
    snapshot(&mut h, "main_window");
}

#[test]
fn the_adapter_matrix() {
    // A report of samples/wg_missing_barrier.wgsl on an H100 and on
    // lavapipe beside it (`wgrace run --adapter all`).
    let mut h = harness("h100_and_lavapipe.json");
    h.get_by_label("Adapters").click();
    h.run();
    snapshot(&mut h, "adapter_matrix");
}

#[test]
fn the_runs_tab() {
    let mut h = harness("races_in_three_workgroups.json");
    h.get_by_label("Runs").click();
    h.run();
    snapshot(&mut h, "runs_tab");
}

#[test]
fn the_timeline() {
    // lavapipe's report of samples/wg_reduction_missing_barrier.wgsl: the
    // loop's steps race in the interval after the first barrier.
    let mut h = harness("reduction_missing_barrier.json");
    h.get_by_label("Timeline").click();
    h.run();
    snapshot(&mut h, "timeline");
}
