//! Walking the nested blocks of naga's IR.

use naga::{Block, Function, Module, Statement};

/// Calls `visit` on `block` and on every block nested in it (the branches
/// of `if` and `switch`, loop bodies and their continuing blocks, and plain
/// blocks), outer blocks first.
pub fn for_each_block_mut(block: &mut Block, visit: &mut dyn FnMut(&mut Block)) {
    visit(block);
    for (statement, _) in block.span_iter_mut() {
        match statement {
            Statement::Block(inner) => for_each_block_mut(inner, visit),
            Statement::If { accept, reject, .. } => {
                for_each_block_mut(accept, visit);
                for_each_block_mut(reject, visit);
            }
            Statement::Switch { cases, .. } => {
                for case in cases {
                    for_each_block_mut(&mut case.body, visit);
                }
            }
            Statement::Loop { body, continuing, .. } => {
                for_each_block_mut(body, visit);
                for_each_block_mut(continuing, visit);
            }
            // Listed so that a statement holding blocks in a later naga
            // does not go unvisited.
            Statement::Emit(_)
            | Statement::Break
            | Statement::Continue
            | Statement::Return { .. }
            | Statement::Kill
            | Statement::ControlBarrier(_)
            | Statement::MemoryBarrier(_)
            | Statement::Store { .. }
            | Statement::ImageStore { .. }
            | Statement::Atomic { .. }
            | Statement::ImageAtomic { .. }
            | Statement::WorkGroupUniformLoad { .. }
            | Statement::Call { .. }
            | Statement::RayQuery { .. }
            | Statement::RayPipelineFunction(_)
            | Statement::SubgroupBallot { .. }
            | Statement::SubgroupGather { .. }
            | Statement::SubgroupCollectiveOperation { .. }
            | Statement::CooperativeStore { .. } => {}
        }
    }
}

/// Calls `visit` on every statement of `block` and of the blocks nested in
/// it, each statement before the ones nested in it.
pub fn for_each_statement(block: &Block, visit: &mut dyn FnMut(&Statement)) {
    for statement in block.iter() {
        visit(statement);
        match statement {
            Statement::Block(inner) => for_each_statement(inner, visit),
            Statement::If { accept, reject, .. } => {
                for_each_statement(accept, visit);
                for_each_statement(reject, visit);
            }
            Statement::Switch { cases, .. } => {
                for case in cases {
                    for_each_statement(&case.body, visit);
                }
            }
            Statement::Loop { body, continuing, .. } => {
                for_each_statement(body, visit);
                for_each_statement(continuing, visit);
            }
            _ => {}
        }
    }
}

/// Calls `visit` on every function of `module`, entry points included.
pub fn for_each_function_mut(module: &mut Module, mut visit: impl FnMut(&mut Function)) {
    for (_, function) in module.functions.iter_mut() {
        visit(function);
    }
    for entry in &mut module.entry_points {
        visit(&mut entry.function);
    }
}
