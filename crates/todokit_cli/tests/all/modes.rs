//! The host's mode through the real binary: `call --mode plan` answers a
//! tool its original refuses in plan mode with that refusal, stores
//! nothing, and leaves the other profiles' tools callable.

use pretty_assertions::assert_eq;
use serde_json::{Value, json};

use crate::support::cli::{json_of, run, todokit};

const PLAN: &str = r#"{"plan":[{"step":"Run the tests","status":"in_progress"}]}"#;

/// `call` of `tool` on `profile` in `mode`, and the stored list's version after it.
fn call_in(store: &std::path::Path, profile: &str, mode: &str, tool: &str, args: &str) -> (Value, Value) {
    let call = run(todokit(store).args(["--profile", profile, "call", "--mode", mode, tool, args]));
    let show = run(todokit(store).args(["--profile", profile, "show", "--format", "json"]));
    let result = json_of(&call);
    (
        json!([call.status.code(), result["is_error"], result["content"]]),
        json_of(&show)["version"].clone(),
    )
}

#[test]
fn plan_mode_refuses_update_plan_and_stores_nothing_while_todowrite_still_runs() {
    let codex = tempfile::tempdir().unwrap();
    let nexo = tempfile::tempdir().unwrap();
    let todo = r#"{"todos":[{"content":"Read","status":"in_progress","activeForm":"Reading"}]}"#;
    let actual = (
        call_in(codex.path(), "codex", "plan", "update_plan", PLAN),
        call_in(codex.path(), "codex", "plan", "update_plan", "{broken"),
        call_in(codex.path(), "codex", "default", "update_plan", PLAN),
        call_in(nexo.path(), "nexo", "plan", "TodoWrite", todo)
            .0
            .get(1)
            .cloned(),
    );
    let refusal = "update_plan is a TODO/checklist tool and is not allowed in Plan mode";
    let expected = (
        (json!([0, true, refusal]), json!(0)),
        (json!([0, true, refusal]), json!(0)),
        (json!([0, false, "Plan updated"]), json!(1)),
        Some(json!(false)),
    );
    assert_eq!(actual, expected);
}

#[test]
fn an_unknown_mode_is_a_usage_error() {
    let store = tempfile::tempdir().unwrap();
    let call = run(todokit(store.path()).args([
        "--profile",
        "codex",
        "call",
        "--mode",
        "planning",
        "update_plan",
        PLAN,
    ]));
    let actual = (
        call.status.code(),
        String::from_utf8_lossy(&call.stderr).contains("planning"),
    );
    let expected = (Some(2), true);
    assert_eq!(actual, expected);
}
