//! [`NativePolicy`]: the turn of one conversation, driven by the Rust turn
//! driver on its kit (what it remembers is stored with the conversation).
//! Every hook reads and writes the store: on a worker thread (a promise),
//! or at once on a kit whose store does no I/O; every answer crosses as
//! JSON text.

use std::sync::Arc;

use napi::bindgen_prelude::*;
use napi_derive::napi;
use todokit_binding::{BoundPolicy, Handle, RoundEntry, messages, turn_end_document};

use todokit_binding::ErrorCode;

use crate::errors::{self, tagged};
use crate::jobs::{Json, Now, UnitJob, ValueJob, value};

/// The turn policy of one conversation (`TurnPolicy` in the TypeScript
/// layer wraps it).
#[napi]
pub struct NativePolicy {
    inner: Arc<BoundPolicy>,
    /// Whether the kit's store does no I/O (see `jobs`).
    now: bool,
}

impl NativePolicy {
    /// The policy for `conversation` on `handle`'s profile.
    pub fn new(
        handle: Handle,
        now: bool,
        conversation: String,
        end_of_turn: Option<&str>,
        nag_after_rounds: Option<usize>,
        counters: Option<serde_json::Value>,
    ) -> Result<Self> {
        BoundPolicy::new(handle, conversation, end_of_turn, nag_after_rounds, counters)
            .map(|inner| Self {
                inner: Arc::new(inner),
                now,
            })
            .map_err(|m| tagged(ErrorCode::Usage, m))
    }

    fn job(
        &self,
        work: impl FnOnce(&BoundPolicy) -> Result<Json> + Send + 'static,
    ) -> Result<Now<Json, ValueJob>> {
        let inner = self.inner.clone();
        ValueJob::run(self.now, move || work(&inner))
    }

    fn unit_job(
        &self,
        work: impl FnOnce(&BoundPolicy) -> Result<()> + Send + 'static,
    ) -> Result<Now<(), UnitJob>> {
        let inner = self.inner.clone();
        UnitJob::run(self.now, move || work(&inner))
    }
}

fn round(
    tools: Vec<String>,
    errors: Vec<bool>,
    ids: Vec<Option<String>>,
    method: &str,
) -> Result<Vec<RoundEntry>> {
    if tools.len() != errors.len() || tools.len() != ids.len() {
        return Err(tagged(
            ErrorCode::Usage,
            messages::one_per(method, "isError and id"),
        ));
    }
    Ok(tools
        .into_iter()
        .zip(errors)
        .zip(ids)
        .map(|((tool, error), id)| (tool, error, id))
        .collect())
}

#[napi]
impl NativePolicy {
    /// The user sent a new prompt.
    #[napi(ts_return_type = "void | Promise<void>")]
    pub fn on_user_prompt(&self) -> Result<Now<(), UnitJob>> {
        self.unit_job(|policy| policy.on_user_prompt().map_err(errors::service))
    }

    /// A round of tool calls ran (`tools[i]`, `errors[i]`, `ids[i]`): what
    /// it calls for waits for the next request.
    #[napi(ts_return_type = "void | Promise<void>")]
    pub fn on_tool_results(
        &self,
        tools: Vec<String>,
        errors: Vec<bool>,
        ids: Vec<Option<String>>,
    ) -> Result<Now<(), UnitJob>> {
        let round = round(tools, errors, ids, "onToolResults")?;
        self.unit_job(move |policy| policy.on_tool_results(round).map_err(errors::service))
    }

    /// Before the next request, with the round just run when `tools` is
    /// given: everything due, a list of injections.
    #[napi(ts_return_type = "unknown")]
    pub fn before_request(
        &self,
        tools: Option<Vec<String>>,
        errors: Option<Vec<bool>>,
        ids: Option<Vec<Option<String>>>,
    ) -> Result<Now<Json, ValueJob>> {
        let given = match tools {
            Some(tools) => Some(round(
                tools,
                errors.unwrap_or_default(),
                ids.unwrap_or_default(),
                "beforeRequest",
            )?),
            None => None,
        };
        self.job(move |policy| value(&policy.before_request(given).map_err(errors::service)?))
    }

    /// After the host compacted the conversation: the list to put back.
    #[napi(ts_return_type = "unknown")]
    pub fn on_compaction(&self) -> Result<Now<Json, ValueJob>> {
        self.job(|policy| value(&policy.on_compaction().map_err(errors::service)?))
    }

    /// The model wants to end its turn: `{action, text, injection}`; with
    /// `carry`, a reminder to go on waits for the next request.
    #[napi(ts_return_type = "unknown")]
    pub fn on_turn_end(&self, carry: bool) -> Result<Now<Json, ValueJob>> {
        self.job(move |policy| {
            Ok(Json(turn_end_document(
                &policy.on_turn_end(carry).map_err(errors::service)?,
            )))
        })
    }

    /// The counters as the conversation holds them.
    #[napi(ts_return_type = "unknown")]
    pub fn counters(&self) -> Result<Now<Json, ValueJob>> {
        self.job(|policy| value(&policy.counters().map_err(errors::service)?))
    }
}
