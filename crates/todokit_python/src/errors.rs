//! The Rust errors as the exceptions Python catches
//! ([`crate::native_error`]'s classes): a failure that ended a round also
//! says where (`index`) and what the calls before it gave (`answered`).

use pyo3::prelude::*;
use pyo3::types::PyList;
use todokit::{ServiceError, UserEditError};
use todokit_binding::{ErrorCode, OpenError, round_interruption};

use crate::native_error::{native, round_error};
use crate::objects::ToolResult;

/// A service error as the package raises it.
pub fn service(error: ServiceError) -> PyErr {
    let code = ErrorCode::of_service(&error);
    match round_interruption(&error) {
        Some((index, answered)) => Python::attach(|py| {
            let answered: Vec<ToolResult> = answered.into_iter().map(ToolResult::from).collect();
            match PyList::new(py, answered) {
                Ok(answered) => round_error(code, error.to_string(), index, answered),
                Err(failed) => failed,
            }
        }),
        None => native(code, error.to_string()),
    }
}

/// A hand-edit error as the package raises it.
pub fn edit(error: UserEditError) -> PyErr {
    native(ErrorCode::of_edit(&error), error.to_string())
}

/// Why a kit could not be opened.
pub fn open(error: OpenError) -> PyErr {
    native(ErrorCode::of_open(&error), error.to_string())
}
