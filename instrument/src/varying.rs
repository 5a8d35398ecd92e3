//! Which values may differ between the invocations of a subgroup: GRace's
//! *thread-invariant* addresses, as a hint for the runtime.
//!
//! A read whose address is the same for every invocation of a subgroup can be
//! checked once for the whole subgroup (`wgrace_subgroup_span` in
//! `shaders/wgsl/checks/data_race/subgroups/warp.wgsl`). The runtime decides that with subgroup
//! operations each time, so this hint only spares that test at accesses whose
//! address surely differs between invocations; it needs no precision for
//! soundness, and errs towards "may vary".
//!
//! Sources of variation: the invocation's built-in ids (local and global
//! invocation id and index, subgroup invocation id), the arguments of
//! functions other than the entry point, private variables, results of
//! calls, atomics and subgroup operations, and loads of memory at a varying
//! address. Function-local variables vary when any store to them (or to a
//! part of them at a varying index) stores a varying value; loop counters
//! over uniform ranges, workgroup ids and uniform-buffer contents do not.
//! Control dependence is not followed (a local set to different constants on
//! the two sides of a divergent branch counts as invariant): the runtime's
//! test catches such cases.

use naga::{AddressSpace, Block, Expression, Function, Handle, Module, Statement};

/// Which expressions of one function may vary.
pub(crate) struct Varying {
    expressions: Vec<bool>,
}

impl Varying {
    /// Analyses `f`; `entry_point` says whether it is the entry point, whose
    /// arguments are built-ins.
    pub fn new(module: &Module, f: &Function, entry_point: bool) -> Varying {
        let mut locals = vec![false; f.local_variables.len()];
        // Stores make locals vary, and loads of varying locals make values
        // vary: iterate to a fixed point (each round marks at least one more
        // local, or stops).
        loop {
            let expressions = expression_flags(module, f, entry_point, &locals);
            let mut changed = false;
            for (handle, var) in f.local_variables.iter() {
                let init = var.init.is_some_and(|e| expressions[e.index()]);
                if init && !locals[handle.index()] {
                    locals[handle.index()] = true;
                    changed = true;
                }
            }
            mark_stores(f, &f.body, &expressions, &mut locals, &mut changed);
            if !changed {
                return Varying { expressions };
            }
        }
    }

    /// Whether `e` may differ between invocations of a subgroup.
    pub fn varies(&self, e: Handle<Expression>) -> bool {
        self.expressions.get(e.index()).copied().unwrap_or(true)
    }
}

/// Flags every expression of `f` (arena order puts operands first).
fn expression_flags(module: &Module, f: &Function, entry_point: bool, locals: &[bool]) -> Vec<bool> {
    use naga::BuiltIn as B;
    let mut flags: Vec<bool> = Vec::with_capacity(f.expressions.len());
    for (_, e) in f.expressions.iter() {
        let of = |h: &Handle<Expression>| flags.get(h.index()).copied().unwrap_or(true);
        let varies = match e {
            Expression::Literal(_)
            | Expression::Constant(_)
            | Expression::Override(_)
            | Expression::ZeroValue(_)
            | Expression::ArrayLength(_)
            | Expression::WorkGroupUniformLoadResult { .. } => false,
            Expression::FunctionArgument(i) => {
                // Only the entry point's per-workgroup built-ins are known.
                let binding = f.arguments.get(*i as usize).and_then(|a| a.binding.as_ref());
                !entry_point
                    || !matches!(
                        binding,
                        Some(naga::Binding::BuiltIn(
                            B::WorkGroupId | B::NumWorkGroups | B::WorkGroupSize | B::SubgroupSize | B::NumSubgroups
                        ))
                    )
            }
            Expression::GlobalVariable(_) => false,
            Expression::LocalVariable(l) => locals.get(l.index()).copied().unwrap_or(true),
            Expression::Load { pointer } => of(pointer) || loads_private(module, f, *pointer),
            Expression::Access { base, index } => of(base) || of(index),
            Expression::AccessIndex { base, .. } => of(base),
            Expression::Splat { value, .. } => of(value),
            Expression::Swizzle { vector, .. } => of(vector),
            Expression::Compose { components, .. } => components.iter().any(of),
            Expression::Unary { expr, .. } => of(expr),
            Expression::Binary { left, right, .. } => of(left) || of(right),
            Expression::Select { condition, accept, reject } => of(condition) || of(accept) || of(reject),
            Expression::Relational { argument, .. } => of(argument),
            Expression::Math { arg, arg1, arg2, arg3, .. } => {
                of(arg) || [arg1, arg2, arg3].into_iter().flatten().any(of)
            }
            Expression::As { expr, .. } => of(expr),
            // Calls, atomics, subgroup operations, images, queries…
            _ => true,
        };
        flags.push(varies);
    }
    flags
}

/// Whether `pointer` points into a private variable (per invocation).
fn loads_private(module: &Module, f: &Function, mut pointer: Handle<Expression>) -> bool {
    loop {
        match f.expressions[pointer] {
            Expression::Access { base, .. } | Expression::AccessIndex { base, .. } => pointer = base,
            Expression::GlobalVariable(g) => return module.global_variables[g].space == AddressSpace::Private,
            _ => return false,
        }
    }
}

/// The local variable `pointer` points into, and whether the path to it has
/// a varying index.
fn local_target(f: &Function, flags: &[bool], mut pointer: Handle<Expression>) -> Option<(usize, bool)> {
    let mut varying_index = false;
    loop {
        match f.expressions[pointer] {
            Expression::LocalVariable(l) => return Some((l.index(), varying_index)),
            Expression::Access { base, index } => {
                varying_index |= flags[index.index()];
                pointer = base;
            }
            Expression::AccessIndex { base, .. } => pointer = base,
            _ => return None,
        }
    }
}

fn mark_stores(f: &Function, block: &Block, flags: &[bool], locals: &mut [bool], changed: &mut bool) {
    for stmt in block.iter() {
        let mut mark = |pointer: Handle<Expression>, value: bool| {
            if let Some((l, varying_index)) = local_target(f, flags, pointer)
                && (value || varying_index)
                && !locals[l]
            {
                locals[l] = true;
                *changed = true;
            }
        };
        match stmt {
            Statement::Store { pointer, value } => mark(*pointer, flags[value.index()]),
            // A call may write through a pointer argument.
            Statement::Call { arguments, .. } => {
                for &a in arguments {
                    mark(a, true);
                }
            }
            Statement::Block(b) => mark_stores(f, b, flags, locals, changed),
            Statement::If { accept, reject, .. } => {
                mark_stores(f, accept, flags, locals, changed);
                mark_stores(f, reject, flags, locals, changed);
            }
            Statement::Switch { cases, .. } => {
                for c in cases {
                    mark_stores(f, &c.body, flags, locals, changed);
                }
            }
            Statement::Loop { body, continuing, .. } => {
                mark_stores(f, body, flags, locals, changed);
                mark_stores(f, continuing, flags, locals, changed);
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether the index of each `tile[...]` load in `main` may vary, in
    /// source order.
    fn tile_indices_vary(source: &str) -> Vec<bool> {
        let module = naga::front::wgsl::parse_str(source).expect("parses");
        let f = &module.entry_points[0].function;
        let varying = Varying::new(&module, f, true);
        let mut out = Vec::new();
        for (_, e) in f.expressions.iter() {
            if let Expression::Load { pointer } = e
                && let Expression::Access { base, index } = f.expressions[*pointer]
                && matches!(f.expressions[base], Expression::GlobalVariable(_))
            {
                out.push(varying.varies(index));
            }
        }
        out
    }

    #[test]
    fn loop_counters_and_workgroup_ids_are_invariant_invocation_ids_are_not() {
        let source = "
            var<workgroup> tile: array<u32, 64>;
            var<private> mine: u32;
            @compute @workgroup_size(64)
            fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
                var sum = 0u;
                var j = lid;
                for (var k = 0u; k < 64u; k++) {
                    sum += tile[k];             // invariant
                    sum += tile[(k + wid.x) % 64u]; // invariant
                    sum += tile[lid];           // varies
                    sum += tile[j];             // varies: assigned from lid
                    sum += tile[mine % 64u];    // varies: private
                    j = (j + 1u) % 64u;
                }
                tile[0] = sum;
            }";
        assert_eq!(tile_indices_vary(source), [false, false, true, true, true]);
    }
}
