//! `todokit_app`'s service restore with the dialects todokit ships (moved here with
//! the dialects: a mechanism's crate cannot name one).

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
