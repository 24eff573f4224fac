//! Errors as the typed layer reads them: a [`NativeError`] whose arguments
//! are a code and the message (`todokit/_errors.py` maps the codes,
//! `todokit::binding::ErrorCode`'s, to its exception classes).

use pyo3::PyErr;
use pyo3::create_exception;
use pyo3::exceptions::PyException;
use todokit::binding::{ErrorCode, OpenError};
use todokit::{ServiceError, UserEditError};

create_exception!(
    _todokit,
    NativeError,
    PyException,
    "An error of the native module: args are (code, message)."
);

/// An error with `code` and `message`.
pub fn native(code: ErrorCode, message: impl Into<String>) -> PyErr {
    PyErr::new::<NativeError, _>((code.as_str(), message.into()))
}

/// A service error as the typed layer raises it.
pub fn service(error: ServiceError) -> PyErr {
    native(ErrorCode::of_service(&error), error.to_string())
}

/// A hand-edit error as the typed layer raises it.
pub fn edit(error: UserEditError) -> PyErr {
    native(ErrorCode::of_edit(&error), error.to_string())
}

/// Why a kit could not be opened.
pub fn open(error: OpenError) -> PyErr {
    native(ErrorCode::of_open(&error), error.to_string())
}
