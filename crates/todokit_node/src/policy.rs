//! [`NativePolicy`]: the turn policy of one conversation, bound to its
//! kit. The hooks that read the store run on a worker thread (a promise),
//! or at once on a kit whose store does no I/O; every answer crosses as
//! JSON text.

use std::sync::Arc;

use napi::bindgen_prelude::*;
use napi_derive::napi;
use todokit_binding::{BoundPolicy, Handle, messages, turn_end_document};

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
        end_of_turn: &str,
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

#[napi]
impl NativePolicy {
    /// The user sent a new prompt.
    #[napi]
    pub fn on_user_prompt(&self) {
        self.inner.on_user_prompt();
    }

    /// A round of tool calls ran (`tools[i]`, `errors[i]`): the nag when
    /// due, as JSON text of a list of injections.
    #[napi(ts_return_type = "string | Promise<string>")]
    pub fn on_tool_results(&self, tools: Vec<String>, errors: Vec<bool>) -> Result<Now<String, TextJob>> {
        if tools.len() != errors.len() {
            return Err(tagged(
                ErrorCode::Usage,
                messages::one_per("onToolResults", "isError"),
            ));
        }
        let round: Vec<(String, bool)> = tools.into_iter().zip(errors).collect();
        self.job(move |policy| json_text(&policy.on_tool_results(round).map_err(errors::service)?))
    }

    /// Before the next request: the stale-list reminder and one per hand
    /// edit (taken from the store, so each is told once).
    #[napi(ts_return_type = "string | Promise<string>")]
    pub fn before_request(&self) -> Result<Now<String, TextJob>> {
        self.job(|policy| json_text(&policy.before_request().map_err(errors::service)?))
    }

    /// What the profile restates before every request.
    #[napi(ts_return_type = "string | Promise<string>")]
    pub fn context(&self) -> Result<Now<String, TextJob>> {
        self.job(|policy| json_text(&policy.context().map_err(errors::service)?))
    }

    /// After the host compacted the conversation: the list to put back.
    #[napi(ts_return_type = "string | Promise<string>")]
    pub fn on_compaction(&self) -> Result<Now<String, TextJob>> {
        self.job(|policy| json_text(&policy.on_compaction().map_err(errors::service)?))
    }

    /// The model wants to end its turn: JSON text of `{action, text, injection}`.
    #[napi(ts_return_type = "string | Promise<string>")]
    pub fn on_turn_end(&self) -> Result<Now<String, TextJob>> {
        self.job(|policy| Ok(turn_end_document(&policy.on_turn_end().map_err(errors::service)?).to_string()))
    }

    /// The policy's memory, as JSON text (give it back as `counters`).
    #[napi(getter)]
    pub fn counters(&self) -> Result<String> {
        json_text(&self.inner.counters())
    }
}
