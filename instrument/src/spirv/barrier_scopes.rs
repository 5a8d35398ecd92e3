//! Which invocations wait at each control barrier, and between which of them
//! it orders memory: its execution and memory scopes.
//!
//! naga's IR has neither scope. Its reader gives a control barrier the
//! flag `SUB_GROUP` when the barrier's memory semantics name subgroup memory,
//! and its writer gives a barrier with that flag subgroup execution scope,
//! whatever scope the barrier had. [`mark_execution_scopes`] sets the flag
//! from the scope instead: on every barrier of subgroup execution scope
//! (GLSL's `subgroupBarrier()`), so that the instrumented module keeps it a
//! subgroup barrier and the checks know only a subgroup waits at it, and on
//! none of workgroup execution scope (subgroup-memory semantics order nothing
//! else in Vulkan).
//!
//! A barrier whose memory scope is the invocation orders no memory between
//! invocations, whatever its semantics name: it synchronizes execution only.
//! The function clears the memory flags of such a barrier, so that the checks
//! see an execution barrier (`BarrierKind::Execution`) and the instrumented
//! module runs one, which is what the original does under the Vulkan memory
//! model. A memory scope of one subgroup under a barrier of workgroup
//! execution scope has no counterpart in naga's IR: the instrumented module
//! runs such a barrier with workgroup memory scope (stronger: its executions
//! are executions of the original too), and the pass tells the checks its
//! memory scope (`WGRACE_BARRIER_SUBGROUP_MEMORY`), which the data-race
//! check's happens-before engine follows where it runs
//! ([`super::memory_model::Survey::subgroup_synchronized`]); elsewhere the
//! report says it was checked as ordering the workgroup
//! ([`super::memory_model::Survey::unchecked_subgroup_barriers`]).

use naga::{Barrier, Module, Span, Statement};
use spirv::Scope;

use super::Index;
use super::memory_model::{Survey, Sync};
use crate::blocks::{for_each_block_mut, for_each_function_mut};

/// Sets or clears `SUB_GROUP` on every control barrier of `module` by its
/// execution scope in the original module, and clears the memory flags of
/// those whose memory scope is the invocation.
pub fn mark_execution_scopes(module: &mut Module, index: &Index, survey: &Survey) {
    let scopes = |span: Span| match index.original(span).and_then(|at| survey.at(at)) {
        Some((_, Sync::ControlBarrier { execution, memory, .. })) => (*execution, *memory),
        _ => (None, None),
    };
    for_each_function_mut(module, |f| {
        for_each_block_mut(&mut f.body, &mut |block| {
            for (statement, span) in block.span_iter_mut() {
                let Statement::ControlBarrier(flags) = statement else { continue };
                let (execution, memory) = scopes(span.copied().unwrap_or_default());
                match execution {
                    Some(Scope::Subgroup) => *flags |= Barrier::SUB_GROUP,
                    Some(Scope::Workgroup) => *flags -= Barrier::SUB_GROUP,
                    _ => {}
                }
                if memory == Some(Scope::Invocation) {
                    *flags &= Barrier::SUB_GROUP;
                }
            }
        });
    });
}
