//! The cross-vendor matrix: for a report of several adapters, each entry
//! point's verdict, race classes, lock-step width and output digests on
//! every adapter side by side, outputs that differ between adapters marked.

use eframe::egui::{self, Color32, RichText};
use wgrace_report::Report;

/// Draws the matrix of `report`'s runs, `listing` the run the list is
/// narrowed to. Returns the list's new run filter when an adapter was
/// clicked (`Some(None)`: all runs again).
pub fn show(ui: &mut egui::Ui, report: &Report, listing: Option<usize>) -> Option<Option<usize>> {
    let mut picked = None;
    // Digests and adapter names stay on one line; the panel scrolls.
    ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Extend);
    let titles = [
        "Entry point",
        "Adapter (a click lists its findings)",
        "Verdict",
        "Classes",
        "Hidden from",
        "Outputs (sha256)",
    ];
    egui::Grid::new("adapter matrix").striped(true).spacing([16.0, 4.0]).show(ui, |ui| {
        for title in titles {
            ui.strong(title);
        }
        ui.end_row();
        for (i, row) in report.matrix().into_iter().enumerate() {
            let run = row.run;
            let name = format!("{} on {}", run.entry_point, run.adapter_label());
            ui.label(&run.entry_point);
            let chosen = listing == Some(i);
            let adapter = ui.selectable_label(chosen, run.adapter_label()).on_hover_text("list this run's findings");
            adapter.widget_info(|| {
                egui::WidgetInfo::labeled(egui::Role::Button, true, format!("List the findings of {name}"))
            });
            if adapter.clicked() {
                picked = Some(if chosen { None } else { Some(i) });
            }
            let colour = match row.verdict {
                "no race" => Color32::from_rgb(80, 170, 90),
                _ => Color32::from_rgb(220, 80, 60),
            };
            let verdict = ui.label(RichText::new(row.verdict).strong().color(colour));
            verdict
                .widget_info(|| egui::WidgetInfo::labeled(egui::Role::Label, true, format!("{name}: {}", row.verdict)));
            ui.label(if row.classes.is_empty() { "-".to_string() } else { row.classes.join(", ") });
            ui.label(&row.hidden_from);
            ui.vertical(|ui| {
                if row.outputs.is_empty() {
                    ui.label("-");
                }
                for o in &row.outputs {
                    let (colour, why) = if o.differs {
                        (Color32::from_rgb(220, 80, 60), "differs between adapters")
                    } else {
                        (Color32::from_rgb(80, 170, 90), "the same on every adapter")
                    };
                    let text = format!("{} {}", o.variable, o.digest);
                    let response = ui.label(RichText::new(&text).monospace().color(colour)).on_hover_text(why);
                    response.widget_info(|| {
                        egui::WidgetInfo::labeled(egui::Role::Label, true, format!("{name}: {text} ({why})"))
                    });
                }
            });
            ui.end_row();
        }
    });
    picked
}
