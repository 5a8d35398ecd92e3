//! Spin-waits: loops that wait for storage memory other invocations write.
//!
//! WGSL promises no forward progress between workgroups: a workgroup that
//! waits for a value another workgroup writes may wait forever if the GPU
//! does not run that workgroup (more workgroups than it runs at once, or a
//! scheduler that runs them in turn). A loop is a *spin-wait* when every way
//! out of it (each `break` of the loop, its `break if`, each `return` inside)
//! is taken under a condition that depends on a value the loop itself loads
//! in each iteration, from the same place, from storage memory that the
//! shader writes (a plain store or an atomic operation anywhere in the code
//! the entry point reaches). An early exit that does not depend on such a
//! value (`i < n`) means the loop ends by itself, and a loop whose loads move
//! (`x = parent[x]`, walking a chain) goes somewhere: neither is a spin-wait.
//! A bounded poll (`k < 1000 && flag == 0`, one exit on both) is one: it
//! may give up before the value it waits for is written.
//!
//! The dependence is followed through expressions and through the locals the
//! loop stores to; a call's result depends on memory when the called
//! function loads written storage memory.

use std::collections::{HashMap, HashSet};

use naga::{AddressSpace, Block, Expression, Function, GlobalVariable, Handle, Module, Statement};

use crate::analysis::walk::{global_root, local_root};

/// The storage variables some reachable code writes (`functions`: the
/// reachable functions and the entry point's).
pub(crate) fn written_storage(module: &Module, functions: &[&Function]) -> HashSet<Handle<GlobalVariable>> {
    let mut written = HashSet::new();
    for f in functions {
        crate::blocks::for_each_statement(&f.body, &mut |s| {
            let pointer = match s {
                Statement::Store { pointer, .. } | Statement::Atomic { pointer, .. } => *pointer,
                _ => return,
            };
            if let Some(g) = global_root(f, pointer)
                && matches!(module.global_variables[g].space, AddressSpace::Storage { .. })
            {
                written.insert(g);
            }
        });
    }
    written
}

/// The name of the storage variable the loop `body`/`continuing`/`break_if`
/// of `f` spins on, when it is a spin-wait (see the module's doc).
pub(crate) fn polled_storage(
    module: &Module,
    f: &Function,
    body: &Block,
    continuing: &Block,
    break_if: Option<Handle<Expression>>,
    written: &HashSet<Handle<GlobalVariable>>,
) -> Option<String> {
    let mut stored = HashSet::new();
    let mut emitted = HashSet::new();
    for block in [body, continuing] {
        crate::blocks::for_each_statement(block, &mut |s| match s {
            Statement::Store { pointer, .. } => stored.extend(local_root(f, *pointer)),
            Statement::Emit(range) => emitted.extend(range.clone()),
            _ => {}
        });
    }
    let fixed = Fixed { f, stored, emitted };
    let mut polls =
        Polls { module, f, written, fixed, polled: HashMap::new(), tainted: HashSet::new(), memo: HashMap::new() };
    polls.find_loads(body);
    polls.find_loads(continuing);
    if polls.polled.is_empty() {
        return None;
    }
    polls.taint_locals(body, continuing);
    let mut exits = Exits { conditions: Vec::new(), all_depend: true, count: 0 };
    exits.walk(&mut polls, body, false);
    exits.walk(&mut polls, continuing, false);
    if let Some(condition) = break_if {
        exits.count += 1;
        exits.all_depend &= polls.depends(condition);
    }
    if exits.count == 0 || !exits.all_depend {
        return None;
    }
    let mut names: Vec<String> = polls.polled.values().cloned().collect();
    names.sort();
    names.dedup();
    Some(names.join("`, `"))
}

/// The loads of written storage memory in a loop, and what depends on them.
struct Polls<'a> {
    module: &'a Module,
    f: &'a Function,
    written: &'a HashSet<Handle<GlobalVariable>>,
    /// Which pointers stay the same through the loop.
    fixed: Fixed<'a>,
    /// Expressions whose value a load of written storage gives, each with
    /// the variable's name.
    polled: HashMap<Handle<Expression>, String>,
    /// Locals the loop stores a polled value to.
    tainted: HashSet<Handle<naga::LocalVariable>>,
    memo: HashMap<Handle<Expression>, bool>,
}

impl Polls<'_> {
    fn name(&self, g: Handle<GlobalVariable>) -> String {
        self.module.global_variables[g].name.clone().unwrap_or_else(|| format!("global {}", g.index()))
    }

    /// The written storage variable `pointer` points into, if any, when it
    /// points at the same place in every iteration.
    fn written_root(&self, pointer: Handle<Expression>) -> Option<Handle<GlobalVariable>> {
        global_root(self.f, pointer).filter(|g| self.written.contains(g) && self.fixed.fixed(pointer))
    }

    fn find_loads(&mut self, block: &Block) {
        let f = self.f;
        crate::blocks::for_each_statement(block, &mut |s| match s {
            Statement::Emit(range) => {
                for h in range.clone() {
                    if let Expression::Load { pointer } = f.expressions[h]
                        && let Some(g) = self.written_root(pointer)
                    {
                        self.polled.insert(h, self.name(g));
                    }
                }
            }
            Statement::Atomic { pointer, result: Some(r), .. } => {
                if let Some(g) = self.written_root(*pointer) {
                    self.polled.insert(*r, self.name(g));
                }
            }
            Statement::Call { function, result: Some(r), .. } => {
                let callee = &self.module.functions[*function];
                if let Some(g) = loads_written(callee, self.written) {
                    self.polled.insert(*r, self.name(g));
                }
            }
            _ => {}
        });
    }

    /// Taints the locals the loop stores a polled value to, until nothing
    /// changes (a value may pass through several locals).
    fn taint_locals(&mut self, body: &Block, continuing: &Block) {
        let mut stores = Vec::new();
        for block in [body, continuing] {
            crate::blocks::for_each_statement(block, &mut |s| {
                if let Statement::Store { pointer, value } = s
                    && let Some(local) = local_root(self.f, *pointer)
                {
                    stores.push((local, *value));
                }
            });
        }
        loop {
            let before = self.tainted.len();
            for &(local, value) in &stores {
                if !self.tainted.contains(&local) && self.depends(value) {
                    self.tainted.insert(local);
                    self.memo.clear();
                }
            }
            if self.tainted.len() == before {
                return;
            }
        }
    }

    /// Whether `h`'s value depends on a polled load.
    fn depends(&mut self, h: Handle<Expression>) -> bool {
        if let Some(&d) = self.memo.get(&h) {
            return d;
        }
        // Cycles cannot occur: operands precede their expression.
        let d = self.polled.contains_key(&h)
            || match self.f.expressions[h] {
                Expression::Load { pointer }
                    if local_root(self.f, pointer).is_some_and(|l| self.tainted.contains(&l)) =>
                {
                    true
                }
                ref e => operands(e).into_iter().any(|o| self.depends(o)),
            };
        self.memo.insert(h, d);
        d
    }
}

/// What stays the same through the iterations of a loop.
struct Fixed<'a> {
    f: &'a Function,
    /// Locals the loop stores to, and the expressions it evaluates.
    stored: HashSet<Handle<naga::LocalVariable>>,
    emitted: HashSet<Handle<Expression>>,
}

impl Fixed<'_> {
    /// Whether `h` has the same value in every iteration: evaluated before
    /// the loop, or computed in it from such values and locals the loop does
    /// not store to (not from memory, calls or atomics).
    fn fixed(&self, h: Handle<Expression>) -> bool {
        match self.f.expressions[h] {
            Expression::Load { pointer } => match local_root(self.f, pointer) {
                Some(local) => !self.stored.contains(&local) && self.fixed(pointer),
                None => !self.emitted.contains(&h),
            },
            Expression::CallResult(_) | Expression::AtomicResult { .. } => false,
            ref e => !self.emitted.contains(&h) || operands(e).into_iter().all(|o| self.fixed(o)),
        }
    }
}

/// The ways out of a loop, and whether each is taken under a condition that
/// depends on a polled load.
struct Exits {
    /// Conditions of the `if`s around the statement being walked.
    conditions: Vec<Handle<Expression>>,
    all_depend: bool,
    count: usize,
}

impl Exits {
    /// Walks `block`; `nested` is true inside a loop or switch of the loop,
    /// whose `break`s are not the loop's.
    fn walk(&mut self, polls: &mut Polls<'_>, block: &Block, nested: bool) {
        for s in block.iter() {
            match s {
                Statement::Break if !nested => self.exit(polls),
                Statement::Return { .. } => self.exit(polls),
                Statement::If { condition, accept, reject } => {
                    self.conditions.push(*condition);
                    self.walk(polls, accept, nested);
                    self.walk(polls, reject, nested);
                    self.conditions.pop();
                }
                Statement::Block(b) => self.walk(polls, b, nested),
                Statement::Switch { selector, cases } => {
                    self.conditions.push(*selector);
                    for case in cases {
                        self.walk(polls, &case.body, true);
                    }
                    self.conditions.pop();
                }
                Statement::Loop { body, continuing, .. } => {
                    self.walk(polls, body, true);
                    self.walk(polls, continuing, true);
                }
                _ => {}
            }
        }
    }

    fn exit(&mut self, polls: &mut Polls<'_>) {
        self.count += 1;
        let conditions = self.conditions.clone();
        self.all_depend &= conditions.into_iter().any(|c| polls.depends(c));
    }
}

/// A global whose written storage memory `f` loads (plainly or atomically),
/// if any.
fn loads_written(f: &Function, written: &HashSet<Handle<GlobalVariable>>) -> Option<Handle<GlobalVariable>> {
    let mut found = None;
    crate::blocks::for_each_statement(&f.body, &mut |s| {
        let pointers: Vec<Handle<Expression>> = match s {
            Statement::Emit(range) => range
                .clone()
                .filter_map(|h| match f.expressions[h] {
                    Expression::Load { pointer } => Some(pointer),
                    _ => None,
                })
                .collect(),
            Statement::Atomic { pointer, .. } => vec![*pointer],
            _ => Vec::new(),
        };
        for p in pointers {
            if let Some(g) = global_root(f, p).filter(|g| written.contains(g)) {
                found.get_or_insert(g);
            }
        }
    });
    found
}

/// The operands of an expression.
fn operands(e: &Expression) -> Vec<Handle<Expression>> {
    use Expression as E;
    match *e {
        E::Access { base, index } => vec![base, index],
        E::AccessIndex { base, .. } => vec![base],
        E::Splat { value, .. } => vec![value],
        E::Swizzle { vector, .. } => vec![vector],
        E::Compose { ref components, .. } => components.clone(),
        E::Load { pointer } => vec![pointer],
        E::Unary { expr, .. } => vec![expr],
        E::Binary { left, right, .. } => vec![left, right],
        E::Select { condition, accept, reject } => vec![condition, accept, reject],
        E::Relational { argument, .. } => vec![argument],
        E::Math { arg, arg1, arg2, arg3, .. } => [Some(arg), arg1, arg2, arg3].into_iter().flatten().collect(),
        E::As { expr, .. } => vec![expr],
        E::Derivative { expr, .. } => vec![expr],
        E::ArrayLength(e) => vec![e],
        _ => Vec::new(),
    }
}
