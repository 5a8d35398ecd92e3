//! The `wgrace` command. Exit status: 0 no race observed, 1 races reported,
//! 2 the shader or the run could not be checked.

use std::process::ExitCode;

mod cli;

fn main() -> ExitCode {
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
