//! What the viewer shows, computed from the report model alone (no egui):
//! one row per racing pair or other finding, and the filters and sort
//! order over them.

use std::collections::BTreeMap;

use wgrace_report::{Finding, Race, Report, Run, Spread};

/// The check id of races, as `wgrace checks` lists it.
pub const DATA_RACE: &str = "data-race";

/// What a row stands for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RowKind {
    /// A racing pair of accesses: the races of run `run` (one per class)
    /// that share its variable and its two sites.
    Race { run: usize, races: Vec<usize> },
    /// A finding of run `run`, or of the report (the runs together) when
    /// `run` is `None`.
    Finding { run: Option<usize>, index: usize },
}

/// One row of the findings list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    pub kind: RowKind,
    /// The check that found it.
    pub check: String,
    /// Race classes (`intra-workgroup`, …), or the finding's severity.
    pub classes: Vec<String>,
    /// The variable, when the finding is about one.
    pub variable: String,
    /// The lines of its two accesses (or a finding's first two locations).
    pub lines: [Option<u32>; 2],
    pub occurrences: u64,
    /// How lock-step execution of subgroups would change a race, in a few
    /// words.
    pub lockstep: String,
    /// Entry point and adapter, when the report has several runs.
    pub run_label: String,
    /// The run it belongs to (`None`: the report's own findings).
    pub run: Option<usize>,
    /// Where its races happened, its classes together (races the runtime
    /// detected).
    pub spread: Option<RowSpread>,
    /// What identifies it across runs of an edited shader, whose lines
    /// move: a race's two accesses' source text, a finding's message.
    pub identity: String,
    /// Everything the text filter searches, lower case.
    haystack: String,
}

/// Columns of the findings list, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Column {
    Check,
    Class,
    Variable,
    First,
    Second,
    Occurrences,
    Lockstep,
}

impl Column {
    pub const ALL: [Column; 7] = [
        Column::Check,
        Column::Class,
        Column::Variable,
        Column::First,
        Column::Second,
        Column::Occurrences,
        Column::Lockstep,
    ];

    pub fn title(self) -> &'static str {
        match self {
            Column::Check => "Check",
            Column::Class => "Class",
            Column::Variable => "Variable",
            Column::First => "Line",
            Column::Second => "Other line",
            Column::Occurrences => "Occurrences",
            Column::Lockstep => "Lock-step",
        }
    }
}

/// Where a row's races happened: the report's `Spread`s of its classes,
/// summed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RowSpread {
    /// Cells of the dispatch grid along x, y, z.
    pub cells: [u32; 3],
    /// Workgroups in a cell along x, y, z.
    pub workgroups_per_cell: [u32; 3],
    /// Occurrences per cell index, for the cells with any.
    pub workgroups: BTreeMap<u64, u64>,
    /// Bytes of the variable per range.
    pub range_bytes: u64,
    /// Occurrences per range, for the ranges with any.
    pub ranges: BTreeMap<u64, u64>,
}

/// A cell of a heat map that filters the list: a cell of run `run`'s
/// dispatch grid, or a range of one of its variables.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Place {
    /// Cell `cell` (an index, `Spread::workgroups`) of the dispatch grid.
    Workgroups { run: usize, cell: u64 },
    /// Range `range` of variable `variable`.
    Memory { run: usize, variable: String, range: u64 },
}

impl Place {
    fn holds(&self, row: &Row) -> bool {
        let Some(spread) = &row.spread else { return false };
        match self {
            Place::Workgroups { run, cell } => row.run == Some(*run) && spread.workgroups.contains_key(cell),
            Place::Memory { run, variable, range } => {
                row.run == Some(*run) && &row.variable == variable && spread.ranges.contains_key(range)
            }
        }
    }
}

/// What the list shows: rows of run `run`, whose check and class match,
/// that happened in `place` (each when set), and whose text contains `text`
/// (case-insensitive), sorted by `sort`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct View {
    pub run: Option<usize>,
    pub check: Option<String>,
    pub class: Option<String>,
    pub place: Option<Place>,
    pub text: String,
    pub sort: Column,
    pub descending: bool,
}

impl Default for View {
    fn default() -> Self {
        View {
            run: None,
            check: None,
            class: None,
            place: None,
            text: String::new(),
            sort: Column::First,
            descending: false,
        }
    }
}

/// The rows of `report`: races grouped by run, variable and site pair, then
/// the runs' other findings, then the report's.
pub fn rows(report: &Report) -> Vec<Row> {
    let several_runs = report.runs.len() > 1;
    let mut out = Vec::new();
    for (r, run) in report.runs.iter().enumerate() {
        let run_label =
            if several_runs { format!("{} on {}", run.entry_point, run.adapter_name()) } else { String::new() };
        let mut groups: Vec<(Key, Vec<usize>)> = Vec::new();
        for (i, race) in run.races.iter().enumerate() {
            let key = Key::of(race);
            match groups.iter_mut().find(|(k, _)| *k == key) {
                Some((_, members)) => members.push(i),
                None => groups.push((key, vec![i])),
            }
        }
        for (_, members) in groups {
            out.push(race_row(run, r, members, &run_label));
        }
        for (i, finding) in run.findings.iter().enumerate() {
            out.push(finding_row(finding, RowKind::Finding { run: Some(r), index: i }, &run_label));
        }
    }
    for (i, finding) in report.findings.iter().enumerate() {
        let label = if several_runs { "all runs".to_string() } else { String::new() };
        out.push(finding_row(finding, RowKind::Finding { run: None, index: i }, &label));
    }
    out
}

/// What makes two races one racing pair.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Key {
    variable: String,
    sites: [Option<u32>; 2],
    lines: [Option<u32>; 2],
}

impl Key {
    fn of(race: &Race) -> Key {
        let mut pair = [(race.first.site, race.first.location.line), (race.second.site, race.second.location.line)];
        pair.sort();
        Key { variable: race.memory.variable.clone(), sites: [pair[0].0, pair[1].0], lines: [pair[0].1, pair[1].1] }
    }
}

fn race_row(run: &Run, r: usize, members: Vec<usize>, run_label: &str) -> Row {
    let races: Vec<&Race> = members.iter().map(|&i| &run.races[i]).collect();
    let first = races[0];
    let mut classes: Vec<String> = races.iter().map(|r| r.class.as_str().to_string()).collect();
    classes.dedup();
    let lockstep = wgrace_report::Lockstep::of_all(&races.iter().map(|r| &r.lockstep).collect::<Vec<_>>());
    let lockstep = match lockstep.hidden_from {
        None => "every width".to_string(),
        Some(w) => format!("hidden at {w}+"),
    };
    let lines = [first.first.location.line, first.second.location.line];
    let mut spread: Option<RowSpread> = None;
    for s in races.iter().filter_map(|r| r.spread.as_ref()) {
        let sum = spread.get_or_insert_with(|| RowSpread {
            cells: s.cells,
            workgroups_per_cell: s.workgroups_per_cell,
            range_bytes: s.range_bytes,
            ..Default::default()
        });
        for &[cell, n] in &s.workgroups {
            *sum.workgroups.entry(cell).or_default() += n;
        }
        for &[range, n] in &s.ranges {
            *sum.ranges.entry(range).or_default() += n;
        }
    }
    let haystack = format!(
        "{} {} {} {} {} {} {}",
        first.class.check(),
        classes.join(" "),
        first.memory.variable,
        first.first.location.snippet,
        first.second.location.snippet,
        first.explanation,
        run_label
    )
    .to_lowercase();
    Row {
        kind: RowKind::Race { run: r, races: members },
        check: first.class.check().to_string(),
        classes,
        variable: first.memory.variable.clone(),
        lines,
        occurrences: races.iter().map(|r| r.occurrences).sum(),
        lockstep,
        run_label: run_label.to_string(),
        run: Some(r),
        spread,
        identity: {
            let mut sides = [first.first.location.snippet.trim(), first.second.location.snippet.trim()];
            sides.sort_unstable();
            sides.join(" / ")
        },
        haystack,
    }
}

fn finding_row(finding: &Finding, kind: RowKind, run_label: &str) -> Row {
    let mut lines = [None, None];
    for (slot, l) in lines.iter_mut().zip(&finding.locations) {
        *slot = l.location.line;
    }
    let variable = finding.memory.as_ref().map(|m| m.variable.clone()).unwrap_or_default();
    let haystack =
        format!("{} {} {} {variable} {run_label}", finding.check, finding.severity.as_str(), finding.message)
            .to_lowercase();
    Row {
        run: match &kind {
            RowKind::Finding { run, .. } => *run,
            RowKind::Race { run, .. } => Some(*run),
        },
        kind,
        check: finding.check.clone(),
        classes: vec![finding.severity.as_str().to_string()],
        variable,
        lines,
        occurrences: finding.occurrences,
        lockstep: String::new(),
        run_label: run_label.to_string(),
        spread: None,
        identity: finding.message.clone(),
        haystack,
    }
}

impl View {
    /// The indices of the rows to show, in order.
    pub fn apply(&self, rows: &[Row]) -> Vec<usize> {
        let text = self.text.to_lowercase();
        let mut shown: Vec<usize> = (0..rows.len())
            .filter(|&i| {
                let row = &rows[i];
                self.run.is_none_or(|r| row.run == Some(r))
                    && self.check.as_ref().is_none_or(|c| &row.check == c)
                    && self.class.as_ref().is_none_or(|c| row.classes.contains(c))
                    && self.place.as_ref().is_none_or(|p| p.holds(row))
                    && (text.is_empty() || row.haystack.contains(&text))
            })
            .collect();
        shown.sort_by(|&a, &b| {
            let (a, b) = (&rows[a], &rows[b]);
            let order = match self.sort {
                Column::Check => a.check.cmp(&b.check),
                Column::Class => a.classes.cmp(&b.classes),
                Column::Variable => a.variable.cmp(&b.variable),
                Column::First => a.lines[0].cmp(&b.lines[0]).then(a.lines[1].cmp(&b.lines[1])),
                Column::Second => a.lines[1].cmp(&b.lines[1]).then(a.lines[0].cmp(&b.lines[0])),
                Column::Occurrences => a.occurrences.cmp(&b.occurrences),
                Column::Lockstep => a.lockstep.cmp(&b.lockstep),
            };
            if self.descending { order.reverse() } else { order }
        });
        shown
    }
}

/// The checks and classes the rows have, for the filters' choices.
pub fn choices(rows: &[Row]) -> (Vec<String>, Vec<String>) {
    let mut checks: Vec<String> = rows.iter().map(|r| r.check.clone()).collect();
    checks.sort();
    checks.dedup();
    let mut classes: Vec<String> = rows.iter().flat_map(|r| r.classes.iter().cloned()).collect();
    classes.sort();
    classes.dedup();
    (checks, classes)
}

/// Per source line, the rows that take part in it: gutter markers.
pub fn lines_in_findings(rows: &[Row]) -> std::collections::BTreeMap<u32, Vec<usize>> {
    let mut out = std::collections::BTreeMap::<u32, Vec<usize>>::new();
    for (i, row) in rows.iter().enumerate() {
        let mut lines: Vec<u32> = row.lines.iter().flatten().copied().collect();
        lines.dedup();
        for l in lines {
            out.entry(l).or_default().push(i);
        }
    }
    out
}

/// Where the races of some rows of one run happened, summed: what the heat
/// maps draw.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Heat {
    /// The cells of the dispatch grid (a `Spread` without counts).
    pub grid: Spread,
    /// Occurrences per cell index (every cell).
    pub workgroups: Vec<u64>,
    /// Per variable with races: bytes per range, and occurrences per range.
    pub memory: BTreeMap<String, (u64, BTreeMap<u64, u64>)>,
}

impl Heat {
    /// The heat of `rows` (those of run `run` with a spread).
    pub fn of<'a>(rows: impl IntoIterator<Item = &'a Row>, run: usize) -> Option<Heat> {
        let mut heat: Option<Heat> = None;
        for row in rows.into_iter().filter(|r| r.run == Some(run)) {
            let Some(s) = &row.spread else { continue };
            let h = heat.get_or_insert_with(|| Heat {
                grid: Spread { cells: s.cells, workgroups_per_cell: s.workgroups_per_cell, ..Spread::default() },
                workgroups: vec![0; s.cells.iter().map(|&c| c.max(1) as usize).product()],
                memory: BTreeMap::new(),
            });
            for (&cell, &n) in &s.workgroups {
                if let Some(slot) = h.workgroups.get_mut(cell as usize) {
                    *slot += n;
                }
            }
            let (_, ranges) = h.memory.entry(row.variable.clone()).or_insert_with(|| (s.range_bytes, BTreeMap::new()));
            for (&range, &n) in &s.ranges {
                *ranges.entry(range).or_default() += n;
            }
        }
        heat
    }

    /// The most occurrences in one cell.
    pub fn hottest_cell(&self) -> u64 {
        self.workgroups.iter().copied().max().unwrap_or(0)
    }
}
