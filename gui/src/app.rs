//! The viewer's window: the findings list, the shader's source and the
//! selected finding's details, over one report.

use std::collections::BTreeMap;
use std::path::Path;

use eframe::egui::{self, Color32, Key, RichText, Sense};
use egui_extras::{Column as TableColumn, TableBuilder};
use wgrace_report::{Finding, Race, Report};

use crate::model::{self, Column, Row, RowKind, View};
use crate::{detail, source};

/// Colours of the selected finding's two accesses, in the source and the
/// details.
pub const FIRST_COLOUR: Color32 = Color32::from_rgb(230, 140, 40);
pub const SECOND_COLOUR: Color32 = Color32::from_rgb(70, 140, 230);

/// The state of the viewer over one report.
pub struct Viewer {
    report: Report,
    rows: Vec<Row>,
    view: View,
    /// The rows the list shows, in order (`view` applied to `rows`).
    shown: Vec<usize>,
    selected: Option<usize>,
    /// Source lines that take part in a finding, and the rows they take
    /// part in.
    markers: BTreeMap<u32, Vec<usize>>,
    source: Vec<String>,
    /// Scroll the list (and the source) to the selection on the next frame.
    reveal: bool,
    checks: Vec<String>,
    classes: Vec<String>,
}

impl Viewer {
    /// The viewer over `report`, its first finding selected.
    pub fn new(report: Report) -> Viewer {
        let rows = model::rows(&report);
        let view = View::default();
        let shown = view.apply(&rows);
        let markers = model::lines_in_findings(&rows);
        let source = report.shader.source.as_deref().unwrap_or("").lines().map(str::to_string).collect();
        let (checks, classes) = model::choices(&rows);
        let selected = shown.first().copied();
        Viewer { report, rows, view, shown, selected, markers, source, reveal: true, checks, classes }
    }

    /// The viewer over the report saved at `path` (`wgrace run --format
    /// json`).
    ///
    /// # Errors
    /// When the file cannot be read or is not a wgrace report.
    pub fn open(path: &Path) -> anyhow::Result<Viewer> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| anyhow::anyhow!("cannot read the report {}: {e}", path.display()))?;
        let report: Report = serde_json::from_str(&text).map_err(|e| {
            anyhow::anyhow!("{} is not a wgrace report (`wgrace run --format json` writes one): {e}", path.display())
        })?;
        if report.version != wgrace_report::REPORT_VERSION {
            anyhow::bail!(
                "{} is a report of version {}; this viewer reads version {}",
                path.display(),
                report.version,
                wgrace_report::REPORT_VERSION
            );
        }
        Ok(Viewer::new(report))
    }

    pub fn report(&self) -> &Report {
        &self.report
    }

    /// The rows the list shows, in order.
    pub fn shown(&self) -> impl Iterator<Item = &Row> {
        self.shown.iter().map(|&i| &self.rows[i])
    }

    /// The selected row.
    pub fn selected(&self) -> Option<&Row> {
        self.selected.map(|i| &self.rows[i])
    }

    /// Selects the `n`-th row the list shows.
    pub fn select_shown(&mut self, n: usize) {
        if let Some(&i) = self.shown.get(n) {
            self.selected = Some(i);
            self.reveal = true;
        }
    }

    fn set_view(&mut self, view: View) {
        if view != self.view {
            self.view = view;
            self.shown = self.view.apply(&self.rows);
        }
    }

    /// The races of a race row, or the finding of a finding row.
    fn races_of(&self, row: &Row) -> Vec<&Race> {
        match &row.kind {
            RowKind::Race { run, races } => races.iter().map(|&i| &self.report.runs[*run].races[i]).collect(),
            RowKind::Finding { .. } => Vec::new(),
        }
    }

    fn finding_of(&self, row: &Row) -> Option<&Finding> {
        match row.kind {
            RowKind::Finding { run: Some(r), index } => self.report.runs[r].findings.get(index),
            RowKind::Finding { run: None, index } => self.report.findings.get(index),
            RowKind::Race { .. } => None,
        }
    }

    /// Draws the whole window into `ui`.
    pub fn ui(&mut self, ui: &mut egui::Ui) {
        self.keyboard(ui);
        egui::Panel::top("summary").show(ui, |ui| self.summary(ui));
        egui::Panel::right("details").resizable(true).default_size(380.0).show(ui, |ui| {
            egui::ScrollArea::vertical().id_salt("details scroll").show(ui, |ui| self.details(ui));
        });
        egui::Panel::top("findings").resizable(true).default_size(220.0).show(ui, |ui| self.findings(ui));
        egui::CentralPanel::default().show(ui, |ui| self.source_view(ui));
        self.reveal = false;
    }

    /// Up and down move the selection through the list, unless a text
    /// field has the keyboard.
    fn keyboard(&mut self, ui: &egui::Ui) {
        if ui.ctx().text_edit_focused() {
            return;
        }
        let (down, up) = ui.input(|i| (i.key_pressed(Key::ArrowDown), i.key_pressed(Key::ArrowUp)));
        let at = self.selected.and_then(|s| self.shown.iter().position(|&i| i == s));
        let next = match (at, down, up) {
            (None, true, _) | (None, _, true) => Some(0),
            (Some(n), true, _) => Some((n + 1).min(self.shown.len().saturating_sub(1))),
            (Some(n), _, true) => Some(n.saturating_sub(1)),
            _ => None,
        };
        if let Some(n) = next {
            self.select_shown(n);
        }
    }

    fn summary(&mut self, ui: &mut egui::Ui) {
        let report = &self.report;
        ui.horizontal_wrapped(|ui| {
            ui.heading(&report.shader.path);
            let (verdict, colour) = match report.verdict {
                wgrace_report::Verdict::Race => ("race", Color32::from_rgb(220, 80, 60)),
                wgrace_report::Verdict::NoRace => ("no race", Color32::from_rgb(80, 170, 90)),
            };
            ui.label(RichText::new(verdict).strong().color(colour));
            if !report.complete {
                ui.label(RichText::new("incomplete").color(Color32::from_rgb(220, 170, 40)))
                    .on_hover_text("some accesses were not checked: see the runs' notes");
            }
            let runs: Vec<String> =
                report.runs.iter().map(|r| format!("{} on {}", r.entry_point, r.adapter_label())).collect();
            ui.label(format!("{} finding(s); {}", self.rows.len(), runs.join(", ")));
        });
        let mut view = self.view.clone();
        ui.horizontal(|ui| {
            let label = ui.label("Filter");
            ui.add(egui::TextEdit::singleline(&mut view.text).hint_text("text in any column").desired_width(200.0))
                .labelled_by(label.id);
            choice(ui, "Filter by check", &mut view.check, &self.checks);
            choice(ui, "Filter by class", &mut view.class, &self.classes);
            ui.label(format!("{} of {} shown", self.shown.len(), self.rows.len()));
        });
        self.set_view(view);
    }

    fn findings(&mut self, ui: &mut egui::Ui) {
        // One line per row, however narrow the columns.
        ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Truncate);
        let mut view = self.view.clone();
        let mut clicked = None;
        let reveal_row =
            if self.reveal { self.selected.and_then(|s| self.shown.iter().position(|&i| i == s)) } else { None };
        let mut table = TableBuilder::new(ui)
            .id_salt("findings table")
            .striped(true)
            .sense(Sense::click())
            .column(TableColumn::exact(80.0))
            // Check, class, variable, the two lines, occurrences; lock-step
            // takes the rest.
            .column(TableColumn::initial(100.0).resizable(true))
            .column(TableColumn::initial(190.0).resizable(true))
            .column(TableColumn::initial(80.0).resizable(true))
            .column(TableColumn::initial(50.0).resizable(true))
            .column(TableColumn::initial(75.0).resizable(true))
            .column(TableColumn::initial(85.0).resizable(true))
            .column(TableColumn::remainder())
            .min_scrolled_height(0.0)
            .auto_shrink([false, false]);
        if let Some(n) = reveal_row {
            table = table.scroll_to_row(n, None);
        }
        table
            .header(22.0, |mut header| {
                header.col(|ui| {
                    ui.strong("Finding");
                });
                for column in Column::ALL {
                    header.col(|ui| {
                        let arrow = match (view.sort == column, view.descending) {
                            (true, false) => " ^",
                            (true, true) => " v",
                            (false, _) => "",
                        };
                        if ui
                            .button(format!("{}{arrow}", column.title()))
                            .on_hover_text(format!("sort by {}", column.title().to_lowercase()))
                            .clicked()
                        {
                            view.descending = view.sort == column && !view.descending;
                            view.sort = column;
                        }
                    });
                }
            })
            .body(|body| {
                body.rows(20.0, self.shown.len(), |mut row| {
                    let n = row.index();
                    let i = self.shown[n];
                    let r = &self.rows[i];
                    let selected = self.selected == Some(i);
                    row.set_selected(selected);
                    let line = |l: Option<u32>| l.map_or_else(|| "-".to_string(), |l| l.to_string());
                    row.col(|ui| {
                        if ui.selectable_label(selected, format!("Finding {}", n + 1)).clicked() {
                            clicked = Some(i);
                        }
                    });
                    row.col(|ui| {
                        ui.label(&r.check);
                    });
                    row.col(|ui| {
                        ui.label(r.classes.join(", "));
                    });
                    row.col(|ui| {
                        ui.label(&r.variable);
                    });
                    row.col(|ui| {
                        ui.label(line(r.lines[0]));
                    });
                    row.col(|ui| {
                        ui.label(line(r.lines[1]));
                    });
                    row.col(|ui| {
                        ui.label(r.occurrences.to_string());
                    });
                    row.col(|ui| {
                        ui.label(&r.lockstep);
                    });
                    if row.response().clicked() {
                        clicked = Some(i);
                    }
                });
            });
        if let Some(i) = clicked {
            self.selected = Some(i);
            self.reveal = true;
        }
        self.set_view(view);
    }

    fn source_view(&mut self, ui: &mut egui::Ui) {
        let selected = self.selected.map(|i| self.rows[i].clone());
        let races = selected.as_ref().map(|r| self.races_of(r)).unwrap_or_default();
        let highlight = source::Highlight::of(selected.as_ref(), races.first().copied());
        let picked = source::show(ui, &self.source, &self.markers, &highlight, self.reveal);
        if let Some(line) = picked {
            // A marker: select the first of its findings that the list shows.
            let rows = self.markers.get(&line).cloned().unwrap_or_default();
            let next = rows.iter().copied().find(|&i| self.shown.contains(&i) && Some(i) != self.selected);
            if let Some(i) = next.or_else(|| rows.first().copied()) {
                if !self.shown.contains(&i) {
                    self.set_view(View { sort: self.view.sort, descending: self.view.descending, ..View::default() });
                }
                self.selected = Some(i);
                self.reveal = true;
            }
        }
    }

    fn details(&self, ui: &mut egui::Ui) {
        match self.selected.map(|i| &self.rows[i]) {
            None => {
                ui.label("No finding selected.");
            }
            Some(row) => match &row.kind {
                RowKind::Race { run, .. } => detail::race(ui, row, &self.races_of(row), &self.report.runs[*run]),
                RowKind::Finding { .. } => {
                    if let Some(f) = self.finding_of(row) {
                        detail::finding(ui, row, f);
                    }
                }
            },
        }
    }
}

/// A combo box choosing one of `options` or all.
fn choice(ui: &mut egui::Ui, label: &str, value: &mut Option<String>, options: &[String]) {
    let text = value.clone().unwrap_or_else(|| "all".to_string());
    egui::ComboBox::from_label(label).selected_text(text).show_ui(ui, |ui| {
        ui.selectable_value(value, None, "all");
        for o in options {
            ui.selectable_value(value, Some(o.clone()), o);
        }
    });
}

/// The viewer as an eframe application.
pub struct App(pub Viewer);

impl eframe::App for App {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        self.0.ui(ui);
    }
}
