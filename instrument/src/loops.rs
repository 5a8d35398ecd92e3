//! The loop guard: counting the iterations of the user's loops.
//!
//! When a linked check hooks loops (the `loops` check), the pass wraps every
//! loop of the user's code, `loop { body } continuing { c } break if b`, as
//!
//! ```text
//! n = 0; left = false;
//! loop {
//!     n = n + 1;
//!     if n > BUDGET { break; }
//!     body                      // each `break` of this loop sets left first
//! } continuing { c; left = b; } break if b
//! if n > BUDGET { wgrace_loop_budget(id, n); }
//! else if !left { wgrace_loop_cut(id, n); }
//! else { wgrace_loop_spin(id, n); }   // a spin-wait (`crate::spin`) only
//! if wgrace_is_stopped() { return; }   // a zero value in functions with one
//! ```
//!
//! and adds the last line after every call of a user function too, so an
//! invocation whose loop ran past the budget returns up to the entry point,
//! where the runtime still ends it (`wgrace_end`). `n` and `left` are
//! locals of the function, set before each run of the loop. Nothing in the
//! loop calls the runtime: lavapipe runs the loops of a branch not taken
//! too (masked), and each counts against its 65,535 iterations, so a call
//! that records (and probes the record table in a loop) inside would halve
//! the iterations the user's loop gets there.
//!
//! Barrier uniformity is kept: a loop that runs a barrier runs in uniform
//! control flow (the `barrier-divergence` check reports it otherwise), so
//! every invocation of the workgroup reaches the budget at the same
//! iteration and leaves together. A loop that ends neither by its `break`
//! nor by its `break if` was ended by the adapter: lavapipe ends an
//! invocation's loops once they ran 65,535 iterations in all.
//!
//! The guard changes nothing a loop does within its budget, so the
//! instrumented shader's results are the original's.

use naga::{
    BinaryOperator, Block, Expression, Function, Handle, Literal, LocalVariable, Module, Scalar, Span, Statement, Type,
    TypeInner, UnaryOperator,
};

use crate::InstrumentError;
use crate::link::Linked;

/// The runtime's functions and types the guard uses, the budget, and which
/// loops are spin-waits.
pub(crate) struct LoopGuard {
    budget_spent: Handle<Function>,
    cut: Handle<Function>,
    spun: Handle<Function>,
    /// By loop id.
    spin_waits: Vec<bool>,
    is_stopped: Handle<Function>,
    u32_ty: Handle<Type>,
    bool_ty: Handle<Type>,
    budget: u32,
}

impl LoopGuard {
    /// The guard for `module`, into which the runtime is linked.
    pub(crate) fn new(
        module: &mut Module,
        linked: &Linked,
        budget: u32,
        spin_waits: Vec<bool>,
    ) -> Result<LoopGuard, InstrumentError> {
        let scalar = |module: &mut Module, scalar| {
            module.types.insert(Type { name: None, inner: TypeInner::Scalar(scalar) }, Span::UNDEFINED)
        };
        Ok(LoopGuard {
            budget_spent: linked.function("wgrace_loop_budget")?,
            cut: linked.function("wgrace_loop_cut")?,
            spun: linked.function("wgrace_loop_spin")?,
            spin_waits,
            is_stopped: linked.function("wgrace_is_stopped")?,
            u32_ty: scalar(module, Scalar::U32),
            bool_ty: scalar(module, Scalar::BOOL),
            budget,
        })
    }

    /// Appends `the_loop` (a [`Statement::Loop`] of `f`, already rewritten
    /// by the pass), guarded as loop `id`, to `out`; with `may_return`, then
    /// the return of a stopped invocation (not in a continuing block, where
    /// WGSL allows none: the enclosing loop ends instead, see
    /// [`LoopGuard::or_stopped`]).
    pub(crate) fn guard(
        &self,
        f: &mut Function,
        id: u32,
        the_loop: Statement,
        span: Span,
        may_return: bool,
        out: &mut Block,
    ) {
        let Statement::Loop { body, mut continuing, break_if } = the_loop else {
            out.push(the_loop, span);
            return;
        };
        let local = |f: &mut Function, name: String, ty| {
            let var = f.local_variables.append(LocalVariable { name: Some(name), ty, init: None }, span);
            f.expressions.append(Expression::LocalVariable(var), span)
        };
        let n = local(f, format!("wgrace_loop_{id}_n"), self.u32_ty);
        let left = local(f, format!("wgrace_loop_{id}_left"), self.bool_ty);
        let literal = |f: &mut Function, l| f.expressions.append(Expression::Literal(l), span);
        let (zero, one) = (literal(f, Literal::U32(0)), literal(f, Literal::U32(1)));
        let (yes, no) = (literal(f, Literal::Bool(true)), literal(f, Literal::Bool(false)));
        let (id_value, budget) = (literal(f, Literal::U32(id)), literal(f, Literal::U32(self.budget)));
        out.push(Statement::Store { pointer: n, value: zero }, span);
        out.push(Statement::Store { pointer: left, value: no }, span);

        // The count, and the way out past the budget.
        let mut guarded = Block::new();
        let count = emit(f, &mut guarded, span, Expression::Load { pointer: n });
        let next = emit(f, &mut guarded, span, Expression::Binary { op: BinaryOperator::Add, left: count, right: one });
        guarded.push(Statement::Store { pointer: n, value: next }, span);
        let over =
            emit(f, &mut guarded, span, Expression::Binary { op: BinaryOperator::Greater, left: next, right: budget });
        let mut stop = Block::new();
        stop.push(Statement::Break, span);
        guarded.push(Statement::If { condition: over, accept: stop, reject: Block::new() }, span);
        let mut body = body;
        mark_breaks(&mut body, left, yes);
        for (statement, at) in body.span_into_iter() {
            guarded.push(statement, at);
        }
        if let Some(condition) = break_if {
            continuing.push(Statement::Store { pointer: left, value: condition }, span);
        }
        out.push(Statement::Loop { body: guarded, continuing, break_if }, span);

        // Past the budget, or cut short by the adapter?
        let ran = emit(f, out, span, Expression::Load { pointer: n });
        let over = emit(f, out, span, Expression::Binary { op: BinaryOperator::Greater, left: ran, right: budget });
        let mut spent = Block::new();
        spent.push(Statement::Call { function: self.budget_spent, arguments: vec![id_value, ran], result: None }, span);
        let mut not_spent = Block::new();
        let was_left = emit(f, &mut not_spent, span, Expression::Load { pointer: left });
        let not_left =
            emit(f, &mut not_spent, span, Expression::Unary { op: UnaryOperator::LogicalNot, expr: was_left });
        let mut cut = Block::new();
        cut.push(Statement::Call { function: self.cut, arguments: vec![id_value, ran], result: None }, span);
        // A spin-wait that ended by itself.
        let mut spun = Block::new();
        if self.spin_waits.get(id as usize).copied().unwrap_or(false) {
            spun.push(Statement::Call { function: self.spun, arguments: vec![id_value, ran], result: None }, span);
        }
        not_spent.push(Statement::If { condition: not_left, accept: cut, reject: spun }, span);
        out.push(Statement::If { condition: over, accept: spent, reject: not_spent }, span);
        if may_return {
            self.return_if_stopped(f, span, out);
        }
    }

    /// The `break if` condition of a loop in which something could not
    /// return when the invocation stopped (it is in a continuing block):
    /// `wgrace_is_stopped() || break_if`, its call appended to `continuing`.
    pub(crate) fn or_stopped(
        &self,
        f: &mut Function,
        span: Span,
        continuing: &mut Block,
        break_if: Option<Handle<Expression>>,
    ) -> Handle<Expression> {
        let stopped = f.expressions.append(Expression::CallResult(self.is_stopped), span);
        continuing
            .push(Statement::Call { function: self.is_stopped, arguments: Vec::new(), result: Some(stopped) }, span);
        match break_if {
            Some(condition) => emit(
                f,
                continuing,
                span,
                Expression::Binary { op: BinaryOperator::LogicalOr, left: stopped, right: condition },
            ),
            None => stopped,
        }
    }

    /// Appends `if wgrace_is_stopped() { return; }` (with a zero value in a
    /// function that returns one) to `out`.
    pub(crate) fn return_if_stopped(&self, f: &mut Function, span: Span, out: &mut Block) {
        let stopped = f.expressions.append(Expression::CallResult(self.is_stopped), span);
        out.push(Statement::Call { function: self.is_stopped, arguments: Vec::new(), result: Some(stopped) }, span);
        let value = f.result.as_ref().map(|r| f.expressions.append(Expression::ZeroValue(r.ty), span));
        let mut leave = Block::new();
        leave.push(Statement::Return { value }, span);
        out.push(Statement::If { condition: stopped, accept: leave, reject: Block::new() }, span);
    }
}

/// Appends `e` to `f` and an `Emit` of it to `block`.
fn emit(f: &mut Function, block: &mut Block, span: Span, e: Expression) -> Handle<Expression> {
    let h = f.expressions.append(e, span);
    block.push(Statement::Emit(naga::Range::new_from_bounds(h, h)), span);
    h
}

/// Precedes each `break` of the loop whose body is `block` (not those of
/// loops or switches inside it) with `left = true`.
fn mark_breaks(block: &mut Block, left: Handle<Expression>, yes: Handle<Expression>) {
    let old = std::mem::take(block);
    for (stmt, span) in old.span_into_iter() {
        match stmt {
            Statement::Break => {
                block.push(Statement::Store { pointer: left, value: yes }, span);
                block.push(Statement::Break, span);
            }
            Statement::Block(mut b) => {
                mark_breaks(&mut b, left, yes);
                block.push(Statement::Block(b), span);
            }
            Statement::If { condition, mut accept, mut reject } => {
                mark_breaks(&mut accept, left, yes);
                mark_breaks(&mut reject, left, yes);
                block.push(Statement::If { condition, accept, reject }, span);
            }
            // A `break` in a switch leaves the switch; one in a loop, that
            // loop.
            other => block.push(other, span),
        }
    }
}
