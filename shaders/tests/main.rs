//! The tests of wgrace-shaders (the crate's one test binary, modules by
//! subject; what they share is in `common/`).

mod atomic_memory;
mod common;
mod happens_before;
mod runtime;
mod state_machine;
mod vulkan_model;
