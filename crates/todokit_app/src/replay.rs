//! Rebuilding a conversation from its transcript: a host that restarts in
//! the middle of a conversation replays the messages it already has and
//! resumes with the same list and the same reminder counters.
//!
//! Messages may be in the OpenAI chat shape (`tool_calls` on assistant
//! messages, `role: "tool"` results) or the Anthropic shape (`tool_use` and
//! `tool_result` content blocks). Todo calls are run again, in order,
//! through the profile's tools, so the list comes out exactly as the calls
//! made it (times aside: they take `now`).

use serde_json::Value;
use todokit_domain::{Timestamp, TodoState};

use crate::arguments::parse_arguments;
use crate::profile::Profile;
use crate::tool::CallContext;
use crate::turn::{CallRecord, TurnPolicy, open_set};

/// What a replay rebuilt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Replay {
    /// The list after every todo call in the transcript.
    pub state: TodoState,
    /// The reminder policy, counters as the transcript left them.
    pub policy: TurnPolicy,
}

/// Replays `messages` for `profile`, starting from an empty list, with
/// `policy` counting as the live loop would have.
pub fn replay(profile: &Profile, mut policy: TurnPolicy, messages: &[Value], now: Timestamp) -> Replay {
    let mut state = TodoState::new();
    for message in messages {
        let role = message.get("role").and_then(Value::as_str).unwrap_or_default();
        match role {
            "assistant" => {
                // The request that produced this message carried any pending
                // stale-list reminder.
                policy.before_request(&[]);
                let calls = tool_calls(message);
                if calls.is_empty() {
                    continue;
                }
                let mut round = Vec::new();
                for (name, args) in calls {
                    let is_error = match profile.find(&name) {
                        Some(_) => {
                            let ctx = CallContext::new(&state, now, profile.rules());
                            match profile.run(&name, &args, &ctx) {
                                Some(outcome) => {
                                    if let Some(mut next) = outcome.commit {
                                        next.version = state.version.saturating_add(1);
                                        state = next;
                                    }
                                    outcome.result.is_error
                                }
                                None => false,
                            }
                        }
                        None => false,
                    };
                    round.push(CallRecord::new(name, is_error));
                }
                policy.on_tool_results(&round, &state);
            }
            "user" => {
                let text = user_text(message);
                if let Some(k) = end_of_turn_reminder_number(&text) {
                    let mut counters = policy.counters().clone();
                    counters.end_of_turn_reminders = k;
                    counters.last_open_set = Some(open_set(&state));
                    policy = policy.with_counters(counters);
                } else if !text.trim().is_empty() && !text.contains("<system-reminder>") {
                    policy.on_user_prompt();
                }
            }
            _ => {}
        }
    }
    Replay { state, policy }
}

/// The (name, arguments) of every tool call in an assistant message.
fn tool_calls(message: &Value) -> Vec<(String, Value)> {
    let mut out = Vec::new();
    for call in message
        .get("tool_calls")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let function = call.get("function").unwrap_or(call);
        let name = function.get("name").and_then(Value::as_str).unwrap_or_default();
        let args = match function.get("arguments") {
            Some(Value::String(text)) => parse_arguments(text).unwrap_or(Value::String(text.clone())),
            Some(other) => other.clone(),
            None => Value::Null,
        };
        out.push((name.to_owned(), args));
    }
    for block in message
        .get("content")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        if block.get("type").and_then(Value::as_str) == Some("tool_use") {
            let name = block.get("name").and_then(Value::as_str).unwrap_or_default();
            out.push((
                name.to_owned(),
                block.get("input").cloned().unwrap_or(Value::Null),
            ));
        }
    }
    out
}

/// The text a user message carries (not its tool results).
fn user_text(message: &Value) -> String {
    match message.get("content") {
        Some(Value::String(text)) => text.clone(),
        Some(Value::Array(blocks)) => blocks
            .iter()
            .filter(|b| b.get("type").and_then(Value::as_str) == Some("text"))
            .filter_map(|b| b.get("text").and_then(Value::as_str))
            .collect::<Vec<_>>()
            .join("\n"),
        _ => String::new(),
    }
}

/// `k` when `text` is an end-of-turn reminder `(Reminder k/max)`.
fn end_of_turn_reminder_number(text: &str) -> Option<usize> {
    let start = text.rfind("(Reminder ")? + "(Reminder ".len();
    let rest = &text[start..];
    rest[..rest.find('/')?].parse().ok()
}
