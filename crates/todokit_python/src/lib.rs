//! `todokit._todokit`: the native module under the `todokit` Python
//! package. It only translates: values cross as Python objects built here
//! from the Rust types' serialization (`objects`), errors as the
//! package's exception classes, which this module makes
//! (`native_error`).
//! Every call releases the GIL while it runs.

mod errors;
mod feed;
mod kit;
mod native_error;
mod objects;
mod policy;

use pyo3::prelude::*;

/// The names of every profile, in registration order.
#[pyfunction]
fn profiles() -> Vec<&'static str> {
    todokit::profiles::names()
}

/// Runs the `todokit` command on `args` (what follows its name) in this
/// process, without the GIL, and returns the status to exit with: the
/// package's `todokit` executable.
#[pyfunction]
fn run_command(py: Python<'_>, args: Vec<std::ffi::OsString>) -> u8 {
    py.detach(move || todokit_binding::run_command(args))
}

/// The native module.
#[pymodule]
fn _todokit(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(profiles, m)?)?;
    m.add_function(wrap_pyfunction!(run_command, m)?)?;
    m.add_class::<kit::Kit>()?;
    m.add_class::<policy::Policy>()?;
    m.add_class::<feed::PyFeed>()?;
    m.add_class::<objects::ToolResult>()?;
    native_error::add_classes(m)?;
    m.add("VERSION", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
