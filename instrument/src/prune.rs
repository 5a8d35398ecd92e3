//! Branches that can never run, out of the instrumented module.
//!
//! The runtime's WGSL picks its variants with `if` statements on
//! compile-time constants (`if WGRACE_STMT { … }`, `if !WGRACE_REPLAY { … }`).
//! naga keeps both branches of such an `if`, and drivers inline every call
//! in both before their own optimizer finds one dead: in addr mode the
//! NVIDIA driver compiled statement mode's unused code and a second copy of
//! each state machine for every instrumented shader (docs/performance.md,
//! "Time to verdict"). This pass replaces each `if` whose condition is a
//! boolean constant with the branch that runs, in every function, so the
//! module the driver gets holds only code that can run. The user's own
//! constant `if`s go the same way, which changes nothing they do.

use naga::{Arena, Block, Expression, Function, Handle, Literal, Module, Statement, Type};

/// Replaces every `if` on a boolean constant, in every function and entry
/// point of `module`, with the branch it takes.
pub fn constant_branches(module: &mut Module) {
    let facts = ModuleFacts::of(module);
    for (_, function) in module.functions.iter_mut() {
        prune_function(function, &facts);
    }
    for entry in &mut module.entry_points {
        prune_function(&mut entry.function, &facts);
    }
}

/// What pruning a function needs to know of the module.
struct ModuleFacts {
    /// The value of each boolean constant.
    constants: Vec<Option<bool>>,
    /// The result type of each function.
    results: Vec<Option<Handle<Type>>>,
}

impl ModuleFacts {
    fn of(module: &Module) -> ModuleFacts {
        ModuleFacts {
            constants: module
                .constants
                .iter()
                .map(|(_, c)| match module.global_expressions[c.init] {
                    Expression::Literal(Literal::Bool(b)) => Some(b),
                    _ => None,
                })
                .collect(),
            results: module.functions.iter().map(|(_, f)| f.result.as_ref().map(|r| r.ty)).collect(),
        }
    }

    /// The value of `e` in `expressions`, if it is a boolean constant.
    fn value(&self, expressions: &Arena<Expression>, e: Handle<Expression>) -> Option<bool> {
        match expressions[e] {
            Expression::Literal(Literal::Bool(b)) => Some(b),
            Expression::Constant(c) => self.constants.get(c.index()).copied().flatten(),
            _ => None,
        }
    }

    /// The type of a call's or atomic's result expression.
    fn result_type(&self, e: &Expression) -> Option<Handle<Type>> {
        match *e {
            Expression::CallResult(f) => self.results.get(f.index()).copied().flatten(),
            // (For a compare-exchange, `ty` is its result struct.)
            Expression::AtomicResult { ty, .. } => Some(ty),
            _ => None,
        }
    }
}

/// Prunes `function`. The calls and atomics of a dropped branch leave their
/// result expressions behind, which naga requires their statements to
/// produce: they become zero values (nothing uses them but other dropped
/// code). A function where that is not possible is left as it is.
fn prune_function(function: &mut Function, facts: &ModuleFacts) {
    let mut dropped = Vec::new();
    let body = prune_block(function.body.clone(), &function.expressions, facts, &mut dropped);
    let Some(types) = dropped.iter().map(|&e| facts.result_type(&function.expressions[e])).collect::<Option<Vec<_>>>()
    else {
        return;
    };
    for (e, ty) in dropped.into_iter().zip(types) {
        function.expressions[e] = Expression::ZeroValue(ty);
    }
    function.body = body;
}

/// `block` with its constant `if`s replaced by the branches they take; the
/// result expressions of the calls and atomics dropped go to `dropped`.
fn prune_block(
    block: Block,
    expressions: &Arena<Expression>,
    facts: &ModuleFacts,
    dropped: &mut Vec<Handle<Expression>>,
) -> Block {
    let mut out = Block::with_capacity(block.len());
    for (statement, span) in block.span_into_iter() {
        let statement = match statement {
            Statement::If { condition, accept, reject } => match facts.value(expressions, condition) {
                Some(taken) => {
                    let (branch, other) = if taken { (accept, reject) } else { (reject, accept) };
                    results_of(&other, dropped);
                    Statement::Block(prune_block(branch, expressions, facts, dropped))
                }
                None => Statement::If {
                    condition,
                    accept: prune_block(accept, expressions, facts, dropped),
                    reject: prune_block(reject, expressions, facts, dropped),
                },
            },
            Statement::Block(inner) => Statement::Block(prune_block(inner, expressions, facts, dropped)),
            Statement::Loop { body, continuing, break_if } => Statement::Loop {
                body: prune_block(body, expressions, facts, dropped),
                continuing: prune_block(continuing, expressions, facts, dropped),
                break_if,
            },
            Statement::Switch { selector, mut cases } => {
                for case in &mut cases {
                    case.body = prune_block(std::mem::take(&mut case.body), expressions, facts, dropped);
                }
                Statement::Switch { selector, cases }
            }
            other => other,
        };
        out.push(statement, span);
    }
    out
}

/// The result expressions of the calls and atomics in `block`.
fn results_of(block: &Block, out: &mut Vec<Handle<Expression>>) {
    for statement in block.iter() {
        match statement {
            Statement::Call { result: Some(r), .. } | Statement::Atomic { result: Some(r), .. } => out.push(*r),
            Statement::Block(inner) => results_of(inner, out),
            Statement::If { accept, reject, .. } => {
                results_of(accept, out);
                results_of(reject, out);
            }
            Statement::Loop { body, continuing, .. } => {
                results_of(body, out);
                results_of(continuing, out);
            }
            Statement::Switch { cases, .. } => cases.iter().for_each(|c| results_of(&c.body, out)),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use naga::valid::{Capabilities, ValidationFlags, Validator};

    /// Parses `source`, prunes it and checks that the result validates;
    /// returns it as WGSL.
    fn pruned(source: &str) -> String {
        let mut module = naga::front::wgsl::parse_str(source).expect("parses");
        super::constant_branches(&mut module);
        let info = Validator::new(ValidationFlags::all(), Capabilities::all()).validate(&module).expect("validates");
        naga::back::wgsl::write_string(&module, &info, naga::back::wgsl::WriterFlags::empty()).expect("writes")
    }

    #[test]
    fn constant_branches_keep_only_the_branch_taken() {
        let out = pruned(
            "const CHECKING: bool = false;
            @group(0) @binding(0) var<storage, read_write> words: array<atomic<u32>>;
            fn expensive(i: u32) -> u32 {
                let r = atomicCompareExchangeWeak(&words[i], 0u, 1u);
                return r.old_value + atomicAdd(&words[i + 1u], 1u);
            }
            fn cheap(i: u32) -> u32 {
                return i;
            }
            fn pick(i: u32, x: bool) -> u32 {
                var v = 0u;
                if CHECKING {
                    v = expensive(i);
                    let r = atomicCompareExchangeWeak(&words[i], v, 2u);
                    v += r.old_value;
                } else {
                    v = cheap(i);
                }
                if !CHECKING {
                    v += 1u;
                }
                if x {
                    v += 2u;
                }
                return v;
            }
            @compute @workgroup_size(1)
            fn main(@builtin(global_invocation_id) g: vec3<u32>) {
                atomicStore(&words[0], pick(g.x, g.y == 0u));
            }",
        );
        let pick = &out[out.find("fn pick").expect("pick")..];
        let pick = &pick[..pick.find("\n}").expect("end of pick")];
        assert!(!pick.contains("expensive(") && !pick.contains("atomicCompareExchangeWeak"), "{pick}");
        assert!(pick.contains("cheap("), "{pick}");
        // The user's own branch on a value stays.
        assert!(pick.contains("if x"), "{pick}");
        assert!(!pick.contains("CHECKING"), "{pick}");
    }
}
