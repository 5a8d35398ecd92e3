//! The report's timeline (`--timeline`): one workgroup's accesses to the
//! sites that raced, by invocation and barrier interval, gathered on the GPU
//! by a second run of the chunks up to it. Checked against the accesses
//! worked out by hand, in every way of detecting.

use wgrace::report::{Focus, Timeline};
use wgrace::spec::{ModeArg, RunArgs};
use wgrace_instrument::Replay;
use wgrace_instrument::checks::CheckSet;
use wgrace_tests::samples_dir;

use crate::support::require_gpu;

fn timeline(sample: &str, flags: RunArgs) -> Option<Timeline> {
    let path = samples_dir().join(sample);
    let (shader, _, spec) = wgrace::load_with_flags(&path, flags).expect("load");
    let report = crate::support::check_shader(&shader, &spec, &CheckSet::default()).expect("run").report;
    report.runs[0].timeline.clone()
}

fn every_way() -> [(&'static str, RunArgs); 5] {
    [
        ("default", RunArgs::default()),
        ("replay always", RunArgs { replay: Some(Replay::Always), ..RunArgs::default() }),
        ("replay never", RunArgs { replay: Some(Replay::Never), ..RunArgs::default() }),
        ("statement mode", RunArgs { mode: Some(ModeArg::Stmt), ..RunArgs::default() }),
        ("no analyzer", RunArgs { no_analyzer: true, ..RunArgs::default() }),
    ]
}

#[test]
fn a_reduction_s_steps_race_in_the_interval_after_the_barrier() {
    require_gpu!();
    // samples/wg_reduction_missing_barrier.wgsl: after a barrier, a loop
    // of steps with stride 32, 16, …, 1, where invocation t < stride writes
    // s[t] = s[t] + s[t + stride] (line 20), with no barrier between steps.
    for (what, flags) in every_way() {
        let t = timeline("wg_reduction_missing_barrier.wgsl", flags).expect(what);
        assert_eq!((t.workgroup_id, t.focus, t.invocations), ([0, 0, 0], Focus::FirstRacy, 64), "{what}");
        assert_eq!(t.intervals, 2, "{what}");
        assert!(t.incomplete.is_empty() && t.accesses_beyond == 0, "{what}: {t:?}");
        assert_eq!(t.sites.len(), 2, "{what}");
        // Every access is in interval 1, by an invocation below 32: one
        // write and one read per invocation, each at its own site.
        assert!(t.accesses.iter().all(|a| a.interval == 1 && a.invocation < 32), "{what}");
        let writes: Vec<u32> = t.accesses.iter().filter(|a| a.write).map(|a| a.invocation).collect();
        let reads: Vec<u32> = t.accesses.iter().filter(|a| a.read).map(|a| a.invocation).collect();
        assert_eq!(writes, (0..32).collect::<Vec<_>>(), "{what}");
        assert_eq!(reads, (0..32).collect::<Vec<_>>(), "{what}");
        assert!(t.accesses.iter().all(|a| a.read != a.write), "{what}");
        // Only accesses that race are marked: a read of s[t + stride] by t <
        // 16 (its owner writes it in the same interval), a write of s[t]
        // for 0 < t < 32 (t - stride reads it).
        for a in t.accesses.iter().filter(|a| a.raced) {
            let racing = if a.read { a.invocation < 16 } else { (1..32).contains(&a.invocation) };
            assert!(racing, "{what}: {a:?} is marked raced");
        }
        assert!(t.accesses.iter().any(|a| a.raced && a.read), "{what}");
        assert!(t.accesses.iter().any(|a| a.raced && a.write), "{what}");
    }
}

#[test]
fn the_timeline_follows_the_chosen_workgroup_or_none() {
    require_gpu!();
    // samples/storage_races_in_three_workgroups.wgsl: in workgroup (1, 2)
    // eight invocations write four words (line 17); workgroups (0, 0) and
    // (3, 3) both write word 0 by invocation 0 (line 19).
    let sample = "storage_races_in_three_workgroups.wgsl";
    for (what, flags) in every_way() {
        let first = timeline(sample, flags.clone()).expect(what);
        assert_eq!((first.workgroup_id, first.focus), ([0, 0, 0], Focus::FirstRacy), "{what}");
        let got: Vec<(u32, u32, bool, bool)> =
            first.accesses.iter().map(|a| (a.interval, a.invocation, a.write, a.raced)).collect();
        assert_eq!(got, [(0, 0, true, true)], "{what}");

        let chosen = timeline(sample, RunArgs { timeline: Some("1,2".into()), ..flags.clone() }).expect(what);
        assert_eq!((chosen.workgroup_id, chosen.focus, chosen.intervals), ([1, 2, 0], Focus::Chosen, 1), "{what}");
        let got: Vec<(u32, bool, bool)> = chosen.accesses.iter().map(|a| (a.invocation, a.write, a.raced)).collect();
        assert_eq!(got, (0..8).map(|t| (t, true, true)).collect::<Vec<_>>(), "{what}");

        // A workgroup that touches none of the racing sites.
        let quiet = timeline(sample, RunArgs { timeline: Some("2".into()), ..flags.clone() }).expect(what);
        assert_eq!((quiet.workgroup_id, quiet.intervals, quiet.accesses.len()), ([2, 0, 0], 0, 0), "{what}");

        assert_eq!(timeline(sample, RunArgs { timeline: Some("off".into()), ..flags }), None, "{what}");
    }
}

#[test]
fn a_race_free_run_has_no_timeline_and_bad_focus_is_refused() {
    require_gpu!();
    assert_eq!(timeline("wg_barrier.wgsl", RunArgs::default()), None);
    let path = samples_dir().join("storage_races_in_three_workgroups.wgsl");
    for bad in ["4,0", "0,0,1", "x", "1,2,3,4"] {
        let flags = RunArgs { timeline: Some(bad.into()), ..RunArgs::default() };
        let err = wgrace::load_with_flags(&path, flags).err().map(|e| e.to_string());
        assert!(err.as_deref().is_some_and(|e| e.starts_with("--timeline")), "{bad}: {err:?}");
    }
}
