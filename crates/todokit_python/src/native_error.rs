//! The exceptions the package raises, made here when the module loads
//! from one table (each class, its bases and its words) and raised by the
//! native code directly: `todokit.TodokitError` and its subclasses are
//! these classes, and which one a Rust error raises is decided by its
//! `todokit_binding::ErrorCode`.

use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyList, PyTuple, PyType};
use todokit_binding::ErrorCode;

/// One exception class: its name, the class of ours it extends (`None`:
/// `Exception`), the built-in one it also is, and its docstring.
struct Class {
    name: &'static str,
    parent: Option<&'static str>,
    builtin: Option<&'static str>,
    doc: &'static str,
}

/// The tree, parents first.
const CLASSES: [Class; 6] = [
    Class {
        name: "TodokitError",
        parent: None,
        builtin: None,
        doc: "Every error todokit raises (a model's bad arguments are not errors: they come back as a \
              ``ToolResult`` with ``is_error``).",
    },
    Class {
        name: "UnknownProfileError",
        parent: Some("TodokitError"),
        builtin: Some("ValueError"),
        doc: "No profile has that name; ``todokit.profiles()`` lists them.",
    },
    Class {
        name: "UnknownToolError",
        parent: Some("TodokitError"),
        builtin: Some("LookupError"),
        doc: "The profile has no tool of that name.",
    },
    Class {
        name: "StoreError",
        parent: Some("TodokitError"),
        builtin: Some("OSError"),
        doc: "The store could not be read or written; nothing was stored by the call that failed.\n\n\
              When the failure ended a round (:meth:`Todokit.call_round`), ``index`` is the position of \
              that call in the calls given, and ``answered`` the results of the calls before it, in \
              order: what they stored stays stored, and the calls after ``index`` did not run. Otherwise \
              ``index`` is ``None`` and ``answered`` empty.",
    },
    Class {
        name: "UncertainCommitError",
        parent: Some("StoreError"),
        builtin: None,
        doc: "A write whose outcome cannot be known: read the list back before making it again (the \
              command's exit status 4).",
    },
    Class {
        name: "EditError",
        parent: Some("TodokitError"),
        builtin: Some("ValueError"),
        doc: "A hand edit was refused (no such task, an ambiguous name, a bad action); the list is \
              unchanged.",
    },
];

/// The class an error of `code` raises.
fn class_of(code: ErrorCode) -> &'static str {
    match code {
        ErrorCode::UnknownProfile => "UnknownProfileError",
        ErrorCode::UnknownTool => "UnknownToolError",
        ErrorCode::Store => "StoreError",
        ErrorCode::StoreUncertain => "UncertainCommitError",
        ErrorCode::Edit => "EditError",
        // A closed kit, a wrong option, a blocking call on a database.
        _ => "TodokitError",
    }
}

/// The classes, once made.
static MADE: PyOnceLock<Vec<(&'static str, Py<PyType>)>> = PyOnceLock::new();

/// The classes, made on first use (by the module's loading).
fn classes(py: Python<'_>) -> PyResult<&Vec<(&'static str, Py<PyType>)>> {
    MADE.get_or_try_init(py, || {
        let builtins = py.import("builtins")?;
        let make = builtins.getattr("type")?;
        let mut made: Vec<(&'static str, Py<PyType>)> = Vec::new();
        for class in &CLASSES {
            let mut bases = Vec::new();
            match class.parent {
                Some(parent) => {
                    let found = made
                        .iter()
                        .find(|(name, _)| *name == parent)
                        .map(|(_, c)| c.bind(py).clone());
                    bases.extend(found.map(Bound::into_any));
                }
                None => bases.push(builtins.getattr("Exception")?),
            }
            if let Some(builtin) = class.builtin {
                bases.push(builtins.getattr(builtin)?);
            }
            let body = PyDict::new(py);
            body.set_item("__doc__", class.doc)?;
            body.set_item("__module__", "todokit")?;
            if class.name == "StoreError" {
                body.set_item("index", py.None())?;
            }
            let created = make.call1((class.name, PyTuple::new(py, bases)?, body))?;
            made.push((class.name, created.cast_into::<PyType>()?.unbind()));
        }
        Ok(made)
    })
}

/// Makes the classes and adds them to the native module.
pub fn add_classes(module: &Bound<'_, PyModule>) -> PyResult<()> {
    for (name, class) in classes(module.py())? {
        module.add(*name, class.bind(module.py()))?;
    }
    Ok(())
}

/// The exception of `code` with `message`; a `StoreError` also carries
/// `index` (`None` unless a round ended) and `answered` (empty unless).
fn raised(
    py: Python<'_>,
    code: ErrorCode,
    message: String,
    round: Option<(usize, Bound<'_, PyList>)>,
) -> PyErr {
    let made = || -> PyResult<PyErr> {
        let name = class_of(code);
        let class = classes(py)?
            .iter()
            .find(|(found, _)| *found == name)
            .map(|(_, class)| class.bind(py).clone())
            .ok_or_else(|| {
                pyo3::exceptions::PyRuntimeError::new_err("todokit's exception classes are missing")
            })?;
        let error = class.call1((message,))?;
        if matches!(code, ErrorCode::Store | ErrorCode::StoreUncertain) {
            let (index, answered) = match round {
                Some((index, answered)) => (index.into_pyobject(py)?.into_any(), answered),
                None => (py.None().into_bound(py), PyList::empty(py)),
            };
            error.setattr("index", index)?;
            error.setattr("answered", answered)?;
        }
        Ok(PyErr::from_value(error))
    };
    made().unwrap_or_else(|error| error)
}

/// An error with `code` and `message`.
pub fn native(code: ErrorCode, message: impl Into<String>) -> PyErr {
    let message = message.into();
    Python::attach(|py| raised(py, code, message, None))
}

/// A store error that ended a round: the failed call's `index` and the
/// results `answered` before it.
pub fn round_error(code: ErrorCode, message: String, index: usize, answered: Bound<'_, PyList>) -> PyErr {
    raised(answered.py(), code, message, Some((index, answered)))
}
