//! The one exception the native module raises, [`NativeError`]: its
//! arguments are a code (`todokit_binding::ErrorCode`'s) and the message;
//! `todokit/_errors.py` maps the codes to its exception classes.

use pyo3::PyErr;
use pyo3::create_exception;
use pyo3::exceptions::PyException;
use todokit_binding::ErrorCode;

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
