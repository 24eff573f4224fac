//! Values handed to Python as Python objects (dicts, lists, strings,
//! numbers), built here from their serde serialization: nothing crosses as
//! JSON text for Python to parse. A call's result is an [`Answer`], whose
//! details (the lists before and after, often the largest part) become
//! Python objects only when a host reads them.

use pyo3::prelude::*;
use serde::Serialize;
use serde_json::Value;
use todokit_binding::ErrorCode;

use crate::native_error::native;

/// `value` as the Python object its serialization describes.
pub(crate) fn object<'py>(py: Python<'py>, value: &impl Serialize) -> PyResult<Bound<'py, PyAny>> {
    pythonize::pythonize(py, value)
        .map_err(|e| native(ErrorCode::Usage, format!("cannot hand the answer to Python: {e}")))
}

/// A finished call (`todokit.ToolResult` wraps it): the text the model
/// reads, whether it is an error, and the details.
#[pyclass(frozen, module = "todokit._todokit")]
pub struct Answer {
    /// What the model reads.
    #[pyo3(get)]
    content: String,
    /// Whether the call was refused (nothing was stored).
    #[pyo3(get)]
    is_error: bool,
    /// The details as the service serialized them.
    details: String,
}

impl From<todokit_binding::Answer> for Answer {
    fn from(answer: todokit_binding::Answer) -> Self {
        Self {
            content: answer.content,
            is_error: answer.is_error,
            details: answer.details,
        }
    }
}

#[pymethods]
impl Answer {
    /// The details as Python objects, built on each call (the typed layer
    /// keeps the first).
    fn details<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let details: Value = serde_json::from_str(&self.details)
            .map_err(|e| native(ErrorCode::Usage, format!("the details cannot be read: {e}")))?;
        object(py, &details)
    }
}
