//! Deferred recording: fewer stores for the driver to compile.
//!
//! When accesses are recorded for the replay pass, what a driver spends its
//! time on is the store of each site's entry: lavapipe compiles every store
//! to a buffer as a loop over the SIMD lanes, and its compile time grows
//! faster than the code (docs/performance.md, "Time to verdict"). And
//! drivers inline every call, so a site in a function called from seven
//! places is seven stores: vello's `coarse.wgsl` has 54 sites and 138 such
//! stores.
//!
//! This pass (run when the shader records) has each site of a function
//! that drivers inline in two places or more keep its entry in a slot of its own, a
//! private `vec3<u32>` (`wgrace_wg_pending`, `wgrace_storage_pending`: the
//! entry's two halves and its index in the stream plus one), and stores a
//! slot (`wgrace_flush_pending`) only where it must:
//!
//! - at the top of the body of a loop that writes it: what the code before
//!   the loop, then what each iteration, left in it;
//! - before a call to a function that writes it;
//! - where branches that write slots join, after an `if` or a `switch`: one
//!   store serves the slot whatever branch ran, and the slot's value need
//!   not live on;
//! - before `wgrace_end`, every slot that may still hold an entry.
//!
//! So a helper inlined in several places leaves its slots to its callers'
//! stores: in vello's coarse, whose command-writing helpers are called from
//! the eight cases of a `switch`, their sites' 95 stores (counted after
//! inlining) became 25. Sites of functions inlined once store where they
//! are, as without this pass: deferring them would save no store, and a
//! slot's value that lives long costs drivers time too.
//!
//! A store writes the slot's entry at the index it holds, so entries land
//! where they would have, in any order; storing a slot again writes the
//! same entry to the same place, so storing too often costs time, never a
//! verdict. A slot that never held an entry is zero, and its store goes to
//! the stream's entry that takes those beyond its room. Which slots may
//! hold an entry not yet stored is a may-analysis over the structured
//! control flow; a function is summarised by the slots it may write and
//! those it may leave holding entries, so callees (which come first in
//! naga's arena) are walked once, before their callers.

use std::collections::HashMap;

use naga::{
    AddressSpace, Arena, Block, Expression, Function, GlobalVariable, Handle, Module, Scalar, Span, Statement, Type,
    TypeInner, VectorSize,
};

use crate::InstrumentError;
use crate::link::Linked;

/// Makes the recording sites of `module` (calls to `wgrace_wg_access` and
/// `wgrace_storage_access`) keep their entries in slots, and stores them
/// where the module doc says.
///
/// # Errors
/// [`InstrumentError::Internal`] if the runtime lacks a function the pass
/// calls.
pub fn defer_recording(module: &mut Module, linked: &Linked) -> Result<(), InstrumentError> {
    let hooks = [
        (linked.function("wgrace_wg_access")?, linked.function("wgrace_wg_pending")?),
        (linked.function("wgrace_storage_access")?, linked.function("wgrace_storage_pending")?),
    ];
    let runtime = Runtime { flush: linked.function("wgrace_flush_pending")?, end: linked.function("wgrace_end")? };
    let vec3 = module.types.insert(
        Type { name: None, inner: TypeInner::Vector { size: VectorSize::Tri, scalar: Scalar::U32 } },
        Span::UNDEFINED,
    );

    // A slot per site of a function that drivers inline in several places;
    // elsewhere, slots shared by the branches of an `if` or a `switch` that
    // record in two branches or more; other sites store where they are.
    let copies = inlined_copies(module);
    let mut slots = Vec::new();
    for (h, f) in module.functions.iter_mut() {
        let mut mode = if copies[h.index()] >= 2 { Mode::EverySite } else { Mode::Immediate };
        let body = std::mem::take(&mut f.body);
        let mut slotter = Slotter {
            exprs: &mut f.expressions,
            hooks: &hooks,
            globals: &mut module.global_variables,
            slots: &mut slots,
            vec3,
        };
        f.body = slotter.block(body, &mut mode);
    }
    if slots.is_empty() {
        return Ok(());
    }
    let slot_of: HashMap<Handle<GlobalVariable>, usize> = slots.iter().enumerate().map(|(i, &g)| (g, i)).collect();

    // Callees come before their callers in the arena: in its order, each
    // function's summary is ready when a caller needs it.
    let mut summaries = vec![Summary::none(slots.len()); module.functions.len()];
    let handles: Vec<Handle<Function>> = module.functions.iter().map(|(h, _)| h).collect();
    for h in handles {
        let f = &mut module.functions[h];
        let mut writes = Slots::new(slots.len());
        block_writes(&f.body, &f.expressions, &slot_of, &summaries, &mut writes);
        if writes.is_empty() {
            continue;
        }
        let body = std::mem::take(&mut f.body);
        let mut w = Walker {
            slot_of: &slot_of,
            slots: &slots,
            summaries: &summaries,
            runtime: &runtime,
            exprs: &mut f.expressions,
        };
        let (body, leaves) = w.function(&body);
        f.body = body;
        summaries[h.index()] = Summary { writes, leaves };
    }
    for ep in &mut module.entry_points {
        let body = std::mem::take(&mut ep.function.body);
        let mut w = Walker {
            slot_of: &slot_of,
            slots: &slots,
            summaries: &summaries,
            runtime: &runtime,
            exprs: &mut ep.function.expressions,
        };
        ep.function.body = w.function(&body).0;
    }
    Ok(())
}

/// What a call to a function does to the slots.
#[derive(Clone)]
struct Summary {
    /// The slots it (or a function it calls) may write: a caller stores
    /// those that may hold entries before the call.
    writes: Slots,
    /// The slots that may hold entries not yet stored when it returns
    /// (others pass through untouched).
    leaves: Slots,
}

impl Summary {
    fn none(n: usize) -> Summary {
        Summary { writes: Slots::new(n), leaves: Slots::new(n) }
    }
}

/// The runtime functions the stores call.
struct Runtime {
    /// `wgrace_flush_pending(slot)`: stores a slot's entry.
    flush: Handle<Function>,
    /// `wgrace_end`: the invocation's last event, after which nothing records.
    end: Handle<Function>,
}

/// Which sites of a block get slots.
enum Mode {
    /// None: they store where they are.
    Immediate,
    /// Each its own (a function inlined in several places).
    EverySite,
    /// The branches of one `if` or `switch`: the n-th site of a branch gets
    /// the construct's n-th slot, whatever the branch (only one runs).
    Branch { shared: Vec<Handle<GlobalVariable>>, next: usize },
}

/// Gives sites their slots: replaces a call to an access hook by a call to
/// its pending form and a store of the result in the site's slot.
struct Slotter<'a> {
    exprs: &'a mut Arena<Expression>,
    hooks: &'a [(Handle<Function>, Handle<Function>)],
    globals: &'a mut Arena<GlobalVariable>,
    /// Every slot, in order of creation.
    slots: &'a mut Vec<Handle<GlobalVariable>>,
    vec3: Handle<Type>,
}

impl Slotter<'_> {
    fn new_slot(&mut self, span: Span) -> Handle<GlobalVariable> {
        let slot = self.globals.append(
            GlobalVariable {
                name: Some(format!("wgrace_pending_{}", self.slots.len())),
                space: AddressSpace::Private,
                binding: None,
                ty: self.vec3,
                init: None,
                memory_decorations: naga::MemoryDecorations::empty(),
            },
            span,
        );
        self.slots.push(slot);
        slot
    }

    /// Whether `block` has an access hook outside loops.
    fn records_outside_loops(&self, block: &Block) -> bool {
        block.iter().any(|stmt| match stmt {
            Statement::Call { function, .. } => self.hooks.iter().any(|(access, _)| access == function),
            Statement::Block(b) => self.records_outside_loops(b),
            Statement::If { accept, reject, .. } => {
                self.records_outside_loops(accept) || self.records_outside_loops(reject)
            }
            Statement::Switch { cases, .. } => cases.iter().any(|c| self.records_outside_loops(&c.body)),
            _ => false,
        })
    }

    /// `branches` share slots when at least two of them record (outside
    /// loops, and none falls through).
    fn shares(&self, branches: &[&Block], falls_through: bool) -> bool {
        !falls_through && branches.iter().filter(|b| self.records_outside_loops(b)).count() >= 2
    }

    fn block(&mut self, block: Block, mode: &mut Mode) -> Block {
        let mut out = Block::with_capacity(block.len());
        for (stmt, span) in block.span_into_iter() {
            let stmt = match stmt {
                Statement::Call { function, arguments, result: None } => {
                    let hook = self.hooks.iter().find(|(access, _)| *access == function).map(|&(_, p)| p);
                    let slot = match (hook, &mut *mode) {
                        (None, _) | (_, Mode::Immediate) => None,
                        (Some(_), Mode::EverySite) => Some(self.new_slot(span)),
                        (Some(_), Mode::Branch { shared, next }) => {
                            let n = *next;
                            *next += 1;
                            match shared.get(n) {
                                Some(&slot) => Some(slot),
                                None => {
                                    let slot = self.new_slot(span);
                                    if let Mode::Branch { shared, .. } = mode {
                                        shared.push(slot);
                                    }
                                    Some(slot)
                                }
                            }
                        }
                    };
                    match (hook, slot) {
                        (Some(pending), Some(slot)) => {
                            let value = self.exprs.append(Expression::CallResult(pending), span);
                            out.push(Statement::Call { function: pending, arguments, result: Some(value) }, span);
                            let pointer = self.exprs.append(Expression::GlobalVariable(slot), span);
                            Statement::Store { pointer, value }
                        }
                        _ => Statement::Call { function, arguments, result: None },
                    }
                }
                Statement::Block(b) => Statement::Block(self.block(b, mode)),
                Statement::If { condition, accept, reject } => {
                    if matches!(mode, Mode::Immediate) && self.shares(&[&accept, &reject], false) {
                        let mut shared = Mode::Branch { shared: Vec::new(), next: 0 };
                        let accept = self.block(accept, &mut shared);
                        if let Mode::Branch { next, .. } = &mut shared {
                            *next = 0;
                        }
                        let reject = self.block(reject, &mut shared);
                        Statement::If { condition, accept, reject }
                    } else {
                        let accept = self.block(accept, mode);
                        let reject = self.block(reject, mode);
                        Statement::If { condition, accept, reject }
                    }
                }
                Statement::Switch { selector, cases } => {
                    let bodies: Vec<&Block> = cases.iter().map(|c| &c.body).collect();
                    let falls_through = cases.iter().any(|c| c.fall_through);
                    if matches!(mode, Mode::Immediate) && self.shares(&bodies, falls_through) {
                        let mut shared = Mode::Branch { shared: Vec::new(), next: 0 };
                        let cases = cases
                            .into_iter()
                            .map(|c| {
                                if let Mode::Branch { next, .. } = &mut shared {
                                    *next = 0;
                                }
                                naga::SwitchCase { body: self.block(c.body, &mut shared), ..c }
                            })
                            .collect();
                        Statement::Switch { selector, cases }
                    } else {
                        let cases = cases
                            .into_iter()
                            .map(|c| naga::SwitchCase { body: self.block(c.body, mode), ..c })
                            .collect();
                        Statement::Switch { selector, cases }
                    }
                }
                Statement::Loop { body, continuing, break_if } => {
                    // A loop's sites run again: in a branch, they store
                    // where they are (the loop may share slots inside).
                    let mut inner = match mode {
                        Mode::EverySite => Mode::EverySite,
                        Mode::Immediate | Mode::Branch { .. } => Mode::Immediate,
                    };
                    let body = self.block(body, &mut inner);
                    let continuing = self.block(continuing, &mut inner);
                    Statement::Loop { body, continuing, break_if }
                }
                other => other,
            };
            out.push(stmt, span);
        }
        out
    }
}

/// How many copies of each function drivers make when they inline every
/// call: one per call, times the copies of the caller (entry points have
/// one).
fn inlined_copies(module: &Module) -> Vec<u64> {
    let mut copies = vec![0u64; module.functions.len()];
    for ep in &module.entry_points {
        add_calls(&ep.function.body, 1, &mut copies);
    }
    // Callers come after their callees in the arena.
    for (h, f) in module.functions.iter().collect::<Vec<_>>().into_iter().rev() {
        let n = copies[h.index()];
        if n > 0 {
            add_calls(&f.body, n, &mut copies);
        }
    }
    copies
}

/// Adds `n` to the copies of every function `block` calls, once per call.
fn add_calls(block: &Block, n: u64, copies: &mut [u64]) {
    for stmt in block.iter() {
        match stmt {
            Statement::Call { function, .. } => copies[function.index()] = copies[function.index()].saturating_add(n),
            Statement::Block(b) => add_calls(b, n, copies),
            Statement::If { accept, reject, .. } => {
                add_calls(accept, n, copies);
                add_calls(reject, n, copies);
            }
            Statement::Switch { cases, .. } => cases.iter().for_each(|c| add_calls(&c.body, n, copies)),
            Statement::Loop { body, continuing, .. } => {
                add_calls(body, n, copies);
                add_calls(continuing, n, copies);
            }
            _ => {}
        }
    }
}

/// The slot a statement records into, if it is a site's store.
fn slot_stored(
    stmt: &Statement,
    exprs: &Arena<Expression>,
    slot_of: &HashMap<Handle<GlobalVariable>, usize>,
) -> Option<usize> {
    match *stmt {
        Statement::Store { pointer, .. } => match exprs[pointer] {
            Expression::GlobalVariable(g) => slot_of.get(&g).copied(),
            _ => None,
        },
        _ => None,
    }
}

/// Adds the slots `block` may write, itself or through a call, to `out`.
fn block_writes(
    block: &Block,
    exprs: &Arena<Expression>,
    slot_of: &HashMap<Handle<GlobalVariable>, usize>,
    summaries: &[Summary],
    out: &mut Slots,
) {
    statements_write(block, exprs, slot_of, summaries, out);
}

/// [`block_writes`] of a list of statements.
fn statements_write(
    block: &[Statement],
    exprs: &Arena<Expression>,
    slot_of: &HashMap<Handle<GlobalVariable>, usize>,
    summaries: &[Summary],
    out: &mut Slots,
) {
    for stmt in block {
        match stmt {
            Statement::Call { function, .. } => out.union(&summaries[function.index()].writes),
            Statement::Block(b) => block_writes(b, exprs, slot_of, summaries, out),
            Statement::If { accept, reject, .. } => {
                block_writes(accept, exprs, slot_of, summaries, out);
                block_writes(reject, exprs, slot_of, summaries, out);
            }
            Statement::Switch { cases, .. } => {
                for c in cases {
                    block_writes(&c.body, exprs, slot_of, summaries, out);
                }
            }
            Statement::Loop { body, continuing, .. } => {
                block_writes(body, exprs, slot_of, summaries, out);
                block_writes(continuing, exprs, slot_of, summaries, out);
            }
            other => {
                if let Some(slot) = slot_stored(other, exprs, slot_of) {
                    out.insert(slot);
                }
            }
        }
    }
}

/// A set of slots.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Slots(Vec<u64>);

impl Slots {
    fn new(n: usize) -> Slots {
        Slots(vec![0; n.div_ceil(64)])
    }

    fn contains(&self, i: usize) -> bool {
        self.0[i / 64] & (1 << (i % 64)) != 0
    }

    fn insert(&mut self, i: usize) {
        self.0[i / 64] |= 1 << (i % 64);
    }

    fn union_with(&self, other: &Slots) -> Slots {
        let mut u = self.clone();
        u.union(other);
        u
    }

    fn union(&mut self, other: &Slots) {
        for (a, b) in self.0.iter_mut().zip(&other.0) {
            *a |= b;
        }
    }

    fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    fn intersection(&self, other: &Slots) -> Slots {
        Slots(self.0.iter().zip(&other.0).map(|(a, b)| a & b).collect())
    }

    fn remove_all(&mut self, other: &Slots) {
        for (a, b) in self.0.iter_mut().zip(&other.0) {
            *a &= !b;
        }
    }

    fn clear(&mut self) {
        self.0.iter_mut().for_each(|w| *w = 0);
    }

    fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.0.len() * 64).filter(|&i| self.contains(i))
    }
}

/// Where control leaves a block other than by its end: the slots that may
/// hold entries there.
struct Exits {
    breaks: Slots,
    continues: Slots,
    returns: Slots,
}

impl Exits {
    fn new(n: usize) -> Exits {
        Exits { breaks: Slots::new(n), continues: Slots::new(n), returns: Slots::new(n) }
    }
}

/// Walks one function's structured control flow with the set of slots that
/// may hold entries not yet stored, inserting the stores.
struct Walker<'a> {
    slot_of: &'a HashMap<Handle<GlobalVariable>, usize>,
    slots: &'a [Handle<GlobalVariable>],
    summaries: &'a [Summary],
    runtime: &'a Runtime,
    exprs: &'a mut Arena<Expression>,
}

impl Walker<'_> {
    /// A function's body with its stores, and the slots that may hold
    /// entries when it returns. Its flow never depends on what its callers
    /// left pending: they store the slots it writes before calling it.
    fn function(&mut self, body: &Block) -> (Block, Slots) {
        let mut exits = Exits::new(self.slots.len());
        let (body, mut end) = self.block(body, Slots::new(self.slots.len()), &mut exits);
        end.union(&exits.returns);
        (body, end)
    }

    /// Appends the stores of `set` to `out`.
    fn store(&mut self, set: &Slots, out: &mut Block) {
        for i in set.iter() {
            let pointer = self.exprs.append(Expression::GlobalVariable(self.slots[i]), Span::UNDEFINED);
            let start = self.exprs.len();
            let value = self.exprs.append(Expression::Load { pointer }, Span::UNDEFINED);
            out.push(Statement::Emit(self.exprs.range_from(start)), Span::UNDEFINED);
            out.push(
                Statement::Call { function: self.runtime.flush, arguments: vec![value], result: None },
                Span::UNDEFINED,
            );
        }
    }

    /// `block` with its stores, and the slots that may hold
    /// entries at its end; breaks, continues and returns add theirs to
    /// `exits`.
    fn block(&mut self, block: &Block, mut pending: Slots, exits: &mut Exits) -> (Block, Slots) {
        let n = self.slots.len();
        let mut out = Block::with_capacity(block.len());
        for (stmt, span) in block.span_iter() {
            // Slots to store right after the statement: where branches that
            // write slots join, one store serves them all, and the slots'
            // values need not live on.
            let mut join = Slots::new(n);
            let stmt = match stmt {
                Statement::Block(b) => {
                    let (b, end) = self.block(b, pending, exits);
                    pending = end;
                    Statement::Block(b)
                }
                Statement::If { condition, accept, reject } => {
                    let (accept, mut end) = self.block(accept, pending.clone(), exits);
                    let (reject, other) = self.block(reject, pending, exits);
                    end.union(&other);
                    pending = end;
                    join = self.joined([&accept[..], &reject[..]].into_iter(), &pending);
                    Statement::If { condition: *condition, accept, reject }
                }
                Statement::Switch { selector, cases } => {
                    // A `break` in a case leaves the switch.
                    let mut inner = Exits::new(n);
                    let mut after = Slots::new(n);
                    let mut carried = Slots::new(n);
                    let mut new_cases = Vec::with_capacity(cases.len());
                    for case in cases {
                        let mut entry = pending.clone();
                        entry.union(&carried);
                        let (body, end) = self.block(&case.body, entry, &mut inner);
                        if case.fall_through {
                            carried = end;
                        } else {
                            after.union(&end);
                            carried.clear();
                        }
                        new_cases.push(naga::SwitchCase { body, ..case.clone() });
                    }
                    after.union(&carried);
                    after.union(&inner.breaks);
                    exits.continues.union(&inner.continues);
                    exits.returns.union(&inner.returns);
                    pending = after;
                    join = self.joined(new_cases.iter().map(|c| &c.body[..]), &pending);
                    Statement::Switch { selector: *selector, cases: new_cases }
                }
                Statement::Loop { body, continuing, break_if } => {
                    let mut writes = Slots::new(n);
                    block_writes(body, self.exprs, self.slot_of, self.summaries, &mut writes);
                    block_writes(continuing, self.exprs, self.slot_of, self.summaries, &mut writes);
                    // The slots the loop writes are stored at the top of its
                    // body, once for what the code before it left in them
                    // and then for what each iteration left; the others
                    // pass through.
                    let mut start = pending.clone();
                    start.remove_all(&writes);
                    let mut inner = Exits::new(n);
                    let (new_body, body_end) = self.block(body, start, &mut inner);
                    let mut cont_entry = body_end;
                    cont_entry.union(&inner.continues);
                    let (new_continuing, cont_end) = self.block(continuing, cont_entry, &mut inner);
                    let mut top = pending.union_with(&cont_end);
                    top = top.intersection(&writes);
                    let mut with_stores = Block::new();
                    self.store(&top, &mut with_stores);
                    with_stores.extend_block(new_body);
                    let mut after = inner.breaks;
                    if break_if.is_some() {
                        after.union(&cont_end);
                    }
                    exits.returns.union(&inner.returns);
                    pending = after;
                    Statement::Loop { body: with_stores, continuing: new_continuing, break_if: *break_if }
                }
                Statement::Break => {
                    exits.breaks.union(&pending);
                    pending.clear();
                    Statement::Break
                }
                Statement::Continue => {
                    exits.continues.union(&pending);
                    pending.clear();
                    Statement::Continue
                }
                Statement::Return { value } => {
                    exits.returns.union(&pending);
                    pending.clear();
                    Statement::Return { value: *value }
                }
                Statement::Kill => {
                    pending.clear();
                    Statement::Kill
                }
                Statement::Call { function, arguments, result } => {
                    if *function == self.runtime.end {
                        // Nothing records after the invocation ends.
                        self.store(&pending, &mut out);
                        pending.clear();
                    } else {
                        let callee = &self.summaries[function.index()];
                        if !callee.writes.is_empty() {
                            // The callee writes its slots: store what they hold.
                            let overwritten = pending.intersection(&callee.writes);
                            self.store(&overwritten, &mut out);
                            pending.remove_all(&callee.writes);
                            pending.union(&callee.leaves);
                        }
                    }
                    Statement::Call { function: *function, arguments: arguments.clone(), result: *result }
                }
                other => {
                    if let Some(slot) = slot_stored(other, self.exprs, self.slot_of) {
                        if pending.contains(slot) {
                            let mut one = Slots::new(n);
                            one.insert(slot);
                            self.store(&one, &mut out);
                        }
                        pending.insert(slot);
                    }
                    other.clone()
                }
            };
            out.push(stmt, *span);
            if !join.is_empty() {
                self.store(&join, &mut out);
                pending.remove_all(&join);
            }
        }
        (out, pending)
    }

    /// The slots of `pending` written in branches that join, when at least
    /// two of the branches write slots: they are stored at the join.
    fn joined<'b>(&self, branches: impl Iterator<Item = &'b [Statement]>, pending: &Slots) -> Slots {
        let n = self.slots.len();
        let mut written = Slots::new(n);
        let mut writers = 0;
        for branch in branches {
            let mut w = Slots::new(n);
            statements_write(branch, self.exprs, self.slot_of, self.summaries, &mut w);
            if !w.is_empty() {
                writers += 1;
                written.union(&w);
            }
        }
        if writers >= 2 { written.intersection(pending) } else { Slots::new(n) }
    }
}
