//! Running one tool call: the arguments made ready once, then the tool run
//! inside the commit loop, exclusive tools one at a time.

use serde_json::Value;

use super::error::ServiceError;
use super::todo_write_service::TodoWriteService;
use crate::arguments::parse_arguments;
use crate::tool::mode_refusal_result;
use crate::tool::{CallContext, CallOptions, DecodedInput, Tool, ToolError, ToolResult};

/// A call's arguments, made ready before the first load.
enum Prepared<'t> {
    /// Parsed, repaired and checked.
    Checked(Value),
    /// Decoded straight from well-formed text (kept for a retry).
    Decoded {
        input: Option<DecodedInput>,
        text: &'t str,
    },
}

impl TodoWriteService {
    /// Runs `tool` with the argument text a model sent. Malformed text is a
    /// tool error (`is_error: true`), not a failure of the call.
    pub async fn call(&self, conversation: &str, tool: &str, args: &str) -> Result<ToolResult, ServiceError> {
        self.call_with(conversation, tool, args, CallOptions::default())
            .await
    }

    /// [`TodoWriteService::call`] as the host's `options` say: in a mode
    /// whose original refuses the tool ([`crate::tool::ToolMetadata::refused_in`]),
    /// the answer is that refusal, in the original's words, before the
    /// arguments are read, and nothing is stored.
    pub async fn call_with(
        &self,
        conversation: &str,
        tool: &str,
        args: &str,
        options: CallOptions,
    ) -> Result<ToolResult, ServiceError> {
        let found = self.profile.find(tool).ok_or_else(|| self.unknown(tool))?;
        if let Some(refusal) = found.mode_refusal(options.mode) {
            return Ok(mode_refusal_result(found.name(), options.mode, refusal));
        }
        if let Some(refused) = self.profile.gate_text(found.name(), args) {
            return Ok(refused.into_result(found.name()));
        }
        // Well-formed text goes straight into the typed input; anything
        // else takes the parsing, repairing and checking path below.
        if let Some(input) = self.profile.decode_well_formed(found.name(), args) {
            let prepared = Prepared::Decoded {
                input: Some(input),
                text: args,
            };
            return self.run(conversation, found, prepared, options).await;
        }
        match parse_arguments(args) {
            // The text passed the gate: its value is not measured again.
            Ok(value) => self.call_checked(conversation, found, value, options).await,
            Err(e) => Ok(ToolError::from(e).into_result(found.name())),
        }
    }

    /// Runs `tool` with arguments already parsed as JSON.
    pub async fn call_value(
        &self,
        conversation: &str,
        tool: &str,
        args: &Value,
    ) -> Result<ToolResult, ServiceError> {
        self.call_owned(conversation, tool, args.clone()).await
    }

    async fn call_owned(
        &self,
        conversation: &str,
        tool: &str,
        args: Value,
    ) -> Result<ToolResult, ServiceError> {
        let tool = self.profile.find(tool).ok_or_else(|| self.unknown(tool))?;
        if let Some(refused) = self.profile.gate_value(tool.name(), &args) {
            return Ok(refused.into_result(tool.name()));
        }
        self.call_checked(conversation, tool, args, CallOptions::default())
            .await
    }

    /// Runs `tool` on arguments that passed the gate.
    async fn call_checked(
        &self,
        conversation: &str,
        tool: &dyn Tool,
        args: Value,
        options: CallOptions,
    ) -> Result<ToolResult, ServiceError> {
        // The arguments do not depend on the stored state: check them once,
        // before any load, and not again on a retry.
        match self.profile.repair_and_check_args(tool.name(), args) {
            Ok(args) => {
                self.run(conversation, tool, Prepared::Checked(args), options)
                    .await
            }
            Err(error) => Ok(error.into_result(tool.name())),
        }
    }

    /// Runs `tool` on arguments made ready, committing what it changes.
    async fn run(
        &self,
        conversation: &str,
        tool: &dyn Tool,
        mut prepared: Prepared<'_>,
        options: CallOptions,
    ) -> Result<ToolResult, ServiceError> {
        let durable = self.store.is_durable();
        let rules = *self.profile.rules();
        let profile_name = self.profile.name();
        // Other processes are kept in line by the store's compare-and-swap;
        // within this one, exclusive tools also wait their turn.
        let _turn = match tool.metadata().exclusive {
            true => Some(self.exclusive(conversation).await),
            false => None,
        };
        let (result, before, committed) = self
            .commit_loop(conversation, |state, now| {
                let ctx = CallContext::shared(state, now, &rules)
                    .durable(durable)
                    .mode(options.mode);
                let outcome = match &mut prepared {
                    Prepared::Checked(args) => tool.call(args, &ctx),
                    // The decoded input is used up by the first attempt; a retry
                    // after a conflict decodes the text again.
                    Prepared::Decoded { input, text } => match input.take() {
                        Some(input) => tool.call_decoded(input, &ctx),
                        None => self
                            .profile
                            .run_text(tool.name(), text, &ctx)
                            .unwrap_or_else(|| tool.call(&Value::Null, &ctx)),
                    },
                };
                // Viewers show a list the way the agent that wrote it does.
                let commit = outcome.commit.map(|state| state.profile(profile_name));
                Ok::<_, ServiceError>((commit, outcome.result))
            })
            .await?;
        // Details deferred by the tool are written from the list as
        // committed (or, when nothing was, as it stood), if a host reads them.
        result.details.bind_after(committed.as_ref().unwrap_or(&before));
        Ok(result)
    }
}
