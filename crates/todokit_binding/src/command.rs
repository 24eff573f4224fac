//! The `todokit` command for the packages' own `todokit` executable (a
//! Python console script, an npm `bin`): the command line tool itself, run
//! in the process that called it.

use std::ffi::OsString;

/// What the command's usage and errors call it.
const COMMAND_NAME: &str = "todokit";

/// Runs the `todokit` command line `args` (what follows the command's
/// name) to its end in this process and returns the status the process
/// should exit with. It is for a process that *is* the command: it puts
/// back the default actions of SIGINT and SIGTERM (an interpreter's own
/// handlers would keep the command from ending on Ctrl-C), uses the
/// process's standard streams, and exits the process itself for `--help`,
/// `--version` and a command line it cannot parse.
pub fn run_command<I>(args: I) -> u8
where
    I: IntoIterator<Item = OsString>,
{
    default_signal_actions();
    todokit_cli::run(std::iter::once(OsString::from(COMMAND_NAME)).chain(args))
}

/// Puts back the default actions for SIGINT and SIGTERM, as a command
/// starts with. The interpreter that calls [`run_command`] has its own:
/// Node's handler resets the terminal and raises the signal again, and the
/// command's handlers (Ctrl-C ends `watch`, `mcp` and `serve`) call the
/// handler they replace, so under Node one signal would raise itself
/// forever; Python's would raise `KeyboardInterrupt` with a traceback once
/// the command had returned. From here on the process is the command.
fn default_signal_actions() {
    #[cfg(unix)]
    for signal in [libc::SIGINT, libc::SIGTERM] {
        // SAFETY: installs the default action (no function of ours runs in
        // a signal context); `signal` changes the process's disposition
        // atomically and is async-signal-safe.
        #[allow(unsafe_code)]
        unsafe {
            libc::signal(signal, libc::SIG_DFL);
        }
    }
}
