//! Which invocations wait at each control barrier: its execution scope.
//!
//! naga's IR has no execution scope. Its reader gives a control barrier the
//! flag `SUB_GROUP` when the barrier's memory semantics name subgroup memory,
//! and its writer gives a barrier with that flag subgroup execution scope,
//! whatever scope the barrier had. [`mark_execution_scopes`] sets the flag
//! from the scope instead: on every barrier of subgroup execution scope
//! (GLSL's `subgroupBarrier()`), so that the instrumented module keeps it a
//! subgroup barrier and the checks know only a subgroup waits at it, and on
//! none of workgroup execution scope (subgroup-memory semantics order nothing
//! else in Vulkan).

use naga::{Barrier, Module, Span, Statement};
use spirv::Scope;

use super::Index;
use super::memory_model::{Survey, Sync};
use crate::blocks::{for_each_block_mut, for_each_function_mut};

/// Sets or clears `SUB_GROUP` on every control barrier of `module` by its
/// execution scope in the original module.
pub fn mark_execution_scopes(module: &mut Module, index: &Index, survey: &Survey) {
    let scope = |span: Span| match index.original(span).and_then(|at| survey.at(at)) {
        Some((_, Sync::ControlBarrier { execution, .. })) => *execution,
        _ => None,
    };
    for_each_function_mut(module, |f| {
        for_each_block_mut(&mut f.body, &mut |block| {
            for (statement, span) in block.span_iter_mut() {
                let Statement::ControlBarrier(flags) = statement else { continue };
                match scope(span.copied().unwrap_or_default()) {
                    Some(Scope::Subgroup) => *flags |= Barrier::SUB_GROUP,
                    Some(Scope::Workgroup) => *flags -= Barrier::SUB_GROUP,
                    _ => {}
                }
            }
        });
    });
}
