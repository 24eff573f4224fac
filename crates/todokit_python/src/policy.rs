//! [`Policy`]: the turn policy of one conversation, bound to its kit. The
//! hooks that need the list read it from the store; every answer crosses
//! as JSON text.

use std::sync::Mutex;

use pyo3::prelude::*;
use serde_json::json;
use todokit::app::turn::{CallRecord, Enforcement, Injection, TurnConfig, TurnCounters, TurnEnd, TurnPolicy};

use crate::errors::{self, USAGE, native};
use crate::parts::Parts;

/// The turn policy of one conversation (`todokit.TurnPolicy` wraps it).
#[pyclass(frozen, module = "todokit._todokit")]
pub struct Policy {
    parts: Parts,
    conversation: String,
    policy: Mutex<TurnPolicy>,
}

/// How strict the end of a turn is, by its word.
fn enforcement(word: &str) -> PyResult<Enforcement> {
    match word {
        "off" => Ok(Enforcement::Off),
        "soft" => Ok(Enforcement::Soft),
        "strict" => Ok(Enforcement::Strict),
        other => Err(pyo3::exceptions::PyValueError::new_err(format!(
            "end_of_turn must be one of off, soft, strict; got {other:?}"
        ))),
    }
}

fn injections(list: &[Injection]) -> PyResult<String> {
    serde_json::to_string(list).map_err(|e| native(USAGE, format!("cannot write the answer as JSON: {e}")))
}

impl Policy {
    /// The policy for `conversation` on `parts`' profile.
    pub(crate) fn new(
        parts: Parts,
        conversation: String,
        end_of_turn: &str,
        nag_after_rounds: Option<usize>,
        counters: Option<&str>,
    ) -> PyResult<Self> {
        let profile = parts.service.profile();
        let mut config = TurnConfig::for_profile(profile).end_of_turn(enforcement(end_of_turn)?);
        if let Some(rounds) = nag_after_rounds {
            config = config.nag_after_rounds(rounds);
        }
        let mut policy = TurnPolicy::with_config(profile, config);
        if let Some(counters) = counters {
            let counters: TurnCounters = serde_json::from_str(counters)
                .map_err(|e| pyo3::exceptions::PyValueError::new_err(format!("counters: {e}")))?;
            policy = policy.with_counters(counters);
        }
        Ok(Self {
            parts,
            conversation,
            policy: Mutex::new(policy),
        })
    }

    fn with<T>(&self, work: impl FnOnce(&mut TurnPolicy) -> T) -> PyResult<T> {
        let mut policy = self
            .policy
            .lock()
            .map_err(|_| native(USAGE, "this policy is unusable: a hook panicked while holding it"))?;
        Ok(work(&mut policy))
    }

    fn list(&self, py: Python<'_>) -> PyResult<todokit::TodoState> {
        let (parts, conversation) = (self.parts.clone(), self.conversation.clone());
        py.detach(move || parts.block(parts.service.state(&conversation)))
            .map_err(errors::service)
    }
}

#[pymethods]
impl Policy {
    /// The user sent a new prompt.
    fn on_user_prompt(&self) -> PyResult<()> {
        self.with(TurnPolicy::on_user_prompt)
    }

    /// A round of tool calls ran (`(tool, is_error)` each): the nag when due,
    /// as JSON text of a list of injections.
    fn on_tool_results(&self, py: Python<'_>, round: Vec<(String, bool)>) -> PyResult<String> {
        let list = self.list(py)?;
        let records: Vec<CallRecord> = round
            .into_iter()
            .map(|(tool, error)| CallRecord::new(tool, error))
            .collect();
        injections(&self.with(|policy| policy.on_tool_results(&records, &list))?)
    }

    /// Before the next request: the stale-list reminder and one per hand
    /// edit the store holds (taken, so each is told once).
    fn before_request(&self, py: Python<'_>) -> PyResult<String> {
        let (parts, conversation) = (self.parts.clone(), self.conversation.clone());
        let notices = py
            .detach(move || parts.block(parts.service.take_notices(&conversation)))
            .map_err(errors::service)?;
        injections(&self.with(|policy| policy.before_request(&notices))?)
    }

    /// What the profile restates before every request (as a list of at
    /// most one injection).
    fn context(&self, py: Python<'_>) -> PyResult<String> {
        let list = self.list(py)?;
        let context = self.with(|policy| policy.context(&list))?;
        injections(&context.into_iter().collect::<Vec<_>>())
    }

    /// After the host compacted the conversation: the list to put back.
    fn on_compaction(&self, py: Python<'_>) -> PyResult<String> {
        let list = self.list(py)?;
        let put_back = self.with(|policy| policy.on_compaction(&list))?;
        injections(&put_back.into_iter().collect::<Vec<_>>())
    }

    /// The model wants to end its turn: `{"action": "end"|"warn"|"continue",
    /// "text": …, "injection": …}` as JSON text.
    fn on_turn_end(&self, py: Python<'_>) -> PyResult<String> {
        let list = self.list(py)?;
        let end = self.with(|policy| policy.on_turn_end(&list))?;
        let value = match end {
            TurnEnd::End => json!({"action": "end", "text": null, "injection": null}),
            TurnEnd::EndWithWarning(warning) => json!({"action": "warn", "text": warning, "injection": null}),
            TurnEnd::Continue(injection) => {
                json!({"action": "continue", "text": injection.text, "injection": injection})
            }
        };
        Ok(value.to_string())
    }

    /// The policy's memory of the conversation, as JSON text (give it back
    /// as `counters` to pick up where it left off).
    #[getter]
    fn counters(&self) -> PyResult<String> {
        let counters = self.with(|policy| policy.counters().clone())?;
        serde_json::to_string(&counters).map_err(|e| native(USAGE, format!("cannot write the counters: {e}")))
    }
}
