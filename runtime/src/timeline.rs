//! The report's timeline (`--timeline`): after a run that found races, what
//! one workgroup did with the racing sites, barrier interval by barrier
//! interval, gathered on the GPU by running the chunks up to that workgroup
//! again (`CheckedRun::timeline`, `shaders/wgsl/checks/data_race/timeline.wgsl`).

use wgrace_instrument::report::{Focus, Race, Timeline, TimelineAccess};
use wgrace_instrument::{Instrumented, Mode, Replay};
use wgrace_shaders::abi::{TIMELINE_INTERVALS, TIMELINE_SITES};

use crate::engine::{CheckedRun, TimelineWords};
use crate::gpu::Gpu;
use crate::spec::TimelineFocus;
use crate::{Error, Plan};

/// The timeline of a run that found `races`, or `None` when `--timeline
/// off` or no race has a recorded site. `lowest` is the log's lowest
/// workgroup in a race (its `lowest_workgroup`: bitwise not, 0 for none);
/// `inst` and `run` the run's instrumented shader and checked run, reused
/// when they record accesses.
///
/// # Errors
/// As [`CheckedRun::timeline`], and [`Error::Instrument`] when the shader
/// must be instrumented again to record its accesses.
pub(crate) fn gather(
    plan: &Plan,
    gpu: &Gpu,
    inst: &Instrumented,
    run: &CheckedRun,
    races: &[Race],
    lowest: u32,
) -> Result<Option<Timeline>, Error> {
    let dispatch = plan.spec.dispatch;
    let (focus, how) = match plan.spec.timeline {
        TimelineFocus::Off => return Ok(None),
        TimelineFocus::Workgroup(id) => (id[0] + dispatch[0] * (id[1] + dispatch[1] * id[2]), Focus::Chosen),
        TimelineFocus::FirstRacy if lowest == 0 => return Ok(None),
        TimelineFocus::FirstRacy => (!lowest, Focus::FirstRacy),
    };
    let mut sites: Vec<u32> = Vec::new();
    for race in races {
        for site in [race.first.site, race.second.site].into_iter().flatten() {
            if !sites.contains(&site) {
                sites.push(site);
            }
        }
    }
    if sites.is_empty() {
        return Ok(None);
    }
    let mut incomplete = Vec::new();
    if sites.len() > TIMELINE_SITES {
        incomplete
            .push(format!("{} sites took part in races; the timeline shows the first {TIMELINE_SITES}", sites.len()));
        sites.truncate(TIMELINE_SITES);
    }
    let mut slots = vec![0u32; inst.sites.len()];
    for (slot, &site) in sites.iter().enumerate() {
        if let Some(s) = slots.get_mut(site as usize) {
            *s = slot as u32 + 1;
        }
    }

    // The run's own pipeline when it recorded its accesses; else the shader
    // instrumented to record them (addr mode, same analyzer: same sites).
    let gathered = if inst.prelude.replays() {
        run.timeline(gpu, inst, &plan.buffers, focus, &slots)?
    } else {
        let recording = plan.instrument_for(
            gpu,
            plan.spec.analyzer,
            false,
            Mode::Addr,
            Replay::Always,
            // Without the engine where it would run for the missing-fence
            // check alone: it checks accesses in place, recording none.
            false,
        )?;
        if !recording.prelude.replays() || !same_sites(inst, &recording) {
            return Ok(Some(Timeline {
                incomplete: vec![
                    "the timeline needs the shader instrumented to record its accesses, which this shader cannot be \
                     (it leaves no workgroup memory for the replay)"
                        .into(),
                ],
                ..empty_timeline(plan, focus, how)
            }));
        }
        let checked = CheckedRun::new(gpu, &recording, &plan.buffers, dispatch, plan.spec.max_races)
            .map_err(|e| plan.explain(e))?;
        checked.timeline(gpu, &recording, &plan.buffers, focus, &slots)?
    };
    let TimelineWords { header, words } = gathered;
    if header.trace_lost > 0 {
        incomplete.push(format!(
            "{} recorded accesses and barriers did not fit the replay streams of the timeline's run",
            header.trace_lost
        ));
    }
    if header.replay_unreached > 0 {
        incomplete.push(format!(
            "the replay's loops ended before reaching {} recorded accesses and barriers (lavapipe ends a shader's \
             loops after 65,535 iterations in all)",
            header.replay_unreached
        ));
    }
    let invocations = inst.prelude.workgroup_invocations;
    let mut timeline = decode(&words, invocations, &sites);
    timeline.incomplete.splice(0..0, incomplete);
    Ok(Some(Timeline { workgroup_id: workgroup_id(focus, dispatch), focus: how, ..timeline }))
}

/// Whether two instrumentations of one shader number its sites alike.
fn same_sites(a: &Instrumented, b: &Instrumented) -> bool {
    a.sites.len() == b.sites.len()
        && a.sites.sites.iter().zip(&b.sites.sites).all(|(x, y)| x.kind == y.kind && x.location == y.location)
}

fn workgroup_id(g: u32, dispatch: [u32; 3]) -> [u32; 3] {
    let row = g / dispatch[0];
    [g % dispatch[0], row % dispatch[1], row / dispatch[1]]
}

fn empty_timeline(plan: &Plan, focus: u32, how: Focus) -> Timeline {
    Timeline {
        workgroup_id: workgroup_id(focus, plan.spec.dispatch),
        focus: how,
        invocations: plan.prepared.workgroup_size.iter().product(),
        ..Timeline::default()
    }
}

/// The timeline in `words` (the layout `timeline.wgsl` describes), for
/// workgroups of `invocations` and the sites of slots 0, 1, …
pub fn decode(words: &[u32], invocations: u32, sites: &[u32]) -> Timeline {
    let word = |i: usize| words.get(i).copied().unwrap_or(0);
    let intervals = word(0).min(TIMELINE_INTERVALS as u32);
    let n = invocations as usize;
    let mut accesses = Vec::new();
    for k in 0..intervals as usize {
        for t in 0..n {
            let cell = 2 + 2 * (k * n + t);
            let (touched, raced) = (word(cell), word(cell + 1));
            for (slot, &site) in sites.iter().enumerate() {
                let read = touched & (1 << (2 * slot)) != 0;
                let write = touched & (1 << (2 * slot + 1)) != 0;
                if read || write {
                    let raced = raced & (1 << slot) != 0;
                    accesses.push(TimelineAccess {
                        interval: k as u32,
                        invocation: t as u32,
                        site,
                        read,
                        write,
                        raced,
                    });
                }
            }
        }
    }
    Timeline {
        invocations,
        intervals,
        sites: sites.to_vec(),
        accesses,
        accesses_beyond: u64::from(word(1)),
        ..Timeline::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_cells_and_marks() {
        // Two invocations, two intervals; slot 0 is site 7, slot 1 site 3.
        let n = 2;
        let mut words = vec![0u32; wgrace_shaders::abi::timeline_words(n) as usize];
        words[0] = 2;
        words[1] = 5;
        let cell = |k: usize, t: usize| 2 + 2 * (k * n as usize + t);
        words[cell(0, 1)] = 0b10; // t 1 wrote slot 0 in interval 0
        words[cell(0, 1) + 1] = 0b1; // and raced
        words[cell(1, 0)] = 0b0101; // t 0 read slots 0 and 1 in interval 1
        let t = decode(&words, n, &[7, 3]);
        assert_eq!((t.intervals, t.accesses_beyond, t.invocations), (2, 5, 2));
        let got: Vec<(u32, u32, u32, bool, bool, bool)> =
            t.accesses.iter().map(|a| (a.interval, a.invocation, a.site, a.read, a.write, a.raced)).collect();
        assert_eq!(got, [(0, 1, 7, false, true, true), (1, 0, 7, true, false, false), (1, 0, 3, true, false, false)]);
    }

    #[test]
    fn numbers_workgroups_x_first() {
        assert_eq!(workgroup_id(0, [4, 3, 2]), [0, 0, 0]);
        assert_eq!(workgroup_id(5, [4, 3, 2]), [1, 1, 0]);
        assert_eq!(workgroup_id(13, [4, 3, 2]), [1, 0, 1]);
    }
}
