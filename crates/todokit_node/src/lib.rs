//! The `todokit` npm package's native module. It only translates: values
//! cross as JavaScript objects napi builds from the Rust types'
//! serialization (the stored documents in camelCase), errors as messages
//! tagged with a code the layer maps to `TodokitError.code` (the codes are
//! this module's [`error_codes`]). Calls that touch the store run on libuv's
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
    u32::from(todokit_binding::run_command(args.into_iter().map(Into::into)))
}

/// Every code a `TodokitError` may have (`todokit_binding::ErrorCode`'s
/// words): the TypeScript layer knows the codes from here.
#[napi]
pub fn error_codes() -> Vec<String> {
    todokit_binding::ErrorCode::ALL
        .iter()
        .map(|code| code.as_str().to_owned())
        .collect()
}

/// The package's version (the workspace's).
#[napi]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_owned()
}
