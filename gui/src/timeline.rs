//! "Timeline": one workgroup's accesses to the sites that raced, invocation
//! by invocation (rows) and barrier interval by barrier interval (columns),
//! after CL-VIS's per-thread execution view. The GPU gathered them (the
//! report's `timeline`, `wgrace run --timeline`); an access the detector
//! found racing is red.

use eframe::egui::{self, Color32, Rect, Sense, Stroke, StrokeKind, Vec2};
use wgrace_report::{Run, Timeline, TimelineAccess};

/// Colours of a read, a write, and an access that raced.
const READ: Color32 = Color32::from_rgb(90, 140, 220);
const WRITE: Color32 = Color32::from_rgb(230, 170, 60);
const RACED: Color32 = Color32::from_rgb(220, 50, 40);

/// Height of an invocation's row.
const ROW: f32 = 16.0;

/// Draws run `run`'s timeline. Returns the site of an access the user
/// clicked (the caller selects a race at that site).
pub fn show(ui: &mut egui::Ui, run: &Run) -> Option<u32> {
    let Some(t) = &run.timeline else {
        ui.label(
            "This run has no timeline: it found no race, or ran with --timeline off. Run it again (Runs tab) to \
             gather one.",
        );
        return None;
    };
    let [x, y, z] = t.workgroup_id;
    ui.label(format!(
        "Workgroup ({x}, {y}, {z}), {}: its {} invocations (rows) by barrier interval (columns; interval k comes \
         after the workgroup's k-th barrier).",
        match t.focus {
            wgrace_report::Focus::FirstRacy => "the first workgroup that raced",
            wgrace_report::Focus::Chosen => "chosen with --timeline",
        },
        t.invocations
    ));
    legend(ui, t, run);
    for why in &t.incomplete {
        ui.label(egui::RichText::new(format!("Incomplete: {why}")).color(RACED));
    }
    if t.accesses_beyond > 0 {
        ui.label(format!(
            "{} accesses after interval {} are not shown.",
            t.accesses_beyond,
            t.intervals.saturating_sub(1)
        ));
    }
    if t.intervals == 0 || t.accesses.is_empty() {
        ui.label("The workgroup made no access to the sites that raced.");
        return None;
    }
    grid(ui, t, run)
}

/// The sites, each with its letter, and what the colours mean.
fn legend(ui: &mut egui::Ui, t: &Timeline, run: &Run) {
    ui.horizontal_wrapped(|ui| {
        ui.label(egui::RichText::new("read").color(READ).strong());
        ui.label(egui::RichText::new("write").color(WRITE).strong());
        ui.label(egui::RichText::new("raced").color(RACED).strong());
        ui.label("|");
        for (slot, &site) in t.sites.iter().enumerate() {
            ui.label(format!("{}: {}", letter(slot), site_name(run, site)));
        }
    });
}

/// Slot `slot`'s letter: A, B, …
fn letter(slot: usize) -> char {
    char::from(b'A' + (slot % 26) as u8)
}

/// A site in words: its variable, access kind and line.
fn site_name(run: &Run, site: u32) -> String {
    match run.sites.get(site) {
        Some(s) => match s.location.line {
            Some(line) => format!("{} of {}, line {line}", s.kind.as_str(), s.variable),
            None => format!("{} of {}", s.kind.as_str(), s.variable),
        },
        None => format!("site {site}"),
    }
}

/// The rows, virtualised: only those in view are laid out.
fn grid(ui: &mut egui::Ui, t: &Timeline, run: &Run) -> Option<u32> {
    let columns = t.intervals as usize;
    let slots = t.sites.len().max(1);
    let width = ((ui.available_width() - 90.0) / columns as f32).clamp(3.0 * slots as f32 + 4.0, 160.0);
    let mut picked = None;
    // The accesses of each invocation, in interval order (the report lists
    // them by interval, then invocation).
    let mut by_row: Vec<Vec<&TimelineAccess>> = vec![Vec::new(); t.invocations as usize];
    for a in &t.accesses {
        if let Some(row) = by_row.get_mut(a.invocation as usize) {
            row.push(a);
        }
    }
    ui.horizontal(|ui| {
        ui.add_space(70.0);
        for k in 0..columns {
            ui.add_sized(Vec2::new(width, ROW), egui::Label::new(format!("interval {k}")).truncate());
        }
    });
    // A height of its own: the bottom panel scrolls too, and rows are only
    // skipped where this area ends.
    egui::ScrollArea::vertical().id_salt("timeline rows").max_height(360.0).auto_shrink([false, true]).show_rows(
        ui,
        ROW,
        by_row.len(),
        |ui, rows| {
            for i in rows {
                ui.horizontal(|ui| {
                    ui.add_sized(Vec2::new(66.0, ROW), egui::Label::new(format!("invocation {i}")));
                    let (_, rect) = ui.allocate_space(Vec2::new(width * columns as f32, ROW));
                    for k in 0..columns {
                        let cell = Rect::from_min_size(
                            rect.min + Vec2::new(width * k as f32, 0.0),
                            Vec2::new(width - 2.0, ROW - 2.0),
                        );
                        ui.painter().rect_filled(cell, 1.0, ui.visuals().faint_bg_color.gamma_multiply(2.0));
                        let here: Vec<&TimelineAccess> =
                            by_row[i].iter().copied().filter(|a| a.interval as usize == k).collect();
                        if let Some(site) = accesses(ui, cell, i, k, &here, t, run) {
                            picked = Some(site);
                        }
                    }
                });
            }
        },
    );
    picked
}

/// One cell's accesses, a stripe per site; the cell is a button named for
/// what happened there, and a click picks its first racing site.
fn accesses(
    ui: &mut egui::Ui,
    cell: Rect,
    invocation: usize,
    interval: usize,
    here: &[&TimelineAccess],
    t: &Timeline,
    run: &Run,
) -> Option<u32> {
    if here.is_empty() {
        return None;
    }
    let stripe = cell.width() / t.sites.len().max(1) as f32;
    let mut words = Vec::new();
    for a in here {
        let slot = t.sites.iter().position(|&s| s == a.site).unwrap_or(0);
        let r = Rect::from_min_size(cell.min + Vec2::new(stripe * slot as f32, 0.0), Vec2::new(stripe, cell.height()));
        let fill = if a.write { WRITE } else { READ };
        ui.painter().rect_filled(r.shrink(0.5), 1.0, fill);
        if a.raced {
            ui.painter().rect_stroke(r.shrink(1.0), 1.0, Stroke::new(2.0, RACED), StrokeKind::Inside);
        }
        let did = match (a.read, a.write) {
            (true, true) => "reads and writes",
            (false, true) => "writes",
            _ => "reads",
        };
        words.push(format!(
            "{} ({}, {did}){}",
            letter(slot),
            site_name(run, a.site),
            if a.raced { ", raced" } else { "" }
        ));
    }
    let name = format!("Invocation {invocation}, interval {interval}: {}", words.join("; "));
    let id = ui.scope_id().with(("timeline cell", invocation, interval));
    let response = ui.interact(cell, id, Sense::click());
    if response.hovered() {
        ui.painter().rect_stroke(cell, 1.0, Stroke::new(1.0, ui.visuals().text_color()), StrokeKind::Outside);
    }
    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, true, &name));
    let response = response.on_hover_text(format!("{name}\nclick to select a race at this site"));
    if response.clicked() {
        let first = here.iter().find(|a| a.raced).or(here.first());
        return first.map(|a| a.site);
    }
    None
}
