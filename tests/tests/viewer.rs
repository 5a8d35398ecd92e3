//! The desktop viewer (`gui/`), driven through egui_kittest: queries by
//! accessible label, on reports the runtime makes of samples.

use std::path::Path;

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use wgrace::Report;
use wgrace::spec::RunArgs;
use wgrace_gui::Viewer;
use wgrace_gui::egui::Role;
use wgrace_gui::model::{self, Column, View};
use wgrace_instrument::checks::CheckSet;
use wgrace_tests::samples_dir;

use crate::support::require_gpu;

fn report_of(path: &Path) -> Report {
    report_with(path, RunArgs::default())
}

fn report_with(path: &Path, flags: RunArgs) -> Report {
    let (shader, _, spec) = wgrace::load_with_flags(path, flags).expect("load");
    crate::support::check_shader(&shader, &spec, &CheckSet::default()).expect("run").report
}

fn harness(report: Report) -> Harness<'static, Viewer> {
    harness_of(Viewer::new(report))
}

fn harness_of(viewer: Viewer) -> Harness<'static, Viewer> {
    Harness::builder()
        .with_size(wgrace_gui::egui::vec2(1280.0, 1000.0))
        // Panels, tables and scroll areas size themselves over a few frames.
        .with_max_steps(16)
        // Explanations come from the report, whatever a font draws.
        .allow_missing_glyphs()
        .build_ui_state(|ui, viewer: &mut Viewer| viewer.ui(ui), viewer)
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
    require_gpu!();
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
fn a_race_on_a_texture_shows_its_texel_layer_and_mip_level() {
    require_gpu!();
    let report = report_of(&samples_dir().join("textures/mip_generate_race.wgsl"));
    let texel = report.runs[0].races[0].memory.texel.clone().expect("a texel");
    let mut h = harness(report);
    h.get_by_label("Finding 1").click();
    h.run();
    h.get_by_label("Data race (write-write) on storage texture `dst`");
    let [x, y] = [texel.coordinates[0], texel.coordinates[1]];
    h.get_by_label(&format!("Element: dst({x}, {y}) mip 1"));
    h.get_by_label(&format!("Texel: ({x}, {y}), mip level 1"));
}

#[test]
fn a_runaway_loop_s_finding_shows_the_loop_and_what_went_unchecked() {
    require_gpu!();
    let report = report_of(&samples_dir().join("loop_bound_from_wrong_buffer.wgsl"));
    let mut h = harness(report);
    h.get_by_label("Finding 1").click();
    h.run();
    h.get_by_label("loops (error)");
    h.get_by_label_contains("a loop ran past its budget of");
    h.get_by_label("Occurrences: 128");
    h.get_by_label("the loop, in `main` (line 18): for (var i = 0u; i <= len - 1u; i++) {");
    h.get_by_label("line 18: 1 finding(s)");
    h.get_by_label("Not checked");
    h.get_by_label_contains("128 invocations stopped in the loop at line 18 after");
    h.get_by_label("incomplete");
}

#[test]
fn suppressions_list_what_they_kept_out_and_the_unused_ones() {
    require_gpu!();
    // The sample's comment suppresses its flag's races; a suppressions file
    // adds one that matches nothing.
    let path = samples_dir().join("suppressed_and_unsuppressed.wgsl");
    let dir = std::env::temp_dir().join(format!("wgrace-viewer-supp-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("ci.supp");
    std::fs::write(&file, "allow(barrier-divergence) # none expected\n").expect("write");
    let report = report_with(&path, RunArgs { suppressions: vec![file.clone()], ..RunArgs::default() });
    let kept: usize = report.runs[0].suppressed.len();
    assert!(kept >= 2, "{:?}", report.runs[0].suppressed);
    let mut h = harness(report);
    // Only the unsuppressed race is a row.
    h.get_by_label("Finding 1");
    assert!(h.query_by_label("Finding 2").is_none());
    h.get_by_label(&format!("{kept} suppressed by 2 suppression(s), 1 unused")).click();
    h.run();
    h.get_by_label(&format!(
        "allow(data-race) lines=17 at {}:16: matched {kept} (every invocation writes 1)",
        path.display()
    ));
    h.get_by_label(&format!("allow(barrier-divergence) at {}:1: matched 0 (none expected): unused", file.display()));
}

#[test]
fn same_value_writes_are_listed_with_the_suppressions() {
    require_gpu!();
    // The sample's header asks for --same-value-notes: its 8 races are
    // kept out of the list, under the option's suppression.
    let report = report_of(&samples_dir().join("same_value_benign_flags.wgsl"));
    let mut h = harness(report);
    assert!(h.query_by_label("Finding 1").is_none());
    h.get_by_label("8 suppressed by 1 suppression(s)").click();
    h.run();
    h.get_by_label("same-value writes at --same-value-notes: matched 8 (the two writes of each stored the same value)");
    // Where the writes stored two values the races stay, and the option,
    // matching nothing (a read-write race), is not called unused.
    let flags = RunArgs { same_value_notes: true, ..RunArgs::default() };
    let report = report_with(&samples_dir().join("wg_missing_barrier.wgsl"), flags);
    let mut h = harness(report);
    h.get_by_label("Finding 1");
    h.get_by_label("0 suppressed by 1 suppression(s)").click();
    h.run();
    assert!(h.query_by_label_contains(": unused").is_none());
}

#[test]
fn a_spirv_module_with_debug_information_shows_its_glsl_source() {
    require_gpu!();
    let report = report_of(&crate::spirv::compile("racy_neighbour", &["-g"]));
    let mut h = harness(report);
    h.get_by_label("Finding 1").click();
    h.run();
    h.get_by_label_contains("racy_neighbour.comp: the source of");
    // Both accesses are on line 7 of the GLSL: its gutter marker, both marks.
    h.get_by_label("line 7: 1 finding(s)");
    h.get_by_label_contains("    data[i] = data[i + 1];");
    assert_eq!(h.query_all_by_label_contains("<- first access").count(), 1);
    assert_eq!(h.query_all_by_label_contains("<- second access").count(), 1);

    // Without debug information the view says how to get it.
    let report = report_of(&crate::spirv::compile("racy_neighbour", &[]));
    let h = harness(report);
    h.get_by_label_contains("carries no source text: findings point at SPIR-V instructions");
}

#[test]
fn filtering_by_check_and_class_narrows_the_list() {
    require_gpu!();
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
    require_gpu!();
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
    require_gpu!();
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

#[test]
fn clicking_a_heat_map_cell_lists_the_races_there() {
    require_gpu!();
    // Races in workgroup (1, 2) on bytes 800..816 (line 17), and between
    // workgroups (0, 0) and (3, 3) on bytes 0..4 (line 19).
    let report = report_of(&samples_dir().join("storage_races_in_three_workgroups.wgsl"));
    let mut h = harness(report);
    h.run();
    let shown_lines =
        |h: &Harness<'static, Viewer>| -> Vec<Option<u32>> { h.state().shown().map(|r| r.lines[0]).collect() };
    assert_eq!(shown_lines(&h), vec![Some(17), Some(19)]);
    h.get_by_label_contains("Workgroup cell (1, 2, 0): ").click();
    h.run();
    assert_eq!(shown_lines(&h), vec![Some(17)]);
    h.get_by_label("Listing only races in workgroups x 1, y 2, z 0");
    // Workgroups without races list none; the corners list the race between them.
    h.get_by_label("Workgroup cell (3, 3, 0): 1 occurrence(s)").click();
    h.run();
    assert_eq!(shown_lines(&h), vec![Some(19)]);
    assert_eq!(h.state().selected().and_then(|r| r.lines[0]), Some(19), "the selection follows the list");
    h.get_by_label("Workgroup cell (2, 2, 0): 0 occurrence(s)").click();
    h.run();
    assert!(shown_lines(&h).is_empty());
    // The memory map: the range of data[200..204].
    h.get_by_label_contains("Bytes 800..816 of data: ").click();
    h.run();
    assert_eq!(shown_lines(&h), vec![Some(17)]);
    h.get_by_label("Listing only races on bytes 800..816 of data");
    // Clicking the chosen cell again, or the button, lists everything.
    h.get_by_label_contains("Bytes 800..816 of data: ").click();
    h.run();
    assert_eq!(shown_lines(&h), vec![Some(17), Some(19)]);
    h.get_by_label("Bytes 0..16 of data: 1 occurrence(s)").click();
    h.run();
    assert_eq!(shown_lines(&h), vec![Some(19)]);
    h.get_by_label("Clear the heat-map filter").click();
    h.run();
    assert_eq!(shown_lines(&h), vec![Some(17), Some(19)]);
}

#[test]
fn the_adapter_matrix_compares_runs_and_lists_one_run_s_findings() {
    require_gpu!();
    // A report of two adapters: the run on this machine, and the same run as
    // another adapter saw it, with a different output and no race.
    let mut report = report_of(&samples_dir().join("wg_missing_barrier.wgsl"));
    let mut other = report.runs[0].clone();
    let adapter = other.adapter.as_mut().expect("an adapter");
    adapter.name = "Other GPU".into();
    adapter.backend = "vulkan".into();
    other.races.clear();
    other.verdict = wgrace::Verdict::NoRace;
    other.outputs[0].sha256 = "0123456789abcdef".repeat(4);
    report.runs.push(other);
    let here = format!("main on {}", report.runs[0].adapter_label());
    let out = report.runs[0].outputs[0].clone();
    let mut h = harness(report);
    h.run();
    h.get_by_label("Adapters").click();
    h.run();
    h.get_by_label(&format!("{here}: race"));
    h.get_by_label("main on Other GPU (vulkan): no race");
    h.get_by_label(&format!("{here}: {} {} (differs between adapters)", out.variable, &out.sha256[..12]));
    h.get_by_label(&format!("main on Other GPU (vulkan): {} 0123456789ab (differs between adapters)", out.variable));
    assert_eq!(h.state().shown().count(), 1, "the race of the first run");
    h.get_by_label("List the findings of main on Other GPU (vulkan)").click();
    h.run();
    assert_eq!(
        h.state().shown().count(),
        0,
        "the other run found nothing: {:?}",
        h.state().shown().collect::<Vec<_>>()
    );
    h.get_by_label(&format!("List the findings of {here}")).click();
    h.run();
    assert_eq!(h.state().shown().count(), 1);
}

/// Steps the harness until the viewer's run ends (a minute at most).

#[test]
fn the_keyboard_reaches_the_heat_maps_and_the_tabs() {
    require_gpu!();
    use wgrace_gui::egui::Key;

    let report = report_of(&samples_dir().join("storage_races_in_three_workgroups.wgsl"));
    let mut h = harness(report);
    h.run();
    // Tab moves the focus through the window's widgets, one at a time.
    let tab_to = |h: &mut Harness<'static, Viewer>, label: &str| {
        for _ in 0..300 {
            h.key_press(Key::Tab);
            h.run();
            if h.query_by(|n| n.is_focused() && n.label().is_some_and(|l| l.starts_with(label))).is_some() {
                return;
            }
        }
        panic!("Tab never reached `{label}`");
    };
    // A heat-map cell: Enter lists the races there.
    tab_to(&mut h, "Workgroup cell (1, 2, 0): ");
    h.key_press(Key::Enter);
    h.run();
    let lines: Vec<Option<u32>> = h.state().shown().map(|r| r.lines[0]).collect();
    assert_eq!(lines, vec![Some(17)]);
    // The bottom panel's tabs: the Runs tab, and in it the Run button.
    tab_to(&mut h, "Runs");
    h.key_press(Key::Enter);
    h.run();
    tab_to(&mut h, "Watch the shader file");
}

#[test]
fn the_timeline_shows_a_workgroup_s_accesses_and_selects_their_race() {
    require_gpu!();
    let report = report_of(&samples_dir().join("wg_reduction_missing_barrier.wgsl"));
    let mut h = harness(report);
    h.run();
    h.get_by_label("Timeline").click();
    h.run();
    h.get_by_label_contains("Workgroup (0, 0, 0), the first workgroup that raced: its 64 invocations");
    h.get_by_label("A: write of s, line 20");
    h.get_by_label("B: read of s, line 20");
    // Invocation 0's write of s[0] races with nothing; its read of s[32],
    // s[16], … does. Invocations from 32 on make no access in the loop.
    h.get_by_label("Invocation 0, interval 1: A (write of s, line 20, writes); B (read of s, line 20, reads), raced");
    assert!(h.query_by_label_contains("Invocation 40, interval").is_none());
    assert!(h.query_by_label_contains("interval 0:").is_none());
    // With the list filtered to nothing, a click on an access lists and
    // selects its race again.
    h.get_by_label("Filter").click();
    h.run();
    h.get_by_label("Filter").type_text("no such finding");
    h.run();
    h.get_by_label("0 of 1 shown");
    h.get_by_label("Invocation 0, interval 1: A (write of s, line 20, writes); B (read of s, line 20, reads), raced")
        .click();
    h.run();
    h.get_by_label("1 of 1 shown");
    h.get_by_label("Data race (read-write) on workgroup variable `s`");
}
