//! The shader's source: highlighted WGSL, a marker in the gutter of every
//! line that takes part in a finding, and the selected finding's lines in
//! their colours.

use std::collections::BTreeMap;

use eframe::egui::{self, Color32, FontId, TextFormat, text::LayoutJob};
use wgrace_report::Race;

use crate::app::{FIRST_COLOUR, SECOND_COLOUR};
use crate::model::Row;

/// The lines of the selected finding, each with what it says there.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Highlight {
    pub first: Option<(u32, String)>,
    pub second: Option<(u32, String)>,
}

impl Highlight {
    /// The lines of `row`: for a race, its first and second access
    /// (`race`, the row's first race) and whether each read or wrote.
    pub fn of(row: Option<&Row>, race: Option<&Race>) -> Highlight {
        match (row, race) {
            (Some(_), Some(race)) => Highlight {
                first: race.first.location.line.map(|l| (l, format!("first access: {}", race.first.access.as_str()))),
                second: race
                    .second
                    .location
                    .line
                    .map(|l| (l, format!("second access: {}", race.second.access.as_str()))),
            },
            (Some(row), None) => Highlight {
                first: row.lines[0].map(|l| (l, "finding".to_string())),
                second: row.lines[1].filter(|&l| Some(l) != row.lines[0]).map(|l| (l, "finding".to_string())),
            },
            _ => Highlight::default(),
        }
    }

    fn at(&self, line: u32) -> Vec<(Color32, &str)> {
        let mut out = Vec::new();
        if let Some((l, text)) = &self.first
            && *l == line
        {
            out.push((FIRST_COLOUR, text.as_str()));
        }
        if let Some((l, text)) = &self.second
            && *l == line
        {
            out.push((SECOND_COLOUR, text.as_str()));
        }
        out
    }

    fn top_line(&self) -> Option<u32> {
        [&self.first, &self.second].into_iter().flatten().map(|(l, _)| *l).min()
    }
}

/// Draws `lines` (1-based line numbers) with the markers of `markers` and
/// the lines of `highlight`; with `reveal`, scrolls to the highlighted
/// lines. Returns the line whose marker was clicked.
pub fn show(
    ui: &mut egui::Ui,
    lines: &[String],
    markers: &BTreeMap<u32, Vec<usize>>,
    highlight: &Highlight,
    reveal: bool,
) -> Option<u32> {
    if lines.is_empty() {
        ui.label("The report holds no source text for this shader.");
        return None;
    }
    let font = egui::TextStyle::Monospace.resolve(ui.style());
    let row_height = ui.fonts_mut(|f| f.row_height(&font)).max(ui.spacing().interact_size.y);
    let mut area = egui::ScrollArea::both().id_salt("source").auto_shrink([false, false]);
    if reveal && let Some(top) = highlight.top_line() {
        let spacing = ui.spacing().item_spacing.y;
        area = area.vertical_scroll_offset((top.saturating_sub(4)) as f32 * (row_height + spacing));
    }
    let mut clicked = None;
    area.show_rows(ui, row_height, lines.len(), |ui, range| {
        for i in range {
            let number = i as u32 + 1;
            ui.horizontal(|ui| {
                match markers.get(&number) {
                    Some(rows) => {
                        let text = if rows.len() == 1 { "*".to_string() } else { format!("* {}", rows.len()) };
                        let name = format!("line {number}: {} finding(s)", rows.len());
                        let response = ui
                            .add_sized([36.0, row_height], egui::Button::new(text).small())
                            .on_hover_text(format!("{name}; click to select"));
                        response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, true, &name));
                        if response.clicked() {
                            clicked = Some(number);
                        }
                    }
                    None => {
                        ui.add_space(36.0 + ui.spacing().item_spacing.x);
                    }
                }
                ui.label(egui::RichText::new(format!("{number:>4}")).font(font.clone()).color(Color32::GRAY));
                let marks = highlight.at(number);
                let background = marks.first().map_or(Color32::TRANSPARENT, |(c, _)| c.gamma_multiply(0.35));
                ui.label(wgsl_job(&lines[i], &font, background, ui.visuals().dark_mode));
                for (colour, text) in marks {
                    ui.label(egui::RichText::new(format!("<- {text}")).color(colour).strong());
                }
            });
        }
    });
    clicked
}

const KEYWORDS: &[&str] = &[
    "alias",
    "break",
    "case",
    "const",
    "const_assert",
    "continue",
    "continuing",
    "default",
    "diagnostic",
    "discard",
    "else",
    "enable",
    "false",
    "fn",
    "for",
    "if",
    "let",
    "loop",
    "override",
    "requires",
    "return",
    "struct",
    "switch",
    "true",
    "var",
    "while",
];

const TYPES: &[&str] = &[
    "array",
    "atomic",
    "bool",
    "f16",
    "f32",
    "i32",
    "u32",
    "mat2x2",
    "mat3x3",
    "mat4x4",
    "ptr",
    "sampler",
    "vec2",
    "vec3",
    "vec4",
    "vec2f",
    "vec3f",
    "vec4f",
    "vec2u",
    "vec3u",
    "vec4u",
    "vec2i",
    "vec3i",
    "vec4i",
    "storage",
    "uniform",
    "workgroup",
    "private",
    "function",
    "read",
    "read_write",
    "write",
];

/// One line of WGSL, coloured: comments, keywords, types, numbers and
/// attributes.
fn wgsl_job(line: &str, font: &FontId, background: Color32, dark: bool) -> LayoutJob {
    let (plain, comment, keyword, ty, number, attribute) = if dark {
        (
            Color32::from_gray(220),
            Color32::from_rgb(120, 150, 120),
            Color32::from_rgb(200, 130, 220),
            Color32::from_rgb(110, 190, 210),
            Color32::from_rgb(210, 180, 120),
            Color32::from_rgb(220, 200, 110),
        )
    } else {
        (
            Color32::from_gray(30),
            Color32::from_rgb(60, 120, 60),
            Color32::from_rgb(140, 40, 160),
            Color32::from_rgb(20, 110, 140),
            Color32::from_rgb(150, 90, 20),
            Color32::from_rgb(140, 110, 0),
        )
    };
    let mut job = LayoutJob::default();
    let mut push = |text: &str, color: Color32| {
        job.append(text, 0.0, TextFormat { font_id: font.clone(), color, background, ..Default::default() });
    };
    let (code, rest) = match line.find("//") {
        Some(at) => line.split_at(at),
        None => (line, ""),
    };
    let mut chars = code.char_indices().peekable();
    while let Some(&(start, c)) = chars.peek() {
        let word = |chars: &mut std::iter::Peekable<std::str::CharIndices>| {
            let mut end = start;
            while let Some(&(i, c)) = chars.peek() {
                if c.is_alphanumeric() || c == '_' || c == '.' && start_is_digit(code, start) {
                    end = i + c.len_utf8();
                    chars.next();
                } else {
                    break;
                }
            }
            end
        };
        if c == '@' {
            chars.next();
            let end = word(&mut chars).max(start + 1);
            push(&code[start..end], attribute);
        } else if c.is_ascii_digit() {
            let end = word(&mut chars);
            push(&code[start..end], number);
        } else if c.is_alphabetic() || c == '_' {
            let end = word(&mut chars);
            let w = &code[start..end];
            let colour = if KEYWORDS.contains(&w) {
                keyword
            } else if TYPES.contains(&w) {
                ty
            } else {
                plain
            };
            push(w, colour);
        } else {
            chars.next();
            push(&code[start..start + c.len_utf8()], plain);
        }
    }
    if !rest.is_empty() {
        push(rest, comment);
    }
    job
}

fn start_is_digit(code: &str, start: usize) -> bool {
    code[start..].starts_with(|c: char| c.is_ascii_digit())
}
