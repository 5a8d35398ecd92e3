//! Pairs of events: can two invocations touch one word, unordered?
//!
//! For each tracked variable the events are checked in one of two ways:
//!
//! - **enumeration** (exact): when the invocations × words to visit fit a
//!   budget, every invocation's words are computed and compared. Workgroup
//!   memory only needs one workgroup's invocations unless an index or guard
//!   reads `workgroup_id`. A conflict between two `must` events is a certain
//!   race, with the word and the two invocations as its witness.
//! - **dependence tests** (sound, not complete): otherwise each access's word
//!   is put in affine form and pairs are separated by their ranges, by the
//!   *mixed-radix* test (when both forms share their coefficients and each
//!   coefficient exceeds the span of the smaller ones, distinct invocations
//!   land at least `m` words apart) or by the GCD test. These only prove
//!   pairs disjoint; what they cannot separate stays with the dynamic checker.
//!
//! - **tickets**: an access whose only index is what `atomicAdd` returned
//!   from a counter (a [`Node::Ticket`]) touches an element no other
//!   invocation's ticket of that counter names, provided the counter's
//!   tickets are unique ([`Tickets`]) and the index is in bounds (a guard
//!   `ticket < n`, or the counter's range). Such accesses pair with each
//!   other without a conflict; with any other access they stay instrumented.
//!
//! Within a workgroup only events of one barrier interval pair up; storage
//! events of different workgroups always do.

use std::collections::HashMap;

use super::value::{Affine, COORDS, Domain, ITERATION, Kind, LOCAL, Node, Op, Point, WORKGROUP};
use super::walk::Event;
use crate::report::RaceClass;
use crate::vars::Space;

/// Most (invocation, word) visits one variable's enumeration may make.
const ENUMERATION_BUDGET: u64 = 1 << 20;

/// An invocation: flat workgroup index and local index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Inv {
    pub workgroup: [u32; 3],
    pub local: [u32; 3],
}

/// Two accesses of a pair that touch one word, unordered.
#[derive(Clone, Copy, Debug)]
pub struct Conflict {
    /// Both events are exact: the race happens in every run of this input.
    pub certain: bool,
    pub class: RaceClass,
    pub word: u64,
    /// The invocation of the first site of the pair (`(a, b)`, `a <= b`).
    pub a: Inv,
    pub b: Inv,
}

/// The outcome for one variable.
#[derive(Debug, Default)]
pub struct Pairs {
    /// Conflicts found, by site pair `(a, b)`, `a <= b`.
    pub conflicts: HashMap<(u32, u32), Conflict>,
    /// Sites that must stay instrumented, with why.
    pub unresolved: HashMap<u32, String>,
}

impl Pairs {
    fn conflict(&mut self, x: (u32, Inv), y: (u32, Inv), certain: bool, class: RaceClass, word: u64) {
        let (a, b) = if x.0 <= y.0 { (x, y) } else { (y, x) };
        let new = Conflict { certain, class, word, a: a.1, b: b.1 };
        let slot = self.conflicts.entry((a.0, b.0)).or_insert(new);
        if certain && !slot.certain {
            *slot = new;
        }
    }

    fn unresolved(&mut self, site: u32, why: impl Into<String>) {
        self.unresolved.entry(site).or_insert_with(|| why.into());
    }

    /// Leaves `e` to the dynamic checker, and with it every event of
    /// `events` that may pair with it: what `e` touches is not known here,
    /// so no pair it is in is proven disjoint (a site proven race-free
    /// against the rest would go uninstrumented, and its races with `e`
    /// unseen).
    fn unresolved_with_partners(&mut self, space: Space, e: &Event, events: &[&Event], why: &str) {
        self.unresolved(e.site, why);
        for other in events {
            if other.site != e.site && (e.write || other.write) && may_pair(space, e, other) {
                self.unresolved(other.site, format!("it may touch the words of site {}", e.site));
            }
        }
    }
}

/// Whether two events can be unordered: within a workgroup only in one
/// barrier interval; storage events of different workgroups always.
fn may_pair(space: Space, a: &Event, b: &Event) -> bool {
    space == Space::Storage || a.wg_interval == b.wg_interval
}

/// What the checks need to know about the dispatch.
pub struct Geometry {
    pub workgroup_size: [u32; 3],
    pub dispatch: [u32; 3],
}

impl Geometry {
    fn invocations(&self) -> u64 {
        self.workgroup_size.iter().map(|&s| u64::from(s)).product()
    }

    fn workgroups(&self) -> u64 {
        self.dispatch.iter().map(|&s| u64::from(s)).product()
    }

    /// The coordinates an event ranges over.
    fn domain(&self, e: &Event) -> Domain {
        let mut b = [(0, 0); COORDS];
        for i in 0..3 {
            b[LOCAL[i]] = (0, i64::from(self.workgroup_size[i]) - 1);
            b[WORKGROUP[i]] = (0, i64::from(self.dispatch[i]) - 1);
        }
        for (l, &c) in ITERATION.iter().enumerate() {
            b[c] = (0, e.iterations[l].unwrap_or(0));
        }
        b
    }
}

/// What the analysis knows of the values an `atomicAdd` counter returns
/// ([`super::walk::Counter`]), when they are unique: every addition the
/// invocations sharing the counter make adds a positive constant, less than
/// 2³² in all, so the counter only grows and never returns a value twice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tickets {
    /// The counter is in workgroup memory: unique within a workgroup only.
    pub per_workgroup: bool,
    /// Every ticket is below this, when the counter's first value is known.
    pub below: Option<u64>,
}

/// Checks the events of one variable; `tickets` says, per counter, whether
/// its tickets are unique.
pub fn check_var(space: Space, events: &[&Event], geometry: &Geometry, tickets: &[Option<Tickets>]) -> Pairs {
    let mut out = Pairs::default();
    if !events.iter().any(|e| e.write) {
        return out;
    }
    // Ticket-indexed events: disjoint from each other (per counter), paired
    // with everything else.
    let counter = |e: &Event| ticket_index(space, e, tickets);
    for e in events.iter().filter(|e| counter(e).is_some()) {
        for other in events.iter().filter(|o| (e.write || o.write) && may_pair(space, e, o) && counter(o) != counter(e))
        {
            out.unresolved(e.site, format!("it may touch the words of site {}", other.site));
            out.unresolved(other.site, format!("it may touch the words of site {}", e.site));
        }
    }
    // The other events, with what they read of tickets taken as unknown.
    let events: Vec<Event> = events.iter().filter(|e| counter(e).is_none()).map(|e| without_tickets(e)).collect();
    let all: Vec<&Event> = events.iter().collect();
    // Events with an index the walk could not follow pair with everything.
    let mut exact = Vec::new();
    for e in &all {
        let nodes = || e.guards.iter().chain(e.terms.iter().filter_map(|t| t.index.as_ref().map(|(_, n)| n)));
        let unbounded =
            ITERATION.iter().enumerate().any(|(l, &c)| e.iterations[l].is_none() && nodes().any(|n| n.uses(&[c])));
        if !unbounded && e.terms.iter().all(|t| t.index.is_some() && t.bound.is_some()) {
            exact.push(*e);
        } else {
            out.unresolved_with_partners(space, e, &all, "an index is not known statically");
        }
    }
    if exact.is_empty() {
        return out;
    }
    let reads_workgroup = exact.iter().any(|e| {
        e.guards.iter().any(|g| g.uses(&WORKGROUP))
            || e.terms.iter().any(|t| t.index.as_ref().is_some_and(|(_, n)| n.uses(&WORKGROUP)))
    });
    let groups = match space {
        Space::Storage => geometry.workgroups(),
        Space::Workgroup if reads_workgroup => geometry.workgroups(),
        Space::Workgroup => 1,
    };
    let iterations = |e: &Event| e.iterations.iter().map(|m| m.map_or(1, |m| (m + 1).max(0) as u64)).product::<u64>();
    let visits: u64 = exact.iter().map(|e| u64::from(e.words) * geometry.invocations() * groups * iterations(e)).sum();
    if visits <= ENUMERATION_BUDGET {
        enumerate(space, &exact, geometry, groups > 1, &mut out);
        return out;
    }
    // Workgroup memory whose indices ignore the workgroup, under guards that
    // read it: one workgroup with those guards dropped covers every
    // workgroup (each one's accesses are a subset). Conflicts found so are
    // only possible ones.
    let indices_read_workgroup =
        exact.iter().any(|e| e.terms.iter().any(|t| t.index.as_ref().is_some_and(|(_, n)| n.uses(&WORKGROUP))));
    if space == Space::Workgroup && !indices_read_workgroup {
        let relaxed: Vec<Event> = exact
            .iter()
            .map(|e| Event {
                guards: e.guards.iter().filter(|g| !g.uses(&WORKGROUP)).cloned().collect(),
                must: false,
                ..(*e).clone()
            })
            .collect();
        let visits: u64 = relaxed.iter().map(|e| u64::from(e.words) * geometry.invocations() * iterations(e)).sum();
        if visits <= ENUMERATION_BUDGET {
            enumerate(space, &relaxed.iter().collect::<Vec<_>>(), geometry, false, &mut out);
            return out;
        }
    }
    dependence_tests(space, &exact, geometry, &mut out);
    out
}

// ---------------------------------------------------------------- tickets

/// The counter whose ticket is `e`'s only index, if that index touches an
/// element no other invocation's ticket names: the counter's tickets are
/// unique among the invocations that can reach the variable, the index is in
/// bounds (a guard, or the counter's range), and the access stays inside
/// the element.
fn ticket_index(space: Space, e: &Event, tickets: &[Option<Tickets>]) -> Option<u32> {
    let [term] = e.terms.as_slice() else { return None };
    let (_, index) = term.index.as_ref()?;
    let c = index.ticket()?;
    let t = tickets.get(c as usize).copied().flatten()?;
    let bound = term.bound?;
    let shared = space == Space::Workgroup || !t.per_workgroup;
    let inside = u64::from(e.const_words) + u64::from(e.words) <= u64::from(term.stride);
    let in_bounds = t.below.is_some_and(|b| b <= bound)
        || e.guards.iter().flat_map(|g| conjuncts(g)).any(|g| ticket_below(g, c, bound));
    (shared && inside && in_bounds).then_some(c)
}

/// Whether guard `g` says that a ticket of counter `c` is below `bound`
/// (`t < n`, `t <= n - 1`, `n > t` or `n - 1 >= t`, unsigned, with
/// `n <= bound`).
fn ticket_below(g: &Node, c: u32, bound: u64) -> bool {
    let Node::Binary { op, operand: Kind::U32, a, b, .. } = g else { return false };
    let (limit, strict) = match (op, a.ticket(), b.ticket()) {
        (Op::Lt, Some(t), None) if t == c => (b.known(), true),
        (Op::Le, Some(t), None) if t == c => (b.known(), false),
        (Op::Gt, None, Some(t)) if t == c => (a.known(), true),
        (Op::Ge, None, Some(t)) if t == c => (a.known(), false),
        _ => return false,
    };
    limit.is_some_and(|n| n >= 0 && (n as u64) < bound + u64::from(strict))
}

/// Conditions that all hold when `guard` does: the operands of `&&`, and
/// of `select(false, b, a)` (how `a && b` reads after naga lowers its short
/// circuit into a branch), recursively.
fn conjuncts(guard: &Node) -> Vec<&Node> {
    match guard {
        Node::Binary { op: Op::LogicalAnd, a, b, .. } => {
            let mut out = conjuncts(a);
            out.extend(conjuncts(b));
            out
        }
        Node::Select { condition, accept, reject, .. } if reject.known() == Some(0) => {
            let mut out = conjuncts(condition);
            out.extend(conjuncts(accept));
            out
        }
        _ => vec![guard],
    }
}

/// `e` with every index that reads a ticket unknown, and every guard that
/// does dropped (it is then not exact).
fn without_tickets(e: &Event) -> Event {
    let mut e = e.clone();
    for t in &mut e.terms {
        if t.index.as_ref().is_some_and(|(_, n)| n.has_ticket()) {
            t.index = None;
        }
    }
    let before = e.guards.len();
    e.guards.retain(|g| !g.has_ticket());
    e.must &= e.guards.len() == before;
    e
}

// ---------------------------------------------------------------- enumeration

#[derive(Clone, Copy)]
struct Touch {
    site: u32,
    write: bool,
    must: bool,
    inv: Inv,
    /// The barrier interval of the other memory (for the barrier-kind class).
    other_interval: u32,
}

/// Words → the touches of each site (at most two per site, from different
/// invocations, or for `across`, different workgroups).
#[derive(Default)]
struct WordMap {
    words: HashMap<u64, Vec<Touch>>,
}

impl WordMap {
    fn add(&mut self, word: u64, touch: Touch, across: bool) {
        let same = |a: &Touch, b: &Touch| if across { a.inv.workgroup == b.inv.workgroup } else { a.inv == b.inv };
        let list = self.words.entry(word).or_default();
        let mine = list.iter().filter(|t| t.site == touch.site).count();
        if let Some(t) = list.iter_mut().find(|t| t.site == touch.site && same(t, &touch)) {
            if touch.must && !t.must {
                *t = touch;
            }
        } else if mine < 2 {
            list.push(touch);
        }
    }

    fn conflicts(&self, across: bool, out: &mut Pairs) {
        // In word order, so that the witness reported is the same every run.
        let mut words: Vec<_> = self.words.iter().collect();
        words.sort_unstable_by_key(|&(&w, _)| w);
        for (&word, list) in words {
            for (i, x) in list.iter().enumerate() {
                for y in &list[i + 1..] {
                    if !(x.write || y.write) {
                        continue;
                    }
                    let differ = if across { x.inv.workgroup != y.inv.workgroup } else { x.inv != y.inv };
                    if !differ {
                        continue;
                    }
                    let class = if across {
                        RaceClass::InterWorkgroup
                    } else if x.other_interval != y.other_interval {
                        RaceClass::BarrierKind
                    } else {
                        RaceClass::IntraWorkgroup
                    };
                    out.conflict((x.site, x.inv), (y.site, y.inv), x.must && y.must, class, word);
                }
            }
        }
    }
}

fn enumerate(space: Space, events: &[&Event], geometry: &Geometry, all_workgroups: bool, out: &mut Pairs) {
    let interval = |e: &Event| match space {
        Space::Workgroup => (e.wg_interval, e.storage_interval),
        Space::Storage => (e.storage_interval, e.wg_interval),
    };
    let mut by_interval: Vec<&Event> = events.to_vec();
    by_interval.sort_by_key(|e| interval(e).0);
    let [sx, sy, sz] = geometry.workgroup_size;
    let workgroups: Vec<[u32; 3]> = if all_workgroups {
        let [dx, dy, dz] = geometry.dispatch;
        (0..dz).flat_map(move |z| (0..dy).flat_map(move |y| (0..dx).map(move |x| [x, y, z]))).collect()
    } else {
        vec![[0, 0, 0]]
    };
    let mut across = WordMap::default();
    // Events with an index out of bounds for some invocation.
    let mut clamped: Vec<&Event> = Vec::new();
    for &wg in &workgroups {
        let mut start = 0;
        while start < by_interval.len() {
            let key = interval(by_interval[start]).0;
            let end = start + by_interval[start..].iter().take_while(|e| interval(e).0 == key).count();
            let mut within = WordMap::default();
            for e in &by_interval[start..end] {
                let [k0, k1] = e.iterations.map(|m| m.unwrap_or(0));
                for (z, y, x, i, j) in (0..sz).flat_map(|z| {
                    (0..sy).flat_map(move |y| {
                        (0..sx).flat_map(move |x| (0..=k0).flat_map(move |i| (0..=k1).map(move |j| (z, y, x, i, j))))
                    })
                }) {
                    {
                        {
                            let p: Point = [
                                i64::from(x),
                                i64::from(y),
                                i64::from(z),
                                i64::from(wg[0]),
                                i64::from(wg[1]),
                                i64::from(wg[2]),
                                i,
                                j,
                            ];
                            if !e.guards.iter().all(|g| g.eval(&p) != 0) {
                                continue;
                            }
                            let Some(first) = word_of(e, &p) else {
                                if !clamped.iter().any(|c| std::ptr::eq(*c, *e)) {
                                    clamped.push(e);
                                }
                                continue;
                            };
                            let inv = Inv { workgroup: wg, local: [x, y, z] };
                            let touch = Touch {
                                site: e.site,
                                write: e.write,
                                must: e.must,
                                inv,
                                other_interval: interval(e).1,
                            };
                            for w in first..first + u64::from(e.words) {
                                within.add(w, touch, false);
                                if space == Space::Storage {
                                    across.add(w, touch, true);
                                }
                            }
                        }
                    }
                }
            }
            within.conflicts(false, out);
            start = end;
        }
    }
    across.conflicts(true, out);
    // The runtime clamps such an index: the word it then touches is not
    // enumerated here.
    for e in clamped {
        out.unresolved_with_partners(space, e, events, "an index may be out of bounds");
    }
}

/// The first word an event touches for invocation `p`, or `None` if an
/// index is out of bounds there (the runtime reports those; the site stays
/// instrumented).
fn word_of(e: &Event, p: &Point) -> Option<u64> {
    let mut word = u64::from(e.const_words);
    for t in &e.terms {
        let (_, n) = t.index.as_ref()?;
        let index = (n.eval(p) as u64) & 0xffff_ffff;
        if index >= t.bound? {
            return None;
        }
        word += index * u64::from(t.stride);
    }
    Some(word)
}

// ---------------------------------------------------------------- dependence tests

/// An event as an affine word address over a box of invocations.
struct Form {
    site: u32,
    write: bool,
    words: i64,
    interval: u32,
    linear: [i64; COORDS],
    constants: (i64, i64),
    domain: Domain,
}

fn dependence_tests(space: Space, events: &[&Event], geometry: &Geometry, out: &mut Pairs) {
    let mut forms: Vec<Form> = Vec::new();
    for e in events {
        let mut domain = geometry.domain(e);
        for g in &e.guards {
            narrow(&mut domain, g);
        }
        if domain.iter().any(|(lo, hi)| lo > hi) {
            continue; // No invocation runs it.
        }
        let Some(address) = affine_address(e, &domain) else {
            let why = "its index is not an affine function of the invocation, or may be out of bounds";
            out.unresolved_with_partners(space, e, events, why);
            continue;
        };
        let interval = match space {
            Space::Workgroup => e.wg_interval,
            Space::Storage => 0,
        };
        // Events of one site with one linear part merge into a range of
        // constants (the iterations of an unrolled loop, say).
        match forms.iter_mut().find(|f| f.site == e.site && f.interval == interval && f.linear == address.coefficients)
        {
            Some(f) => {
                f.constants = (f.constants.0.min(address.constant), f.constants.1.max(address.constant));
                for (d, n) in f.domain.iter_mut().zip(domain) {
                    *d = (d.0.min(n.0), d.1.max(n.1));
                }
            }
            None => forms.push(Form {
                site: e.site,
                write: e.write,
                words: i64::from(e.words),
                interval,
                linear: address.coefficients,
                constants: (address.constant, address.constant),
                domain,
            }),
        }
    }
    // Coordinates along which the two accesses of a pair may differ: all but
    // the workgroup, for workgroup memory (both in one workgroup). The
    // iteration counts are each invocation's own.
    let relevant: Vec<usize> = match space {
        Space::Workgroup => LOCAL.iter().chain(&ITERATION).copied().collect(),
        Space::Storage => (0..COORDS).collect(),
    };
    for (i, f) in forms.iter().enumerate() {
        for g in &forms[i..] {
            if !(f.write || g.write) || f.interval != g.interval {
                continue;
            }
            if !separated(f, g, &relevant) {
                let why = |s: u32| format!("the dependence tests cannot separate it from site {s}");
                out.unresolved(f.site, why(g.site));
                out.unresolved(g.site, why(f.site));
            }
        }
    }
}

/// Whether no two different invocations can touch one word through `f` and
/// `g`.
fn separated(f: &Form, g: &Form, relevant: &[usize]) -> bool {
    let mut hull = f.domain;
    for (h, d) in hull.iter_mut().zip(g.domain) {
        *h = (h.0.min(d.0), h.1.max(d.1));
    }
    // Range test.
    let range = |form: &Form| {
        let a = Affine { constant: 0, coefficients: form.linear }.range(&form.domain);
        (a.0 + form.constants.0, a.1 + form.constants.1 + form.words - 1)
    };
    let (r1, r2) = (range(f), range(g));
    if r1.1 < r2.0 || r2.1 < r1.0 {
        return true;
    }
    // f(i) + c1 + δ1 = g(j) + c2 + δ2  ⟺  L(i) - L(j) ∈ D (same linear part).
    let d = (g.constants.0 - f.constants.1 - (f.words - 1), g.constants.1 - f.constants.0 + (g.words - 1));
    if f.linear == g.linear {
        let mut terms: Vec<(i64, i64)> = relevant
            .iter()
            .map(|&c| (f.linear[c].abs(), hull[c].1 - hull[c].0))
            .filter(|&(_, span)| span > 0)
            .collect();
        // A coordinate the address ignores lets two invocations meet at one
        // word: then the difference 0 must be impossible.
        let free = terms.iter().any(|&(a, _)| a == 0);
        terms.retain(|&(a, _)| a != 0);
        terms.sort_unstable();
        let mut span = 0i64;
        let mut gap = i64::MAX;
        for &(a, n) in &terms {
            if a <= span {
                return gcd_test(f, g, d, relevant);
            }
            gap = gap.min(a - span);
            span += a * n;
        }
        let inside = d.0 > -gap && d.1 < gap;
        let zero = d.0 <= 0 && 0 <= d.1;
        if inside && !(free && zero) {
            return true;
        }
        if inside && free && zero {
            return false;
        }
    }
    gcd_test(f, g, d, relevant)
}

/// The GCD test: `Σ a·x − Σ b·y = δ` has an integer solution only if the
/// gcd of the coefficients divides δ. Workgroup coordinates are shared by
/// both sides for workgroup memory.
fn gcd_test(f: &Form, g: &Form, d: (i64, i64), relevant: &[usize]) -> bool {
    if d.1 - d.0 > 256 {
        return false;
    }
    let mut k = 0i64;
    for c in 0..COORDS {
        if relevant.contains(&c) {
            k = gcd(k, f.linear[c]);
            k = gcd(k, g.linear[c]);
        } else {
            k = gcd(k, f.linear[c] - g.linear[c]);
        }
    }
    if k == 0 {
        return !(d.0..=d.1).contains(&0);
    }
    !(d.0..=d.1).any(|x| x % k == 0)
}

fn gcd(a: i64, b: i64) -> i64 {
    let (mut a, mut b) = (a.abs(), b.abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// The affine word address of an event over `domain`, when every index is
/// affine, stays inside its type (no wrapping) and inside its bound.
fn affine_address(e: &Event, domain: &Domain) -> Option<Affine> {
    let mut address = Affine { constant: i64::from(e.const_words), coefficients: [0; COORDS] };
    for t in &e.terms {
        let (kind, node) = t.index.as_ref()?;
        let form = node.linear()?;
        let (lo, hi) = form.range(domain);
        let (min, max) = kind.range();
        let bound = t.bound?;
        if lo < min || hi > max || lo < 0 || (hi as u64 >= bound && !guarded_below(e, &form, bound)) {
            return None;
        }
        let stride = i64::from(t.stride);
        address.constant += form.constant * stride;
        for (a, c) in address.coefficients.iter_mut().zip(form.coefficients) {
            *a += c * stride;
        }
    }
    Some(address)
}

/// Whether the one index of `e` (an evaluation of an index site) is below
/// its bound for every invocation and iteration that runs it: its affine
/// range over the domain the guards leave, or else each value of it where
/// the domain is small enough to enumerate. An index that reads a ticket
/// is not proven; guards that read one are left out (each only narrows).
pub fn index_in_bounds(e: &Event, geometry: &Geometry) -> bool {
    let e = &without_tickets(e);
    let [term] = e.terms.as_slice() else { return false };
    let (Some((kind, node)), Some(bound)) = (&term.index, term.bound) else { return false };
    let mut domain = geometry.domain(e);
    for (l, &c) in ITERATION.iter().enumerate() {
        if node.uses(&[c]) && e.iterations[l].is_none() {
            // A summarised loop's unbounded iteration count: what the
            // guards leave of it.
            domain[c] = (0, i64::from(u32::MAX));
        }
    }
    for g in &e.guards {
        narrow(&mut domain, g);
    }
    if domain.iter().any(|(lo, hi)| lo > hi) {
        return true; // No invocation runs it.
    }
    if let Some(form) = node.linear() {
        let (lo, hi) = form.range(&domain);
        let (min, max) = kind.range();
        if lo >= min && hi <= max && lo >= 0 && ((hi as u64) < bound || guarded_below(e, &form, bound)) {
            return true;
        }
    }
    let points = domain.iter().try_fold(1u64, |n, (lo, hi)| n.checked_mul((hi - lo + 1) as u64));
    if points.is_none_or(|n| n > ENUMERATION_BUDGET) {
        return false;
    }
    let ranges = domain.map(|(lo, hi)| lo..=hi);
    let mut p: Point = domain.map(|(lo, _)| lo);
    loop {
        if e.guards.iter().all(|g| g.eval(&p) != 0) && ((node.eval(&p) as u64) & 0xffff_ffff) >= bound {
            return false;
        }
        // The next point, the first coordinate fastest.
        let mut c = 0;
        loop {
            if c == COORDS {
                return true;
            }
            if p[c] < *ranges[c].end() {
                p[c] += 1;
                break;
            }
            p[c] = *ranges[c].start();
            c += 1;
        }
    }
}

/// Whether a guard of `e` says `form < limit` for some `limit <= bound` (a
/// loop condition `i < n`, say).
fn guarded_below(e: &Event, form: &Affine, bound: u64) -> bool {
    e.guards.iter().any(|g| match &**g {
        Node::Binary { op: op @ (Op::Lt | Op::Le), operand: Kind::U32, a, b, .. } => {
            let limit = match (b.known(), op) {
                (Some(n), Op::Lt) => n,
                (Some(n), _) => n + 1,
                _ => return false,
            };
            a.linear().as_ref() == Some(form) && limit as u64 <= bound
        }
        _ => false,
    })
}

/// Narrows `domain` by a guard of the form `L op K` (or a conjunction of
/// them), where `L` is affine in one coordinate that varies over `domain`.
fn narrow(domain: &mut Domain, guard: &Node) {
    if let [_, _, ..] = conjuncts(guard)[..] {
        for g in conjuncts(guard) {
            narrow(domain, g);
        }
        return;
    }
    let Node::Binary { op, operand, a, b, .. } = guard else { return };
    let (form, k, op) = match (a.linear(), b.known(), a.known(), b.linear()) {
        (Some(f), Some(k), _, _) => (f, k, *op),
        (_, _, Some(k), Some(f)) => (f, k, mirror(*op)),
        _ => return,
    };
    if !matches!(op, Op::Lt | Op::Le | Op::Gt | Op::Ge | Op::Eq) || *operand == Kind::Bool {
        return;
    }
    // The comparison is on wrapped values; the form must not wrap.
    let (lo, hi) = form.range(domain);
    let (min, max) = operand.range();
    if lo < min || hi > max {
        return;
    }
    let varying: Vec<usize> = (0..COORDS).filter(|&c| form.coefficients[c] != 0 && domain[c].0 < domain[c].1).collect();
    let [c] = varying[..] else { return };
    let a = form.coefficients[c];
    // Constant part, with the other coordinates fixed.
    let rest = form.constant + (0..COORDS).filter(|&x| x != c).map(|x| form.coefficients[x] * domain[x].0).sum::<i64>();
    // a·x + rest op k.
    let (mut lo, mut hi) = domain[c];
    let t = k - rest;
    // Floor and ceiling of n / d for d > 0.
    let div_floor = |n: i64, d: i64| n.div_euclid(d);
    let div_ceil = |n: i64, d: i64| -(-n).div_euclid(d);
    // Normalise to a > 0.
    let (a, t, op) = if a < 0 { (-a, -t, mirror(op)) } else { (a, t, op) };
    match op {
        Op::Lt => hi = hi.min(div_ceil(t, a) - 1),
        Op::Le => hi = hi.min(div_floor(t, a)),
        Op::Gt => lo = lo.max(div_floor(t, a) + 1),
        Op::Ge => lo = lo.max(div_ceil(t, a)),
        Op::Eq => {
            if t.rem_euclid(a) != 0 {
                hi = lo - 1;
            } else {
                lo = lo.max(t / a);
                hi = hi.min(t / a);
            }
        }
        _ => {}
    }
    domain[c] = (lo, hi);
}

fn mirror(op: Op) -> Op {
    match op {
        Op::Lt => Op::Gt,
        Op::Le => Op::Ge,
        Op::Gt => Op::Lt,
        Op::Ge => Op::Le,
        other => other,
    }
}
