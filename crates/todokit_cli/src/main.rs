//! The `todokit` binary: the library's command, on this process's
//! arguments.

use std::process::ExitCode;

fn main() -> ExitCode {
    ExitCode::from(todokit_cli::run(std::env::args_os()))
}
