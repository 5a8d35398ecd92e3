//! The viewer's window: the findings list, the shader's source and the
//! selected finding's details, over one report.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use eframe::egui::{self, Color32, Key, RichText, Sense};
use egui_extras::{Column as TableColumn, TableBuilder};
use wgrace_report::{Finding, Race, Report};

use crate::heat::{self, HeatView};
use crate::model::{self, Column, Heat, Row, RowKind, View};
use crate::runs::{self, Runs};
use crate::{adapters, detail, source, timeline};

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
    source: source::Source,
    /// Scroll the list (and the source) to the selection on the next frame.
    reveal: bool,
    checks: Vec<String>,
    classes: Vec<String>,
    heat_view: HeatView,
    /// What the bottom panel shows.
    bottom: Bottom,
    /// The runs of the shader from the viewer, and their history.
    runs: Runs,
    /// The heat maps' counts, and the run and filters they were summed
    /// for.
    heat: Option<(usize, View, Option<Heat>)>,
    /// Whether the panels paint their background (see
    /// [`Viewer::leave_background_to_window`]).
    fill_panels: bool,
}

impl Viewer {
    /// The viewer over `report`, its first finding selected; it runs the
    /// shader again with the `wgrace` beside this program's, or on `PATH`.
    pub fn new(report: Report) -> Viewer {
        let runs = Runs::new(&report, default_wgrace());
        let mut viewer = Viewer::showing(report, runs);
        viewer.bottom = Bottom::Where;
        viewer
    }

    /// The viewer of the shader at `path` before it ran: it starts a run
    /// (the source shows meanwhile).
    ///
    /// # Errors
    /// When the file cannot be read.
    pub fn for_shader(path: &Path) -> anyhow::Result<Viewer> {
        let spirv = path.extension().is_some_and(|e| e == "spv");
        let source =
            if spirv { std::fs::metadata(path).map(|_| None) } else { std::fs::read_to_string(path).map(Some) }
                .map_err(|e| anyhow::anyhow!("cannot read the shader {}: {e}", path.display()))?;
        let language = if spirv { wgrace_report::Language::SpirV } else { wgrace_report::Language::Wgsl };
        let shader =
            wgrace_report::ShaderInfo { path: path.display().to_string(), language, source, source_file: None };
        let report = Report::new(shader, Vec::new(), Vec::new(), Vec::new());
        let mut viewer = Viewer::showing(report, Runs::of_shader(path, default_wgrace()));
        viewer.runs.start();
        Ok(viewer)
    }

    /// The viewer of `report` with the runs so far.
    fn showing(report: Report, runs: Runs) -> Viewer {
        let rows = model::rows(&report);
        let view = View::default();
        let shown = view.apply(&rows);
        let markers = model::lines_in_findings(&rows);
        let source = source::Source::of(&report.shader);
        let (checks, classes) = model::choices(&rows);
        let selected = shown.first().copied();
        Viewer {
            report,
            rows,
            view,
            shown,
            selected,
            markers,
            source,
            reveal: true,
            checks,
            classes,
            heat_view: HeatView::default(),
            bottom: Bottom::Runs,
            runs,
            heat: None,
            fill_panels: true,
        }
    }

    /// The viewer over the report saved at `path` (`wgrace run --format
    /// json`), or of the shader at `path` (a `.wgsl` or `.spv` file), which
    /// it runs.
    ///
    /// # Errors
    /// When the file cannot be read or is not a wgrace report.
    pub fn open(path: &Path) -> anyhow::Result<Viewer> {
        if path.extension().is_some_and(|e| e == "wgsl" || e == "spv") {
            return Viewer::for_shader(path);
        }
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

    /// Runs the shader again with `program` as the `wgrace` command.
    pub fn set_wgrace(&mut self, program: PathBuf) {
        self.runs.program = program;
    }

    /// Keeps the runs from the viewer in `dir` across sessions (the
    /// `wgrace-gui` binary: the platform's data directory), showing those an
    /// earlier session kept for this shader ([`Runs::keep_history_in`]).
    pub fn keep_history_in(&mut self, dir: &Path) {
        self.runs.keep_history_in(dir);
    }

    /// Leaves the panels' background to the window, which clears to their
    /// colour ([`App`] does): the picture is the same, and the renderer
    /// fills no panel. On a software renderer such as lavapipe, filling the
    /// window's panels costs more than everything else in a frame (a
    /// 1280x800 panel alone takes about 30 ms there); headless rendering
    /// (`--screenshot`, the tests) clears to transparent and keeps them.
    pub fn leave_background_to_window(&mut self) {
        self.fill_panels = false;
    }

    /// The frame of a panel: `frame` without its fill when the window
    /// paints the background.
    fn panel_frame(&self, frame: egui::Frame) -> egui::Frame {
        if self.fill_panels { frame } else { frame.fill(Color32::TRANSPARENT) }
    }

    /// The runs from the viewer.
    pub fn runs(&self) -> &Runs {
        &self.runs
    }

    /// The run form, to fill in.
    pub fn run_form(&mut self) -> &mut runs::RunForm {
        &mut self.runs.form
    }

    /// Shows `report` (a run from the viewer, or one of the history),
    /// keeping the runs, the filters and the bottom panel's tab.
    fn load(&mut self, report: Report) {
        let runs = std::mem::take(&mut self.runs);
        let mut next = Viewer::showing(report, runs);
        next.bottom = self.bottom;
        next.view = View { place: None, run: None, ..self.view.clone() };
        next.shown = next.view.apply(&next.rows);
        next.selected = next.shown.first().copied();
        *self = next;
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
        self.poll_runs(ui.ctx());
        self.keyboard(ui);
        let side = self.panel_frame(egui::Frame::side_top_panel(ui.style()));
        let central = self.panel_frame(egui::Frame::central_panel(ui.style()));
        egui::Panel::top("summary").frame(side).show(ui, |ui| self.summary(ui));
        egui::Panel::right("details").frame(side).resizable(true).default_size(380.0).show(ui, |ui| {
            egui::ScrollArea::vertical().id_salt("details scroll").show(ui, |ui| self.details(ui));
        });
        egui::Panel::top("findings").frame(side).resizable(true).default_size(220.0).show(ui, |ui| self.findings(ui));
        let adapters = self.report.adapters().len() > 1;
        egui::Panel::bottom("bottom").frame(side).resizable(true).default_size(280.0).show(ui, |ui| {
            ui.horizontal(|ui| {
                ui.selectable_value(&mut self.bottom, Bottom::Where, "Where it happens");
                ui.selectable_value(&mut self.bottom, Bottom::Timeline, "Timeline");
                if adapters {
                    ui.selectable_value(&mut self.bottom, Bottom::Adapters, "Adapters");
                }
                ui.selectable_value(&mut self.bottom, Bottom::Runs, "Runs");
            });
            if !adapters && self.bottom == Bottom::Adapters {
                self.bottom = Bottom::Where;
            }
            egui::ScrollArea::both().id_salt("bottom scroll").show(ui, |ui| {
                match self.bottom {
                    Bottom::Where => self.where_view(ui),
                    Bottom::Timeline => self.timeline_view(ui),
                    Bottom::Adapters => self.adapters_view(ui),
                    Bottom::Runs => self.runs_view(ui),
                }
                // Room for the scroll bars, which float over the content.
                ui.add_space(14.0);
            });
        });
        egui::CentralPanel::default().frame(central).show(ui, |ui| self.source_view(ui));
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
            if let Some(file) = &report.shader.source_file {
                ui.label(format!("from {file}"));
            }
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
        suppressions(ui, report);
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
        // With several runs, a column says which run a row is of.
        let runs = self.report.runs.len() > 1;
        let mut table = TableBuilder::new(ui)
            .id_salt("findings table")
            .striped(true)
            .sense(Sense::click())
            .column(TableColumn::exact(80.0));
        if runs {
            table = table.column(TableColumn::initial(150.0).resizable(true));
        }
        let mut table = table
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
                if runs {
                    header.col(|ui| {
                        ui.strong("Run");
                    });
                }
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
                    if runs {
                        row.col(|ui| {
                            ui.label(&r.run_label);
                        });
                    }
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

    /// The cross-vendor matrix, whose buttons list one run's findings.
    fn adapters_view(&mut self, ui: &mut egui::Ui) {
        ui.heading("Adapters");
        if let Some(run) = adapters::show(ui, &self.report, self.view.run) {
            self.set_view(View { run, ..self.view.clone() });
            if self.selected.is_none_or(|s| !self.shown.contains(&s)) {
                self.selected = self.shown.first().copied();
                self.reveal = true;
            }
        }
    }

    /// Takes a finished run's report, and starts a run when watch mode
    /// sees the shader change; keeps frames coming while either may happen.
    fn poll_runs(&mut self, ctx: &egui::Context) {
        if self.runs.file_changed() {
            self.runs.start();
        }
        if let Some(report) = self.runs.poll() {
            self.load(report);
        }
        if self.runs.job.is_some() {
            ctx.request_repaint_after(std::time::Duration::from_millis(100));
        } else if self.runs.watch {
            ctx.request_repaint_after(runs::WATCH_INTERVAL);
        }
    }

    /// The run form, the run in progress, the history and the comparison of
    /// two runs.
    fn runs_view(&mut self, ui: &mut egui::Ui) {
        let mut show = None;
        ui.horizontal_top(|ui| {
            ui.vertical(|ui| {
                ui.strong("Run the shader");
                ui.horizontal(|ui| {
                    let running = self.runs.job.is_some();
                    if ui.add_enabled(!running, egui::Button::new("Run")).clicked() {
                        self.runs.start();
                    }
                    if let Some(job) = &self.runs.job {
                        if ui.button("Cancel").clicked() {
                            job.cancel();
                        }
                        ui.spinner();
                        ui.label(format!("running, {:.1} s: {}", job.elapsed(), job.progress))
                            .on_hover_text(&job.command);
                    }
                    ui.checkbox(&mut self.runs.watch, "Watch the shader file")
                        .on_hover_text("run again whenever the file changes (edit it in your own editor)");
                });
                if let Some(e) = &self.runs.error {
                    ui.label(
                        RichText::new(format!("The run gave no report: {e}")).color(Color32::from_rgb(220, 80, 60)),
                    );
                }
                runs_form(ui, &mut self.runs.form);
            });
            ui.separator();
            ui.vertical(|ui| {
                ui.strong("History");
                for (i, entry) in self.runs.history.iter().enumerate() {
                    let text = entry.label();
                    if ui.selectable_label(false, &text).on_hover_text("show this run").clicked() {
                        show = Some(i);
                    }
                }
            });
            ui.separator();
            ui.vertical(|ui| self.comparison(ui));
        });
        if let Some(i) = show {
            let report = self.runs.history[i].report.clone();
            self.load(report);
        }
    }

    /// What changed between two runs of the history.
    fn comparison(&mut self, ui: &mut egui::Ui) {
        ui.strong("Compare two runs");
        let n = self.runs.history.len();
        if n < 2 {
            ui.label("Run the shader again to compare runs.");
            return;
        }
        ui.horizontal(|ui| {
            for (slot, label) in [(0, "Compare run"), (1, "with run")] {
                let value = &mut self.runs.compare[slot];
                egui::ComboBox::from_label(label).selected_text(format!("{}", *value + 1)).show_ui(ui, |ui| {
                    for i in 0..n {
                        ui.selectable_value(value, i, format!("{}", i + 1));
                    }
                });
            }
        });
        let [a, b] = self.runs.compare.map(|i| i.min(n - 1));
        let c = runs::compare(&self.runs.history[a].report, &self.runs.history[b].report);
        for (title, items, colour) in [
            ("Fixed", &c.fixed, Color32::from_rgb(80, 170, 90)),
            ("New", &c.new, Color32::from_rgb(220, 80, 60)),
            ("Unchanged", &c.unchanged, ui.visuals().text_color()),
        ] {
            ui.label(RichText::new(format!("{title}: {}", items.len())).strong().color(colour));
            for item in items {
                ui.label(format!("  {item}"));
            }
        }
    }

    /// The run the heat maps show: the selected row's, else the first.
    fn heat_run(&self) -> usize {
        self.selected.and_then(|i| self.rows[i].run).unwrap_or(0)
    }

    /// "Where it happens": the heat maps of the races the filters keep
    /// (all but the heat maps' own), over the selected row's run.
    fn where_view(&mut self, ui: &mut egui::Ui) {
        let run_index = self.heat_run();
        let Some(run) = self.report.runs.get(run_index) else { return };
        let key = View { place: None, ..self.view.clone() };
        if self.heat.as_ref().is_none_or(|(r, v, _)| *r != run_index || *v != key) {
            let rows = key.apply(&self.rows).into_iter().map(|i| &self.rows[i]);
            self.heat = Some((run_index, key, Heat::of(rows, run_index)));
        }
        let Some((_, _, heat)) = &self.heat else { return };
        let mut clear = false;
        ui.horizontal(|ui| {
            ui.heading("Where it happens");
            if self.report.runs.len() > 1 {
                ui.label(format!("{} on {}", run.entry_point, run.adapter_label()));
            }
            if let Some(place) = &self.view.place {
                ui.label(format!("Listing only {}", heat::describe(place, heat.as_ref(), run)));
                clear = ui.button("Clear the heat-map filter").clicked();
            }
        });
        if clear {
            self.set_view(View { place: None, ..self.view.clone() });
            return;
        }
        let Some((_, _, Some(heat))) = &self.heat else {
            ui.label("No race the filters keep was counted on the GPU in this run.");
            return;
        };
        let selected_variable = self.selected.map(|i| self.rows[i].variable.as_str());
        let maps = heat::Maps { heat, run, run_index, place: self.view.place.as_ref(), selected_variable };
        let picked = heat::show(ui, &maps, &mut self.heat_view);
        if let Some(place) = picked {
            let view = View { place, ..self.view.clone() };
            self.set_view(view);
            if self.selected.is_none_or(|s| !self.shown.contains(&s)) {
                self.selected = self.shown.first().copied();
                self.reveal = true;
            }
        }
    }

    /// "Timeline": one workgroup's accesses to the racing sites by barrier
    /// interval, of the selected row's run.
    fn timeline_view(&mut self, ui: &mut egui::Ui) {
        let run_index = self.heat_run();
        let Some(run) = self.report.runs.get(run_index) else { return };
        ui.horizontal(|ui| {
            ui.heading("Timeline");
            if self.report.runs.len() > 1 {
                ui.label(format!("{} on {}", run.entry_point, run.adapter_label()));
            }
        });
        let Some(site) = timeline::show(ui, run) else { return };
        // Select the first race of that run at the site, listing all rows
        // if the filters hide it.
        let at_site = |r: &Race| r.first.site == Some(site) || r.second.site == Some(site);
        let found = (0..self.rows.len())
            .find(|&i| self.rows[i].run == Some(run_index) && self.races_of(&self.rows[i]).into_iter().any(at_site));
        if let Some(i) = found {
            if !self.shown.contains(&i) {
                self.set_view(View { sort: self.view.sort, descending: self.view.descending, ..View::default() });
            }
            self.selected = Some(i);
            self.reveal = true;
        }
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
                RowKind::Race { run, .. } => {
                    let language = self.report.shader.language;
                    detail::race(ui, row, &self.races_of(row), &self.report.runs[*run], language)
                }
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

/// What the bottom panel shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Bottom {
    /// The heat maps.
    Where,
    /// One workgroup's timeline.
    Timeline,
    /// The cross-vendor matrix.
    Adapters,
    /// The runs from the viewer.
    Runs,
}

/// The run form's fields, each labelled.
fn runs_form(ui: &mut egui::Ui, form: &mut runs::RunForm) {
    egui::Grid::new("run form").num_columns(2).show(ui, |ui| {
        let fields: [(&str, &mut String, &str); 6] = [
            ("Shader", &mut form.shader, "path of a .wgsl or .spv file"),
            ("Entry point", &mut form.entry, "all"),
            ("Dispatch", &mut form.dispatch, "X[,Y[,Z]]"),
            ("Buffers", &mut form.buffers, "NAME=LEN …"),
            ("Fills", &mut form.fills, "NAME=VALUE …"),
            ("Adapter", &mut form.adapter, "name or all"),
        ];
        for (label, value, hint) in fields {
            let l = ui.label(label);
            ui.add(egui::TextEdit::singleline(value).hint_text(hint).desired_width(260.0)).labelled_by(l.id);
            ui.end_row();
        }
        let l = ui.label("Mode");
        egui::ComboBox::from_id_salt("run mode")
            .selected_text(if form.mode.is_empty() { "default" } else { &form.mode })
            .show_ui(ui, |ui| {
                ui.selectable_value(&mut form.mode, String::new(), "default");
                ui.selectable_value(&mut form.mode, "addr".into(), "addr");
                ui.selectable_value(&mut form.mode, "stmt".into(), "stmt");
            })
            .response
            .labelled_by(l.id);
        ui.end_row();
        let l = ui.label("Other flags");
        ui.add(egui::TextEdit::singleline(&mut form.other).hint_text("--max-races 100 …").desired_width(260.0))
            .labelled_by(l.id);
        ui.end_row();
    });
}

/// The `wgrace` command: beside this program (`cargo build` puts both in
/// one folder), else on `PATH`.
pub fn default_wgrace() -> PathBuf {
    let name = format!("wgrace{}", std::env::consts::EXE_SUFFIX);
    std::env::current_exe()
        .ok()
        .and_then(|exe| exe.parent().map(|dir| dir.join(&name)))
        .filter(|p| p.is_file())
        .unwrap_or_else(|| PathBuf::from(name))
}

/// The viewer as an eframe application: the window clears to the panels'
/// colour, and the panels leave their background to it.
pub struct App(pub Viewer);

impl App {
    pub fn new(mut viewer: Viewer) -> App {
        viewer.leave_background_to_window();
        App(viewer)
    }
}

impl eframe::App for App {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        self.0.ui(ui);
    }

    fn clear_color(&self, visuals: &egui::Visuals) -> [f32; 4] {
        visuals.panel_fill.to_normalized_gamma_f32()
    }
}

/// The report's suppressions, each with what it kept out of the findings
/// (races and findings of the shader's `// wgrace: allow(…)` comments and
/// the `--suppressions` files); the unused ones stand out.
fn suppressions(ui: &mut egui::Ui, report: &Report) {
    if report.suppressions.is_empty() {
        return;
    }
    let kept: usize = report.runs.iter().map(|r| r.suppressed.len()).sum();
    let unused = report.unused_suppressions().count();
    let mut title = format!("{kept} suppressed by {} suppression(s)", report.suppressions.len());
    if unused > 0 {
        title.push_str(&format!(", {unused} unused"));
    }
    egui::CollapsingHeader::new(title).id_salt("suppressions").show(ui, |ui| {
        for s in &report.suppressions {
            let reason = s.reason.as_ref().map_or(String::new(), |r| format!(" ({r})"));
            let text = format!("{} at {}: matched {}{reason}", s.describe(), s.origin, s.matched);
            // `--same-value-notes`'s claims nothing, so it is never unused.
            if s.matched == 0 && !s.same_value {
                ui.label(RichText::new(format!("{text}: unused")).color(Color32::from_rgb(220, 170, 40)));
            } else {
                ui.label(text);
            }
        }
    });
}
