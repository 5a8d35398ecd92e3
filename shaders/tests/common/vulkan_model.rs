//! The Vulkan memory model's data races in one execution, computed the
//! slow, obvious way: the reference for wgrace's checks of SPIR-V
//! synchronization, release/acquire included (docs/detector.md, "SPIR-V
//! input"), after the memory model appendix of the Vulkan specification.
//!
//! An execution is a trace of events, each by one agent (an invocation,
//! with its workgroup and subgroup), in an order the GPU could have
//! executed them: each agent's events in program order; an atomic read
//! reads the latest atomic write of its location before it (so the trace
//! order of a location's atomics is their scoped modification order); and
//! the k-th control barrier of each agent of one execution-scope instance
//! (workgroup or subgroup) is one dynamic barrier, all of whose events come
//! before any event that follows it in one of its agents.
//!
//! What it follows of the model:
//!
//! - *Synchronizes-with*: a release atomic with an acquire atomic that reads
//!   from its release sequence (the release, then read-modify-writes); a
//!   release fence with an acquire atomic that reads an atomic write made
//!   after the fence; a release atomic with an acquire fence after an atomic
//!   read of it; two fences through an atomic write and read; and two
//!   barriers (or a barrier and fences around it) through a control
//!   barrier. Each needs the two operations in each other's memory scope,
//!   the atomics mutually ordered (each in the other's scope), and, for a
//!   fence, the atomic's storage class in its semantics.
//! - *Inter-thread-happens-before<SC>* for the storage class of the location
//!   in question: synchronizes-with between operations whose semantics name
//!   that class, extended by program order before the release and after the
//!   acquire, transitively (vector clocks, one per storage class).
//! - *Location-ordered*: by program order within an agent; between agents,
//!   only for non-private accesses (atomics are non-private): a read before
//!   a write when the read happens-before the write; a write before another
//!   access once an availability operation made it available to a domain
//!   both agents share, happening before the other access (and, for a read,
//!   a visibility operation from there happening before the read). The
//!   operations are the accesses' own (`MakePointerAvailable`,
//!   `MakePointerVisible`, and atomics, at their scope) or those of
//!   barriers, fences and atomics with `MakeAvailable` or `MakeVisible`
//!   semantics; chains of them (`vulkanMemoryModelAvailabilityVisibilityChains`)
//!   are not followed.
//! - *Data race*: two accesses of one location, at least one writing, not
//!   mutually ordered atomics, and neither location-ordered before the
//!   other.

/// A scope, narrowest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Scope {
    Invocation,
    Subgroup,
    Workgroup,
    Device,
}

/// A storage class that semantics can name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    /// Buffers (`UniformMemory`).
    Buffer,
    /// Shared memory (`WorkgroupMemory`).
    Shared,
}

/// Memory semantics.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Semantics {
    pub acquire: bool,
    pub release: bool,
    /// `UniformMemory`.
    pub buffer: bool,
    /// `WorkgroupMemory`.
    pub shared: bool,
    pub make_available: bool,
    pub make_visible: bool,
}

impl Semantics {
    /// Relaxed: no ordering, no storage class.
    pub const RELAXED: Semantics = Semantics {
        acquire: false,
        release: false,
        buffer: false,
        shared: false,
        make_available: false,
        make_visible: false,
    };

    pub fn names(&self, class: Class) -> bool {
        match class {
            Class::Buffer => self.buffer,
            Class::Shared => self.shared,
        }
    }
}

/// An invocation: its workgroup, and its subgroup within the workgroup.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Agent {
    pub workgroup: u32,
    pub subgroup: u32,
}

/// A memory location: a word of one storage class.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Location {
    pub class: Class,
    pub word: u32,
}

/// What an event does.
#[derive(Clone, Copy, Debug)]
pub enum Op {
    /// `OpLoad` or `OpStore`: `non_private` for `NonPrivatePointer`, `made`
    /// the scope of its `MakePointerAvailable` (a store) or
    /// `MakePointerVisible` (a load).
    Plain { at: Location, write: bool, non_private: bool, made: Option<Scope> },
    /// An atomic instruction: a load reads, a store writes, a
    /// read-modify-write (that wrote) does both.
    Atomic { at: Location, read: bool, write: bool, scope: Scope, semantics: Semantics },
    /// `OpMemoryBarrier`.
    Fence { scope: Scope, semantics: Semantics },
    /// `OpControlBarrier`.
    Barrier { execution: Scope, memory: Scope, semantics: Semantics },
}

/// One event of the trace.
#[derive(Clone, Copy, Debug)]
pub struct Event {
    pub agent: usize,
    pub op: Op,
}

/// Whether the instance of `scope` around agent `a` holds agent `b`.
pub fn holds(agents: &[Agent], scope: Scope, a: usize, b: usize) -> bool {
    match scope {
        Scope::Invocation => a == b,
        Scope::Subgroup => agents[a] == agents[b],
        Scope::Workgroup => agents[a].workgroup == agents[b].workgroup,
        Scope::Device => true,
    }
}

type Clock = Vec<u32>;

/// An agent's arrival at a control barrier: the agent, the barrier's memory
/// scope and semantics, and the agent's clock there.
type Arrival = (usize, Scope, Semantics, Clock);

fn join(into: &mut Clock, from: &Clock) {
    for (x, y) in into.iter_mut().zip(from) {
        *x = (*x).max(*y);
    }
}

/// A release that an acquire can synchronize with: the releasing agent's
/// clock at the release, the release's memory scope and semantics, and
/// (through an atomic) the atomic write an acquire must read and its scope.
#[derive(Clone, Debug)]
struct Release {
    clock: Clock,
    agent: usize,
    scope: Scope,
    semantics: Semantics,
    /// The atomic write the acquiring side reads (its agent is `agent`) and
    /// its scope, or none through a control barrier.
    write: Option<(Location, Scope)>,
}

/// The happens-before clocks of every event, for synchronization naming
/// `class` (inter-thread-happens-before<{class}>): `clocks[i][a]` is the
/// number of agent `a`'s events that happen before event `i` or are it.
fn clocks(agents: &[Agent], trace: &[Event], class: Class) -> Vec<Clock> {
    let n = agents.len();
    let mut clock: Vec<Clock> = vec![vec![0; n]; n];
    let mut release_fences: Vec<Vec<Release>> = vec![Vec::new(); n];
    // Releases an agent read (or passed at a barrier) that an acquire
    // fence may still turn into synchronization.
    let mut pending: Vec<Vec<Release>> = vec![Vec::new(); n];
    // The release sequences of each atomic location's latest write.
    let mut sequences: Vec<(Location, Vec<Release>)> = Vec::new();
    // Dynamic barriers: (execution scope's first agent, index) → arrivals
    // (agent, its clock if the barrier releases, its release fences).
    let mut barriers_passed: Vec<u32> = vec![0; n];
    let mut arrivals: Vec<((usize, u32), Vec<Arrival>)> = Vec::new();
    let mut out = Vec::with_capacity(trace.len());
    for e in trace {
        let a = e.agent;
        clock[a][a] += 1;
        match e.op {
            Op::Plain { .. } => {}
            Op::Fence { scope, semantics } => {
                if semantics.release && semantics.names(class) {
                    release_fences[a].push(Release {
                        clock: clock[a].clone(),
                        agent: a,
                        scope,
                        semantics,
                        write: None,
                    });
                }
                if semantics.acquire && semantics.names(class) {
                    for r in std::mem::take(&mut pending[a]) {
                        // Through an atomic, its storage class must be in the
                        // fence's semantics.
                        let class_named = r.write.is_none_or(|(at, _)| semantics.names(at.class));
                        if class_named && holds(agents, r.scope, r.agent, a) && holds(agents, scope, a, r.agent) {
                            let c = r.clock.clone();
                            join(&mut clock[a], &c);
                        } else {
                            pending[a].push(r);
                        }
                    }
                }
            }
            Op::Atomic { at, read, write, scope, semantics } => {
                let sequence = sequences.iter().position(|(l, _)| *l == at);
                if read && let Some(s) = sequence {
                    for r in sequences[s].1.clone() {
                        let (_, write_scope) = r.write.expect("a release sequence's write");
                        // Mutually ordered with the write it reads from.
                        if !(holds(agents, write_scope, r.agent, a) && holds(agents, scope, a, r.agent)) {
                            continue;
                        }
                        let acquires = semantics.acquire && semantics.names(class);
                        if acquires && holds(agents, r.scope, r.agent, a) && holds(agents, scope, a, r.agent) {
                            join(&mut clock[a], &r.clock);
                        } else {
                            pending[a].push(r);
                        }
                    }
                }
                if write {
                    let mut heads = Vec::new();
                    if semantics.release && semantics.names(class) {
                        let clock = clock[a].clone();
                        heads.push(Release { clock, agent: a, scope, semantics, write: Some((at, scope)) });
                    }
                    // A release fence before an atomic write releases through
                    // it when the fence names the write's storage class.
                    for f in release_fences[a].iter().filter(|f| f.semantics.names(at.class)) {
                        heads.push(Release { write: Some((at, scope)), ..f.clone() });
                    }
                    match sequence {
                        // A read-modify-write continues the release sequences.
                        Some(s) if read => sequences[s].1.extend(heads),
                        Some(s) => sequences[s].1 = heads,
                        None => sequences.push((at, heads)),
                    }
                }
            }
            Op::Barrier { execution, memory, semantics } => {
                let first = (0..n).find(|&b| holds(agents, execution, a, b)).expect("the agent itself");
                let key = (first, barriers_passed[a]);
                barriers_passed[a] += 1;
                let arrival = (a, memory, semantics, clock[a].clone());
                match arrivals.iter_mut().find(|(k, _)| *k == key) {
                    Some((_, list)) => list.push(arrival),
                    None => arrivals.push((key, vec![arrival])),
                }
                let (_, list) = arrivals.iter().find(|(k, _)| *k == key).expect("just added");
                let members = (0..n).filter(|&b| holds(agents, execution, a, b)).count();
                if list.len() == members {
                    let list = list.clone();
                    barrier_synchronizes(agents, class, &list, &release_fences, &mut clock, &mut pending);
                }
            }
        }
        out.push(clock[a].clone());
    }
    out
}

/// A dynamic control barrier that every agent of its instance reached
/// (`arrivals`: agent, the barrier's memory scope and semantics, its clock
/// there): each agent's release (the barrier, or a release fence before
/// it) synchronizes with each other agent's acquire (the barrier, or an
/// acquire fence after it) when they are in each other's memory scope.
fn barrier_synchronizes(
    agents: &[Agent],
    class: Class,
    arrivals: &[Arrival],
    release_fences: &[Vec<Release>],
    clock: &mut [Clock],
    pending: &mut [Vec<Release>],
) {
    let mut releases: Vec<Release> = Vec::new();
    for (a, memory, semantics, at) in arrivals {
        if semantics.release && semantics.names(class) {
            releases.push(Release { clock: at.clone(), agent: *a, scope: *memory, semantics: *semantics, write: None });
        }
        releases.extend(release_fences[*a].iter().cloned());
    }
    for (b, memory, semantics, _) in arrivals {
        for r in releases.iter().filter(|r| r.agent != *b) {
            if semantics.acquire && semantics.names(class) {
                if holds(agents, r.scope, r.agent, *b) && holds(agents, *memory, *b, r.agent) {
                    join(&mut clock[*b], &r.clock);
                }
            } else {
                // An acquire fence after the barrier may acquire it.
                pending[*b].push(r.clone());
            }
        }
    }
}

/// Availability or visibility operations of an event, at a scope: the
/// access's own (`None` for none), and those of semantics.
fn made_by(op: &Op, class: Class, visible: bool) -> Option<Scope> {
    match *op {
        Op::Plain { made, write, at, .. } if at.class == class && write != visible => made,
        Op::Atomic { scope, at, .. } if at.class == class => Some(scope),
        _ => None,
    }
}

fn by_semantics(op: &Op, class: Class, visible: bool) -> Option<Scope> {
    let (scope, semantics) = match *op {
        Op::Atomic { scope, semantics, .. } | Op::Fence { scope, semantics } => (scope, semantics),
        Op::Barrier { memory, semantics, .. } => (memory, semantics),
        Op::Plain { .. } => return None,
    };
    let flag = if visible { semantics.make_visible } else { semantics.make_available };
    (flag && semantics.names(class)).then_some(scope)
}

/// The data races of `trace`: pairs of event indices, the earlier first.
pub fn races(agents: &[Agent], trace: &[Event]) -> Vec<(usize, usize)> {
    let hb = [Class::Buffer, Class::Shared].map(|c| clocks(agents, trace, c));
    // The number of its agent's events up to and including each event.
    let mut seen = vec![0u32; agents.len()];
    let epoch: Vec<u32> = trace
        .iter()
        .map(|e| {
            seen[e.agent] += 1;
            seen[e.agent]
        })
        .collect();
    let access = |op: &Op| match *op {
        Op::Plain { at, write, non_private, .. } => Some((at, false, write, non_private)),
        Op::Atomic { at, read, write, .. } => Some((at, read, write, true)),
        _ => None,
    };
    let mut out = Vec::new();
    for (j, y) in trace.iter().enumerate() {
        let Some((at, _, y_write, y_shared)) = access(&y.op) else { continue };
        let hb = &hb[usize::from(at.class == Class::Shared)];
        let happens_before = |i: usize, to: usize| hb[to][trace[i].agent] >= epoch[i];
        for (i, x) in trace[..j].iter().enumerate() {
            let Some((x_at, _, x_write, x_shared)) = access(&x.op) else { continue };
            if x_at != at || !(x_write || y_write) || x.agent == y.agent {
                continue;
            }
            let (a, b) = (x.agent, y.agent);
            if let (Op::Atomic { scope: sx, .. }, Op::Atomic { scope: sy, .. }) = (x.op, y.op)
                && holds(agents, sx, a, b)
                && holds(agents, sy, b, a)
            {
                continue;
            }
            let ordered = x_shared
                && y_shared
                && if !x_write {
                    happens_before(i, j)
                } else {
                    available_and_visible(agents, trace, hb, &epoch, i, j, at.class, y_write)
                };
            if !ordered {
                out.push((i, j));
            }
        }
    }
    out
}

/// Whether the write `i` is made available to a domain that the agents of
/// `i` and `j` share, by an operation that happens before `j` (and, unless
/// `j` writes, visible from there to `j` by an operation of `j`'s agent that
/// happens after the availability and before `j`).
#[allow(clippy::too_many_arguments)]
fn available_and_visible(
    agents: &[Agent],
    trace: &[Event],
    hb: &[Clock],
    epoch: &[u32],
    i: usize,
    j: usize,
    class: Class,
    j_writes: bool,
) -> bool {
    let (a, b) = (trace[i].agent, trace[j].agent);
    let shared = |scope: Scope| holds(agents, scope, a, b);
    // Availability operations: the write's own, or of semantics after it in
    // its agent; each with the events that happen after it.
    let mut av: Vec<usize> = Vec::new();
    if made_by(&trace[i].op, class, false).is_some_and(shared) {
        av.push(i);
    }
    av.extend(
        (i + 1..j).filter(|&k| trace[k].agent == a && by_semantics(&trace[k].op, class, false).is_some_and(shared)),
    );
    let after = |k: usize, to: usize| k == to || hb[to][trace[k].agent] >= epoch[k];
    av.iter().any(|&k| {
        if !after(k, j) {
            return false;
        }
        if j_writes {
            return true;
        }
        let sees = |scope: Scope| holds(agents, scope, b, a);
        // Visibility: the read's own, or of semantics before it in its agent.
        if made_by(&trace[j].op, class, true).is_some_and(sees) {
            return true;
        }
        (k + 1..j)
            .any(|v| trace[v].agent == b && by_semantics(&trace[v].op, class, true).is_some_and(sees) && after(k, v))
    })
}
