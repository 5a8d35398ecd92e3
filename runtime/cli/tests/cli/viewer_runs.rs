//! The viewer's Runs tab, which starts the `wgrace` command this package
//! builds: it runs the shader again, watches it, keeps a history, cancels.
//! (The rest of the viewer is tested in `tests/tests/viewer.rs`, on reports
//! made in process.)

use std::path::Path;

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use wgrace_gui::Viewer;
use wgrace_instrument::report::Report;

use super::{require_adapter, samples, stderr, wgrace};

/// The report `wgrace run --format json` makes of `path`.
fn report_of(path: &Path) -> Report {
    let o = wgrace(&["run", &path.display().to_string(), "--format", "json"]);
    assert!(matches!(o.status.code(), Some(0 | 1)), "{}: {}", path.display(), stderr(&o));
    serde_json::from_slice(&o.stdout).expect("a report")
}

/// A viewer whose runs use the `wgrace` command of this package, on its
/// Runs tab.
fn runs_harness(viewer: Viewer) -> Harness<'static, Viewer> {
    let mut viewer = viewer;
    viewer.set_wgrace(env!("CARGO_BIN_EXE_wgrace").into());
    let mut h = Harness::builder()
        .with_size(wgrace_gui::egui::vec2(1280.0, 1000.0))
        // Panels, tables and scroll areas size themselves over a few frames.
        .with_max_steps(16)
        // Explanations come from the report, whatever a font draws.
        .allow_missing_glyphs()
        .build_ui_state(|ui, viewer: &mut Viewer| viewer.ui(ui), viewer);
    h.run();
    h.get_by_label("Runs").click();
    h.run();
    h
}

fn finish_run(h: &mut Harness<'static, Viewer>) {
    let start = std::time::Instant::now();
    h.step();
    while h.state().runs().job.is_some() {
        assert!(start.elapsed().as_secs() < 60, "the run did not end");
        std::thread::sleep(std::time::Duration::from_millis(50));
        h.step();
    }
    h.run_steps(4);
}

#[test]
fn the_viewer_runs_the_shader_again_and_compares_the_runs() {
    require_adapter!();
    // A copy of the racy sample, which the test then fixes.
    let dir = std::env::temp_dir().join(format!("wgrace-viewer-runs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let shader = dir.join("kernel.wgsl");
    let racy = std::fs::read_to_string(samples().join("wg_missing_barrier.wgsl")).expect("sample");
    std::fs::write(&shader, &racy).expect("copy");
    let report = report_of(&shader);
    let mut h = runs_harness(Viewer::new(report));
    // Run 1 is the report the viewer opened; the form runs it again, here
    // with a dispatch of 3 workgroups rather than the sample's 2.
    h.get_by_label("Run 1: race, 1 finding(s)");
    h.get_by_label("Dispatch").click();
    h.run();
    h.get_by_label("Dispatch").type_text("3");
    h.run();
    assert_eq!(h.state().runs().form.dispatch, "3");
    h.get_by_label("Run").click();
    finish_run(&mut h);
    assert_eq!(h.state().runs().error, None);
    h.get_by_label("Run 2: race, 1 finding(s)");
    assert_eq!(h.state().report().runs[0].dispatch, [3, 1, 1], "the list shows the new run");
    h.get_by_label("Unchanged: 1");
    // The author adds the barrier in their editor; watch mode runs again.
    h.get_by_label("Watch the shader file").click();
    h.run();
    let fixed = racy.replace("    out[gid.x] = tile[", "    workgroupBarrier();\n    out[gid.x] = tile[");
    assert_ne!(fixed, racy);
    // Some file systems keep modification times to the second.
    std::thread::sleep(std::time::Duration::from_millis(1100));
    std::fs::write(&shader, &fixed).expect("edit");
    let start = std::time::Instant::now();
    while h.state().runs().history.len() < 3 {
        assert!(start.elapsed().as_secs() < 60, "watch mode did not run the edited shader");
        std::thread::sleep(std::time::Duration::from_millis(100));
        h.step();
    }
    finish_run(&mut h);
    h.get_by_label("Run 3: no race, 0 finding(s)");
    assert_eq!(h.state().shown().count(), 0);
    // Runs 2 and 3 compared: the race is fixed, nothing new.
    h.get_by_label("Fixed: 1");
    h.get_by_label("New: 0");
    h.get_by_label("Unchanged: 0");
    h.get_by_label_contains("data-race (intra-subgroup, intra-workgroup) on tile, line 13 and 14");
    // The history shows any run again.
    h.get_by_label("Run 1: race, 1 finding(s)").click();
    h.run();
    assert_eq!(h.state().shown().count(), 1);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_run_that_fails_says_why_and_a_run_can_be_cancelled() {
    require_adapter!();
    let report = report_of(&samples().join("wg_missing_barrier.wgsl"));
    let mut viewer = Viewer::new(report);
    viewer.run_form().shader = "/no/such/shader.wgsl".into();
    let mut h = runs_harness(viewer);
    h.get_by_label("Run").click();
    finish_run(&mut h);
    let error = h.state().runs().error.clone().expect("the run failed");
    assert!(error.contains("/no/such/shader.wgsl"), "{error}");
    h.get_by_label_contains("The run gave no report: ");
    assert_eq!(h.state().runs().history.len(), 1, "a failed run is not history");
    // A long run (many chunks of a large dispatch) cancelled at once.
    h.state_mut().run_form().shader = samples().join("wg_missing_barrier.wgsl").display().to_string();
    h.state_mut().run_form().dispatch = "60000".into();
    h.state_mut().run_form().other = "--mode stmt".into();
    h.get_by_label("Run").click();
    h.step();
    h.step();
    assert!(h.state().runs().job.is_some());
    h.get_by_label("Cancel").click();
    finish_run(&mut h);
    assert_eq!(h.state().runs().error.as_deref(), Some("cancelled"));
}

#[test]
fn the_run_history_is_kept_for_the_next_session() {
    require_adapter!();
    let dir = std::env::temp_dir().join(format!("wgrace-viewer-history-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let shader = dir.join("kernel.wgsl");
    std::fs::copy(samples().join("wg_missing_barrier.wgsl"), &shader).expect("copy");
    let report = report_of(&shader);
    let history = dir.join("history");

    // A first session runs the shader from the form.
    let mut viewer = Viewer::new(report.clone());
    viewer.keep_history_in(&history);
    let mut h = runs_harness(viewer);
    h.get_by_label("Run").click();
    finish_run(&mut h);
    h.get_by_label("Run 2: race, 1 finding(s)");
    assert_eq!(h.state().runs().error, None);
    drop(h);

    // The next session shows that run first, and compares it with the
    // report it opened.
    let mut viewer = Viewer::new(report);
    viewer.keep_history_in(&history);
    let h = runs_harness(viewer);
    h.get_by_label("Run 1: race, 1 finding(s) (earlier session)");
    h.get_by_label("Run 2: race, 1 finding(s)");
    h.get_by_label("Unchanged: 1");
    let _ = std::fs::remove_dir_all(&dir);
}
