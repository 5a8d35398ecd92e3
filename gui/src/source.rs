//! The shader's source: highlighted WGSL (or, for SPIR-V, the GLSL or HLSL
//! its debug information carries), a marker in the gutter of every line that
//! takes part in a finding, and the selected finding's lines in their
//! colours.

use std::collections::BTreeMap;

use eframe::egui::{self, Color32, FontId, TextFormat, text::LayoutJob};
use wgrace_report::{Language, Race, ShaderInfo};

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

/// The shader's source text, split into lines, and how to colour it.
#[derive(Clone, Debug, Default)]
pub struct Source {
    /// The lines (line `n` is `lines[n - 1]`).
    pub lines: Vec<String>,
    /// Its words.
    syntax: Syntax,
    /// What the text is, above it (for SPIR-V: the file the module was
    /// compiled from), or why there is none.
    pub caption: Option<String>,
}

/// Whose keywords the highlighting knows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Syntax {
    #[default]
    Wgsl,
    /// GLSL, and near enough HLSL: SPIR-V's sources.
    Glsl,
}

impl Source {
    /// The source of `shader`.
    pub fn of(shader: &ShaderInfo) -> Source {
        let lines = shader.source.as_deref().unwrap_or("").lines().map(str::to_string).collect();
        match shader.language {
            Language::Wgsl => Source { lines, syntax: Syntax::Wgsl, caption: None },
            Language::SpirV => {
                let caption = match (&shader.source, &shader.source_file) {
                    (Some(_), Some(file)) => {
                        format!("{file}: the source of {}, from its debug information", shader.path)
                    }
                    (Some(_), None) => format!("The source of {}, from its debug information", shader.path),
                    (None, _) => format!(
                        "{} carries no source text: findings point at SPIR-V instructions. Compile with debug \
                         information (glslangValidator -g, glslc -g) to see the GLSL here, or put the source \
                         file its debug information names beside the module.",
                        shader.path
                    ),
                };
                Source { lines, syntax: Syntax::Glsl, caption: Some(caption) }
            }
        }
    }
}

/// Draws `source` (1-based line numbers) with the markers of `markers` and
/// the lines of `highlight`; with `reveal`, scrolls to the highlighted
/// lines. Returns the line whose marker was clicked.
pub fn show(
    ui: &mut egui::Ui,
    source: &Source,
    markers: &BTreeMap<u32, Vec<usize>>,
    highlight: &Highlight,
    reveal: bool,
) -> Option<u32> {
    if let Some(caption) = &source.caption {
        ui.label(egui::RichText::new(caption).italics());
    }
    let lines = &source.lines;
    if lines.is_empty() {
        if source.caption.is_none() {
            ui.label("The report holds no source text for this shader.");
        }
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
                ui.label(line_job(&lines[i], source.syntax, &font, background, ui.visuals().dark_mode));
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

const GLSL_KEYWORDS: &[&str] = &[
    "break",
    "buffer",
    "case",
    "coherent",
    "const",
    "continue",
    "default",
    "discard",
    "do",
    "else",
    "false",
    "flat",
    "for",
    "highp",
    "if",
    "in",
    "inout",
    "layout",
    "lowp",
    "mediump",
    "out",
    "precision",
    "readonly",
    "restrict",
    "return",
    "shared",
    "struct",
    "switch",
    "true",
    "uniform",
    "volatile",
    "while",
    "writeonly",
];

const GLSL_TYPES: &[&str] = &[
    "bool", "bvec2", "bvec3", "bvec4", "double", "float", "int", "ivec2", "ivec3", "ivec4", "mat2", "mat3", "mat4",
    "uint", "uvec2", "uvec3", "uvec4", "vec2", "vec3", "vec4", "void",
];

/// One line of source, coloured: comments, keywords, types, numbers and
/// attributes (WGSL's `@…`, GLSL's `#…` directives).
fn line_job(line: &str, syntax: Syntax, font: &FontId, background: Color32, dark: bool) -> LayoutJob {
    let (keywords, types, attribute_mark) = match syntax {
        Syntax::Wgsl => (KEYWORDS, TYPES, '@'),
        Syntax::Glsl => (GLSL_KEYWORDS, GLSL_TYPES, '#'),
    };
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
        if c == attribute_mark {
            chars.next();
            let end = word(&mut chars).max(start + 1);
            push(&code[start..end], attribute);
        } else if c.is_ascii_digit() {
            let end = word(&mut chars);
            push(&code[start..end], number);
        } else if c.is_alphabetic() || c == '_' {
            let end = word(&mut chars);
            let w = &code[start..end];
            let colour = if keywords.contains(&w) {
                keyword
            } else if types.contains(&w) {
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
