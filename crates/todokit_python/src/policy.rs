//! [`Policy`]: the turn of one conversation, driven by the Rust turn
//! driver on its kit (what it remembers is stored with the conversation).
//! Every hook reads and writes the store with the GIL released; every
//! answer crosses as Python objects.

use pyo3::prelude::*;
use todokit::Injection;
use todokit_binding::{BoundPolicy, Handle, RoundEntry, turn_end_document};

use crate::errors;
use crate::objects::object;

/// The turn policy of one conversation (`todokit.TurnPolicy` wraps it).
#[pyclass(frozen, module = "todokit._todokit")]
pub struct Policy {
    inner: BoundPolicy,
}

impl Policy {
    /// The policy for `conversation` on `handle`'s profile.
    pub(crate) fn new(
        handle: Handle,
        conversation: String,
        end_of_turn: Option<&str>,
        nag_after_rounds: Option<usize>,
        counters: Option<serde_json::Value>,
    ) -> PyResult<Self> {
        BoundPolicy::new(handle, conversation, end_of_turn, nag_after_rounds, counters)
            .map(|inner| Self { inner })
            .map_err(pyo3::exceptions::PyValueError::new_err)
    }
}

#[pymethods]
impl Policy {
    /// The user sent a new prompt.
    fn on_user_prompt(&self, py: Python<'_>) -> PyResult<()> {
        py.detach(|| self.inner.on_user_prompt()).map_err(errors::service)
    }

    /// A round of tool calls ran (`(tool, is_error, call_id or None)`
    /// each): what it calls for waits for the next request.
    fn on_tool_results(&self, py: Python<'_>, round: Vec<RoundEntry>) -> PyResult<()> {
        py.detach(|| self.inner.on_tool_results(round))
            .map_err(errors::service)
    }

    /// Before the next request, `round` the one just run if not told yet:
    /// everything due, a list of injections.
    #[pyo3(signature = (round=None))]
    fn before_request<'py>(
        &self,
        py: Python<'py>,
        round: Option<Vec<RoundEntry>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let due: Vec<Injection> = py
            .detach(|| self.inner.before_request(round))
            .map_err(errors::service)?;
        object(py, &due)
    }

    /// After the host compacted the conversation: the list to put back.
    fn on_compaction<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let due: Vec<Injection> = py
            .detach(|| self.inner.on_compaction())
            .map_err(errors::service)?;
        object(py, &due)
    }

    /// The model wants to end its turn: `{"action": "end"|"warn"|"continue",
    /// "text": …, "injection": …}`; with `carry`, a reminder to go on
    /// waits for the next request.
    fn on_turn_end<'py>(&self, py: Python<'py>, carry: bool) -> PyResult<Bound<'py, PyAny>> {
        let end = py
            .detach(|| self.inner.on_turn_end(carry))
            .map_err(errors::service)?;
        object(py, &turn_end_document(&end))
    }

    /// The counters as the conversation holds them.
    fn counters<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let counters = py.detach(|| self.inner.counters()).map_err(errors::service)?;
        object(py, &counters)
    }
}
