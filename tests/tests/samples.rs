//! Every sample gets the verdict its header states, and every race wgrace
//! reports on it is a pair the header lists (format: samples/README.md).

use wgrace::spec::RunArgs;
use wgrace::{Plan, Verdict};
use wgrace_tests::{Sample, all_samples, samples_dir};

use crate::support::gpu;

/// Checks one sample; returns a description of what went wrong, if anything.
fn check(sample: &Sample) -> Result<(), String> {
    let (shader, _, spec) =
        wgrace::load_with_flags(&sample.path, RunArgs::default()).map_err(|e| format!("cannot load: {e}"))?;
    let plan = Plan::new(shader, spec).map_err(|e| format!("cannot plan: {e}"))?;
    let (report, _) = plan.check(gpu(), &mut |_, _| {}).map_err(|e| format!("cannot check: {e}"))?;
    let racy = report.verdict == Verdict::Race;
    if racy != sample.racy {
        return Err(format!("verdict {:?}, expected racy = {}", report.verdict, sample.racy));
    }
    if !report.complete {
        return Err(format!("incomplete report: {:?}", report.incomplete));
    }
    let mut listed = 0;
    for race in &report.races {
        let (a, b) = (race.first.location.line.unwrap_or(0), race.second.location.line.unwrap_or(0));
        let key = (race.class.as_str().to_string(), a.min(b), a.max(b));
        if sample.races.contains(&key) {
            listed += 1;
        } else {
            return Err(format!("reported {} {} {} is not a listed racing pair", key.0, key.1, key.2));
        }
    }
    if sample.racy && listed == 0 {
        return Err("no listed racing pair was reported".into());
    }
    Ok(())
}

#[test]
fn every_sample_gets_its_verdict_and_only_listed_pairs() {
    let samples = all_samples(&samples_dir());
    assert!(samples.len() >= 25, "expected at least 25 samples, found {}", samples.len());
    let failures: Vec<String> = samples
        .iter()
        .map(|p| Sample::read(p))
        .filter_map(|s| check(&s).err().map(|e| format!("{}: {e}", s.path.display())))
        .collect();
    assert!(failures.is_empty(), "{} of {} samples failed:\n{}", failures.len(), samples.len(), failures.join("\n"));
}
