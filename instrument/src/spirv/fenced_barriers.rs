//! Control barriers between a release fence and an acquire fence.
//!
//! GLSL orders buffer memory across a workgroup with
//! `memoryBarrierBuffer(); barrier(); memoryBarrierBuffer();`: glslang's
//! `barrier()` names workgroup memory only, and the fences name buffer
//! memory. Under the Vulkan memory model ("Synchronizes-With", the rule of a
//! release barrier A, an acquire barrier B and a control barrier C), A
//! synchronizes-with B when A comes before C in one invocation and B after C
//! in another, both invocations are in C's execution scope, and each is in
//! the other's memory scope; what happens before A in the first invocation
//! then happens before what follows B in the second, for the storage classes
//! both fences name. naga's reader keeps the three instructions apart and the
//! check orders accesses by control barriers alone, so it would report a
//! race the idiom does not have.
//!
//! [`order_through_fences`] finds the idiom where it is exact to do so: a
//! control barrier of workgroup execution scope, with a release fence right
//! before it and an acquire fence right after it in the same block (nothing
//! that touches memory between them, so every invocation that reaches the
//! barrier has executed the first fence just before and executes the second
//! just after), both fences of workgroup scope or wider. The barrier then
//! also orders the storage classes both fences name, which is what the three
//! instructions do together; the module runs with the barrier so widened.
//! Any other fence, and every fence of a module with atomics (a fence also
//! synchronizes with atomics), still gets the report's note that wgrace does
//! not model it.

use naga::{Barrier, Block, Expression, Module, Span, Statement};
use spirv::{MemorySemantics, Scope};

use super::Index;
use super::memory_model::{Survey, Sync};
use crate::blocks::{for_each_block_mut, for_each_function_mut};

const RELEASE: MemorySemantics =
    MemorySemantics::RELEASE.union(MemorySemantics::ACQUIRE_RELEASE).union(MemorySemantics::SEQUENTIALLY_CONSISTENT);
const ACQUIRE: MemorySemantics =
    MemorySemantics::ACQUIRE.union(MemorySemantics::ACQUIRE_RELEASE).union(MemorySemantics::SEQUENTIALLY_CONSISTENT);

/// Widens every control barrier of `module` that a release fence and an
/// acquire fence surround (see the module's documentation) by the storage
/// classes both fences name. Returns the word offsets, in the original
/// module, of the fences whose synchronization the check now models: those
/// the widened barrier orders all of, in a module without atomics.
pub fn order_through_fences(module: &mut Module, index: &Index, survey: &Survey) -> Vec<usize> {
    let find = |span: Span| index.original(span).and_then(|at| survey.at(at));
    let mut used = Vec::new();
    for_each_function_mut(module, |f| {
        let expressions = &f.expressions;
        for_each_block_mut(&mut f.body, &mut |block| widen_block(block, expressions, &find, &mut used));
    });
    used.sort_unstable();
    used.dedup();
    // A fence also synchronizes with atomics (a release fence before an
    // atomic write, an acquire fence after an atomic read), which wgrace
    // does not model: with atomics in the module, every fence stays noted.
    if survey.instructions.iter().any(|(_, s)| matches!(s, Sync::Atomic { .. })) {
        used.clear();
    }
    used
}

/// What a fence contributes when its semantics include `direction`: the
/// naga barrier flags of the storage classes it names.
fn fence_classes(sync: Option<(usize, &Sync)>, direction: MemorySemantics) -> Option<(usize, Barrier)> {
    let (at, Sync::MemoryBarrier { memory: Some(scope), semantics }) = sync? else { return None };
    // Each invocation must be in the other's memory scope: both are in one
    // workgroup.
    let wide_enough = matches!(scope, Scope::Workgroup | Scope::QueueFamily | Scope::Device | Scope::CrossDevice);
    if !wide_enough || !semantics.intersects(direction) {
        return None;
    }
    let mut classes = Barrier::empty();
    classes.set(Barrier::STORAGE, semantics.contains(MemorySemantics::UNIFORM_MEMORY));
    classes.set(Barrier::WORK_GROUP, semantics.contains(MemorySemantics::WORKGROUP_MEMORY));
    Some((at, classes))
}

/// Widens the control barriers of `block` itself (not of blocks nested in
/// it) that fences surround.
fn widen_block<'a>(
    block: &mut Block,
    expressions: &naga::Arena<Expression>,
    find: &impl Fn(Span) -> Option<(usize, &'a Sync)>,
    used: &mut Vec<usize>,
) {
    let spans: Vec<Span> = block.span_iter().map(|(_, span)| *span).collect();
    for i in 0..block.len() {
        if !matches!(block[i], Statement::ControlBarrier(_)) {
            continue;
        }
        let workgroup_execution =
            matches!(find(spans[i]), Some((_, Sync::ControlBarrier { execution: Some(Scope::Workgroup), .. })));
        let before = (0..i).rev().find(|&j| !inert(&block[j], expressions));
        let after = (i + 1..block.len()).find(|&j| !inert(&block[j], expressions));
        let fence = |j: Option<usize>, direction| {
            let j = j.filter(|&j| matches!(block[j], Statement::MemoryBarrier(_)))?;
            fence_classes(find(spans[j]), direction)
        };
        let (Some((release, first)), Some((acquire, second))) = (fence(before, RELEASE), fence(after, ACQUIRE)) else {
            continue;
        };
        let classes = first & second;
        if let (true, Statement::ControlBarrier(flags)) = (workgroup_execution && !classes.is_empty(), &mut block[i]) {
            *flags |= classes;
            // A fence is modelled when the barrier now orders all it names.
            used.extend(
                [(release, first), (acquire, second)].into_iter().filter(|(_, c)| flags.contains(*c)).map(|f| f.0),
            );
        }
    }
}

/// Whether `statement` touches no memory: evaluating expressions that load
/// nothing.
fn inert(statement: &Statement, expressions: &naga::Arena<Expression>) -> bool {
    match statement {
        Statement::Emit(range) => range.clone().all(|h| {
            !matches!(
                expressions[h],
                Expression::Load { .. } | Expression::ImageLoad { .. } | Expression::ImageSample { .. }
            )
        }),
        _ => false,
    }
}
