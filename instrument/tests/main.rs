//! The tests of wgrace-instrument (the crate's one test binary, modules by
//! subject).

mod analysis;
mod constructs;
mod fuzz;
mod module_size;
mod replay_choice;
mod snapshots;
mod spirv_corrupt;
