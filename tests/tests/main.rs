//! Integration tests of wgrace (one binary, modules by subject).

mod samples;
mod support;
