//! Errors as the TypeScript layer reads them: a message tagged
//! `[todokit:CODE] ` that `src/errors.ts` turns into a `TodokitError`
//! whose `code` is CODE.

use todokit::binding::OpenError;
use todokit::{ServiceError, StoreError, UserEditError};

/// No profile has that name.
pub const UNKNOWN_PROFILE: &str = "UNKNOWN_PROFILE";
/// The profile has no such tool.
pub const UNKNOWN_TOOL: &str = "UNKNOWN_TOOL";
/// The store failed.
pub const STORE: &str = "STORE";
/// A write whose outcome cannot be known.
pub const STORE_UNCERTAIN: &str = "STORE_UNCERTAIN";
/// A hand edit refused.
pub const EDIT: &str = "EDIT";
/// `callSync` on a kit whose store needs a runtime (PostgreSQL).
pub const UNSUPPORTED: &str = "UNSUPPORTED";
/// Used after `close()`, or set up wrongly.
pub const USAGE: &str = "USAGE";

/// An error with `code` and `message`.
pub fn tagged(code: &str, message: impl std::fmt::Display) -> napi::Error {
    napi::Error::from_reason(format!("[todokit:{code}] {message}"))
}

/// A service error as the layer raises it.
pub fn service(error: ServiceError) -> napi::Error {
    let code = match &error {
        ServiceError::UnknownTool { .. } => UNKNOWN_TOOL,
        ServiceError::Store(StoreError::OutcomeUnknown { .. }) => STORE_UNCERTAIN,
        ServiceError::RoundInterrupted { source, .. }
            if matches!(**source, ServiceError::Store(StoreError::OutcomeUnknown { .. })) =>
        {
            STORE_UNCERTAIN
        }
        _ => STORE,
    };
    tagged(code, error)
}

/// A hand-edit error: the store's as a store error, the rest as a refused edit.
pub fn edit(error: UserEditError) -> napi::Error {
    match error {
        UserEditError::Service(error) => service(error),
        other => tagged(EDIT, other),
    }
}

/// Why a kit could not be opened.
pub fn open(error: OpenError) -> napi::Error {
    match error {
        OpenError::UnknownProfile(message) => tagged(UNKNOWN_PROFILE, message),
        OpenError::Store(message) => tagged(STORE, message),
        other => tagged(USAGE, other),
    }
}

/// JSON text of a value the Rust types serialize (they always do).
pub fn json_text(value: &impl serde::Serialize) -> napi::Result<String> {
    serde_json::to_string(value).map_err(|e| tagged(USAGE, format!("cannot write the answer as JSON: {e}")))
}
