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

use crate::errors::{self, json_text, tagged};
use crate::jobs::{Now, TextJob};

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
        counters: Option<&str>,
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
        work: impl FnOnce(&BoundPolicy) -> Result<String> + Send + 'static,
    ) -> Result<Now<String, TextJob>> {
        let inner = self.inner.clone();
        TextJob::run(self.now, move || work(&inner))
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
    #[napi(ts_return_type = "string | Promise<string>")]
    pub fn on_user_prompt(&self) -> Result<Now<String, TextJob>> {
        self.job(|policy| {
            policy.on_user_prompt().map_err(errors::service)?;
            Ok(String::new())
        })
    }

    /// A round of tool calls ran (`tools[i]`, `errors[i]`, `ids[i]`): what
    /// it calls for waits for the next request.
    #[napi(ts_return_type = "string | Promise<string>")]
    pub fn on_tool_results(
        &self,
        tools: Vec<String>,
        errors: Vec<bool>,
        ids: Vec<Option<String>>,
    ) -> Result<Now<String, TextJob>> {
        let round = round(tools, errors, ids, "onToolResults")?;
        self.job(move |policy| {
            policy.on_tool_results(round).map_err(errors::service)?;
            Ok(String::new())
        })
    }

    /// Before the next request, with the round just run when `tools` is
    /// given: everything due, as JSON text of a list of injections.
    #[napi(ts_return_type = "string | Promise<string>")]
    pub fn before_request(
        &self,
        tools: Option<Vec<String>>,
        errors: Option<Vec<bool>>,
        ids: Option<Vec<Option<String>>>,
    ) -> Result<Now<String, TextJob>> {
        let given = match tools {
            Some(tools) => Some(round(
                tools,
                errors.unwrap_or_default(),
                ids.unwrap_or_default(),
                "beforeRequest",
            )?),
            None => None,
        };
        self.job(move |policy| json_text(&policy.before_request(given).map_err(errors::service)?))
    }

    /// After the host compacted the conversation: the list to put back.
    #[napi(ts_return_type = "string | Promise<string>")]
    pub fn on_compaction(&self) -> Result<Now<String, TextJob>> {
        self.job(|policy| json_text(&policy.on_compaction().map_err(errors::service)?))
    }

    /// The model wants to end its turn: JSON text of `{action, text,
    /// injection}`; with `carry`, a reminder to go on waits for the next
    /// request.
    #[napi(ts_return_type = "string | Promise<string>")]
    pub fn on_turn_end(&self, carry: bool) -> Result<Now<String, TextJob>> {
        self.job(move |policy| {
            Ok(turn_end_document(&policy.on_turn_end(carry).map_err(errors::service)?).to_string())
        })
    }

    /// The counters as the conversation holds them, as JSON text.
    #[napi(ts_return_type = "string | Promise<string>")]
    pub fn counters(&self) -> Result<Now<String, TextJob>> {
        self.job(|policy| json_text(&policy.counters().map_err(errors::service)?))
    }
}
