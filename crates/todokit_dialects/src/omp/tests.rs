//! `omp`'s `todo`, call by call, against oh-my-pi's.

use super::*;
use crate::test_support::{ProfileCase, snapshot_settings, verdict};
use pretty_assertions::assert_eq;
use serde_json::json;
use todokit_domain::Phase;

fn case() -> ProfileCase {
    ProfileCase::new(profile())
}

const INIT: &str = r#"{"op":"init","list":[{"phase":"Build","items":["Scaffold","Wire"]},{"phase":"Ship","items":["Tag","Publish"]}]}"#;

fn initialized() -> TodoState {
    case().call("todo", INIT).commit.unwrap_or_default()
}

fn after(state: &TodoState, args: &str) -> TodoState {
    case()
        .call_on(state, "todo", args)
        .commit
        .unwrap_or_else(|| state.clone())
}

fn statuses(state: &TodoState) -> Vec<(String, Status, Option<String>)> {
    state
        .tasks()
        .map(|t| (t.content.clone(), t.status, t.blocked_reason.clone()))
        .collect()
}

fn s(content: &str, status: Status) -> (String, Status, Option<String>) {
    (content.to_owned(), status, None)
}

// Golden facts from oh-my-pi (the npm package @oh-my-pi/pi-coding-agent 18.1.16, sha256
// cadfd9651a53537b3831ef925ec9b9eea4640d059f4cb9ec8fbb339eb864a49b,
// src/tools/todo.ts; first read in a copy of the repository at commit
// c13ef04b54fb89d4b794e96bf89fa0af74114294, equal but for one schema description, `execute`): "A batch with any
// error is discarded wholesale": the state and the summary stay at the
// previous list, `isError` is set and `details` carry the op and the
// previous phases without `completedTasks`.
#[test]
fn a_call_with_any_error_changes_nothing_and_shows_the_list_as_it_was() {
    let fixture = initialized();
    let outcome = case().call_on(
        &fixture,
        "todo",
        r#"{"op":"append","phase":"Ship","items":["Announce","Tag","Wire"]}"#,
    );
    let actual = (
        outcome.result.is_error,
        outcome.commit.is_some(),
        outcome.result.content.lines().next().map(str::to_owned),
        outcome.result.details.value()["op"].clone(),
        outcome.result.details.value()["phases"][1]["tasks"]
            .as_array()
            .map(Vec::len),
    );
    let expected = (
        true,
        false,
        Some("Errors: Task \"Tag\" already exists; Task \"Wire\" already exists".to_owned()),
        json!("append"),
        Some(2),
    );
    assert_eq!(actual, expected);
}

// Golden facts (same source): `normalizeInProgressTask` keeps the first
// in-progress task and otherwise starts the first pending one, never a
// blocked one; `block` leaves completed and abandoned tasks as they are
// and collapses whitespace in the reason; `unblock` returns blocked tasks
// to pending and drops the reason.
#[test]
fn block_unblock_and_the_single_task_in_progress() {
    let done_first = after(&initialized(), r#"{"op":"done","task":"Scaffold"}"#);
    let blocked = after(
        &done_first,
        r#"{"op":"block","phase":"Build","reason":"waits on\n  the schema"}"#,
    );
    let unblocked = after(&blocked, r#"{"op":"unblock","task":"Wire"}"#);
    let actual = [statuses(&done_first), statuses(&blocked), statuses(&unblocked)];
    let expected = [
        vec![
            s("Scaffold", Status::Completed),
            s("Wire", Status::InProgress),
            s("Tag", Status::Pending),
            s("Publish", Status::Pending),
        ],
        vec![
            s("Scaffold", Status::Completed),
            (
                "Wire".to_owned(),
                Status::Blocked,
                Some("waits on the schema".to_owned()),
            ),
            s("Tag", Status::InProgress),
            s("Publish", Status::Pending),
        ],
        vec![
            s("Scaffold", Status::Completed),
            s("Wire", Status::Pending),
            s("Tag", Status::InProgress),
            s("Publish", Status::Pending),
        ],
    ];
    assert_eq!(actual, expected);
}

// Golden facts (same source, `initPhases`): `items` without `list` is a
// one-phase init, named by `phase` or `Tasks`; `list` wins when both come.
#[test]
fn a_flat_init_is_one_phase() {
    let names = |args: &str| -> Vec<(String, usize)> {
        after(&TodoState::new(), args)
            .phases
            .iter()
            .map(|p| (p.name.clone(), p.tasks.len()))
            .collect()
    };
    let actual = [
        names(r#"{"op":"init","items":["a","b"]}"#),
        names(r#"{"op":"init","phase":"Fix","items":["a"]}"#),
        names(r#"{"op":"init","list":[{"phase":"L","items":["x"]}],"items":["a","b"]}"#),
    ];
    let expected = [
        vec![("Tasks".to_owned(), 2)],
        vec![("Fix".to_owned(), 1)],
        vec![("L".to_owned(), 1)],
    ];
    assert_eq!(actual, expected);
}

// Golden facts (same source, `inferTodoOp` and `resolveTodoParams`): a
// missing `op` is `init` for a non-empty `list`, `append` for non-empty
// `items` with a `phase`, and `init` for bare non-empty `items` while no
// phase exists; anything else is refused.
#[test]
fn a_missing_op_is_inferred_only_where_the_fields_leave_one_reading() {
    let case = case();
    let fixture = initialized();
    let appended = case.call_on(&fixture, "todo", r#"{"phase":"Ship","items":["Announce"]}"#);
    let actual = (
        ProfileCase::stored(&case.call("todo", r#"{"list":[{"phase":"P","items":["a"]}]}"#)),
        appended.result.details.value()["op"].clone(),
        ProfileCase::stored(&appended).map(|tasks| tasks.len()),
        ProfileCase::stored(&case.call("todo", r#"{"items":["a","b"]}"#)),
        case.problems_on(&fixture, "todo", r#"{"items":["a"]}"#),
        case.problems("todo", r#"{"task":"a"}"#),
    );
    let expected = (
        Some(vec![("a".to_owned(), Status::InProgress)]),
        json!("append"),
        Some(5),
        Some(vec![
            ("a".to_owned(), Status::InProgress),
            ("b".to_owned(), Status::Pending),
        ]),
        vec!["(arguments): missing `op`".to_owned()],
        vec!["(arguments): missing `op`".to_owned()],
    );
    assert_eq!(actual, expected);
}

// The mark `complete` leaves for a bare-items `init` is todokit's own: a
// model that sends it gets no refusal from it.
#[test]
fn a_model_cannot_set_the_bare_items_mark() {
    let case = case();
    let fixture = initialized();
    let args = r#"{"op":"init","items":["a"],"x-todokit-init-from-items":true}"#;
    let actual = ProfileCase::stored(&case.call_on(&fixture, "todo", args));
    let expected = Some(vec![("a".to_owned(), Status::InProgress)]);
    assert_eq!(actual, expected);
}

#[test]
fn view_reads_without_normalizing() {
    // Nothing in progress: any change would start `a`; a view does not.
    let fixture = TodoState::new().phases(vec![Phase::new("P").tasks(vec![Todo::new("a")])]);
    let outcome = case().call_on(&fixture, "todo", r#"{"op":"view"}"#);
    let actual = (outcome.commit, outcome.result.is_error, outcome.result.content);
    let expected = (
        None,
        false,
        "Remaining items (1):\n  - a [pending] (P)\nOverall: 0/1 done, 1 open.\nActive phase 1/1 \"P\" (0/1).\n  P:\n    - [ ] a"
            .to_owned(),
    );
    assert_eq!(actual, expected);
}

#[test]
fn texts_or_lists_beyond_the_limits_are_refused_whole_and_never_quoted_back() {
    let long = |n: usize| "x".repeat(n + 1);
    let limits = Limits::DEFAULT;
    let calls = [
        json!({"op": "block", "task": "Wire", "reason": long(limits.max_description_bytes)}),
        json!({"op": "start", "task": long(2_000_000)}),
        json!({"op": "append", "phase": "P", "items": vec!["a"; limits.max_items + 1]}),
        json!({"op": "append", "phase": long(limits.max_content_bytes), "items": ["a"]}),
    ];
    let actual: Vec<_> = calls
        .iter()
        .map(|args| {
            let outcome = case().call_on(&initialized(), "todo", &args.to_string());
            (outcome.result.content.len() < 1_000, verdict(outcome))
        })
        .collect();
    let refused = |problem: &str| (true, (true, vec![problem.to_owned()], None));
    let expected = vec![
        // A reason is no task: its refusal names its own cap only.
        refused("reason: 8193 bytes of UTF-8 were sent; at most 8192 bytes are allowed"),
        // Past 8 KiB the size gate refuses before the tool reads the task,
        // naming the task's own cap too.
        refused(
            "task: 2000001 bytes of UTF-8 were sent; at most 8192 bytes are allowed, and a task's text may have at \
             most 1024",
        ),
        refused(&format!(
            "items: {} items were sent; at most {} are allowed",
            limits.max_items + 1,
            limits.max_items
        )),
        refused("phase: 1025 bytes of UTF-8 were sent; at most 1024 bytes are allowed"),
    ];
    assert_eq!(actual, expected);
}

#[test]
fn a_change_to_nothing_writes_nothing() {
    let actual = case()
        .call_on(&initialized(), "todo", r#"{"op":"start","task":"Scaffold"}"#)
        .commit;
    assert_eq!(actual, None);
}

#[test]
fn view_is_a_reader_and_rm_and_append_are_not_idempotent() {
    let actual: Vec<(&str, bool, bool)> = <TodoOp as WireEnum>::SPELLINGS
        .iter()
        .map(|(word, op)| {
            let facts = TodoTool::metadata(*op);
            (*word, facts.read_only, facts.idempotent)
        })
        .collect();
    let expected = vec![
        ("init", false, true),
        ("start", false, true),
        ("done", false, true),
        ("rm", false, false),
        ("drop", false, true),
        ("block", false, true),
        ("unblock", false, true),
        ("append", false, false),
        ("view", true, true),
    ];
    assert_eq!(actual, expected);
}

#[test]
fn answers() {
    let case = case();
    let list = initialized();
    let working = after(
        &after(&list, r#"{"op":"done","task":"Scaffold"}"#),
        r#"{"op":"block","task":"Publish","reason":"release manager"}"#,
    );
    let cases = [
        ("init", case.call("todo", INIT).result),
        (
            "flat_init",
            case.call("todo", r#"{"op":"init","items":["Reproduce","Patch","Test"]}"#)
                .result,
        ),
        (
            "done",
            case.call_on(&list, "todo", r#"{"op":"done","task":"Scaffold"}"#)
                .result,
        ),
        (
            "worked_ahead",
            case.call_on(&working, "todo", r#"{"op":"done","task":"Tag"}"#)
                .result,
        ),
        (
            "block",
            case.call_on(&working, "todo", r#"{"op":"block","phase":"Build"}"#)
                .result,
        ),
        ("view", case.call_on(&working, "todo", r#"{"op":"view"}"#).result),
        ("view_empty", case.call("todo", r#"{"op":"view"}"#).result),
        ("rm_all", case.call_on(&list, "todo", r#"{"op":"rm"}"#).result),
        (
            "task_id",
            case.call_on(&list, "todo", r#"{"op":"start","task":"task-3"}"#)
                .result,
        ),
        (
            "duplicate_init",
            case.call_on(
                &list,
                "todo",
                r#"{"op":"init","list":[{"phase":"A","items":["x","x"]},{"phase":"A","items":["y"]}]}"#,
            )
            .result,
        ),
        (
            "block_without_target",
            case.call_on(&list, "todo", r#"{"op":"block","reason":"CI"}"#)
                .result,
        ),
        (
            "not_found_on_empty",
            case.call("todo", r#"{"op":"done","task":"Scaffold"}"#).result,
        ),
        (
            "unknown_op",
            case.call("todo", r#"{"op":"note","task":"Scaffold"}"#).result,
        ),
    ];
    snapshot_settings().bind(|| {
        for (name, result) in cases {
            insta::assert_snapshot!(format!("result__omp__{name}"), result.content);
            insta::assert_json_snapshot!(format!("details__omp__{name}"), result.details.value());
        }
    });
}
