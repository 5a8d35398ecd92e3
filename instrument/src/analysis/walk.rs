//! Abstract execution of the entry point: the events of the static analyzer.
//!
//! The walk runs the entry point once for a whole workgroup at a time,
//! symbolically: every value is a [`Node`] over the invocation's coordinates,
//! or unknown. Loops whose trip count is the same for every invocation are
//! unrolled (up to a budget), so their counters are constants in each
//! iteration; other loops are *summarised* — walked once with every local
//! they assign unknown. Branches on a value that differs between invocations
//! are walked both ways under a *guard* (the condition, when known, or an
//! *uncertain* marker); an early return adds its negation to the guards of
//! what follows.
//!
//! Each load and store that the pass would instrument becomes an [`Event`]:
//! the site, the symbolic index of each dynamic step of its access chain,
//! the guards under which it runs, and the barrier interval it is in. An
//! event over-approximates what the GPU does (an uncertain guard is taken to
//! hold for everyone); its `must` flag says it is exact, so that a conflict
//! between two `must` events is a certain race.
//!
//! The walk gives up ([`Walk::abort`]) where intervals cannot be followed: a
//! barrier under a guard or after an early return, or a barrier in a loop it
//! cannot unroll. Then nothing is pruned.

use std::collections::HashMap;
use std::rc::Rc;

use naga::valid::FunctionInfo;
use naga::{
    AddressSpace, BinaryOperator, Block, BuiltIn, Expression, Function, Handle, Literal, LocalVariable, MathFunction,
    Module, ScalarKind, Statement, StorageAccess, Type, TypeInner, UnaryOperator,
};

use super::value::{ITERATION, Kind, LOCAL, MAX_SIZE, Node, Op, WORKGROUP};
use super::{AccessKey, AnalysisInput};
use crate::plan::{Bound, Plan};

/// Most loop iterations the walk unrolls in all (beyond it, loops are
/// summarised).
const UNROLL_BUDGET: u64 = 1 << 16;
/// Most events the walk records before it summarises further loops.
const EVENT_BUDGET: usize = 1 << 18;

/// One execution of an instrumented access by (some of) a workgroup's
/// invocations.
#[derive(Clone, Debug)]
pub struct Event {
    pub site: u32,
    pub var: usize,
    pub write: bool,
    /// Consecutive words the access covers.
    pub words: u32,
    /// Word offset of the access when every index is zero.
    pub const_words: u32,
    /// The dynamic steps of the access chain.
    pub terms: Vec<EventTerm>,
    /// Conditions (over the invocation's coordinates) that all hold for an
    /// invocation that executes the access.
    pub guards: Vec<Rc<Node>>,
    /// Whether every invocation satisfying `guards` executes the access
    /// exactly here (no uncertain branch, loop or early return around it).
    pub must: bool,
    /// Workgroup-memory barrier interval (counts barriers ordering it).
    pub wg_interval: u32,
    /// Storage-memory barrier interval.
    pub storage_interval: u32,
    /// Largest value of each iteration coordinate ([`ITERATION`]) the access
    /// can see; `None` when unbounded (or not in use).
    pub iterations: [Option<i64>; 2],
    /// The innermost loop around the access in its function (its body) and
    /// which execution of that loop statement this is.
    pub loop_instance: Option<(*const Block, u64)>,
}

/// A dynamic index of an access chain.
#[derive(Clone, Debug)]
pub struct EventTerm {
    /// The index, or `None` when unknown.
    pub index: Option<(Kind, Rc<Node>)>,
    /// Words between consecutive values of the index.
    pub stride: u32,
    /// The element count it is checked against, when known.
    pub bound: Option<u64>,
}

/// What the walk needs of an index site.
#[derive(Clone, Copy, Debug)]
pub(crate) struct IndexFacts {
    /// Its id in the index table.
    pub site: u32,
    pub index: crate::bounds::Index,
    /// The element count, when known (a runtime-sized array's from the
    /// run's buffer sizes).
    pub length: Option<u64>,
}

/// A word of atomic `u32` that `atomicAdd` handed out tickets from
/// ([`Node::Ticket`] names it by its index in [`Walk::counters`]).
#[derive(Clone, Debug)]
pub struct Counter {
    pub global: Handle<naga::GlobalVariable>,
    /// Byte offset of the word in the variable.
    pub offset: u64,
    /// The most one invocation adds to the word in all, when every
    /// operation on it the walk saw adds a positive constant outside loops
    /// it summarised; `None` otherwise. The counter then only grows, so the
    /// values its additions return are all distinct while the invocations
    /// sharing it add less than 2³² in all.
    pub per_invocation: Option<u64>,
}

/// What the walk found.
#[derive(Debug, Default)]
pub struct Walk {
    pub events: Vec<Event>,
    /// One per evaluation of an index site ([`Walker::indices`]): the site
    /// id, and its one term (stride 1, bounded by the length); at most
    /// [`EVENT_BUDGET`], beyond which `indices_overflow` is set (and no index
    /// is proven in bounds).
    pub indices: Vec<Event>,
    pub indices_overflow: bool,
    /// The counters tickets came from.
    pub counters: Vec<Counter>,
    /// Why the walk gave up, if it did.
    pub abort: Option<String>,
    /// Loops unrolled, and loops summarised.
    pub unrolled_iterations: u64,
    pub summarised_loops: u32,
    /// Per loop statement (by its body): the most times an instance of it
    /// started its body, when the walk unrolled every instance it met
    /// (their exits are the same for every invocation and known); `None`
    /// once it summarised one.
    pub loop_starts: HashMap<*const Block, Option<u64>>,
}

#[derive(Clone, Debug, PartialEq)]
enum Value {
    Unknown,
    Scalar(Kind, Rc<Node>),
    Vector(Vec<Value>),
    Struct(Vec<Value>),
}

impl Value {
    fn scalar(&self) -> Option<(Kind, &Rc<Node>)> {
        match self {
            Value::Scalar(k, n) => Some((*k, n)),
            _ => None,
        }
    }

    fn known(&self) -> Option<i64> {
        self.scalar().and_then(|(_, n)| n.known())
    }

    fn component(&self, i: usize) -> Value {
        match self {
            Value::Vector(c) | Value::Struct(c) => c.get(i).cloned().unwrap_or(Value::Unknown),
            _ => Value::Unknown,
        }
    }
}

#[derive(Clone, Debug)]
enum Guard {
    Pred(Rc<Node>),
    Uncertain,
}

/// How a block ended for the invocations the walk follows.
#[derive(Clone, Debug)]
enum Flow {
    Normal,
    Break,
    Continue,
    Return,
}

/// A loop being summarised.
#[derive(Clone, Copy)]
struct Summary {
    /// The level of its iteration coordinate, if it has an induction
    /// variable.
    level: Option<usize>,
    /// How many loop guards there were when it started: more when a break
    /// is reached means a `continue` or `break` of this iteration came
    /// first, which may skip the break's test in some iterations.
    loop_guards_at: usize,
}

#[derive(Clone, Copy)]
enum Target {
    /// A loop; `summary` when it is being summarised.
    Loop {
        guard_depth: usize,
        summary: Option<Summary>,
    },
    Switch,
}

#[derive(Clone)]
struct Frame<'m> {
    function: &'m Function,
    key: Option<usize>,
    info: &'m FunctionInfo,
    values: Vec<Value>,
    locals: Vec<Value>,
    args: Vec<Value>,
    guard_base: usize,
    /// Conditions that hold for invocations still running this function
    /// (after early returns).
    alive: Vec<Guard>,
    diverged: bool,
    returns: Vec<Value>,
    /// The loops being walked in this function, innermost last: body and
    /// instance number.
    loops: Vec<(*const Block, u64)>,
}

struct Abort(String);

pub struct Walker<'a> {
    pub module: &'a Module,
    pub input: &'a AnalysisInput<'a>,
    pub plans: &'a HashMap<(Option<usize>, AccessKey), &'a Plan>,
    /// The index sites the index guard would test, by function and access
    /// expression: each evaluation is an event of [`Walk::indices`].
    pub indices: &'a HashMap<(Option<usize>, Handle<Expression>), IndexFacts>,
    pub infos: &'a dyn Fn(Option<usize>) -> &'a FunctionInfo,
    pub workgroup_size: [u32; 3],
    pub runtime_len: &'a dyn Fn(usize) -> Option<u64>,
}

struct State<'m> {
    frames: Vec<Frame<'m>>,
    guards: Vec<Guard>,
    /// Conditions that hold for the rest of the current iteration of the
    /// summarised loops being walked (invocations that broke out or
    /// continued earlier are gone), and whether a `continue` set it (then
    /// it holds only until the continuing block).
    loop_guards: Vec<(Guard, bool)>,
    /// Bounds of the iteration coordinates of the summarised loops being
    /// walked (one per nesting level with an induction variable).
    iterations: Vec<Option<i64>>,
    targets: Vec<Target>,
    nonuniform_jump: bool,
    wg_interval: u32,
    storage_interval: u32,
    walk: Walk,
    /// Loop statements entered so far (numbers their instances).
    loop_instances: u64,
    /// How many summarised loops the walk is in (in any function).
    summarised: u32,
    /// Variables some atomic operation other than a ticket's may have
    /// changed at a word the walk could not tell (`None`: any variable).
    spoiled: Vec<Option<Handle<naga::GlobalVariable>>>,
    /// Counter ids by variable and byte offset.
    counter_ids: HashMap<(Handle<naga::GlobalVariable>, u64), usize>,
}

impl State<'_> {
    /// The id of the counter at `offset` of `global`, a new one if needed.
    fn counter(&mut self, global: Handle<naga::GlobalVariable>, offset: u64) -> usize {
        if let Some(&i) = self.counter_ids.get(&(global, offset)) {
            return i;
        }
        let spoiled = self.spoiled.iter().any(|s| s.is_none_or(|g| g == global));
        self.walk.counters.push(Counter { global, offset, per_invocation: (!spoiled).then_some(0) });
        self.counter_ids.insert((global, offset), self.walk.counters.len() - 1);
        self.walk.counters.len() - 1
    }

    /// An operation that is not a ticket's may change the word at `offset`
    /// of `global` (any word of it for `None`; any variable's for no
    /// `global`): counters there hand out no unique tickets.
    fn spoil(&mut self, global: Option<Handle<naga::GlobalVariable>>, offset: Option<u64>) {
        if let (Some(g), Some(o)) = (global, offset) {
            let i = self.counter(g, o);
            self.walk.counters[i].per_invocation = None;
            return;
        }
        for c in self.walk.counters.iter_mut().filter(|c| global.is_none_or(|g| g == c.global)) {
            c.per_invocation = None;
        }
        if !self.spoiled.contains(&global) {
            self.spoiled.push(global);
        }
    }
}

impl<'a> Walker<'a> {
    /// Walks entry point `ep`.
    pub fn run(&self, ep: &'a naga::EntryPoint) -> Walk {
        let args = ep.function.arguments.iter().map(|a| self.entry_argument(a)).collect();
        let frame = self.frame(&ep.function, None, args);
        let mut st = State {
            frames: vec![frame],
            guards: Vec::new(),
            loop_guards: Vec::new(),
            iterations: Vec::new(),
            targets: Vec::new(),
            nonuniform_jump: false,
            wg_interval: 0,
            storage_interval: 0,
            walk: Walk::default(),
            loop_instances: 0,
            summarised: 0,
            spoiled: Vec::new(),
            counter_ids: HashMap::new(),
        };
        if let Err(Abort(reason)) = self.block(&mut st, &ep.function.body) {
            st.walk.abort = Some(reason);
        }
        st.walk
    }

    fn frame(&self, function: &'a Function, key: Option<usize>, args: Vec<Value>) -> Frame<'a> {
        let mut frame = Frame {
            function,
            key,
            info: (self.infos)(key),
            values: vec![Value::Unknown; function.expressions.len()],
            locals: Vec::new(),
            args,
            guard_base: 0,
            alive: Vec::new(),
            diverged: false,
            returns: Vec::new(),
            loops: Vec::new(),
        };
        let locals = function
            .local_variables
            .iter()
            .map(|(_, lv)| match lv.init {
                Some(init) => self.eval(&mut frame, init),
                None => self.zero(lv.ty),
            })
            .collect();
        frame.locals = locals;
        frame
    }

    fn entry_argument(&self, arg: &naga::FunctionArgument) -> Value {
        match &arg.binding {
            Some(naga::Binding::BuiltIn(b)) => self.builtin(*b),
            None => match &self.module.types[arg.ty].inner {
                TypeInner::Struct { members, .. } => Value::Struct(
                    members
                        .iter()
                        .map(|m| match &m.binding {
                            Some(naga::Binding::BuiltIn(b)) => self.builtin(*b),
                            _ => Value::Unknown,
                        })
                        .collect(),
                ),
                _ => Value::Unknown,
            },
            _ => Value::Unknown,
        }
    }

    fn builtin(&self, b: BuiltIn) -> Value {
        let coord = |c: usize| Value::Scalar(Kind::U32, Rc::new(Node::Coord(c)));
        let size = self.workgroup_size.map(i64::from);
        match b {
            BuiltIn::LocalInvocationId => Value::Vector(LOCAL.iter().map(|&c| coord(c)).collect()),
            BuiltIn::WorkGroupId => Value::Vector(WORKGROUP.iter().map(|&c| coord(c)).collect()),
            BuiltIn::NumWorkGroups => Value::Vector(
                self.input.dispatch.iter().map(|&d| Value::Scalar(Kind::U32, Node::constant(i64::from(d)))).collect(),
            ),
            BuiltIn::WorkGroupSize => {
                Value::Vector(size.iter().map(|&s| Value::Scalar(Kind::U32, Node::constant(s))).collect())
            }
            BuiltIn::LocalInvocationIndex => {
                let y = Node::binary(Op::Mul, Kind::U32, Rc::new(Node::Coord(LOCAL[1])), Node::constant(size[0]));
                let z =
                    Node::binary(Op::Mul, Kind::U32, Rc::new(Node::Coord(LOCAL[2])), Node::constant(size[0] * size[1]));
                let xy = Node::binary(Op::Add, Kind::U32, Rc::new(Node::Coord(LOCAL[0])), y);
                Value::Scalar(Kind::U32, Node::binary(Op::Add, Kind::U32, xy, z))
            }
            BuiltIn::GlobalInvocationId => Value::Vector(
                (0..3)
                    .map(|i| {
                        let base = Node::binary(
                            Op::Mul,
                            Kind::U32,
                            Rc::new(Node::Coord(WORKGROUP[i])),
                            Node::constant(size[i]),
                        );
                        Value::Scalar(Kind::U32, Node::binary(Op::Add, Kind::U32, base, Rc::new(Node::Coord(LOCAL[i]))))
                    })
                    .collect(),
            ),
            _ => Value::Unknown,
        }
    }

    // ------------------------------------------------------------ statements

    fn block(&self, st: &mut State<'a>, block: &'a Block) -> Result<Flow, Abort> {
        for stmt in block.iter() {
            let flow = self.statement(st, stmt)?;
            if !matches!(flow, Flow::Normal) {
                return Ok(flow);
            }
        }
        Ok(Flow::Normal)
    }

    fn statement(&self, st: &mut State<'a>, stmt: &'a Statement) -> Result<Flow, Abort> {
        match stmt {
            Statement::Emit(range) => {
                for h in range.clone() {
                    let v = self.emitted(st, h);
                    top(st).values[h.index()] = v;
                    if let Some(facts) = self.indices.get(&(top(st).key, h)) {
                        self.index_event(st, facts);
                    }
                }
            }
            Statement::Store { pointer, value } => {
                let key = (top(st).key, AccessKey::Store(*pointer, *value));
                if let Some(plan) = self.plans.get(&key) {
                    self.event(st, plan);
                } else {
                    // An `atomicStore` (stores of other storage and
                    // workgroup memory are planned): not a ticket's.
                    if let Some((g, place)) = self.place(top(st), *pointer)
                        && matches!(
                            self.module.global_variables[g].space,
                            AddressSpace::Storage { .. } | AddressSpace::WorkGroup
                        )
                    {
                        st.spoil(Some(g), place.map(|(offset, _)| offset));
                    }
                    let v = self.eval(top(st), *value);
                    store_local(top(st), *pointer, v);
                }
            }
            Statement::ControlBarrier(flags) => {
                let wg = flags.contains(naga::Barrier::WORK_GROUP);
                let storage = flags.contains(naga::Barrier::STORAGE);
                if wg || storage {
                    self.barrier(st)?;
                    st.wg_interval += u32::from(wg);
                    st.storage_interval += u32::from(storage);
                }
            }
            Statement::WorkGroupUniformLoad { .. } => {
                self.barrier(st)?;
                st.wg_interval += 1;
            }
            Statement::Block(b) => return self.block(st, b),
            Statement::If { condition, accept, reject } => {
                let c = self.eval(top(st), *condition);
                return self.branch(st, &c, accept, reject);
            }
            Statement::Switch { selector, cases } => return self.switch(st, *selector, cases),
            Statement::Loop { body, continuing, break_if } => return self.r#loop(st, body, continuing, *break_if),
            Statement::Break => return Ok(self.jump(st, Flow::Break)),
            Statement::Continue => return Ok(self.jump(st, Flow::Continue)),
            Statement::Return { value } => {
                let v = value.map_or(Value::Unknown, |v| self.eval(top(st), v));
                let frame_base = top(st).guard_base;
                top(st).returns.push(v);
                if st.guards.len() > frame_base {
                    // Only the invocations satisfying the enclosing guards
                    // return here: the others go on under the negation.
                    let guard = conjunction(&st.guards[frame_base..])
                        .map_or(Guard::Uncertain, |c| Guard::Pred(Node::negation(c)));
                    let frame = top(st);
                    frame.alive.push(guard);
                    frame.diverged = true;
                }
                return Ok(Flow::Return);
            }
            Statement::Call { function, arguments, result } => {
                let args: Vec<Value> = arguments.iter().map(|&a| self.eval(top(st), a)).collect();
                let callee = &self.module.functions[*function];
                let mut frame = self.frame(callee, Some(function.index()), args);
                frame.guard_base = st.guards.len();
                st.frames.push(frame);
                let saved_targets = std::mem::take(&mut st.targets);
                let outcome = self.block(st, &callee.body);
                st.targets = saved_targets;
                let done = st.frames.pop().expect("the callee's frame");
                outcome?;
                let value = match done.returns.split_first() {
                    Some((first, rest)) if rest.iter().all(|r| r == first) && !done.diverged => first.clone(),
                    _ => Value::Unknown,
                };
                // A callee may store through pointers to the caller's locals.
                let caller = top(st);
                for &a in arguments {
                    if let Some(lv) = local_root(caller.function, a) {
                        caller.locals[lv.index()] = Value::Unknown;
                    }
                }
                if let Some(r) = result {
                    caller.values[r.index()] = value;
                }
            }
            Statement::Atomic { pointer, fun, value, result } => self.atomic(st, *pointer, fun, *value, *result),
            Statement::Kill
            | Statement::MemoryBarrier(_)
            | Statement::ImageStore { .. }
            | Statement::ImageAtomic { .. }
            | Statement::RayQuery { .. }
            | Statement::RayPipelineFunction(_)
            | Statement::SubgroupBallot { .. }
            | Statement::SubgroupGather { .. }
            | Statement::SubgroupCollectiveOperation { .. }
            | Statement::CooperativeStore { .. } => {}
        }
        Ok(Flow::Normal)
    }

    /// An atomic read-modify-write. `atomicAdd` of a positive constant to a
    /// word of `u32` the walk can name returns a ticket of that word's
    /// counter; anything else spoils the counters it may touch.
    fn atomic(
        &self,
        st: &mut State<'a>,
        pointer: Handle<Expression>,
        fun: &naga::AtomicFunction,
        value: Handle<Expression>,
        result: Option<Handle<Expression>>,
    ) {
        let place = self.place(top(st), pointer);
        let amount = match fun {
            naga::AtomicFunction::Add => self.eval(top(st), value).known().filter(|k| (1..1 << 31).contains(k)),
            _ => None,
        };
        let u32_word =
            |ty: Handle<Type>| matches!(self.module.types[ty].inner, TypeInner::Atomic(s) if s == naga::Scalar::U32);
        match (place, amount) {
            (Some((g, Some((offset, ty)))), Some(k)) if u32_word(ty) => {
                let id = st.counter(g, offset);
                let in_summary = st.summarised > 0;
                let counter = &mut st.walk.counters[id];
                counter.per_invocation =
                    counter.per_invocation.filter(|_| !in_summary).and_then(|p| p.checked_add(k as u64));
                if let Some(r) = result {
                    top(st).values[r.index()] = Value::Scalar(Kind::U32, Rc::new(Node::Ticket(id as u32)));
                }
            }
            (Some((g, place)), _) => st.spoil(Some(g), place.map(|(offset, _)| offset)),
            (None, _) => st.spoil(None, None),
        }
    }

    /// A barrier: intervals can be followed only if every invocation of the
    /// workgroup reaches it together.
    fn barrier(&self, st: &State<'a>) -> Result<(), Abort> {
        if !st.guards.is_empty() || st.frames.iter().any(|f| f.diverged) {
            return Err(Abort("a barrier is reached in non-uniform control flow".into()));
        }
        Ok(())
    }

    fn jump(&self, st: &mut State<'a>, flow: Flow) -> Flow {
        let target = match flow {
            Flow::Continue => st.targets.iter().rev().find(|t| matches!(t, Target::Loop { .. })).copied(),
            _ => st.targets.last().copied(),
        };
        let Some(Target::Loop { guard_depth, summary }) = target else { return flow };
        if st.guards.len() <= guard_depth {
            return flow;
        }
        st.nonuniform_jump = true;
        if let Some(summary) = summary {
            // The invocations that go on in this iteration are those for
            // which the branches leading here were not all taken.
            let taken = conjunction(&st.guards[guard_depth + 1..]);
            let stay = taken.map_or(Guard::Uncertain, |t| Guard::Pred(Node::negation(t)));
            // A break's condition bounds the loop's own iteration count,
            // when every iteration tests it (nothing of this iteration
            // jumped before it).
            if let (Flow::Break, Guard::Pred(p), Some(level)) = (&flow, &stay, summary.level)
                && st.iterations[level].is_none()
                && st.loop_guards.len() == summary.loop_guards_at
            {
                st.iterations[level] = iteration_bound(p.as_ref(), ITERATION[level]);
            }
            st.loop_guards.push((stay, matches!(flow, Flow::Continue)));
        }
        flow
    }

    fn branch(&self, st: &mut State<'a>, c: &Value, accept: &'a Block, reject: &'a Block) -> Result<Flow, Abort> {
        if let Some(v) = c.known() {
            return self.block(st, if v != 0 { accept } else { reject });
        }
        let (yes, no) = match c.scalar() {
            Some((_, n)) => (Guard::Pred(n.clone()), Guard::Pred(Node::negation(n.clone()))),
            None => (Guard::Uncertain, Guard::Uncertain),
        };
        let before = top(st).locals.clone();
        st.guards.push(yes);
        let fa = self.block(st, accept)?;
        st.guards.pop();
        let after_accept = std::mem::replace(&mut top(st).locals, before);
        st.guards.push(no);
        let fr = self.block(st, reject)?;
        st.guards.pop();
        let after_reject = std::mem::take(&mut top(st).locals);
        let exits = |f: &Flow| !matches!(f, Flow::Normal);
        top(st).locals = match (exits(&fa), exits(&fr)) {
            (true, true) => {
                top(st).locals = after_reject;
                // Every invocation left by one path or the other.
                return Ok(if matches!((&fa, &fr), (Flow::Return, Flow::Return)) { Flow::Return } else { fa });
            }
            (true, false) => after_reject,
            (false, true) => after_accept,
            (false, false) => merge(&after_accept, &after_reject, c.scalar().map(|(_, n)| n)),
        };
        Ok(Flow::Normal)
    }

    fn switch(
        &self,
        st: &mut State<'a>,
        selector: Handle<Expression>,
        cases: &'a [naga::SwitchCase],
    ) -> Result<Flow, Abort> {
        let s = self.eval(top(st), selector);
        st.targets.push(Target::Switch);
        let outcome = self.switch_cases(st, s.known(), cases);
        st.targets.pop();
        outcome
    }

    fn switch_cases(
        &self,
        st: &mut State<'a>,
        selector: Option<i64>,
        cases: &'a [naga::SwitchCase],
    ) -> Result<Flow, Abort> {
        let matches = |case: &naga::SwitchCase, v: i64| match case.value {
            naga::SwitchValue::I32(x) => i64::from(x) == v,
            naga::SwitchValue::U32(x) => i64::from(x) == v,
            naga::SwitchValue::Default => false,
        };
        if let Some(v) = selector {
            let start = cases
                .iter()
                .position(|c| matches(c, v))
                .or_else(|| cases.iter().position(|c| c.value == naga::SwitchValue::Default));
            let Some(start) = start else { return Ok(Flow::Normal) };
            for case in &cases[start..] {
                match self.block(st, &case.body)? {
                    Flow::Break => return Ok(Flow::Normal),
                    Flow::Normal if case.fall_through => continue,
                    Flow::Normal => return Ok(Flow::Normal),
                    other => return Ok(other),
                }
            }
            return Ok(Flow::Normal);
        }
        // Unknown selector: every case may run, for some invocations.
        let before = top(st).locals.clone();
        let mut merged: Option<Vec<Value>> = None;
        st.guards.push(Guard::Uncertain);
        for case in cases {
            top(st).locals = before.clone();
            self.block(st, &case.body)?;
            let after = std::mem::take(&mut top(st).locals);
            merged = Some(match merged {
                None => after,
                Some(m) => merge(&m, &after, None),
            });
        }
        st.guards.pop();
        top(st).locals = merge(&merged.unwrap_or_else(|| before.clone()), &before, None);
        Ok(Flow::Normal)
    }

    fn r#loop(
        &self,
        st: &mut State<'a>,
        body: &'a Block,
        continuing: &'a Block,
        break_if: Option<Handle<Expression>>,
    ) -> Result<Flow, Abort> {
        st.loop_instances += 1;
        let instance = (body as *const Block, st.loop_instances);
        top(st).loops.push(instance);
        let outcome = self.loop_statement(st, body, continuing, break_if);
        top(st).loops.pop();
        outcome
    }

    fn loop_statement(
        &self,
        st: &mut State<'a>,
        body: &'a Block,
        continuing: &'a Block,
        break_if: Option<Handle<Expression>>,
    ) -> Result<Flow, Abort> {
        let snapshot =
            (top(st).clone(), st.walk.events.len(), st.wg_interval, st.storage_interval, st.walk.unrolled_iterations);
        let jump_before = std::mem::replace(&mut st.nonuniform_jump, false);
        st.targets.push(Target::Loop { guard_depth: st.guards.len(), summary: None });
        let unrolled = self.unroll(st, body, continuing, break_if);
        st.targets.pop();
        let uniform = !std::mem::replace(&mut st.nonuniform_jump, jump_before);
        match unrolled? {
            Some((flow, starts)) if uniform => {
                let most = st.walk.loop_starts.entry(body as *const Block).or_insert(Some(0));
                *most = most.map(|m| m.max(starts));
                return Ok(flow);
            }
            _ => {}
        }
        // Restore and summarise.
        let (frame, events, wg, storage, iterations) = snapshot;
        *top(st) = frame;
        st.walk.events.truncate(events);
        st.wg_interval = wg;
        st.storage_interval = storage;
        st.walk.unrolled_iterations = iterations;
        st.walk.summarised_loops += 1;
        let mut assigned = Vec::new();
        assigned_locals(top(st).function, body, &mut assigned);
        assigned_locals(top(st).function, continuing, &mut assigned);
        let induction = self.induction(top(st), body, continuing, &assigned);
        for lv in &assigned {
            top(st).locals[lv.index()] = Value::Unknown;
        }
        // An induction variable is `start + step·k` at iteration k.
        let levels = st.iterations.len();
        let mut level = None;
        if let Some((lv, start, step)) = induction
            && levels < ITERATION.len()
        {
            let k = Rc::new(Node::Coord(ITERATION[levels]));
            let i = Node::binary(Op::Add, Kind::U32, start, Node::binary(Op::Mul, Kind::U32, Node::constant(step), k));
            top(st).locals[lv.index()] = Value::Scalar(Kind::U32, i);
            st.iterations.push(None);
            level = Some(levels);
        }
        let rest = st.loop_guards.len();
        st.targets.push(Target::Loop {
            guard_depth: st.guards.len(),
            summary: Some(Summary { level, loop_guards_at: rest }),
        });
        st.guards.push(Guard::Uncertain);
        st.summarised += 1;
        let outcome = self.block(st, body).and_then(|_| {
            // Invocations that continued run the continuing block too.
            let mut i = rest;
            while i < st.loop_guards.len() {
                if st.loop_guards[i].1 {
                    st.loop_guards.remove(i);
                } else {
                    i += 1;
                }
            }
            self.block(st, continuing)
        });
        st.summarised -= 1;
        st.guards.pop();
        st.targets.pop();
        st.loop_guards.truncate(rest);
        // A break whose condition bounds the induction variable bounds the
        // starts of the body: iterations 0 to the last that may continue,
        // and the one that leaves.
        let bounded = level.and_then(|l| st.iterations[l]).and_then(|last| u64::try_from(last + 2).ok());
        let most = st.walk.loop_starts.entry(body as *const Block).or_insert(Some(0));
        *most = most.zip(bounded).map(|(m, b)| m.max(b));
        st.iterations.truncate(levels);
        st.nonuniform_jump = jump_before;
        outcome?;
        for lv in &assigned {
            top(st).locals[lv.index()] = Value::Unknown;
        }
        Ok(Flow::Normal)
    }

    /// The loop's induction variable, if it has one: a `u32` local the loop
    /// assigns only by `i = i + step` at the top level of its continuing
    /// block (so once per iteration, for every invocation still in the
    /// loop), with `step` a positive constant computed before the loop. Returns it, its value before the loop and
    /// the step.
    fn induction(
        &self,
        frame: &mut Frame<'a>,
        body: &'a Block,
        continuing: &'a Block,
        assigned: &[Handle<LocalVariable>],
    ) -> Option<(Handle<LocalVariable>, Rc<Node>, i64)> {
        let f = frame.function;
        let mut inside = Vec::new();
        emitted_in(body, &mut inside);
        emitted_in(continuing, &mut inside);
        let stores = continuing.iter().filter_map(|s| match s {
            Statement::Store { pointer, value } => Some((*pointer, *value)),
            _ => None,
        });
        for (pointer, value) in stores {
            let Expression::LocalVariable(lv) = f.expressions[pointer] else { continue };
            if assigned.iter().filter(|&&a| a == lv).count() != 1 {
                continue;
            }
            let Expression::Binary { op: BinaryOperator::Add, left, right } = f.expressions[value] else { continue };
            let Expression::Load { pointer: from } = f.expressions[left] else { continue };
            if f.expressions[from] != Expression::LocalVariable(lv) || inside.contains(&right) {
                continue;
            }
            let Some(Kind::U32) = kind(frame.info[left].ty.inner_with(&self.module.types)) else { continue };
            let step = self.eval(frame, right).known().filter(|&s| s > 0)?;
            let Value::Scalar(Kind::U32, start) = frame.locals[lv.index()].clone() else { continue };
            return Some((lv, start, step));
        }
        None
    }

    /// Unrolls a loop whose exits are the same for every invocation, and
    /// says how many times it started its body. `None` when it cannot (an
    /// exit condition that differs between invocations, or the budget
    /// spent); the caller then summarises it.
    fn unroll(
        &self,
        st: &mut State<'a>,
        body: &'a Block,
        continuing: &'a Block,
        break_if: Option<Handle<Expression>>,
    ) -> Result<Option<(Flow, u64)>, Abort> {
        let mut starts = 0;
        loop {
            if st.walk.unrolled_iterations >= UNROLL_BUDGET || st.walk.events.len() >= EVENT_BUDGET {
                return Ok(None);
            }
            st.walk.unrolled_iterations += 1;
            starts += 1;
            match self.block(st, body)? {
                Flow::Break => return Ok(Some((Flow::Normal, starts))),
                Flow::Return => return Ok(Some((Flow::Return, starts))),
                Flow::Normal | Flow::Continue => {}
            }
            if st.nonuniform_jump {
                return Ok(None);
            }
            self.block(st, continuing)?;
            if let Some(b) = break_if {
                match self.eval(top(st), b).known() {
                    Some(0) => {}
                    Some(_) => return Ok(Some((Flow::Normal, starts))),
                    None => return Ok(None),
                }
            }
        }
    }

    /// An event of `site` at the current statement, with `terms`: the
    /// guards that hold for the invocations executing it, its barrier
    /// intervals and loop iterations.
    fn event_here(st: &State<'a>, site: u32, terms: Vec<EventTerm>) -> Event {
        let mut guards = Vec::new();
        let mut must = true;
        let loop_guards = st.loop_guards.iter().map(|(g, _)| g);
        for g in st.guards.iter().chain(loop_guards).chain(st.frames.iter().flat_map(|f| f.alive.iter())) {
            match g {
                Guard::Pred(p) => guards.push(p.clone()),
                Guard::Uncertain => must = false,
            }
        }
        Event {
            site,
            var: usize::MAX,
            write: false,
            words: 1,
            const_words: 0,
            terms,
            guards,
            must,
            wg_interval: st.wg_interval,
            storage_interval: st.storage_interval,
            iterations: [0, 1].map(|l| st.iterations.get(l).copied().flatten()),
            loop_instance: st.frames.last().and_then(|f| f.loops.last().copied()),
        }
    }

    /// An evaluation of an index site.
    fn index_event(&self, st: &mut State<'a>, facts: &IndexFacts) {
        if st.walk.indices.len() >= EVENT_BUDGET {
            st.walk.indices_overflow = true;
            return;
        }
        let index = match facts.index {
            crate::bounds::Index::Constant(n) => Some((Kind::U32, Node::constant(i64::from(n)))),
            crate::bounds::Index::Dynamic { value, .. } => match self.eval(top(st), value) {
                Value::Scalar(k @ (Kind::U32 | Kind::I32), n) => Some((k, n)),
                _ => None,
            },
        };
        let event = Self::event_here(st, facts.site, vec![EventTerm { index, stride: 1, bound: facts.length }]);
        st.walk.indices.push(event);
    }

    fn event(&self, st: &mut State<'a>, plan: &Plan) {
        let frame = top(st);
        let terms = plan
            .terms
            .iter()
            .map(|t| {
                let index = match self.eval(frame, t.index) {
                    Value::Scalar(k @ (Kind::U32 | Kind::I32), n) => Some((k, n)),
                    _ => None,
                };
                let bound = match t.bound {
                    Bound::Fixed(n) => Some(u64::from(n)),
                    Bound::Runtime(_) => (self.runtime_len)(plan.var),
                };
                EventTerm { index, stride: t.stride, bound }
            })
            .collect();
        let event = Event {
            var: plan.var,
            write: plan.write,
            words: plan.words,
            const_words: plan.const_words,
            ..Self::event_here(st, plan.site, terms)
        };
        st.walk.events.push(event);
    }

    // ------------------------------------------------------------ expressions

    /// An expression an `Emit` evaluates; loads of instrumented memory are
    /// events.
    fn emitted(&self, st: &mut State<'a>, h: Handle<Expression>) -> Value {
        let frame = top(st);
        if let Expression::Load { .. } = frame.function.expressions[h] {
            let key = (frame.key, AccessKey::Load(h));
            if let Some(plan) = self.plans.get(&key) {
                self.event(st, plan);
                return Value::Unknown;
            }
        }
        self.compute(top(st), h)
    }

    /// The value of `h`: computed already if emitted, else computed now.
    fn eval(&self, frame: &mut Frame<'a>, h: Handle<Expression>) -> Value {
        let e = &frame.function.expressions[h];
        if e.needs_pre_emit() { self.compute(frame, h) } else { frame.values[h.index()].clone() }
    }

    fn compute(&self, frame: &mut Frame<'a>, h: Handle<Expression>) -> Value {
        let types = &self.module.types;
        let kind_of = |frame: &Frame<'a>, e: Handle<Expression>| kind(frame.info[e].ty.inner_with(types));
        match frame.function.expressions[h] {
            Expression::Literal(l) => literal(l),
            Expression::Constant(c) => self.global_expression(self.module.constants[c].init),
            Expression::ZeroValue(ty) => self.zero(ty),
            Expression::Compose { ty, ref components } => {
                let values = components.iter().map(|&c| self.eval(frame, c)).collect();
                match types[ty].inner {
                    TypeInner::Vector { .. } => Value::Vector(flatten(values)),
                    TypeInner::Struct { .. } => Value::Struct(values),
                    _ => Value::Unknown,
                }
            }
            Expression::Splat { size, value } => Value::Vector(vec![self.eval(frame, value); size as usize]),
            Expression::Swizzle { size, vector, pattern } => {
                let v = self.eval(frame, vector);
                Value::Vector(pattern[..size as usize].iter().map(|&p| v.component(p as usize)).collect())
            }
            Expression::AccessIndex { base, index } => self.eval(frame, base).component(index as usize),
            Expression::Access { base, index } => {
                let i = self.eval(frame, index).known();
                match i {
                    Some(i) => self.eval(frame, base).component(i as usize),
                    None => Value::Unknown,
                }
            }
            Expression::FunctionArgument(i) => frame.args.get(i as usize).cloned().unwrap_or(Value::Unknown),
            Expression::Load { pointer } => self.load(frame, pointer),
            Expression::Unary { op, expr } => {
                let k = kind_of(frame, expr);
                let v = self.eval(frame, expr);
                map1(&v, &|n| match (op, k) {
                    (UnaryOperator::Negate, Some(k @ (Kind::U32 | Kind::I32))) => Some((k, Node::negate(k, n.clone()))),
                    (UnaryOperator::LogicalNot, Some(Kind::Bool)) => Some((Kind::Bool, Node::negation(n.clone()))),
                    (UnaryOperator::BitwiseNot, Some(k @ (Kind::U32 | Kind::I32))) => {
                        Some((k, Node::bit_not(k, n.clone())))
                    }
                    (UnaryOperator::BitwiseNot, Some(Kind::Bool)) => Some((Kind::Bool, Node::negation(n.clone()))),
                    _ => None,
                })
            }
            Expression::Binary { op, left, right } => {
                let Some(k) = kind_of(frame, left) else { return Value::Unknown };
                let Some(op) = binary_op(op, k) else { return Value::Unknown };
                let (a, b) = (self.eval(frame, left), self.eval(frame, right));
                let result = match op {
                    Op::Eq | Op::Ne | Op::Lt | Op::Le | Op::Gt | Op::Ge => Kind::Bool,
                    _ => k,
                };
                map2(&a, &b, result, &|x, y| Node::binary(op, k, x.clone(), y.clone()))
            }
            Expression::Select { condition, accept, reject } => {
                let c = self.eval(frame, condition);
                let (a, r) = (self.eval(frame, accept), self.eval(frame, reject));
                select(&c, &a, &r)
            }
            Expression::As { expr, kind: to, convert } => {
                let from = kind_of(frame, expr);
                let v = self.eval(frame, expr);
                let to = match (to, convert) {
                    (ScalarKind::Uint, _) => Kind::U32,
                    (ScalarKind::Sint, _) => Kind::I32,
                    (ScalarKind::Bool, Some(_)) => Kind::Bool,
                    _ => return Value::Unknown,
                };
                match from {
                    Some(Kind::U32 | Kind::I32 | Kind::Bool) => map1(&v, &|n| {
                        Some((
                            to,
                            if to == Kind::Bool {
                                Node::binary(Op::Ne, Kind::U32, n.clone(), Node::constant(0))
                            } else {
                                Node::cast(to, n.clone())
                            },
                        ))
                    }),
                    _ => Value::Unknown,
                }
            }
            Expression::Math { fun, arg, arg1, arg2, .. } => {
                let Some(k @ (Kind::U32 | Kind::I32)) = kind_of(frame, arg) else { return Value::Unknown };
                let x = self.eval(frame, arg);
                let y = arg1.map(|a| self.eval(frame, a));
                let z = arg2.map(|a| self.eval(frame, a));
                let pair =
                    |op: Op, a: &Value, b: &Value| map2(a, b, k, &|p, q| Node::binary(op, k, p.clone(), q.clone()));
                match (fun, y, z) {
                    (MathFunction::Min, Some(y), _) => pair(Op::Min, &x, &y),
                    (MathFunction::Max, Some(y), _) => pair(Op::Max, &x, &y),
                    (MathFunction::Clamp, Some(lo), Some(hi)) => pair(Op::Min, &pair(Op::Max, &x, &lo), &hi),
                    _ => Value::Unknown,
                }
            }
            Expression::ArrayLength(pointer) => match global_root(frame.function, pointer) {
                Some(g) => match self.input.buffers.get(&g).and_then(|b| b.runtime_len) {
                    Some(n) => Value::Scalar(Kind::U32, Node::constant(Kind::U32.wrap(n as i64))),
                    None => Value::Unknown,
                },
                None => Value::Unknown,
            },
            _ => frame.values[h.index()].clone(),
        }
    }

    /// A load the pass does not instrument: a local variable, or a uniform or
    /// read-only storage buffer whose contents the input gives.
    fn load(&self, frame: &mut Frame<'a>, pointer: Handle<Expression>) -> Value {
        let mut path = Vec::new();
        let mut cur = pointer;
        loop {
            match frame.function.expressions[cur] {
                Expression::LocalVariable(lv) => {
                    let mut v = frame.locals[lv.index()].clone();
                    for step in path.iter().rev() {
                        v = match step {
                            Some(i) => v.component(*i),
                            None => Value::Unknown,
                        };
                    }
                    return v;
                }
                Expression::GlobalVariable(g) => return self.load_buffer(frame, g, pointer),
                Expression::AccessIndex { base, index } => {
                    path.push(Some(index as usize));
                    cur = base;
                }
                Expression::Access { base, index } => {
                    path.push(self.eval(frame, index).known().map(|i| i as usize));
                    cur = base;
                }
                _ => return Value::Unknown,
            }
        }
    }

    fn load_buffer(
        &self,
        frame: &mut Frame<'a>,
        g: Handle<naga::GlobalVariable>,
        pointer: Handle<Expression>,
    ) -> Value {
        let var = &self.module.global_variables[g];
        let readonly = match var.space {
            AddressSpace::Uniform => true,
            AddressSpace::Storage { access } => !access.contains(StorageAccess::STORE),
            _ => false,
        };
        let Some(bytes) = self.input.buffers.get(&g).and_then(|b| b.contents).filter(|_| readonly) else {
            return Value::Unknown;
        };
        let Some((_, Some((offset, ty)))) = self.place(frame, pointer) else { return Value::Unknown };
        let read = |at: u64, kind: Kind| -> Value {
            let at = at as usize;
            match bytes.get(at..at + 4) {
                Some(b) => {
                    let raw = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
                    Value::Scalar(kind, Node::constant(kind.wrap(i64::from(raw))))
                }
                None => Value::Unknown,
            }
        };
        match &self.module.types[ty].inner {
            TypeInner::Scalar(s) => match scalar_kind(*s) {
                Some(k @ (Kind::U32 | Kind::I32)) => read(offset, k),
                _ => Value::Unknown,
            },
            TypeInner::Vector { size, scalar } => match scalar_kind(*scalar) {
                Some(k @ (Kind::U32 | Kind::I32)) => {
                    Value::Vector((0..*size as u64).map(|i| read(offset + 4 * i, k)).collect())
                }
                _ => Value::Unknown,
            },
            _ => Value::Unknown,
        }
    }

    /// The global variable `pointer` points into and, when every index on
    /// the way is known and in bounds, the byte offset and type it points
    /// at. `None` for a pointer that does not start at a global variable.
    #[allow(clippy::type_complexity)]
    fn place(
        &self,
        frame: &mut Frame<'a>,
        pointer: Handle<Expression>,
    ) -> Option<(Handle<naga::GlobalVariable>, Option<(u64, Handle<Type>)>)> {
        let mut chain = Vec::new();
        let mut cur = pointer;
        let global = loop {
            match frame.function.expressions[cur] {
                Expression::AccessIndex { base, .. } | Expression::Access { base, .. } => {
                    chain.push(cur);
                    cur = base;
                }
                Expression::GlobalVariable(g) => break g,
                _ => return None,
            }
        };
        let mut ty = self.module.global_variables[global].ty;
        let mut offset = 0u64;
        for &step in chain.iter().rev() {
            let index = match frame.function.expressions[step] {
                Expression::AccessIndex { index, .. } => u64::from(index),
                Expression::Access { index, .. } => match self.eval(frame, index).known() {
                    Some(i) if i >= 0 => i as u64,
                    _ => return Some((global, None)),
                },
                _ => return Some((global, None)),
            };
            match &self.module.types[ty].inner {
                TypeInner::Struct { members, .. } => {
                    let Some(m) = members.get(index as usize) else { return Some((global, None)) };
                    offset += u64::from(m.offset);
                    ty = m.ty;
                }
                TypeInner::Array { base, stride, size } => {
                    if let Some(n) = crate::vars::array_len(self.module, *size)
                        && index >= u64::from(n)
                    {
                        return Some((global, None));
                    }
                    offset += index * u64::from(*stride);
                    ty = *base;
                }
                _ => return Some((global, None)),
            }
        }
        Some((global, Some((offset, ty))))
    }

    fn global_expression(&self, h: Handle<Expression>) -> Value {
        match self.module.global_expressions[h] {
            Expression::Literal(l) => literal(l),
            Expression::ZeroValue(ty) => self.zero(ty),
            Expression::Constant(c) => self.global_expression(self.module.constants[c].init),
            Expression::Compose { ty, ref components } => {
                let values = components.iter().map(|&c| self.global_expression(c)).collect();
                match self.module.types[ty].inner {
                    TypeInner::Vector { .. } => Value::Vector(flatten(values)),
                    TypeInner::Struct { .. } => Value::Struct(values),
                    _ => Value::Unknown,
                }
            }
            Expression::Splat { size, value } => Value::Vector(vec![self.global_expression(value); size as usize]),
            _ => Value::Unknown,
        }
    }

    fn zero(&self, ty: Handle<Type>) -> Value {
        let zero = |s: naga::Scalar| match scalar_kind(s) {
            Some(k) => Value::Scalar(k, Node::constant(0)),
            None => Value::Unknown,
        };
        match &self.module.types[ty].inner {
            TypeInner::Scalar(s) => zero(*s),
            TypeInner::Vector { size, scalar } => Value::Vector(vec![zero(*scalar); *size as usize]),
            TypeInner::Struct { members, .. } => Value::Struct(members.iter().map(|m| self.zero(m.ty)).collect()),
            _ => Value::Unknown,
        }
    }
}

fn top<'s, 'm>(st: &'s mut State<'m>) -> &'s mut Frame<'m> {
    st.frames.last_mut().expect("a frame")
}

fn scalar_kind(s: naga::Scalar) -> Option<Kind> {
    match (s.kind, s.width) {
        (ScalarKind::Uint, 4) => Some(Kind::U32),
        (ScalarKind::Sint, 4) => Some(Kind::I32),
        (ScalarKind::Bool, _) => Some(Kind::Bool),
        _ => None,
    }
}

fn kind(inner: &TypeInner) -> Option<Kind> {
    match inner {
        TypeInner::Scalar(s) | TypeInner::Vector { scalar: s, .. } => scalar_kind(*s),
        _ => None,
    }
}

fn literal(l: Literal) -> Value {
    match l {
        Literal::U32(v) => Value::Scalar(Kind::U32, Node::constant(i64::from(v))),
        Literal::I32(v) => Value::Scalar(Kind::I32, Node::constant(i64::from(v))),
        Literal::Bool(v) => Value::Scalar(Kind::Bool, Node::constant(i64::from(v))),
        _ => Value::Unknown,
    }
}

/// Components of a vector `Compose` (whose components may be vectors).
fn flatten(values: Vec<Value>) -> Vec<Value> {
    values
        .into_iter()
        .flat_map(|v| match v {
            Value::Vector(c) => c,
            other => vec![other],
        })
        .collect()
}

fn binary_op(op: BinaryOperator, k: Kind) -> Option<Op> {
    use BinaryOperator as B;
    Some(match (op, k) {
        (B::Add, Kind::U32 | Kind::I32) => Op::Add,
        (B::Subtract, Kind::U32 | Kind::I32) => Op::Sub,
        (B::Multiply, Kind::U32 | Kind::I32) => Op::Mul,
        (B::Divide, Kind::U32 | Kind::I32) => Op::Div,
        (B::Modulo, Kind::U32 | Kind::I32) => Op::Rem,
        (B::And, _) => Op::And,
        (B::InclusiveOr, _) => Op::Or,
        (B::ExclusiveOr, Kind::U32 | Kind::I32) => Op::Xor,
        (B::ShiftLeft, Kind::U32 | Kind::I32) => Op::Shl,
        (B::ShiftRight, Kind::U32 | Kind::I32) => Op::Shr,
        (B::Equal, _) => Op::Eq,
        (B::NotEqual, _) => Op::Ne,
        (B::Less, Kind::U32 | Kind::I32) => Op::Lt,
        (B::LessEqual, Kind::U32 | Kind::I32) => Op::Le,
        (B::Greater, Kind::U32 | Kind::I32) => Op::Gt,
        (B::GreaterEqual, Kind::U32 | Kind::I32) => Op::Ge,
        (B::LogicalAnd, Kind::Bool) => Op::LogicalAnd,
        (B::LogicalOr, Kind::Bool) => Op::LogicalOr,
        _ => return None,
    })
}

/// A typed node.
type Typed = (Kind, Rc<Node>);

/// A binary node builder.
type Combine<'f> = &'f dyn Fn(&Rc<Node>, &Rc<Node>) -> Rc<Node>;

/// A scalar value, unknown when its node is too large to evaluate cheaply.
fn scalar(kind: Kind, node: Rc<Node>) -> Value {
    if node.size() > MAX_SIZE { Value::Unknown } else { Value::Scalar(kind, node) }
}

fn map1(v: &Value, f: &dyn Fn(&Rc<Node>) -> Option<Typed>) -> Value {
    match v {
        Value::Scalar(_, n) => f(n).map_or(Value::Unknown, |(k, n)| scalar(k, n)),
        Value::Vector(c) => Value::Vector(c.iter().map(|x| map1(x, f)).collect()),
        _ => Value::Unknown,
    }
}

/// `f` component by component, giving values of `result`; a scalar operand
/// is used for every component.
fn map2(a: &Value, b: &Value, result: Kind, f: Combine<'_>) -> Value {
    let node = |x: &Value, y: &Value| match (x, y) {
        (Value::Scalar(_, p), Value::Scalar(_, q)) => scalar(result, f(p, q)),
        _ => Value::Unknown,
    };
    match (a, b) {
        (Value::Vector(x), Value::Vector(y)) if x.len() == y.len() => {
            Value::Vector(x.iter().zip(y).map(|(p, q)| node(p, q)).collect())
        }
        (Value::Vector(x), s @ Value::Scalar(..)) => Value::Vector(x.iter().map(|p| node(p, s)).collect()),
        (s @ Value::Scalar(..), Value::Vector(y)) => Value::Vector(y.iter().map(|q| node(s, q)).collect()),
        _ => node(a, b),
    }
}

fn select(c: &Value, a: &Value, r: &Value) -> Value {
    match (c, a, r) {
        (Value::Scalar(_, cn), Value::Scalar(k, an), Value::Scalar(_, rn)) => {
            scalar(*k, Node::select(cn.clone(), an.clone(), rn.clone()))
        }
        (Value::Scalar(..), Value::Vector(x), Value::Vector(y)) if x.len() == y.len() => {
            Value::Vector(x.iter().zip(y).map(|(p, q)| select(c, p, q)).collect())
        }
        (Value::Vector(cs), Value::Vector(x), Value::Vector(y)) if x.len() == y.len() && cs.len() == x.len() => {
            Value::Vector(cs.iter().zip(x.iter().zip(y)).map(|(cc, (p, q))| select(cc, p, q)).collect())
        }
        _ => Value::Unknown,
    }
}

/// The locals after a branch: what both paths agree on, a `select` on the
/// condition where it is known, unknown otherwise.
fn merge(accept: &[Value], reject: &[Value], condition: Option<&Rc<Node>>) -> Vec<Value> {
    accept
        .iter()
        .zip(reject)
        .map(|(a, r)| {
            if a == r {
                a.clone()
            } else if let Some(c) = condition {
                select(&Value::Scalar(Kind::Bool, c.clone()), a, r)
            } else {
                Value::Unknown
            }
        })
        .collect()
}

/// The conjunction of guards, or `None` if one is uncertain.
fn conjunction(guards: &[Guard]) -> Option<Rc<Node>> {
    let mut all = Node::constant(1);
    for g in guards {
        match g {
            Guard::Pred(p) => all = Node::binary(Op::LogicalAnd, Kind::Bool, all, p.clone()),
            Guard::Uncertain => return None,
        }
    }
    Some(all)
}

fn store_local(frame: &mut Frame<'_>, pointer: Handle<Expression>, value: Value) {
    let mut path = Vec::new();
    let mut cur = pointer;
    let lv = loop {
        match frame.function.expressions[cur] {
            Expression::LocalVariable(lv) => break lv,
            Expression::AccessIndex { base, index } => {
                path.push(Some(index as usize));
                cur = base;
            }
            Expression::Access { base, index } => {
                let i = frame.values[index.index()].known().or_else(|| match frame.function.expressions[index] {
                    Expression::Literal(Literal::U32(v)) => Some(i64::from(v)),
                    Expression::Literal(Literal::I32(v)) => Some(i64::from(v)),
                    _ => None,
                });
                path.push(i.map(|i| i as usize));
                cur = base;
            }
            _ => return,
        }
    };
    path.reverse();
    fn set(slot: &mut Value, path: &[Option<usize>], value: Value) {
        match path.split_first() {
            None => *slot = value,
            Some((Some(i), rest)) => match slot {
                Value::Vector(c) | Value::Struct(c) if *i < c.len() => set(&mut c[*i], rest, value),
                _ => *slot = Value::Unknown,
            },
            Some((None, _)) => *slot = Value::Unknown,
        }
    }
    set(&mut frame.locals[lv.index()], &path, value);
}

/// The local a pointer's access chain starts from.
pub(crate) fn local_root(f: &Function, mut e: Handle<Expression>) -> Option<Handle<LocalVariable>> {
    loop {
        match f.expressions[e] {
            Expression::LocalVariable(lv) => return Some(lv),
            Expression::AccessIndex { base, .. } | Expression::Access { base, .. } => e = base,
            _ => return None,
        }
    }
}

/// The global a pointer's access chain starts from.
pub(crate) fn global_root(f: &Function, mut e: Handle<Expression>) -> Option<Handle<naga::GlobalVariable>> {
    loop {
        match f.expressions[e] {
            Expression::GlobalVariable(g) => return Some(g),
            Expression::AccessIndex { base, .. } | Expression::Access { base, .. } => e = base,
            _ => return None,
        }
    }
}

/// Locals a block may assign (by store, or through a pointer given to a
/// call).
fn assigned_locals(f: &Function, block: &Block, out: &mut Vec<Handle<LocalVariable>>) {
    for stmt in block.iter() {
        match stmt {
            Statement::Store { pointer, .. } => out.extend(local_root(f, *pointer)),
            Statement::Call { arguments, .. } => out.extend(arguments.iter().filter_map(|&a| local_root(f, a))),
            Statement::Atomic { pointer, .. } => out.extend(local_root(f, *pointer)),
            Statement::Block(b) => assigned_locals(f, b, out),
            Statement::If { accept, reject, .. } => {
                assigned_locals(f, accept, out);
                assigned_locals(f, reject, out);
            }
            Statement::Switch { cases, .. } => cases.iter().for_each(|c| assigned_locals(f, &c.body, out)),
            Statement::Loop { body, continuing, .. } => {
                assigned_locals(f, body, out);
                assigned_locals(f, continuing, out);
            }
            _ => {}
        }
    }
}

/// Expressions that `Emit` statements of a block evaluate.
fn emitted_in(block: &Block, out: &mut Vec<Handle<Expression>>) {
    for stmt in block.iter() {
        match stmt {
            Statement::Emit(range) => out.extend(range.clone()),
            Statement::Block(b) => emitted_in(b, out),
            Statement::If { accept, reject, .. } => {
                emitted_in(accept, out);
                emitted_in(reject, out);
            }
            Statement::Switch { cases, .. } => cases.iter().for_each(|c| emitted_in(&c.body, out)),
            Statement::Loop { body, continuing, .. } => {
                emitted_in(body, out);
                emitted_in(continuing, out);
            }
            _ => {}
        }
    }
}

/// The largest iteration `k` (coordinate `coord`) for which a loop's
/// continuing condition `L < N` or `L <= N` can hold, where `L` is affine
/// with a positive coefficient on `k` and otherwise non-negative terms.
fn iteration_bound(condition: &Node, coord: usize) -> Option<i64> {
    let Node::Binary { op: op @ (Op::Lt | Op::Le), operand: Kind::U32, a, b, .. } = condition else { return None };
    let limit = b.known()?;
    let form = a.linear()?;
    let step = form.coefficients[coord];
    if step <= 0 || form.constant < 0 || form.coefficients.iter().any(|&c| c < 0) {
        return None;
    }
    // The smallest `L` can be at iteration k is constant + step·k.
    let last = if *op == Op::Lt { limit - 1 } else { limit };
    // Unless `L` can wrap past 2^32 while the loop goes on (a limit within
    // a step of it), when the loop may never end.
    if last + step > i64::from(u32::MAX) {
        return None;
    }
    Some(((last - form.constant) / step).max(-1))
}
