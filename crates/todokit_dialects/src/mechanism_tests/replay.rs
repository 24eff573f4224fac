//! `todokit_app`'s replay with the dialects todokit ships (moved here with
//! the dialects: a mechanism's crate cannot name one).

use pretty_assertions::assert_eq;
use serde_json::{Value, json};
use todokit_app::turn::{Enforcement, TurnConfig, TurnEnd};
use todokit_app::*;
use todokit_domain::Status;

fn claude() -> Profile {
    crate::by_name("claude-code").expect("registered")
}

fn strict(profile: &Profile) -> TurnPolicy {
    TurnPolicy::with_config(
        profile,
        TurnConfig::for_profile(profile).end_of_turn(Enforcement::Strict),
    )
}

const PLAN: &str = r#"{"todos":[{"content":"Read","status":"completed","activeForm":"Reading"},{"content":"Fix","status":"in_progress","activeForm":"Fixing"}]}"#;

#[test]
fn openai_messages_rebuild_the_list_and_the_counters() {
    let profile = claude();
    let messages = vec![
        json!({"role": "user", "content": "Fix the bug"}),
        json!({"role": "assistant", "tool_calls": [{"id": "1", "type": "function", "function": {"name": "TodoWrite", "arguments": PLAN}}]}),
        json!({"role": "tool", "tool_call_id": "1", "content": "ok"}),
        json!({"role": "assistant", "tool_calls": [{"id": "2", "type": "function", "function": {"name": "bash", "arguments": "{}"}}]}),
        json!({"role": "tool", "tool_call_id": "2", "content": "..."}),
        json!({"role": "assistant", "content": "Done, I think."}),
        json!({"role": "user", "content": "<system-reminder>\n1 todo item is still open\n(Reminder 1/3)\n</system-reminder>"}),
    ];
    let replayed = replay(&profile, strict(&profile), &messages, 5);
    let actual = (
        replayed
            .state
            .tasks()
            .map(|t| (t.content.clone(), t.status))
            .collect::<Vec<_>>(),
        replayed.state.version,
        replayed.policy.counters().rounds_since_todo,
        replayed.policy.counters().end_of_turn_reminders,
    );
    let expected = (
        vec![
            ("Read".to_owned(), Status::Completed),
            ("Fix".to_owned(), Status::InProgress),
        ],
        1,
        1,
        1,
    );
    assert_eq!(actual, expected);
}

#[test]
fn a_replayed_policy_continues_exactly_where_the_live_one_was() {
    let profile = claude();
    let messages = vec![
        json!({"role": "user", "content": [{"type": "text", "text": "Fix the bug"}]}),
        json!({"role": "assistant", "content": [{"type": "tool_use", "id": "a", "name": "TodoWrite", "input": serde_json::from_str::<Value>(PLAN).unwrap()}]}),
        json!({"role": "user", "content": [{"type": "tool_result", "tool_use_id": "a", "content": "ok"}]}),
        json!({"role": "assistant", "content": [{"type": "text", "text": "Stopping."}]}),
        json!({"role": "user", "content": [{"type": "text", "text": "<system-reminder>\n...\n(Reminder 1/3)\n</system-reminder>"}]}),
    ];
    let mut replayed = replay(&profile, strict(&profile), &messages, 5);
    // Same open set as at the reminder: the live policy would not repeat itself.
    let actual = matches!(
        replayed.policy.on_turn_end(&replayed.state),
        TurnEnd::EndWithWarning(_)
    );
    assert!(actual);
}

#[test]
fn a_failed_todo_call_leaves_the_stale_flag_until_the_next_request() {
    let profile = crate::by_name("pi").expect("registered");
    let messages = vec![
        json!({"role": "user", "content": "Go"}),
        json!({"role": "assistant", "tool_calls": [{"id": "1", "function": {"name": "todo_write", "arguments": "{\"ops\":[{\"op\":\"start\",\"task\":\"x\"}]}"}}]}),
    ];
    let replayed = replay(&profile, TurnPolicy::new(&profile), &messages, 5);
    let actual = replayed.policy.counters().stale_tool.clone();
    let expected = Some("todo_write".to_owned());
    assert_eq!(actual, expected);
}
