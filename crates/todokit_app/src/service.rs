//! The service that runs one tool call: decode, validate, apply, store with
//! compare-and-swap on the version, and format the result.

use std::sync::Arc;

use serde_json::Value;
use thiserror::Error;
use todokit_domain::TodoState;

use crate::{
    CallContext, Clock, ConversationStore, Profile, StoreError, ToolError, ToolResult, parse_arguments,
};

/// How often a call is re-run against a fresh load when another writer
/// committed in between, before the service gives up.
pub const MAX_COMMIT_ATTEMPTS: usize = 64;

/// Why a call could not be processed at all. A bad payload is not one of
/// these: it is a [`ToolResult`] with `is_error` set.
#[derive(Debug, Error)]
pub enum ServiceError {
    /// The profile has no tool by that name.
    #[error("profile {profile:?} has no tool {tool:?}; its tools are: {}", available.join(", "))]
    UnknownTool {
        /// The profile.
        profile: &'static str,
        /// The name asked for.
        tool: String,
        /// What it has.
        available: Vec<&'static str>,
    },
    /// The store failed; nothing was written.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// Other writers kept committing first.
    #[error(
        "gave up after {attempts} attempts: conversation {conversation:?} kept changing underneath this call"
    )]
    Contention {
        /// The conversation.
        conversation: String,
        /// How many times the call was tried.
        attempts: usize,
    },
}

/// Runs a profile's tool calls over an injected store and clock.
#[derive(Clone)]
pub struct TodoService {
    profile: Profile,
    store: Arc<dyn ConversationStore>,
    clock: Arc<dyn Clock>,
}

impl TodoService {
    /// A service for `profile` over `store`, telling time by `clock`.
    pub fn new(profile: Profile, store: Arc<dyn ConversationStore>, clock: Arc<dyn Clock>) -> Self {
        Self {
            profile,
            store,
            clock,
        }
    }

    /// The profile whose tools it runs.
    pub fn profile(&self) -> &Profile {
        &self.profile
    }

    /// The store it uses.
    pub fn store(&self) -> &Arc<dyn ConversationStore> {
        &self.store
    }

    /// Runs `tool` with the argument text a model sent. Malformed text is a
    /// tool error (`is_error: true`), not a failure of the call.
    pub async fn call(&self, conversation: &str, tool: &str, args: &str) -> Result<ToolResult, ServiceError> {
        let name = self.tool_name(tool)?;
        match parse_arguments(args) {
            Ok(value) => self.call_value(conversation, tool, &value).await,
            Err(e) => Ok(ToolError::from(e).into_result(name)),
        }
    }

    /// Runs `tool` with arguments already parsed as JSON.
    pub async fn call_value(
        &self,
        conversation: &str,
        tool: &str,
        args: &Value,
    ) -> Result<ToolResult, ServiceError> {
        let tool = self.profile.find(tool).ok_or_else(|| self.unknown(tool))?;
        // The arguments do not depend on the stored state: check them once,
        // before any load, and not again on a retry.
        let args = match self.profile.prepare_args(tool.name(), args) {
            Ok(args) => args,
            Err(error) => return Ok(error.into_result(tool.name())),
        };
        for _ in 0..MAX_COMMIT_ATTEMPTS {
            let state = self.store.load(conversation).await?;
            let ctx = CallContext {
                state: &state,
                now: self.clock.now(),
                rules: self.profile.rules(),
            };
            let outcome = tool.call(&args, &ctx);
            let Some(mut next) = outcome.commit else {
                return Ok(outcome.result);
            };
            next.version = state.version + 1;
            match self.store.save(conversation, state.version, &next).await {
                Ok(()) => return Ok(outcome.result),
                Err(StoreError::Conflict { .. }) => continue,
                Err(e) => return Err(e.into()),
            }
        }
        Err(ServiceError::Contention {
            conversation: conversation.to_owned(),
            attempts: MAX_COMMIT_ATTEMPTS,
        })
    }

    /// The stored list of `conversation`.
    pub async fn state(&self, conversation: &str) -> Result<TodoState, ServiceError> {
        Ok(self.store.load(conversation).await?)
    }

    fn tool_name(&self, tool: &str) -> Result<&'static str, ServiceError> {
        self.profile
            .find(tool)
            .map(|t| t.name())
            .ok_or_else(|| self.unknown(tool))
    }

    fn unknown(&self, tool: &str) -> ServiceError {
        ServiceError::UnknownTool {
            profile: self.profile.name(),
            tool: tool.to_owned(),
            available: self.profile.tool_names(),
        }
    }
}

impl std::fmt::Debug for TodoService {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TodoService")
            .field("profile", &self.profile)
            .finish_non_exhaustive()
    }
}
