//! Wrapping the entry point.
//!
//! The instrumented dispatch runs in chunks of `(n, 1, 1)` workgroups, so the
//! hardware's `workgroup_id` and `num_workgroups` are not the user's. The
//! pass turns the user's entry point into an ordinary function and adds a new
//! entry point with the same name and workgroup size that:
//!
//! 1. calls `wgrace_begin` with the local invocation index, the hardware
//!    workgroup id (the runtime computes the workgroup's place in the
//!    original dispatch from the chunk's parameters), and the subgroup size
//!    (1 without subgroups);
//! 2. computes `workgroup_id`, `num_workgroups` and `global_invocation_id`
//!    of the original dispatch;
//! 3. calls the user's function with those, and every other built-in passed
//!    through unchanged;
//! 4. calls `wgrace_end`, which adds the invocation's private counters to the
//!    log.

use std::collections::HashMap;

use naga::{
    BinaryOperator, Binding, BuiltIn, Expression, Function, FunctionArgument, Handle, Literal, Module, Scalar, Span,
    Statement, Type, TypeInner, VectorSize,
};

use crate::InstrumentError;
use crate::link::Linked;

/// Replaces `module.entry_points[0]` by a wrapper calling the original body.
/// With `subgroups`, the wrapper passes the subgroup built-ins to the
/// runtime.
///
/// # Errors
/// [`InstrumentError::Unsupported`] for entry point arguments that are not
/// built-ins.
pub fn wrap_entry_point(module: &mut Module, linked: &Linked, subgroups: bool) -> Result<(), InstrumentError> {
    let u32_ty = module.types.insert(Type { name: None, inner: TypeInner::Scalar(Scalar::U32) }, Span::UNDEFINED);
    let vec3_ty = module.types.insert(
        Type { name: None, inner: TypeInner::Vector { size: VectorSize::Tri, scalar: Scalar::U32 } },
        Span::UNDEFINED,
    );

    let ep = &mut module.entry_points[0];
    let workgroup_size = ep.workgroup_size;
    let mut user = std::mem::take(&mut ep.function);

    // What the user's function takes: a built-in, or a struct of built-ins.
    enum Param {
        BuiltIn(BuiltIn, Handle<Type>),
        Struct(Handle<Type>, Vec<(BuiltIn, Handle<Type>)>),
    }
    let mut params = Vec::new();
    for arg in &mut user.arguments {
        match arg.binding.take() {
            Some(Binding::BuiltIn(b)) => params.push(Param::BuiltIn(b, arg.ty)),
            Some(Binding::Location { .. }) => {
                return Err(InstrumentError::Unsupported {
                    what: "compute entry point arguments with @location".into(),
                    location: Default::default(),
                });
            }
            None => {
                let TypeInner::Struct { members, .. } = &module.types[arg.ty].inner else {
                    return Err(InstrumentError::Unsupported {
                        what: "entry point arguments without a built-in".into(),
                        location: Default::default(),
                    });
                };
                let mut fields = Vec::new();
                for m in members {
                    match &m.binding {
                        Some(Binding::BuiltIn(b)) => fields.push((*b, m.ty)),
                        _ => {
                            return Err(InstrumentError::Unsupported {
                                what: "entry point struct members without a built-in".into(),
                                location: Default::default(),
                            });
                        }
                    }
                }
                params.push(Param::Struct(arg.ty, fields));
            }
        }
    }
    let user_name = user.name.clone();
    let user_handle = module.functions.append(user, Span::UNDEFINED);

    let mut w = Wrapper { f: Function { name: user_name, ..Function::default() }, args: HashMap::new(), open: None };
    let local_index = w.builtin(BuiltIn::LocalInvocationIndex, u32_ty);
    let hardware_id = w.builtin(BuiltIn::WorkGroupId, vec3_ty);
    let subgroup_size = if subgroups {
        w.builtin(BuiltIn::SubgroupSize, u32_ty)
    } else {
        w.constant(Expression::Literal(Literal::U32(1)))
    };
    w.call(linked.function("wgrace_begin")?, vec![local_index, hardware_id, subgroup_size]);
    let workgroup_id = linked.function("wgrace_workgroup_id")?;
    let num_workgroups = linked.function("wgrace_num_workgroups")?;

    let mut values = HashMap::new();
    let mut value = |w: &mut Wrapper, b: BuiltIn, ty: Handle<Type>| -> Handle<Expression> {
        if let Some(&v) = values.get(&b) {
            return v;
        }
        let v = match b {
            BuiltIn::WorkGroupId => w.call_value(workgroup_id),
            BuiltIn::NumWorkGroups => w.call_value(num_workgroups),
            BuiltIn::GlobalInvocationId => {
                let wid = w.call_value(workgroup_id);
                let lid = w.builtin(BuiltIn::LocalInvocationId, vec3_ty);
                let sizes = workgroup_size.map(|s| w.constant(Expression::Literal(Literal::U32(s))));
                let size = w.emitted(Expression::Compose { ty: vec3_ty, components: sizes.to_vec() });
                let base = w.emitted(Expression::Binary { op: BinaryOperator::Multiply, left: wid, right: size });
                w.emitted(Expression::Binary { op: BinaryOperator::Add, left: base, right: lid })
            }
            other => w.builtin(other, ty),
        };
        values.insert(b, v);
        v
    };
    let mut arguments = Vec::new();
    for p in &params {
        let v = match p {
            Param::BuiltIn(b, ty) => value(&mut w, *b, *ty),
            Param::Struct(ty, fields) => {
                let components = fields.iter().map(|&(b, t)| value(&mut w, b, t)).collect();
                w.emitted(Expression::Compose { ty: *ty, components })
            }
        };
        arguments.push(v);
    }
    w.call(user_handle, arguments);
    w.call(linked.function("wgrace_end")?, vec![]);
    w.close();
    w.f.body.push(Statement::Return { value: None }, Span::UNDEFINED);
    module.entry_points[0].function = w.f;
    Ok(())
}

struct Wrapper {
    f: Function,
    args: HashMap<BuiltIn, Handle<Expression>>,
    open: Option<usize>,
}

impl Wrapper {
    /// The wrapper's argument for built-in `b`, added on first use.
    fn builtin(&mut self, b: BuiltIn, ty: Handle<Type>) -> Handle<Expression> {
        if let Some(&e) = self.args.get(&b) {
            return e;
        }
        let index = self.f.arguments.len() as u32;
        self.f.arguments.push(FunctionArgument { name: None, ty, binding: Some(Binding::BuiltIn(b)) });
        let e = self.constant(Expression::FunctionArgument(index));
        self.args.insert(b, e);
        e
    }

    fn constant(&mut self, e: Expression) -> Handle<Expression> {
        self.close();
        self.f.expressions.append(e, Span::UNDEFINED)
    }

    fn emitted(&mut self, e: Expression) -> Handle<Expression> {
        if self.open.is_none() {
            self.open = Some(self.f.expressions.len());
        }
        self.f.expressions.append(e, Span::UNDEFINED)
    }

    fn close(&mut self) {
        if let Some(start) = self.open.take() {
            let range = self.f.expressions.range_from(start);
            self.f.body.push(Statement::Emit(range), Span::UNDEFINED);
        }
    }

    fn call(&mut self, function: Handle<Function>, arguments: Vec<Handle<Expression>>) {
        self.close();
        self.f.body.push(Statement::Call { function, arguments, result: None }, Span::UNDEFINED);
    }

    /// Calls `function` and returns its result.
    fn call_value(&mut self, function: Handle<Function>) -> Handle<Expression> {
        self.close();
        let result = self.f.expressions.append(Expression::CallResult(function), Span::UNDEFINED);
        self.f.body.push(Statement::Call { function, arguments: Vec::new(), result: Some(result) }, Span::UNDEFINED);
        result
    }
}
