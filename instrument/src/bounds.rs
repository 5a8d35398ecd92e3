//! The index guard: testing the user's indices against their bounds.
//!
//! Every dynamic index of an array, a vector or a matrix in the user's code
//! (`a[i]`, in any address space, nested or inside a struct; and a constant
//! index of a runtime-sized array) is an *index site* with an id in the
//! index table. When a linked check hooks out-of-bounds indices (the
//! `bounds` check), the pass adds after the `Emit` that evaluates the index
//!
//! ```text
//! if u32(i) >= n { wgrace_index_out_of_bounds(site, u32(i), n); }
//! ```
//!
//! where `n` is the element count: a constant, or `arrayLength` of the
//! runtime-sized array. A negative signed index is out of bounds too (as
//! `u32` it is at least 2³¹). The access itself is left as it is: the
//! instrumented shader clamps, discards or reads as the original does, so
//! outputs stay comparable; the guard only reports.
//!
//! Sites the static analyzer proves in bounds for the dispatch get no
//! guard. An index the guard cannot test (a runtime-sized array reached
//! through a pointer argument, whose length WGSL cannot take there) is
//! reported as unchecked.

use naga::valid::FunctionInfo;
use naga::{
    AddressSpace, BinaryOperator, Block, Expression, Function, Handle, Literal, Module, ScalarKind, Span, Statement,
    TypeInner,
};

use crate::InstrumentError;
use crate::analysis::walk::global_root;
use crate::link::Linked;
use crate::plan::Bound;
use crate::sites::{IndexSite, IndexedKind, Location};

/// What the rewrite adds for one index site.
#[derive(Clone, Debug)]
pub(crate) struct IndexPlan {
    /// Its id in the index table.
    pub site: u32,
    /// The access expression (`Access` or `AccessIndex`).
    pub access: Handle<Expression>,
    /// The index.
    pub index: Index,
    /// The global variable the access chain starts from, if it does (the
    /// analyzer takes a runtime-sized array's length from its buffer).
    pub global: Option<Handle<naga::GlobalVariable>>,
    /// The element count it must stay below.
    pub length: Bound,
}

/// An index of an access.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Index {
    /// An expression of type `u32` (`signed: false`) or `i32`.
    Dynamic { value: Handle<Expression>, signed: bool },
    /// The constant index of an `AccessIndex` (of a runtime-sized array).
    Constant(u32),
}

/// One index found in an `Emit` range: a plan, or why it cannot be tested.
pub(crate) enum Found {
    Plan { plan: IndexPlan, site: Box<IndexSite> },
    Unchecked(String),
}

/// The index sites among the expressions `range` of `f` evaluates.
/// `locate` turns a span into a source location and the text at it; sites
/// get ids from `next_id` on.
pub(crate) fn find_indices(
    module: &Module,
    f: &Function,
    info: &FunctionInfo,
    range: naga::Range<Expression>,
    next_id: u32,
    function: &str,
    locate: &dyn Fn(Span) -> (Location, Option<String>),
) -> Vec<Found> {
    let mut found = Vec::new();
    for h in range {
        let (base, index) = match f.expressions[h] {
            Expression::Access { base, index } => (base, Index::Dynamic { value: index, signed: false }),
            Expression::AccessIndex { base, index } => (base, Index::Constant(index)),
            _ => continue,
        };
        let (inner, space) = match info[base].ty.inner_with(&module.types) {
            TypeInner::Pointer { base, space } => (&module.types[*base].inner, Some(*space)),
            TypeInner::ValuePointer { size: Some(size), scalar, space } => {
                (&TypeInner::Vector { size: *size, scalar: *scalar }, Some(*space))
            }
            other => (other, None),
        };
        let (kind, length) = match inner {
            TypeInner::Array { size: naga::ArraySize::Constant(n), .. } => (IndexedKind::Array, Some(n.get())),
            TypeInner::Array { size: naga::ArraySize::Dynamic, .. } => (IndexedKind::RuntimeArray, None),
            TypeInner::Vector { size, .. } => (IndexedKind::Vector, Some(*size as u32)),
            TypeInner::Matrix { columns, .. } => (IndexedKind::Matrix, Some(*columns as u32)),
            // Structs (member access), binding arrays (handles).
            _ => continue,
        };
        let index = match index {
            // A constant index of a fixed-size aggregate: naga refuses one out
            // of bounds in `AccessIndex`; an `Access` by a constant (a `let`
            // of a literal) is tested only when it is out of bounds.
            Index::Dynamic { value, .. }
                if length
                    .is_some_and(|n| constant(module, f, value).is_some_and(|c| (0..i128::from(n)).contains(&c))) =>
            {
                continue;
            }
            Index::Constant(_) if length.is_some() => continue,
            Index::Constant(n) => Index::Constant(n),
            Index::Dynamic { value, .. } => match info[value].ty.inner_with(&module.types) {
                TypeInner::Scalar(s) if s.width == 4 && s.kind == ScalarKind::Sint => {
                    Index::Dynamic { value, signed: true }
                }
                TypeInner::Scalar(s) if s.width == 4 && s.kind == ScalarKind::Uint => {
                    Index::Dynamic { value, signed: false }
                }
                _ => {
                    let why = "an index that is not a 32-bit integer";
                    found.push(Found::Unchecked(format!("{}: {why}", at(locate, f, h))));
                    continue;
                }
            },
        };
        let signed = matches!(index, Index::Dynamic { signed: true, .. });
        let global = global_root(f, base);
        let length = match length {
            Some(n) => Bound::Fixed(n),
            // `arrayLength` needs the array's global variable.
            None if global.is_some() && space.is_some() => Bound::Runtime(base),
            None => {
                found.push(Found::Unchecked(format!(
                    "{}: a runtime-sized array reached through a pointer argument, whose length the shader \
                     cannot take there",
                    at(locate, f, h)
                )));
                continue;
            }
        };
        let (location, text) = locate(f.expressions.get_span(h));
        let id = next_id + found.iter().filter(|x| matches!(x, Found::Plan { .. })).count() as u32;
        let site = IndexSite {
            id,
            function: function.to_string(),
            access: text.unwrap_or_else(|| location.snippet.trim().to_string()),
            // The indexed `let`'s name, the indexed expression's text
            // (`grid.rows`), or its variable's name.
            variable: f
                .named_expressions
                .get(&base)
                .cloned()
                .or_else(|| locate(f.expressions.get_span(base)).1)
                .or_else(|| variable_name(module, f, base)),
            space: space.map(space_name),
            kind,
            length: match length {
                Bound::Fixed(n) => Some(n),
                Bound::Runtime(_) => None,
            },
            signed,
            location,
        };
        let plan = IndexPlan { site: id, access: h, index, global, length };
        found.push(Found::Plan { plan, site: Box::new(site) });
    }
    found
}

/// Where expression `h` is, for a message.
fn at(locate: &dyn Fn(Span) -> (Location, Option<String>), f: &Function, h: Handle<Expression>) -> String {
    let (location, text) = locate(f.expressions.get_span(h));
    let what = text.unwrap_or_else(|| location.snippet.trim().to_string());
    match location.line {
        Some(line) => format!("line {line} (`{what}`)"),
        None => format!("`{what}`"),
    }
}

/// The value of `e` when it is an integer constant.
fn constant(module: &Module, f: &Function, e: Handle<Expression>) -> Option<i128> {
    let literal = |l: &Literal| match *l {
        Literal::U32(v) => Some(i128::from(v)),
        Literal::I32(v) => Some(i128::from(v)),
        Literal::AbstractInt(v) => Some(i128::from(v)),
        _ => None,
    };
    match &f.expressions[e] {
        Expression::Literal(l) => literal(l),
        Expression::ZeroValue(_) => Some(0),
        Expression::Constant(c) => match &module.global_expressions[module.constants[*c].init] {
            Expression::Literal(l) => literal(l),
            Expression::ZeroValue(_) => Some(0),
            _ => None,
        },
        _ => None,
    }
}

/// The name of the variable (or `let`) an access chain starts from, if it
/// has one.
fn variable_name(module: &Module, f: &Function, mut e: Handle<Expression>) -> Option<String> {
    loop {
        if let Some(name) = f.named_expressions.get(&e) {
            return Some(name.clone());
        }
        match f.expressions[e] {
            Expression::Access { base, .. } | Expression::AccessIndex { base, .. } => e = base,
            Expression::Load { pointer } => e = pointer,
            Expression::GlobalVariable(g) => return module.global_variables[g].name.clone(),
            Expression::LocalVariable(l) => return f.local_variables[l].name.clone(),
            Expression::FunctionArgument(i) => return f.arguments.get(i as usize).and_then(|a| a.name.clone()),
            _ => return None,
        }
    }
}

/// WGSL's name of an address space.
fn space_name(space: AddressSpace) -> String {
    match space {
        AddressSpace::Function => "function",
        AddressSpace::Private => "private",
        AddressSpace::WorkGroup => "workgroup",
        AddressSpace::Uniform => "uniform",
        AddressSpace::Storage { .. } => "storage",
        AddressSpace::Handle => "handle",
        AddressSpace::Immediate => "immediate",
        _ => "other",
    }
    .to_string()
}

/// The runtime's function the guard calls.
pub(crate) struct IndexGuard {
    out_of_bounds: Handle<naga::Function>,
}

impl IndexGuard {
    /// The guard for a module into which the runtime is linked.
    pub(crate) fn new(linked: &Linked) -> Result<IndexGuard, InstrumentError> {
        Ok(IndexGuard { out_of_bounds: linked.function("wgrace_index_out_of_bounds")? })
    }

    /// Appends the test of `plan`'s index to `out` (after the `Emit` that
    /// evaluated it).
    pub(crate) fn guard(&self, f: &mut Function, plan: &IndexPlan, span: Span, out: &mut Block) {
        let literal = |f: &mut Function, l| f.expressions.append(Expression::Literal(l), span);
        let index = match plan.index {
            Index::Constant(n) => literal(f, Literal::U32(n)),
            Index::Dynamic { value, signed: true } => {
                emit(f, out, span, Expression::As { expr: value, kind: ScalarKind::Uint, convert: None })
            }
            Index::Dynamic { value, signed: false } => value,
        };
        let length = match plan.length {
            Bound::Fixed(n) => literal(f, Literal::U32(n)),
            Bound::Runtime(array) => emit(f, out, span, Expression::ArrayLength(array)),
        };
        let outside =
            emit(f, out, span, Expression::Binary { op: BinaryOperator::GreaterEqual, left: index, right: length });
        let site = literal(f, Literal::U32(plan.site));
        let mut report = Block::new();
        report.push(
            Statement::Call { function: self.out_of_bounds, arguments: vec![site, index, length], result: None },
            span,
        );
        out.push(Statement::If { condition: outside, accept: report, reject: Block::new() }, span);
    }
}

/// Appends `e` to `f` and an `Emit` of it to `block`.
fn emit(f: &mut Function, block: &mut Block, span: Span, e: Expression) -> Handle<Expression> {
    let h = f.expressions.append(e, span);
    block.push(Statement::Emit(naga::Range::new_from_bounds(h, h)), span);
    h
}
