//! A large report for the frame-time examples.

use wgrace_gui::Viewer;
use wgrace_report::Report;

/// The report at `path` with its first run's races copied until it has
/// `rows` of them, each a racing pair of its own (sites and lines no other
/// copy has).
pub fn report(path: &str, rows: usize) -> anyhow::Result<Report> {
    let mut report = Viewer::open(std::path::Path::new(path))?.report().clone();
    let run = report.runs.first_mut().ok_or_else(|| anyhow::anyhow!("the report has no run"))?;
    let seed = run.races.clone();
    anyhow::ensure!(!seed.is_empty(), "the report has no race to copy");
    run.races.clear();
    for i in 0..rows {
        let mut race = seed[i % seed.len()].clone();
        race.first.site = Some(2 * i as u32);
        race.second.site = Some(2 * i as u32 + 1);
        race.first.location.line = Some(1 + (i % 400) as u32);
        race.second.location.line = Some(1 + ((i / 400) % 400) as u32);
        run.races.push(race);
    }
    Ok(report)
}

/// Median, 95th percentile and longest of `times` (milliseconds).
pub fn summary(times: &mut [f64]) -> String {
    times.sort_by(f64::total_cmp);
    format!(
        "median {:.1} ms, 95th percentile {:.1} ms, longest {:.1} ms",
        times[times.len() / 2],
        times[times.len() * 95 / 100],
        times[times.len() - 1]
    )
}
