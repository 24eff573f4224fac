//! Errors as the TypeScript layer reads them: a message tagged
//! `[todokit:CODE] ` that `src/errors.ts` turns into a `TodokitError`
//! whose `code` is CODE (the codes are `todokit::binding::ErrorCode`'s).

use todokit::binding::{ErrorCode, OpenError};
use todokit::{ServiceError, UserEditError};

/// An error with `code` and `message`.
pub fn tagged(code: ErrorCode, message: impl std::fmt::Display) -> napi::Error {
    napi::Error::from_reason(format!("[todokit:{code}] {message}"))
}

/// A service error as the layer raises it.
pub fn service(error: ServiceError) -> napi::Error {
    tagged(ErrorCode::of_service(&error), error)
}

/// A hand-edit error as the layer raises it.
pub fn edit(error: UserEditError) -> napi::Error {
    tagged(ErrorCode::of_edit(&error), error)
}

/// Why a kit could not be opened.
pub fn open(error: OpenError) -> napi::Error {
    tagged(ErrorCode::of_open(&error), error)
}

/// JSON text of a value the Rust types serialize (they always do).
pub fn json_text(value: &impl serde::Serialize) -> napi::Result<String> {
    serde_json::to_string(value)
        .map_err(|e| tagged(ErrorCode::Usage, format!("cannot write the answer as JSON: {e}")))
}
