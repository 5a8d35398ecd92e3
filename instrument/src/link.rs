//! Linking the WGSL runtime into a user's module at the naga IR level.
//!
//! The runtime is parsed from WGSL, but the module it is linked into may come
//! from SPIR-V, so linking cannot paste text: [`link_runtime`] copies the
//! runtime's types, constants, globals and functions into the target module,
//! renumbering every module-level handle they contain.
//!
//! naga requires a function to appear in the arena before its callers, and
//! user functions will call the runtime, so the runtime's functions are placed
//! *first* and the user's functions are renumbered after them.

use crate::InstrumentError;
use naga::{Arena, Block, Expression, Function, Handle, Module, ResourceBinding, Statement, Type, TypeInner};

/// Where the runtime's functions and globals ended up in the linked module.
#[derive(Debug)]
pub struct Linked {
    functions: Vec<(String, Handle<Function>)>,
    /// New handle of each user function, indexed by its old handle's index.
    pub user_functions: Vec<Handle<Function>>,
}

impl Linked {
    /// The linked runtime function called `name`.
    ///
    /// # Errors
    /// [`InstrumentError::Internal`] if the runtime has no such function (the
    /// names the pass calls are part of the runtime's interface).
    pub fn function(&self, name: &str) -> Result<Handle<Function>, InstrumentError> {
        self.functions
            .iter()
            .find(|(n, _)| n == name)
            .map(|&(_, h)| h)
            .ok_or_else(|| InstrumentError::Internal { message: format!("runtime function `{name}` is missing") })
    }
}

/// Handle translation tables from the runtime module into the target.
struct Maps {
    types: Vec<Handle<Type>>,
    constants: Vec<Handle<naga::Constant>>,
    global_expressions: Vec<Handle<Expression>>,
    globals: Vec<Handle<naga::GlobalVariable>>,
    functions: Vec<Handle<Function>>,
}

/// Copies `runtime` into `target`, binding its resource globals to `group`
/// with bindings `0..`. Returns where everything went.
///
/// The runtime must be a validated module without overrides or entry points.
pub fn link_runtime(target: &mut Module, runtime: &Module, group: u32) -> Linked {
    let mut maps = Maps {
        types: Vec::with_capacity(runtime.types.len()),
        constants: Vec::new(),
        global_expressions: Vec::new(),
        globals: Vec::new(),
        functions: Vec::new(),
    };

    for (handle, ty) in runtime.types.iter() {
        let inner = match ty.inner.clone() {
            TypeInner::Pointer { base, space } => TypeInner::Pointer { base: maps.types[base.index()], space },
            TypeInner::Array { base, size, stride } => {
                TypeInner::Array { base: maps.types[base.index()], size, stride }
            }
            TypeInner::BindingArray { base, size } => TypeInner::BindingArray { base: maps.types[base.index()], size },
            TypeInner::Struct { mut members, span } => {
                for m in &mut members {
                    m.ty = maps.types[m.ty.index()];
                }
                TypeInner::Struct { members, span }
            }
            other @ (TypeInner::Scalar(_)
            | TypeInner::Vector { .. }
            | TypeInner::Matrix { .. }
            | TypeInner::CooperativeMatrix { .. }
            | TypeInner::Atomic(_)
            | TypeInner::ValuePointer { .. }
            | TypeInner::Image { .. }
            | TypeInner::Sampler { .. }
            | TypeInner::AccelerationStructure { .. }
            | TypeInner::RayQuery { .. }) => other,
        };
        let new = target.types.insert(Type { name: ty.name.clone(), inner }, runtime.types.get_span(handle));
        maps.types.push(new);
    }
    for (key, &ty) in runtime.special_types.predeclared_types.iter() {
        target.special_types.predeclared_types.entry(key.clone()).or_insert(maps.types[ty.index()]);
    }

    // Global expressions may refer to constants and constants to global
    // expressions, always to earlier ones; copy both in handle order.
    let mut constants = runtime.constants.iter().peekable();
    for (handle, expr) in runtime.global_expressions.iter() {
        let expr = remap_expression(expr.clone(), &maps, ExprScope::Global);
        let new = target.global_expressions.append(expr, runtime.global_expressions.get_span(handle));
        maps.global_expressions.push(new);
        while let Some((c_handle, c)) = constants.next_if(|(_, c)| c.init.index() <= handle.index()) {
            let new = target.constants.append(
                naga::Constant {
                    name: c.name.clone(),
                    ty: maps.types[c.ty.index()],
                    init: maps.global_expressions[c.init.index()],
                },
                runtime.constants.get_span(c_handle),
            );
            maps.constants.push(new);
        }
    }
    debug_assert!(constants.next().is_none(), "a runtime constant's initializer was not copied");

    let mut binding = 0;
    for (handle, g) in runtime.global_variables.iter() {
        let resource = g.binding.as_ref().map(|_| {
            let b = ResourceBinding { group, binding };
            binding += 1;
            b
        });
        let new = target.global_variables.append(
            naga::GlobalVariable {
                name: g.name.clone(),
                space: g.space,
                binding: resource,
                ty: maps.types[g.ty.index()],
                init: g.init.map(|e| maps.global_expressions[e.index()]),
                memory_decorations: g.memory_decorations,
            },
            runtime.global_variables.get_span(handle),
        );
        maps.globals.push(new);
    }

    // Runtime functions first, then the user's, renumbered.
    let user = std::mem::take(&mut target.functions);
    let mut functions = Vec::new();
    for (handle, f) in runtime.functions.iter() {
        let f = remap_function(f.clone(), &maps);
        let new = target.functions.append(f, runtime.functions.get_span(handle));
        maps.functions.push(new);
        functions.push((f_name(runtime, handle), new));
    }
    let mut user_functions = Vec::with_capacity(user.len());
    for (handle, f) in user.iter() {
        let mut f = f.clone();
        // A function only calls earlier ones, which are already renumbered.
        renumber_calls(&mut f, &user_functions);
        user_functions.push(target.functions.append(f, user.get_span(handle)));
    }
    for ep in &mut target.entry_points {
        renumber_calls(&mut ep.function, &user_functions);
    }

    Linked { functions, user_functions }
}

fn f_name(module: &Module, handle: Handle<Function>) -> String {
    module.functions[handle].name.clone().unwrap_or_default()
}

/// Which module-level handles an expression may carry.
#[derive(Clone, Copy, PartialEq)]
enum ExprScope {
    Global,
    Function,
}

/// Translates the module-level handles inside a runtime expression.
/// Function-local handles (other expressions, locals) are kept: a function
/// is copied whole, so its arenas keep their numbering.
fn remap_expression(expr: Expression, maps: &Maps, scope: ExprScope) -> Expression {
    let e = |h: Handle<Expression>| match scope {
        ExprScope::Global => maps.global_expressions[h.index()],
        ExprScope::Function => h,
    };
    match expr {
        Expression::Constant(c) => Expression::Constant(maps.constants[c.index()]),
        Expression::ZeroValue(ty) => Expression::ZeroValue(maps.types[ty.index()]),
        Expression::Compose { ty, components } => {
            Expression::Compose { ty: maps.types[ty.index()], components: components.into_iter().map(e).collect() }
        }
        Expression::GlobalVariable(g) => Expression::GlobalVariable(maps.globals[g.index()]),
        Expression::CallResult(f) => Expression::CallResult(maps.functions[f.index()]),
        Expression::AtomicResult { ty, comparison } => {
            Expression::AtomicResult { ty: maps.types[ty.index()], comparison }
        }
        Expression::WorkGroupUniformLoadResult { ty } => {
            Expression::WorkGroupUniformLoadResult { ty: maps.types[ty.index()] }
        }
        Expression::SubgroupOperationResult { ty } => {
            Expression::SubgroupOperationResult { ty: maps.types[ty.index()] }
        }
        Expression::Access { base, index } => Expression::Access { base: e(base), index: e(index) },
        Expression::AccessIndex { base, index } => Expression::AccessIndex { base: e(base), index },
        Expression::Splat { size, value } => Expression::Splat { size, value: e(value) },
        Expression::Swizzle { size, vector, pattern } => Expression::Swizzle { size, vector: e(vector), pattern },
        Expression::Unary { op, expr } => Expression::Unary { op, expr: e(expr) },
        Expression::Binary { op, left, right } => Expression::Binary { op, left: e(left), right: e(right) },
        Expression::Select { condition, accept, reject } => {
            Expression::Select { condition: e(condition), accept: e(accept), reject: e(reject) }
        }
        Expression::Relational { fun, argument } => Expression::Relational { fun, argument: e(argument) },
        Expression::Math { fun, arg, arg1, arg2, arg3 } => {
            Expression::Math { fun, arg: e(arg), arg1: arg1.map(e), arg2: arg2.map(e), arg3: arg3.map(e) }
        }
        Expression::As { expr, kind, convert } => Expression::As { expr: e(expr), kind, convert },
        // No module-level handles, and not allowed in global expressions.
        expr @ (Expression::Literal(_)
        | Expression::Override(_)
        | Expression::FunctionArgument(_)
        | Expression::LocalVariable(_)
        | Expression::Load { .. }
        | Expression::ImageSample { .. }
        | Expression::ImageLoad { .. }
        | Expression::ImageQuery { .. }
        | Expression::Derivative { .. }
        | Expression::ArrayLength(_)
        | Expression::RayQueryVertexPositions { .. }
        | Expression::RayQueryProceedResult
        | Expression::RayQueryGetIntersection { .. }
        | Expression::SubgroupBallotResult
        | Expression::CooperativeLoad { .. }
        | Expression::CooperativeMultiplyAdd { .. }) => expr,
    }
}

fn remap_function(mut f: Function, maps: &Maps) -> Function {
    for arg in &mut f.arguments {
        arg.ty = maps.types[arg.ty.index()];
    }
    if let Some(result) = &mut f.result {
        result.ty = maps.types[result.ty.index()];
    }
    for (_, local) in f.local_variables.iter_mut() {
        local.ty = maps.types[local.ty.index()];
    }
    let mut expressions = Arena::new();
    for (handle, expr) in f.expressions.iter() {
        let new = remap_expression(expr.clone(), maps, ExprScope::Function);
        expressions.append(new, f.expressions.get_span(handle));
    }
    f.expressions = expressions;
    remap_calls(&mut f.body, &|h| maps.functions[h.index()]);
    f
}

/// Renumbers the user function handles in `f` after the runtime was placed
/// before them.
fn renumber_calls(f: &mut Function, new_handles: &[Handle<Function>]) {
    let map = |h: Handle<Function>| new_handles[h.index()];
    for (_, expr) in f.expressions.iter_mut() {
        if let Expression::CallResult(callee) = expr {
            *callee = map(*callee);
        }
    }
    remap_calls(&mut f.body, &map);
}

/// Maps the callee of every call in `body` through `map`.
fn remap_calls(body: &mut Block, map: &dyn Fn(Handle<Function>) -> Handle<Function>) {
    crate::blocks::for_each_block_mut(body, &mut |block| {
        for (statement, _) in block.span_iter_mut() {
            if let Statement::Call { function, .. } = statement {
                *function = map(*function);
            }
        }
    });
}
