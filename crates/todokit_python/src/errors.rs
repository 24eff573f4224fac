//! Errors as the typed layer reads them: a [`NativeError`] whose arguments
//! are a code and the message (`todokit/_errors.py` maps the codes,
//! `todokit_binding::ErrorCode`'s, to its exception classes), and, for a
//! failure that ended a round, the failed call's position and the answers
//! of the calls before it.

use pyo3::PyErr;
use todokit::{ServiceError, UserEditError};
use todokit_binding::{ErrorCode, OpenError, round_interruption};

use crate::native_error::{NativeError, native};
use crate::objects::Answer;

/// A service error as the typed layer raises it; one that ended a round
/// also carries `(index, answered)`, the answers as [`Answer`]s.
pub fn service(error: ServiceError) -> PyErr {
    let code = ErrorCode::of_service(&error).as_str();
    match round_interruption(&error) {
        Some((index, answered)) => {
            let answered: Vec<Answer> = answered.into_iter().map(Answer::from).collect();
            PyErr::new::<NativeError, _>((code, error.to_string(), index, answered))
        }
        None => native(ErrorCode::of_service(&error), error.to_string()),
    }
}

/// A hand-edit error as the typed layer raises it.
pub fn edit(error: UserEditError) -> PyErr {
    native(ErrorCode::of_edit(&error), error.to_string())
}

/// Why a kit could not be opened.
pub fn open(error: OpenError) -> PyErr {
    native(ErrorCode::of_open(&error), error.to_string())
}
