//! [`Kit`]: one service (a profile over a store) as Python holds it.

use std::path::PathBuf;
use std::sync::{Mutex, PoisonError, RwLock};

use pyo3::prelude::*;
use serde_json::Value;
use todokit::{CallOptions, EditList, UserAction};
use todokit_binding::{self as binding, ErrorCode, FeedCloser, Handle, messages};

use crate::errors;
use crate::feed::PyFeed;
use crate::native_error::native;
use crate::objects::{ToolResult, object};

/// One profile over one store (`todokit.Todokit` wraps it).
#[pyclass(frozen, module = "todokit._todokit")]
pub struct Kit {
    handle: RwLock<Option<Handle>>,
    /// The open subscriptions, so `close()` ends them.
    feeds: Mutex<Vec<FeedCloser>>,
    /// The process that made it: the store's and the service's threads do
    /// not survive a `fork()`.
    pid: u32,
}

impl Kit {
    /// The service, unless the kit was closed or is used in another
    /// process than the one that made it.
    fn handle(&self) -> PyResult<Handle> {
        if std::process::id() != self.pid {
            return Err(native(ErrorCode::Usage, messages::FORKED));
        }
        let handle = self
            .handle
            .read()
            .map_err(|_| native(ErrorCode::Usage, messages::POISONED))?;
        handle
            .clone()
            .ok_or_else(|| native(ErrorCode::Usage, messages::CLOSED))
    }
}

/// The host mode a word names.
fn mode(word: &str) -> PyResult<CallOptions> {
    binding::call_options(word).map_err(pyo3::exceptions::PyValueError::new_err)
}

/// A value the typed layer wrote with `json.dumps`: the host's objects
/// come in as text, because Python's writer refuses a cycle and a nesting
/// too deep for the stack, where a converter walking the objects here
/// would recurse without end (values go back the other way as objects).
fn host_value(text: &str) -> Result<Value, String> {
    serde_json::from_str(text).map_err(|e| e.to_string())
}

/// The user action a host's edit describes (the board's shape, every
/// action allowed).
fn action(edit: &str) -> PyResult<UserAction> {
    let edit = host_value(edit).map_err(|e| native(ErrorCode::Edit, format!("the edit: {e}")))?;
    binding::user_action(edit).map_err(|message| native(ErrorCode::Edit, message))
}

#[pymethods]
impl Kit {
    /// A kit for `profile` over the store given: `memory`, a `database_url`
    /// (PostgreSQL), a `store_dir`, or else the command's default folder.
    #[new]
    #[pyo3(signature = (profile, store_dir=None, memory=false, database_url=None))]
    fn new(
        profile: &str,
        store_dir: Option<PathBuf>,
        memory: bool,
        database_url: Option<&str>,
    ) -> PyResult<Self> {
        let names = ["store_dir", "memory", "database_url"];
        let store = binding::store_location(store_dir, memory, database_url.map(str::to_owned), names)
            .map_err(pyo3::exceptions::PyValueError::new_err)?;
        let handle = binding::open(profile, store).map_err(errors::open)?;
        Ok(Self {
            handle: RwLock::new(Some(handle)),
            feeds: Mutex::new(Vec::new()),
            pid: std::process::id(),
        })
    }

    /// The profile: name, summary, system prompt, tools (with their
    /// metadata and commands), upstream and example call.
    fn profile<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        object(py, &binding::profile_document(&self.handle()?.service))
    }

    /// The profile's tool definitions for `target`: what `todokit schema
    /// --target` prints.
    fn definitions<'py>(&self, py: Python<'py>, target: &str) -> PyResult<Bound<'py, PyAny>> {
        let handle = self.handle()?;
        let found: Value = binding::definitions_for(&handle.service, target)
            .map_err(pyo3::exceptions::PyValueError::new_err)?;
        object(py, &found)
    }

    /// One call with the model's argument bytes: a tool error when they
    /// are not UTF-8.
    #[pyo3(signature = (conversation, tool, arguments, mode_word="default"))]
    fn call(
        &self,
        py: Python<'_>,
        conversation: String,
        tool: String,
        arguments: Vec<u8>,
        mode_word: &str,
    ) -> PyResult<ToolResult> {
        let handle = self.handle()?;
        let options = mode(mode_word)?;
        py.detach(move || {
            handle.block(binding::call_bytes(
                &handle.service,
                &conversation,
                &tool,
                arguments,
                options,
            ))
        })
        .map(ToolResult::from)
        .map_err(errors::service)
    }

    /// The calls of one model turn, `(tool, argument bytes)` each. A call
    /// whose arguments are not UTF-8 is answered with that tool error in
    /// its place; the others run as one round.
    #[pyo3(signature = (conversation, calls, mode_word="default"))]
    fn call_round(
        &self,
        py: Python<'_>,
        conversation: String,
        calls: Vec<(String, Vec<u8>)>,
        mode_word: &str,
    ) -> PyResult<Vec<ToolResult>> {
        let handle = self.handle()?;
        let options = mode(mode_word)?;
        py.detach(move || {
            handle.block(binding::call_round_bytes(
                &handle.service,
                &conversation,
                calls,
                options,
            ))
        })
        .map(|answers| answers.into_iter().map(ToolResult::from).collect())
        .map_err(errors::service)
    }

    /// The conversation's stored list (`todokit show --format json`).
    fn state<'py>(&self, py: Python<'py>, conversation: String) -> PyResult<Bound<'py, PyAny>> {
        let handle = self.handle()?;
        let state = py
            .detach(move || handle.block(handle.service.state(&conversation)))
            .map_err(errors::service)?;
        object(py, &state)
    }

    /// The store's conversations (`todokit conversations --format json`).
    fn conversations<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let handle = self.handle()?;
        let summaries = py
            .detach(move || handle.block(handle.service.conversations()))
            .map_err(errors::service)?;
        object(py, &summaries)
    }

    /// Removes `conversation` for good (`todokit forget`): its list and the
    /// turn record kept beside it. Whether anything was stored.
    fn forget(&self, py: Python<'_>, conversation: String) -> PyResult<bool> {
        let handle = self.handle()?;
        py.detach(move || handle.block(handle.service.forget(&conversation)))
            .map_err(errors::service)
    }

    /// Removes every conversation whose id starts with `prefix` and that
    /// has not changed for `idle_seconds` (`todokit prune`); with
    /// `dry_run`, only names them. The ids, sorted; when one could not be
    /// forgotten, its error (the others went).
    fn prune(
        &self,
        py: Python<'_>,
        idle_seconds: f64,
        prefix: String,
        dry_run: bool,
    ) -> PyResult<Vec<String>> {
        let idle = binding::idle_for(idle_seconds).map_err(pyo3::exceptions::PyValueError::new_err)?;
        let handle = self.handle()?;
        py.detach(move || {
            handle
                .block(handle.service.prune(&prefix, idle, dry_run))
                .and_then(binding::pruned_ids)
        })
        .map_err(errors::service)
    }

    /// A hand edit (`action_json`: the board's shape extended): what it
    /// did, or `None` when the list was already so.
    fn edit(&self, py: Python<'_>, conversation: String, action_json: &str) -> PyResult<Option<String>> {
        let handle = self.handle()?;
        let action = action(action_json)?;
        py.detach(move || handle.block(handle.service.edit(&conversation, action)))
            .map(|edit| edit.map(|e| e.action))
            .map_err(errors::edit)
    }

    /// The notices waiting for the model; taking them clears them.
    fn take_notices<'py>(&self, py: Python<'py>, conversation: String) -> PyResult<Bound<'py, PyAny>> {
        let handle = self.handle()?;
        let notices = py
            .detach(move || handle.block(handle.service.take_notices(&conversation)))
            .map_err(errors::service)?;
        object(py, &notices)
    }

    /// Rebuilds `conversation` from the host's transcript (`messages_json`:
    /// a list of OpenAI or Anthropic messages) and stores it: the list and
    /// the policy's counters.
    fn restore<'py>(
        &self,
        py: Python<'py>,
        conversation: String,
        messages_json: &str,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
        let handle = self.handle()?;
        let messages: Vec<Value> = serde_json::from_str(messages_json)
            .map_err(|e| pyo3::exceptions::PyValueError::new_err(format!("messages: {e}")))?;
        let replay = py
            .detach(move || handle.block(handle.service.restore(&conversation, &messages)))
            .map_err(errors::service)?;
        Ok((object(py, &replay.state)?, object(py, replay.policy.counters())?))
    }

    /// The turn of `conversation`: `end_of_turn` (`off`, `soft` or
    /// `strict`) is stored with it when given; `counters` (JSON text of
    /// what a policy's `counters()` gave) replaces what it holds.
    #[pyo3(signature = (conversation, end_of_turn=None, nag_after_rounds=None, counters=None))]
    fn turn_policy(
        &self,
        conversation: String,
        end_of_turn: Option<&str>,
        nag_after_rounds: Option<usize>,
        counters: Option<&str>,
    ) -> PyResult<crate::policy::Policy> {
        let counters = counters
            .map(host_value)
            .transpose()
            .map_err(|e| pyo3::exceptions::PyValueError::new_err(format!("counters: {e}")))?;
        crate::policy::Policy::new(
            self.handle()?,
            conversation,
            end_of_turn,
            nag_after_rounds,
            counters,
        )
    }

    /// A live feed of `conversation`: the list now, then each new version.
    fn subscribe(&self, conversation: &str) -> PyResult<PyFeed> {
        let (feed, closer) = PyFeed::open(self.handle()?, conversation)?;
        let mut feeds = self.feeds.lock().unwrap_or_else(PoisonError::into_inner);
        // Feeds dropped since are forgotten here, so the list stays as
        // long as the feeds open.
        feeds.retain(|closer| !closer.is_gone());
        feeds.push(closer);
        Ok(feed)
    }

    /// Lets go of the store (and the PostgreSQL runtime) and ends the open
    /// subscriptions; later calls raise.
    fn close(&self, py: Python<'_>) {
        let feeds = std::mem::take(&mut *self.feeds.lock().unwrap_or_else(PoisonError::into_inner));
        for closer in &feeds {
            closer.close();
        }
        let taken = self.handle.write().ok().and_then(|mut handle| handle.take());
        // A runtime's threads are joined when it drops: not while holding
        // the GIL, which a PostgreSQL callback never needs but a host's
        // other threads may.
        py.detach(move || drop(taken));
    }

    /// Whether `close()` was called.
    #[getter]
    fn closed(&self) -> bool {
        self.handle.read().map(|p| p.is_none()).unwrap_or(true)
    }
}
