//! "Where it happens": heat maps of the races the list shows, over the
//! dispatch grid's workgroups and over each variable's bytes, from the
//! counts the GPU kept (the report's `spread`). Clicking a cell lists only
//! the races that happened there.

use std::ops::Range;

use eframe::egui::{self, Color32, Sense, Stroke, StrokeKind, Vec2};
use wgrace_report::Run;

use crate::model::{Heat, Place};

/// The heat maps' state: which slice of a 3-D grid and which variable they
/// show.
#[derive(Clone, Debug, Default)]
pub struct HeatView {
    /// The z slice of the workgroup map.
    pub slice: u32,
    /// The variable of the memory map (`None`: the selected race's, else
    /// the first with races).
    pub variable: Option<String>,
}

/// What the heat maps draw: the counts of run `run_index`'s races, the
/// list's filter when one of the maps set it (outlined), and the selected
/// row's variable (the memory map's default).
pub struct Maps<'a> {
    pub heat: &'a Heat,
    pub run: &'a Run,
    pub run_index: usize,
    pub place: Option<&'a Place>,
    pub selected_variable: Option<&'a str>,
}

/// Draws the heat maps. Returns the filter a click asks for: `Some(None)`
/// clears it.
pub fn show(ui: &mut egui::Ui, maps: &Maps<'_>, state: &mut HeatView) -> Option<Option<Place>> {
    let mut picked = None;
    ui.horizontal_top(|ui| {
        ui.vertical(|ui| {
            if let Some(p) = workgroups(ui, maps, state) {
                picked = Some(p);
            }
        });
        ui.separator();
        ui.vertical(|ui| {
            if let Some(p) = memory(ui, maps, state) {
                picked = Some(p);
            }
        });
    });
    picked
}

/// The map of the dispatch grid, one slice at a time.
fn workgroups(ui: &mut egui::Ui, maps: &Maps<'_>, state: &mut HeatView) -> Option<Option<Place>> {
    let Maps { heat, run, run_index, place, .. } = *maps;
    let [cx, cy, cz] = heat.grid.cells.map(|c| c.max(1));
    let d = run.dispatch;
    let grid = &heat.grid;
    ui.strong("Races by workgroup");
    ui.label(format!(
        "dispatch {} x {} x {}, in {cx} x {cy} x {cz} cells (x across, y down){}",
        d[0],
        d[1],
        d[2],
        if u64::from(cx) * u64::from(cy) * u64::from(cz) < u64::from(d[0]) * u64::from(d[1]) * u64::from(d[2]) {
            " (a cell holds several workgroups)"
        } else {
            ""
        }
    ));
    state.slice = state.slice.min(cz - 1);
    if cz > 1 {
        ui.add(egui::Slider::new(&mut state.slice, 0..=cz - 1).text("slice (z cell)"));
    }
    let hottest = heat.hottest_cell();
    legend(ui, hottest);
    let side = ((ui.available_width().min(420.0)) / cx as f32).clamp(6.0, 28.0);
    let side = side.min((ui.available_height() - 8.0).max(6.0 * cy as f32) / cy as f32).max(6.0);
    let mut picked = None;
    let k = state.slice;
    egui::Grid::new("workgroup heat").spacing(Vec2::splat(1.0)).min_col_width(0.0).min_row_height(0.0).show(ui, |ui| {
        for j in 0..cy {
            for i in 0..cx {
                let index = u64::from(i) + u64::from(cx) * (u64::from(j) + u64::from(cy) * u64::from(k));
                let n = heat.workgroups.get(index as usize).copied().unwrap_or(0);
                let [x, y, z] = grid.workgroups_of([i, j, k], d);
                let name = format!("Workgroup cell ({i}, {j}, {k}): {n} occurrence(s)");
                let here = Place::Workgroups { run: run_index, cell: index };
                let chosen = place == Some(&here);
                let response =
                    cell(ui, Vec2::splat(side), colour(ui, n, hottest), chosen, &name).on_hover_text(format!(
                        "workgroups x {}, y {}, z {}: {n} occurrence(s)\nclick to list the races there",
                        span(&x),
                        span(&y),
                        span(&z)
                    ));
                if response.clicked() {
                    picked = Some(if chosen { None } else { Some(here) });
                }
            }
            ui.end_row();
        }
    });
    picked
}

/// The map of one variable's bytes.
fn memory(ui: &mut egui::Ui, maps: &Maps<'_>, state: &mut HeatView) -> Option<Option<Place>> {
    let Maps { heat, run, run_index, place, selected_variable } = *maps;
    ui.strong("Races by memory");
    if heat.memory.is_empty() {
        ui.label("No race with a place in memory.");
        return None;
    }
    let names: Vec<&String> = heat.memory.keys().collect();
    let shown = state
        .variable
        .clone()
        .filter(|v| heat.memory.contains_key(v))
        .or_else(|| selected_variable.filter(|v| heat.memory.contains_key(*v)).map(str::to_string))
        .unwrap_or_else(|| names[0].clone());
    let mut choice = shown.clone();
    egui::ComboBox::from_label("Variable of the memory map").selected_text(&choice).show_ui(ui, |ui| {
        for name in &names {
            ui.selectable_value(&mut choice, (*name).clone(), name.as_str());
        }
    });
    if choice != shown {
        state.variable = Some(choice.clone());
    }
    let (range_bytes, counts) = &heat.memory[&choice];
    let range_bytes = (*range_bytes).max(1);
    let bytes = run.checked.variables.iter().find(|v| v.name == choice).map_or(0, |v| v.bytes);
    let last = counts.keys().next_back().map_or(0, |&r| r + 1);
    let ranges = bytes.div_ceil(range_bytes).max(last).clamp(1, MAX_RANGES);
    ui.label(format!("{bytes} bytes, in {ranges} ranges of {range_bytes}"));
    let hottest = counts.values().copied().max().unwrap_or(0);
    legend(ui, hottest);
    let per_row = 32;
    let side = (ui.available_width().min(420.0) / per_row as f32 - 1.0).clamp(5.0, 14.0);
    let mut picked = None;
    egui::Grid::new("memory heat").spacing(Vec2::splat(1.0)).min_col_width(0.0).min_row_height(0.0).show(ui, |ui| {
        for r in 0..ranges {
            let n = counts.get(&r).copied().unwrap_or(0);
            let from = r * range_bytes;
            let to = if bytes > 0 { ((r + 1) * range_bytes).min(bytes) } else { (r + 1) * range_bytes };
            let name = format!("Bytes {from}..{to} of {choice}: {n} occurrence(s)");
            let here = Place::Memory { run: run_index, variable: choice.clone(), range: r };
            let chosen = place == Some(&here);
            let response = cell(ui, Vec2::new(side, side * 1.6), colour(ui, n, hottest), chosen, &name)
                .on_hover_text(format!("{name}\nclick to list the races there"));
            if response.clicked() {
                picked = Some(if chosen { None } else { Some(here) });
            }
            if (r + 1) % per_row == 0 {
                ui.end_row();
            }
        }
    });
    picked
}

/// How many ranges the runtime divides a variable into
/// (`wgrace_shaders::abi::SPREAD_RANGES`; the viewer reads the report alone).
const MAX_RANGES: u64 = 64;

/// What the colours mean, for a map whose hottest cell has `hottest`.
fn legend(ui: &mut egui::Ui, hottest: u64) {
    if hottest > 0 {
        ui.label(format!("amber: 1 occurrence, red: {hottest} (log scale); grey: none"));
    }
}

/// One clickable cell, named `name` for screen readers and tests.
fn cell(ui: &mut egui::Ui, size: Vec2, fill: Color32, chosen: bool, name: &str) -> egui::Response {
    let (rect, response) = ui.allocate_exact_size(size, Sense::click());
    let stroke = if chosen {
        Stroke::new(2.0, ui.visuals().strong_text_color())
    } else if response.hovered() {
        Stroke::new(1.0, ui.visuals().text_color())
    } else {
        Stroke::NONE
    };
    ui.painter().rect(rect, 1.0, fill, stroke, StrokeKind::Inside);
    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, true, name));
    response
}

/// The colour of a cell with `n` occurrences when the hottest has
/// `hottest`: empty cells faint, the others from amber to red on a log
/// scale.
fn colour(ui: &egui::Ui, n: u64, hottest: u64) -> Color32 {
    if n == 0 || hottest == 0 {
        return ui.visuals().faint_bg_color.gamma_multiply(2.0);
    }
    let t = ((n as f32).ln_1p() / (hottest as f32).ln_1p()).clamp(0.0, 1.0);
    let lerp = |a: u8, b: u8| (f32::from(a) + (f32::from(b) - f32::from(a)) * t).round() as u8;
    Color32::from_rgb(lerp(240, 200), lerp(200, 30), lerp(80, 30))
}

/// A range of workgroup ids, as `a` or `a..b` (exclusive).
fn span(r: &Range<u32>) -> String {
    if r.end == r.start + 1 { r.start.to_string() } else { format!("{}..{}", r.start, r.end) }
}

/// What `place` keeps in the list, in words.
pub fn describe(place: &Place, heat: Option<&Heat>, run: &Run) -> String {
    match place {
        Place::Workgroups { cell, .. } => {
            let Some(heat) = heat else { return "races in one cell of workgroups".into() };
            let grid = &heat.grid;
            let [x, y, z] = grid.workgroups_of(grid.cell_of(*cell), run.dispatch);
            format!("races in workgroups x {}, y {}, z {}", span(&x), span(&y), span(&z))
        }
        Place::Memory { variable, range, .. } => {
            let bytes = heat.and_then(|h| h.memory.get(variable)).map_or(0, |m| m.0);
            format!("races on bytes {}..{} of {variable}", range * bytes, (range + 1) * bytes)
        }
    }
}
