//! Errors as the TypeScript layer reads them: a message tagged
//! `[todokit:CODE] ` that `src/errors.ts` turns into a `TodokitError`
//! whose `code` is CODE (the codes are `todokit_binding::ErrorCode`'s).
//! A failure that ended a round adds a last line, `[todokit:round] JSON`,
//! with the failed call's `index` and the `answered` calls before it.

use todokit::{ServiceError, UserEditError};
use todokit_binding::{ErrorCode, OpenError, round_interruption};

/// An error with `code` and `message`.
pub fn tagged(code: ErrorCode, message: impl std::fmt::Display) -> napi::Error {
    napi::Error::from_reason(format!("[todokit:{code}] {message}"))
}

/// The line that tells the layer where a round stopped.
pub const ROUND_TAG: &str = "[todokit:round] ";

/// A service error as the layer raises it (with its round's line when it
/// ended a round).
pub fn service(error: ServiceError) -> napi::Error {
    let code = ErrorCode::of_service(&error);
    let Some((index, answered)) = round_interruption(&error) else {
        return tagged(code, error);
    };
    let answered: Vec<serde_json::Value> = answered
        .into_iter()
        .map(|answer| {
            // The details as the value they are, not as a text in a text.
            let details = serde_json::from_str::<serde_json::Value>(&answer.details).unwrap_or_default();
            serde_json::json!({
                "content": answer.content,
                "isError": answer.is_error,
                "details": details,
            })
        })
        .collect();
    let round = serde_json::json!({ "index": index, "answered": answered });
    tagged(code, format!("{error}\n{ROUND_TAG}{round}"))
}

/// A hand-edit error as the layer raises it.
pub fn edit(error: UserEditError) -> napi::Error {
    tagged(ErrorCode::of_edit(&error), error)
}

/// Why a kit could not be opened.
pub fn open(error: OpenError) -> napi::Error {
    tagged(ErrorCode::of_open(&error), error)
}
