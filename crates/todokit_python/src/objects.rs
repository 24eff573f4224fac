//! Values handed to Python as Python objects (dicts, lists, strings,
//! numbers), built here from their serde serialization: nothing crosses as
//! JSON text for Python to parse. A call's result is a [`ToolResult`],
//! whose details (the lists before and after, often the largest part)
//! become Python objects only when a host reads them.

use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use serde::Serialize;
use serde_json::Value;
use todokit_binding::ErrorCode;

use crate::native_error::native;

/// `value` as the Python object its serialization describes.
pub(crate) fn object<'py>(py: Python<'py>, value: &impl Serialize) -> PyResult<Bound<'py, PyAny>> {
    pythonize::pythonize(py, value)
        .map_err(|e| native(ErrorCode::Usage, format!("cannot hand the answer to Python: {e}")))
}

/// What a call gives the model (`todokit.ToolResult`): `content` (the
/// text it reads), `is_error` (a refusal; nothing was stored) and
/// `details` (the lists before and after, in the profile's shape), built
/// as Python objects when first read.
#[pyclass(frozen, name = "ToolResult", module = "todokit")]
pub struct ToolResult {
    /// What the model reads.
    #[pyo3(get)]
    content: String,
    /// Whether the call was refused (nothing was stored).
    #[pyo3(get)]
    is_error: bool,
    /// The details as the service serialized them.
    details: String,
    /// The details once built.
    built: PyOnceLock<Py<PyAny>>,
}

impl From<todokit_binding::Answer> for ToolResult {
    fn from(answer: todokit_binding::Answer) -> Self {
        Self {
            content: answer.content,
            is_error: answer.is_error,
            details: answer.details,
            built: PyOnceLock::new(),
        }
    }
}

#[pymethods]
impl ToolResult {
    /// The details as Python data (built once, on first read).
    #[getter]
    fn details(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        self.built
            .get_or_try_init(py, || {
                let details: Value = serde_json::from_str(&self.details)
                    .map_err(|e| native(ErrorCode::Usage, format!("the details cannot be read: {e}")))?;
                object(py, &details).map(Bound::unbind)
            })
            .map(|built| built.clone_ref(py))
    }

    fn __repr__(&self) -> String {
        format!(
            "ToolResult(is_error={}, content={:?})",
            if self.is_error { "True" } else { "False" },
            self.content
        )
    }
}
