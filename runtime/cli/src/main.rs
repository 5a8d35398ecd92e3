//! The `wgrace` command. Exit status: 0 no race observed, 1 races reported,
//! 2 the shader or the run could not be checked.

use std::process::ExitCode;

mod args;
mod cli;

fn main() -> ExitCode {
    quiet_wayland_probe();
    match cli::main() {
        Ok(code) => code,
        Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            #[allow(clippy::print_stderr, reason = "the binary reports its own errors")]
            {
                eprintln!("{}", cli::render_error(&e));
            }
            ExitCode::from(2)
        }
    }
}

fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| c.downcast_ref::<std::io::Error>().is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe))
}

/// Without a display session, the Vulkan loader's Wayland probe prints
/// "error: XDG_RUNTIME_DIR is invalid or not set in the environment." on
/// every run, which reads like a failure of wgrace. Any absolute directory
/// silences it (the probe then simply finds no compositor).
fn quiet_wayland_probe() {
    if std::env::var_os("XDG_RUNTIME_DIR").is_none() {
        #[allow(unsafe_code, reason = "set before any thread exists, so no other code reads the environment")]
        // SAFETY: `main` calls this first, while the process has one thread.
        unsafe {
            std::env::set_var("XDG_RUNTIME_DIR", std::env::temp_dir());
        }
    }
}
