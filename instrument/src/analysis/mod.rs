//! The static analyzer: which accesses need no instrumentation, and which
//! races are certain without running anything (after GRace §3.2).
//!
//! The analysis is specialised to one dispatch, as GRace's is to the kernel's
//! launch parameters: the workgroup size, the workgroup count and the
//! contents of the uniform and read-only storage buffers are constants. It
//! runs in two steps:
//!
//! 1. [`walk`] executes the entry point symbolically for a workgroup and
//!    records an [`walk::Event`] for every execution of an access the pass
//!    would instrument: its indices as [`value::Node`]s over the invocation's
//!    coordinates, the guards under which it runs, its barrier interval.
//! 2. [`pairs`] checks, per tracked variable, every pair of events with a
//!    write: by enumerating the invocations when that is cheap (exact), by
//!    affine dependence tests otherwise (sound, incomplete).
//!
//! A site is left uninstrumented when every pair it is in is proven
//! disjoint. Sites in a certain race are reported by `wgrace check` without
//! running anything; `wgrace run` keeps them instrumented, so the run reports
//! them with what only it can observe (subgroups, lock-step widths,
//! occurrences), and lists the static race itself only if the run did not.
//! The dynamic checker finds exactly what it finds without the analyzer
//! (`tests/` runs the corpus both ways).

pub(crate) mod pairs;
pub mod value;
pub(crate) mod walk;

use std::collections::HashMap;

use naga::valid::{FunctionInfo, ModuleInfo};
use naga::{Block, Handle, Module};
use serde::{Deserialize, Serialize};

pub use crate::plan::AccessKey;
use crate::plan::Plan;
use crate::report::{Invocation, RaceClass};
use crate::vars::TrackedVar;
pub use wgrace_report::SiteStatus;

/// What the analysis may assume about the dispatch.
#[derive(Clone, Debug, Default)]
pub struct AnalysisInput<'a> {
    /// Workgroup counts.
    pub dispatch: [u32; 3],
    /// Facts about the buffers, by global variable.
    pub buffers: HashMap<Handle<naga::GlobalVariable>, BufferFacts<'a>>,
}

/// What the analysis knows of one buffer.
#[derive(Clone, Copy, Debug, Default)]
pub struct BufferFacts<'a> {
    /// Element count of its trailing runtime-sized array.
    pub runtime_len: Option<u64>,
    /// Its contents when the dispatch starts. The analysis reads values from
    /// those of uniform and read-only storage buffers (constants), and the
    /// first value of atomic counters from the others.
    pub contents: Option<&'a [u8]>,
}

/// A race the analyzer proved: it happens in every run of this dispatch.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StaticRace {
    /// The two sites (`first <= second`).
    pub first: u32,
    pub second: u32,
    pub class: RaceClass,
    /// Tracked variable id.
    pub var: u32,
    /// The word both touch.
    pub word: u64,
    /// The invocations, at `first` and at `second`.
    pub first_invocation: Invocation,
    pub second_invocation: Invocation,
}

/// The analyzer's results for one entry point.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Analysis {
    /// Per site id.
    pub sites: Vec<SiteStatus>,
    /// Certain races.
    pub static_races: Vec<StaticRace>,
    /// Why the walk gave up (then every checked site stays instrumented).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gave_up: Option<String>,
    /// Loop iterations the walk unrolled, and loops it summarised.
    pub unrolled_iterations: u64,
    pub summarised_loops: u32,
    /// Per site id: whether its address is the same in every iteration of
    /// its innermost loop (which runs no barrier), so that recording its
    /// first execution in each instance of the loop is enough (GRace's
    /// loop-invariant addresses).
    #[serde(default)]
    pub loop_invariant: Vec<bool>,
    /// Per loop id (the loop table of `Instrumented::loops`): the most
    /// times any invocation starts the loop's body in one run of it, when
    /// the walk knows (every run of the loop it met has exits that are the
    /// same for every invocation, and known). The `loops` check does not
    /// count the iterations of a loop proven within its budget.
    #[serde(default)]
    pub loop_starts: Vec<Option<u64>>,
    /// Per index site (the index table of `Instrumented::indices`): whether
    /// every evaluation of its index is below its bound for this dispatch
    /// and input. The `bounds` check does not test those.
    #[serde(default)]
    pub index_in_bounds: Vec<bool>,
}

impl Analysis {
    /// Sites the analysis leaves uninstrumented.
    pub fn pruned(&self) -> usize {
        self.sites.iter().filter(|s| s.pruned()).count()
    }
}

/// What [`analyze`] reads of the planned module.
pub(crate) struct Planned<'a> {
    pub module: &'a Module,
    pub info: &'a ModuleInfo,
    pub ep_index: usize,
    pub tracked: &'a [TrackedVar],
    /// Every instrumentable access, with its function (`None`: the entry
    /// point).
    pub plans: Vec<(Option<usize>, AccessKey, &'a Plan)>,
    /// Number of sites, and which ones the runtime would check.
    pub checked: Vec<bool>,
    /// Each loop's body, by loop id.
    pub loops: Vec<*const Block>,
    /// The index sites, by function and access expression; and how many.
    pub indices: HashMap<(Option<usize>, Handle<naga::Expression>), walk::IndexFacts>,
    pub index_sites: usize,
}

/// Runs the analysis.
pub(crate) fn analyze(planned: &Planned<'_>, input: &AnalysisInput<'_>) -> Analysis {
    let module = planned.module;
    let ep = &module.entry_points[planned.ep_index];
    let plans: HashMap<(Option<usize>, AccessKey), &Plan> =
        planned.plans.iter().map(|&(f, key, plan)| ((f, key), plan)).collect();
    let ep_info = planned.info.get_entry_point(planned.ep_index);
    let handles: Vec<Handle<naga::Function>> = module.functions.iter().map(|(h, _)| h).collect();
    let infos = |f: Option<usize>| -> &FunctionInfo {
        match f {
            Some(i) => &planned.info[handles[i]],
            None => ep_info,
        }
    };
    let runtime_len = |var: usize| {
        let v = &planned.tracked[var];
        input.buffers.get(&v.handle).and_then(|b| b.runtime_len)
    };
    let walker = walk::Walker {
        module,
        input,
        plans: &plans,
        indices: &planned.indices,
        infos: &infos,
        workgroup_size: ep.workgroup_size,
        runtime_len: &runtime_len,
    };
    let walk = walker.run(ep);

    let mut sites: Vec<SiteStatus> =
        planned.checked.iter().map(|&c| if c { SiteStatus::NotExecuted } else { SiteStatus::Unchecked }).collect();
    let mut analysis = Analysis {
        gave_up: walk.abort.clone(),
        unrolled_iterations: walk.unrolled_iterations,
        summarised_loops: walk.summarised_loops,
        ..Analysis::default()
    };
    if let Some(reason) = &walk.abort {
        analysis.index_in_bounds = vec![false; planned.index_sites];
        for s in sites.iter_mut().filter(|s| **s != SiteStatus::Unchecked) {
            *s = SiteStatus::Instrumented(format!("the analysis gave up: {reason}"));
        }
        analysis.sites = sites;
        return analysis;
    }
    for e in &walk.events {
        if sites[e.site as usize] == SiteStatus::NotExecuted {
            sites[e.site as usize] = SiteStatus::RaceFree;
        }
    }
    let geometry = pairs::Geometry { workgroup_size: ep.workgroup_size, dispatch: input.dispatch };
    let tickets: Vec<Option<pairs::Tickets>> =
        walk.counters.iter().map(|c| tickets(module, input, &geometry, c)).collect();
    for (var, tracked) in planned.tracked.iter().enumerate() {
        let mut events: Vec<&walk::Event> = walk.events.iter().filter(|e| e.var == var).collect();
        if events.is_empty() {
            continue;
        }
        // A buffer no barrier orders: its events are all of one interval,
        // and a barrier of any kind between two tells barrier-kind races, as
        // the runtime's count of barriers does.
        let one_interval: Vec<walk::Event>;
        if tracked.unordered_by_barriers {
            one_interval = events
                .iter()
                .map(|e| walk::Event {
                    storage_interval: 0,
                    wg_interval: e.wg_interval + e.storage_interval,
                    ..(*e).clone()
                })
                .collect();
            events = one_interval.iter().collect();
        }
        let result = pairs::check_var(tracked.space, &events, &geometry, &tickets);
        for (site, why) in result.unresolved {
            sites[site as usize] = SiteStatus::Instrumented(why);
        }
        let mut conflicts: Vec<_> = result.conflicts.into_iter().collect();
        conflicts.sort_by_key(|&(pair, _)| pair);
        for ((a, b), c) in conflicts {
            if !c.certain {
                for s in [a, b] {
                    let other = if s == a { b } else { a };
                    mark(&mut sites[s as usize], format!("it may race with site {other} (not in every run)"));
                }
                continue;
            }
            analysis.static_races.push(StaticRace {
                first: a,
                second: b,
                class: c.class,
                var: tracked.id,
                word: c.word,
                first_invocation: invocation(c.a),
                second_invocation: invocation(c.b),
            });
            for s in [a, b] {
                if sites[s as usize] == SiteStatus::RaceFree {
                    sites[s as usize] = SiteStatus::StaticRace;
                }
            }
        }
    }
    analysis.sites = sites;
    // A site the walk never reached runs for no invocation.
    analysis.index_in_bounds = vec![!walk.indices_overflow; planned.index_sites];
    for e in &walk.indices {
        if let Some(proven) = analysis.index_in_bounds.get_mut(e.site as usize) {
            *proven = *proven && pairs::index_in_bounds(e, &geometry);
        }
    }
    analysis.loop_invariant = loop_invariant(planned, &walk.events);
    analysis.loop_starts = planned.loops.iter().map(|body| walk.loop_starts.get(body).copied().flatten()).collect();
    analysis
}

/// Whether a counter's tickets are unique, and below what: the invocations
/// that share it (a workgroup's, for workgroup memory; the dispatch's, for
/// storage) add less than 2³² to it in all. Workgroup memory starts at zero;
/// a storage counter starts at its buffer's initial contents, when known.
fn tickets(
    module: &Module,
    input: &AnalysisInput<'_>,
    geometry: &pairs::Geometry,
    c: &walk::Counter,
) -> Option<pairs::Tickets> {
    let per_workgroup = module.global_variables[c.global].space == naga::AddressSpace::WorkGroup;
    let workgroup: u64 = geometry.workgroup_size.iter().map(|&s| u64::from(s)).product();
    let sharing = if per_workgroup {
        workgroup
    } else {
        workgroup.saturating_mul(geometry.dispatch.iter().map(|&s| u64::from(s)).product())
    };
    let total = c.per_invocation?.checked_mul(sharing).filter(|&t| t <= 1 << 32)?;
    let first = if per_workgroup {
        Some(0)
    } else {
        let bytes = input.buffers.get(&c.global).and_then(|b| b.contents);
        let at = c.offset as usize;
        bytes.and_then(|b| b.get(at..at + 4)).map(|w| u64::from(u32::from_le_bytes([w[0], w[1], w[2], w[3]])))
    };
    let below = first.map(|f| f + total).filter(|&b| b <= 1 << 32);
    Some(pairs::Tickets { per_workgroup, below })
}

/// Which sites touch the same words in every iteration of their innermost
/// loop, in every instance of it, with no barrier in the loop. Each
/// invocation's later executions of such a site then repeat its first one
/// (same invocation, site, words and barrier interval), which neither
/// detector needs to see again.
fn loop_invariant(planned: &Planned<'_>, events: &[walk::Event]) -> Vec<bool> {
    let mut invariant = vec![false; planned.checked.len()];
    let mut by_site: HashMap<u32, Vec<&walk::Event>> = HashMap::new();
    for e in events {
        by_site.entry(e.site).or_default().push(e);
    }
    for &(_, _, plan) in &planned.plans {
        let Some(l) = plan.innermost_loop.filter(|l| l.barrier_free) else { continue };
        let Some(events) = by_site.get(&plan.site) else { continue };
        let mut first_of_instance: HashMap<u64, &walk::Event> = HashMap::new();
        let same = events.iter().all(|e| {
            let Some((_, instance)) = e.loop_instance.filter(|(body, _)| *body == l.body) else { return false };
            // A ticket differs in every iteration.
            let known = e
                .terms
                .iter()
                .all(|t| t.index.as_ref().is_some_and(|(_, n)| !n.uses(&value::ITERATION) && !n.has_ticket()));
            let first = *first_of_instance.entry(instance).or_insert(e);
            known
                && first.wg_interval == e.wg_interval
                && first.storage_interval == e.storage_interval
                && first.terms.iter().zip(&e.terms).all(|(a, b)| a.index == b.index)
        });
        invariant[plan.site as usize] = same;
    }
    invariant
}

fn mark(status: &mut SiteStatus, why: String) {
    if !matches!(status, SiteStatus::Instrumented(_)) {
        *status = SiteStatus::Instrumented(why);
    }
}

fn invocation(inv: pairs::Inv) -> Invocation {
    Invocation { workgroup_id: inv.workgroup, local_invocation_id: inv.local }
}
