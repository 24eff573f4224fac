//! Errors as the typed layer reads them: a [`NativeError`] whose arguments
//! are a code and the message (`todokit/_errors.py` maps codes to its
//! exception classes).

use pyo3::PyErr;
use pyo3::create_exception;
use pyo3::exceptions::PyException;
use todokit::{ServiceError, StoreError, UserEditError};

create_exception!(
    _todokit,
    NativeError,
    PyException,
    "An error of the native module: args are (code, message)."
);

/// The code of an error the typed layer raises as `UnknownProfileError`.
pub const UNKNOWN_PROFILE: &str = "UNKNOWN_PROFILE";
/// `UnknownToolError`.
pub const UNKNOWN_TOOL: &str = "UNKNOWN_TOOL";
/// `StoreError`.
pub const STORE: &str = "STORE";
/// `UncertainCommitError`: a write whose outcome cannot be known.
pub const STORE_UNCERTAIN: &str = "STORE_UNCERTAIN";
/// `EditError`: a hand edit refused.
pub const EDIT: &str = "EDIT";
/// `TodokitError`: used after `close()`, or in another process than the
/// one that made it, or set up wrongly.
pub const USAGE: &str = "USAGE";

/// An error with `code` and `message`.
pub fn native(code: &'static str, message: impl Into<String>) -> PyErr {
    PyErr::new::<NativeError, _>((code, message.into()))
}

/// A service error as the typed layer raises it.
pub fn service(error: ServiceError) -> PyErr {
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
    native(code, error.to_string())
}

/// A hand-edit error as the typed layer raises it: the store's as a
/// store error, the rest as a refused edit.
pub fn edit(error: UserEditError) -> PyErr {
    match error {
        UserEditError::Service(error) => service(error),
        other => native(EDIT, other.to_string()),
    }
}
