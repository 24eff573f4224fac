//! Restoring a conversation from the host's own transcript, in one call:
//! [`TodoWriteService::restore`].
//!
//! A host that restarts (or never kept a store) still has its messages.
//! Replaying the todo calls in them rebuilds the list and the reminder
//! counters exactly as the live loop left them; the list is then stored,
//! so the next call continues from it.

use serde_json::{Value, json};

use super::error::ServiceError;
use super::todo_write_service::TodoWriteService;
use crate::replay::{Replay, replay};
use crate::turn::TurnPolicy;

impl TodoWriteService {
    /// Rebuilds `conversation` from `messages` (OpenAI chat messages with
    /// `tool_calls`, or Anthropic messages with `tool_use` blocks), stores
    /// the list in place of whatever the store held, and returns it with
    /// the policy's counters as the transcript left them.
    pub async fn restore(&self, conversation: &str, messages: &[Value]) -> Result<Replay, ServiceError> {
        let rebuilt = replay(
            self.profile(),
            TurnPolicy::new(self.profile()),
            messages,
            self.clock().now(),
        );
        let list = rebuilt.state.clone();
        self.transact(conversation, |_, _| {
            Ok::<_, ServiceError>((Some(list.clone()), ()))
        })
        .await?;
        let state = self.state(conversation).await?;
        Ok(Replay {
            state,
            policy: rebuilt.policy,
        })
    }

    /// [`TodoWriteService::restore`] from the todo calls alone, as
    /// `(tool name, argument text)` pairs in the order they ran (the list
    /// is rebuilt by running them again, so their results are not needed).
    pub async fn restore_calls(
        &self,
        conversation: &str,
        calls: &[(&str, &str)],
    ) -> Result<Replay, ServiceError> {
        let messages: Vec<Value> = calls
            .iter()
            .map(|(name, arguments)| {
                json!({"role": "assistant", "tool_calls": [{"function": {"name": name, "arguments": arguments}}]})
            })
            .collect();
        self.restore(conversation, &messages).await
    }
}
