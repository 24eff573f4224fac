//! The `todokit` command for the packages' own `todokit` executable (a
//! Python console script, an npm `bin`): the command line tool itself, run
//! in the process that called it.

use std::ffi::OsString;

/// What the command's usage and errors call it.
const COMMAND_NAME: &str = "todokit";

/// Runs the `todokit` command line `args` (what follows the command's
/// name) to its end in this process and returns the status the process
/// should exit with. It is for a process that *is* the command: it uses
/// the process's standard streams and signals, and exits the process
/// itself for `--help`, `--version` and a command line it cannot parse.
pub fn run_command<I>(args: I) -> u8
where
    I: IntoIterator<Item = OsString>,
{
    todokit_cli::run(std::iter::once(OsString::from(COMMAND_NAME)).chain(args))
}
