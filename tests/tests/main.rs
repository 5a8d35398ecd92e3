//! Integration tests of wgrace (one binary, modules by subject).

mod banks;
mod device;
mod formats;
mod samples;
mod spirv;
mod spread;
mod support;
mod timeline;
mod toy_check;
mod viewer;
