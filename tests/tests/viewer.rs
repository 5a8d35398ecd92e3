//! The desktop viewer (`gui/`), driven through egui_kittest: queries by
//! accessible label, on reports the runtime makes of samples.

use std::path::Path;

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use wgrace::Report;
use wgrace::session;
use wgrace::spec::RunArgs;
use wgrace_gui::Viewer;
use wgrace_gui::egui::Role;
use wgrace_gui::model::{self, Column, View};
use wgrace_instrument::checks::CheckSet;
use wgrace_tests::samples_dir;

use crate::support::gpu;

fn report_of(path: &Path) -> Report {
    let (shader, _, spec) = wgrace::load_with_flags(path, RunArgs::default()).expect("load");
    session::check(&shader, &spec, std::slice::from_ref(gpu()), &CheckSet::default(), false, &mut |_| {})
        .expect("run")
        .report
}

fn harness(report: Report) -> Harness<'static, Viewer> {
    Harness::builder()
        .with_size(wgrace_gui::egui::vec2(1280.0, 800.0))
        // Explanations come from the report, whatever a font draws.
        .allow_missing_glyphs()
        .build_ui_state(|ui, viewer: &mut Viewer| viewer.ui(ui), Viewer::new(report))
}

/// A racy kernel that also executes a barrier in divergent control flow:
/// races on two variables and a barrier-divergence finding.
fn mixed_report() -> Report {
    let dir = std::env::temp_dir().join(format!("wgrace-viewer-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("mixed.wgsl");
    std::fs::write(
        &path,
        "var<workgroup> s: array<u32, 64>;\n\
         @group(0) @binding(0) var<storage, read_write> out: array<u32>;\n\
         @compute @workgroup_size(64)\n\
         fn main(@builtin(local_invocation_index) l: u32) {\n\
             s[l] = l;\n\
             if l < 32u { workgroupBarrier(); }\n\
             out[0] = s[(l + 1u) % 64u];\n\
         }\n",
    )
    .expect("write the shader");
    report_of(&path)
}

#[test]
fn selecting_a_race_highlights_both_lines_and_fills_the_details() {
    let report = report_of(&samples_dir().join("wg_missing_barrier.wgsl"));
    let mut h = harness(report);
    h.get_by_label("Finding 1").click();
    h.run();
    // Both accesses marked in the source, in their colours, with what they do.
    h.get_by_label("<- first access: write");
    h.get_by_label("<- second access: read");
    // The details: what races, where, who, and how to fix it.
    h.get_by_label("Data race (read-write) on workgroup variable `tile`");
    h.get_by_label("First access: write at line 13");
    h.get_by_label("Second access: read at line 14");
    h.get_by_label("Class: intra-workgroup");
    assert!(h.get_all_by_label_contains("Fix: put a workgroupBarrier()").count() >= 1);
    h.get_by_label("Example invocation pairs");
    // Lines 13 and 14 carry gutter markers.
    h.get_by_label("line 13: 1 finding(s)");
    h.get_by_label("line 14: 1 finding(s)");
}

#[test]
fn filtering_by_check_and_class_narrows_the_list() {
    let report = mixed_report();
    let rows = model::rows(&report);
    let races = rows.iter().filter(|r| r.check == model::DATA_RACE).count();
    assert!(races >= 1, "{rows:?}");
    assert!(rows.iter().any(|r| r.check == "barrier-divergence"), "{rows:?}");
    let mut h = harness(report);
    h.get_by_label(&format!("{} of {} shown", rows.len(), rows.len()));
    h.get_by_label("Filter by check").click();
    h.run();
    // The choice in the popup (the list shows the check's name too, as a
    // label).
    h.get_by_role_and_label(Role::Button, "barrier-divergence").click();
    h.run();
    h.get_by_label(&format!("1 of {} shown", rows.len()));
    assert!(h.state().shown().all(|r| r.check == "barrier-divergence"));
    // By class: back to every check, then one class.
    h.get_by_label("Filter by check").click();
    h.run();
    h.get_by_role_and_label(Role::Button, "all").click();
    h.run();
    h.get_by_label("Filter by class").click();
    h.run();
    h.get_by_role_and_label(Role::Button, "intra-workgroup").click();
    h.run();
    assert!(h.state().shown().count() >= 1);
    assert!(h.state().shown().all(|r| r.classes.iter().any(|c| c == "intra-workgroup")));
}

#[test]
fn the_keyboard_and_the_gutter_select_findings() {
    let report = mixed_report();
    let mut h = harness(report);
    let first = h.state().selected().cloned().expect("a first selection");
    h.key_press(wgrace_gui::egui::Key::ArrowDown);
    h.run();
    let second = h.state().selected().cloned().expect("a selection");
    assert_ne!(first, second, "arrow down moves to the next finding");
    h.key_press(wgrace_gui::egui::Key::ArrowUp);
    h.run();
    assert_eq!(h.state().selected(), Some(&first));
    // A marker in the gutter selects a finding on its line.
    let line = second.lines[0].expect("a line");
    h.get_by_label_contains(&format!("line {line}: ")).click();
    h.run();
    assert!(h.state().selected().is_some_and(|r| r.lines.contains(&Some(line))));
}

#[test]
fn rows_group_a_pair_s_classes_and_sort_by_any_column() {
    let report = report_of(&samples_dir().join("storage_stencil_2d_inplace.wgsl"));
    let rows = model::rows(&report);
    // One row per racing pair: its classes together.
    let pairs: std::collections::HashSet<_> = rows.iter().map(|r| (r.variable.clone(), r.lines)).collect();
    assert_eq!(pairs.len(), rows.len());
    assert!(rows.iter().all(|r| r.classes.iter().any(|c| c == "inter-workgroup")), "{rows:?}");
    let by_line = View { sort: Column::First, ..View::default() }.apply(&rows);
    let lines: Vec<_> = by_line.iter().map(|&i| rows[i].lines[0]).collect();
    assert!(lines.windows(2).all(|w| w[0] <= w[1]), "{lines:?}");
    let down = View { sort: Column::First, descending: true, ..View::default() }.apply(&rows);
    let reversed: Vec<_> = down.iter().map(|&i| rows[i].lines[0]).collect();
    assert!(reversed.windows(2).all(|w| w[0] >= w[1]), "{reversed:?}");
    let text = View { text: "NO SUCH TEXT".into(), ..View::default() }.apply(&rows);
    assert!(text.is_empty());
}
