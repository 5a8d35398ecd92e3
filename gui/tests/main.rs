//! The tests of wgrace-gui (the crate's one test binary, modules by
//! subject).

mod binary;
mod snapshots;
