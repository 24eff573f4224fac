//! The `todokit` npm package's native module. It only translates: values
//! cross as the JSON the Rust types serialize to (text, parsed by the
//! TypeScript layer), errors as messages tagged with a code the layer maps
//! to `TodokitError.code`. Calls that touch the store run on libuv's
//! worker threads (`AsyncTask`), their promises settled on the main thread
//! by Node-API; `callSync` runs on the calling thread.

mod errors;
mod feed;
mod jobs;
mod kit;
mod policy;

use napi_derive::napi;

/// The names of every profile, in registration order.
#[napi]
pub fn profiles() -> Vec<String> {
    todokit::profiles::names()
        .into_iter()
        .map(str::to_owned)
        .collect()
}

/// Runs the `todokit` command on `args` (what follows its name) on this
/// thread, to its end, and returns the status to exit with: the package's
/// `todokit` executable, which exits with it.
#[napi]
pub fn run_command(args: Vec<String>) -> u32 {
    default_signal_actions();
    u32::from(todokit_binding::run_command(args.into_iter().map(Into::into)))
}

/// Puts back the default actions for SIGINT and SIGTERM. Node replaces
/// them at start with a handler that resets the terminal and raises the
/// signal again; the command's own handlers (Ctrl-C ends `watch`, `mcp`
/// and `serve`) call the handler they replace, so under Node's one signal
/// would raise itself forever and the command would never see it. From
/// here on the process is the command, which starts with the defaults as
/// any command does.
fn default_signal_actions() {
    #[cfg(unix)]
    for signal in [libc::SIGINT, libc::SIGTERM] {
        // SAFETY: installing the default action (no handler function of
        // ours runs in a signal context); `signal` is async-signal-safe and
        // changes the process's disposition atomically.
        #[allow(unsafe_code)]
        unsafe {
            libc::signal(signal, libc::SIG_DFL);
        }
    }
}

/// The package's version (the workspace's).
#[napi]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_owned()
}
