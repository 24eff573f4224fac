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

#[cfg(test)]
mod tests {
    use crate::test_support::{block_on, memory_service};
    use pretty_assertions::assert_eq;
    use serde_json::json;

    #[test]
    fn a_transcript_restores_and_stores_the_list_and_the_next_call_continues_from_it() {
        let service = memory_service("claude-code");
        let first = r#"{"todos":[{"content":"a","status":"in_progress","activeForm":"A"}]}"#;
        let second = r#"{"todos":[{"content":"a","status":"completed","activeForm":"A"},{"content":"b","status":"in_progress","activeForm":"B"}]}"#;
        let anthropic = vec![
            json!({"role": "user", "content": "do it"}),
            json!({"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "TodoWrite", "input": serde_json::from_str::<serde_json::Value>(first).unwrap_or_default()}]}),
        ];
        let from_messages = block_on(service.restore("m", &anthropic)).map(|r| r.state.tasks().count());
        let from_calls = block_on(service.restore_calls("c", &[("TodoWrite", first), ("TodoWrite", second)]))
            .map(|r| {
                (
                    r.state.version,
                    r.state.tasks().map(|t| t.content.clone()).collect::<Vec<_>>(),
                )
            });
        let next = block_on(service.call("c", "TodoWrite", second)).map(|r| r.is_error);
        let stored = block_on(service.state("c")).map(|s| s.version);
        let actual = (from_messages.ok(), from_calls.ok(), next.ok(), stored.ok());
        let expected = (
            Some(1),
            Some((1, vec!["a".to_owned(), "b".to_owned()])),
            Some(false),
            Some(2),
        );
        assert_eq!(actual, expected);
    }
}
