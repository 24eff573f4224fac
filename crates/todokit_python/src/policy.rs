//! [`Policy`]: the turn policy of one conversation, bound to its kit. The
//! hooks that need the list read it from the store, the GIL released;
//! every answer crosses as JSON text.

use pyo3::prelude::*;
use todokit::Injection;
use todokit_binding::{BoundPolicy, Handle, turn_end_document};

use crate::errors::{self, native};
use todokit_binding::ErrorCode;

/// The turn policy of one conversation (`todokit.TurnPolicy` wraps it).
#[pyclass(frozen, module = "todokit._todokit")]
pub struct Policy {
    inner: BoundPolicy,
}

fn injections(list: &[Injection]) -> PyResult<String> {
    serde_json::to_string(list)
        .map_err(|e| native(ErrorCode::Usage, format!("cannot write the answer as JSON: {e}")))
}

impl Policy {
    /// The policy for `conversation` on `handle`'s profile.
    pub(crate) fn new(
        handle: Handle,
        conversation: String,
        end_of_turn: &str,
        nag_after_rounds: Option<usize>,
        counters: Option<&str>,
    ) -> PyResult<Self> {
        BoundPolicy::new(handle, conversation, end_of_turn, nag_after_rounds, counters)
            .map(|inner| Self { inner })
            .map_err(pyo3::exceptions::PyValueError::new_err)
    }
}

#[pymethods]
impl Policy {
    /// The user sent a new prompt.
    fn on_user_prompt(&self) {
        self.inner.on_user_prompt();
    }

    /// A round of tool calls ran (`(tool, is_error)` each): the nag when due,
    /// as JSON text of a list of injections.
    fn on_tool_results(&self, py: Python<'_>, round: Vec<(String, bool)>) -> PyResult<String> {
        injections(
            &py.detach(|| self.inner.on_tool_results(round))
                .map_err(errors::service)?,
        )
    }

    /// Before the next request: the stale-list reminder and one per hand
    /// edit the store holds (taken, so each is told once).
    fn before_request(&self, py: Python<'_>) -> PyResult<String> {
        injections(
            &py.detach(|| self.inner.before_request())
                .map_err(errors::service)?,
        )
    }

    /// What the profile restates before every request (as a list of at
    /// most one injection).
    fn context(&self, py: Python<'_>) -> PyResult<String> {
        injections(&py.detach(|| self.inner.context()).map_err(errors::service)?)
    }

    /// After the host compacted the conversation: the list to put back.
    fn on_compaction(&self, py: Python<'_>) -> PyResult<String> {
        injections(
            &py.detach(|| self.inner.on_compaction())
                .map_err(errors::service)?,
        )
    }

    /// The model wants to end its turn: `{"action": "end"|"warn"|"continue",
    /// "text": …, "injection": …}` as JSON text.
    fn on_turn_end(&self, py: Python<'_>) -> PyResult<String> {
        let end = py.detach(|| self.inner.on_turn_end()).map_err(errors::service)?;
        Ok(turn_end_document(&end).to_string())
    }

    /// The policy's memory of the conversation, as JSON text (give it back
    /// as `counters` to pick up where it left off).
    #[getter]
    fn counters(&self) -> PyResult<String> {
        serde_json::to_string(&self.inner.counters())
            .map_err(|e| native(ErrorCode::Usage, format!("cannot write the counters: {e}")))
    }
}
