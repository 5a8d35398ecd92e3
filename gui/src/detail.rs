//! The detail pane: what the selected finding is, where, who, and how to
//! fix it.

use eframe::egui::{self, Color32, RichText};
use wgrace_report::{Access, Finding, Invocation, LOCKSTEP_WIDTHS, Lockstep, Race, Run};

use crate::app::{FIRST_COLOUR, SECOND_COLOUR};
use crate::model::Row;

/// A racing pair: `races` are its races, one per class.
pub fn race(ui: &mut egui::Ui, row: &Row, races: &[&Race], run: &Run, language: wgrace_report::Language) {
    let Some(first) = races.first() else {
        return;
    };
    let what = match first.memory.texel {
        Some(_) => "storage texture".to_string(),
        None => format!("{} variable", first.memory.space.as_str()),
    };
    ui.heading(format!("Data race ({}) on {what} `{}`", first.kind.as_str(), first.memory.variable));
    if !row.run_label.is_empty() {
        ui.label(format!("Run: {}", row.run_label));
    }
    ui.label(format!("Occurrences: {}", row.occurrences));
    section(ui, "Accesses");
    access(ui, "First access", &first.first, FIRST_COLOUR);
    access(ui, "Second access", &first.second, SECOND_COLOUR);

    section(ui, "Memory");
    let m = &first.memory;
    ui.label(format!("Variable: {} ({})", m.variable, m.space.as_str()));
    if let (Some(g), Some(b)) = (m.group, m.binding) {
        ui.label(format!("Binding: @group({g}) @binding({b})"));
    }
    ui.label(format!("Element: {}", m.element));
    if let Some(t) = &m.texel {
        let coordinates: Vec<String> = t.coordinates.iter().map(u32::to_string).collect();
        let layer = t.layer.map(|l| format!(", layer {l}")).unwrap_or_default();
        ui.label(format!("Texel: ({}){layer}, mip level {}", coordinates.join(", "), t.mip_level));
    }
    ui.label(format!("Byte offset: {}", m.byte_offset));

    for race in races {
        section(ui, &format!("Class: {}", race.class.as_str()));
        ui.label(&race.explanation);
        ui.label(RichText::new(format!("Fix: {}", race.hint)).italics());
    }

    if races.iter().any(|r| !r.examples.is_empty()) {
        section(ui, "Example invocation pairs");
        egui::Grid::new("examples").striped(true).show(ui, |ui| {
            ui.strong("Element");
            ui.strong("First");
            ui.strong("Second");
            ui.end_row();
            for e in races.iter().flat_map(|r| &r.examples) {
                ui.label(&e.element);
                ui.label(invocation(e.first.as_ref()));
                ui.label(invocation(e.second.as_ref()));
                ui.end_row();
            }
        });
    }

    section(ui, "Lock-step execution");
    let lockstep = Lockstep::of_all(&races.iter().map(|r| &r.lockstep).collect::<Vec<_>>());
    ui.label(lockstep.describe_for(language));
    egui::Grid::new("lockstep").show(ui, |ui| {
        ui.strong("Subgroup width");
        for w in LOCKSTEP_WIDTHS {
            ui.label(w.to_string());
        }
        ui.end_row();
        ui.strong("Race visible");
        for w in LOCKSTEP_WIDTHS {
            let visible = !lockstep.hidden_at(w);
            ui.label(RichText::new(if visible { "yes" } else { "hidden" }).color(if visible {
                Color32::from_rgb(220, 80, 60)
            } else {
                Color32::GRAY
            }));
        }
        ui.end_row();
    });
    if let Some(adapter) = &run.adapter {
        ui.label(format!(
            "This run: {} (subgroup size {}-{})",
            adapter.name, adapter.subgroup_size[0], adapter.subgroup_size[1]
        ));
    }
}

/// A finding of another check.
pub fn finding(ui: &mut egui::Ui, row: &Row, f: &Finding) {
    ui.heading(format!("{} ({})", f.check, f.severity.as_str()));
    if !row.run_label.is_empty() {
        ui.label(format!("Run: {}", row.run_label));
    }
    ui.label(&f.message);
    ui.label(format!("Occurrences: {}", f.occurrences));
    if !f.locations.is_empty() {
        section(ui, "Where");
        for (i, l) in f.locations.iter().enumerate() {
            let colour = if i == 0 { FIRST_COLOUR } else { SECOND_COLOUR };
            let line = l.location.line.map_or_else(|| "-".to_string(), |n| n.to_string());
            ui.label(RichText::new(format!("{} (line {line}): {}", l.label, l.location.snippet.trim())).color(colour));
        }
    }
    if let Some(m) = &f.memory {
        section(ui, "Memory");
        ui.label(format!("Variable: {} ({}), element {}", m.variable, m.space.as_str(), m.element));
    }
    if !f.invocations.is_empty() {
        section(ui, "Invocations");
        for inv in &f.invocations {
            ui.label(invocation(Some(inv)));
        }
    }
    for d in &f.details {
        ui.label(d);
    }
    if let Some(unchecked) = &f.incomplete {
        section(ui, "Not checked");
        ui.label(unchecked);
    }
    section(ui, "What it means");
    ui.label(&f.explanation);
    ui.label(RichText::new(format!("Fix: {}", f.hint)).italics());
}

fn section(ui: &mut egui::Ui, title: &str) {
    ui.add_space(6.0);
    ui.strong(title);
}

fn access(ui: &mut egui::Ui, title: &str, a: &Access, colour: Color32) {
    let line = a.location.line.map_or_else(|| "-".to_string(), |n| n.to_string());
    ui.label(RichText::new(format!("{title}: {} at line {line}", a.access.as_str())).color(colour).strong());
    ui.label(RichText::new(a.location.snippet.trim()).monospace());
    if a.invocation.is_some() {
        ui.label(format!("by {}", invocation(a.invocation.as_ref())));
    }
}

fn invocation(i: Option<&Invocation>) -> String {
    match i {
        Some(i) => {
            let [x, y, z] = i.workgroup_id;
            let [lx, ly, lz] = i.local_invocation_id;
            format!("workgroup ({x}, {y}, {z}), local ({lx}, {ly}, {lz})")
        }
        None => "-".to_string(),
    }
}
