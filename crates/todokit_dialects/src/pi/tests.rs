//! The `pi` profile's tool, checked against oh-my-pi's `todo_write`:
//! repository can1357/oh-my-pi at commit
//! 0eee5a40197560045d9390533dfa98b2fdb45076 (2026-05-30), read through the
//! copy yorha2B0826/oh-my-pi whose main line carries it, files
//! packages/coding-agent/src/tools/todo-write.ts and
//! packages/coding-agent/src/prompts/tools/todo-write.md.

use super::*;
use serde_json::json;

use crate::test_support::{NOW, run_tool, snapshot_settings, verdict};
use pretty_assertions::assert_eq;

fn call(state: &TodoState, args: &str) -> Outcome {
    run_tool(&profile(), TodoWrite::NAME, state, args)
}

const INIT: &str = r#"{"ops":[{"op":"init","list":[{"phase":"Build","items":["Scaffold","Wire"]},{"phase":"Ship","items":["Tag","Publish"]}]}]}"#;

fn initialized() -> TodoState {
    call(&TodoState::new(), INIT).commit.unwrap_or_default()
}

// Golden facts from oh-my-pi at 0eee5a4 (see the module docs), `formatSummary`: errors
// first; `Remaining items (n):` with `  - content [status] (phase)`, or
// `Remaining items: none.`; `Phase i/n "name" — d/t tasks complete` for
// the first phase with open work (else the last), `d` counting completed
// and abandoned tasks; then `  Phase:` and `    <glyph> content` with
// ` (+k note(s))`, and the in-progress task's notes indented 8 spaces,
// `        ---` between them. With no task left, the errors alone, or
// `Todo list cleared.`; `resolveTaskOrError` adds " (todo list is empty —
// was it replaced or not yet created?)" when the list has no task.
#[test]
fn the_summary_is_oh_my_pis_format_summary() {
    let state = TodoState::new().phases(vec![
        Phase::new("Build").tasks(vec![
            Todo::new("Scaffold").status(Status::Completed),
            Todo::new("Wire").status(Status::InProgress).notes(vec![
                "Trait first.\nThen the CLI.".to_owned(),
                "Ask about locks.".to_owned(),
            ]),
        ]),
        Phase::new("Ship").tasks(vec![
            Todo::new("Tag").status(Status::Abandoned),
            Todo::new("Publish")
                .status(Status::Completed)
                .notes(vec!["n".to_owned()]),
        ]),
    ]);
    let finished = TodoState::new().phases(vec![Phase::new("Ship").tasks(vec![
        Todo::new("Tag").status(Status::Abandoned),
        Todo::new("Publish").status(Status::Completed),
    ])]);
    let actual = [
        summary(&state, &[]),
        summary(&finished, &["Phase \"Docs\" not found".to_owned()]),
        call(&TodoState::new(), r#"{"ops":[{"op":"done","task":"Tag"}]}"#)
            .result
            .content,
        call(&initialized(), r#"{"ops":[{"op":"rm"}]}"#).result.content,
    ];
    let expected = [
        "Remaining items (1):\n  - Wire [in_progress] (Build)\nPhase 1/2 \"Build\" — 1/2 tasks complete\n  Build:\n    \
         ✓ Scaffold\n    → Wire (+2 notes)\n        Trait first.\n        Then the CLI.\n        ---\n        \
         Ask about locks.\n  Ship:\n    ✗ Tag\n    ✓ Publish (+1 note)"
            .to_owned(),
        "Errors: Phase \"Docs\" not found\nRemaining items: none.\nPhase 1/1 \"Ship\" — 2/2 tasks complete\n  Ship:\n    \
         ✗ Tag\n    ✓ Publish"
            .to_owned(),
        "Errors: Task \"Tag\" not found (todo list is empty — was it replaced or not yet created?)".to_owned(),
        "Todo list cleared.".to_owned(),
    ];
    assert_eq!(actual, expected);
}

#[test]
fn init_starts_the_first_task_and_says_so() {
    let outcome = call(&TodoState::new(), INIT);
    let actual = (
        outcome.result.is_error,
        outcome.result.content.lines().nth(1).map(str::to_owned),
    );
    let expected = (false, Some("  - Scaffold [in_progress] (Build)".to_owned()));
    assert_eq!(actual, expected);
}

#[test]
fn a_batch_with_a_failing_op_is_an_error_and_still_stores_the_rest() {
    let fixture = initialized();
    let outcome = call(
        &fixture,
        r#"{"ops":[{"op":"done","task":"Scaffold"},{"op":"start","task":"Nope"},{"op":"start","task":"Tag"},{"op":"note","task":"Tag","text":"v1.2"}]}"#,
    );
    let statuses = outcome.commit.map(|s| {
        s.tasks()
            .map(|t| (t.content.clone(), t.status))
            .collect::<Vec<_>>()
    });
    let actual = (
        outcome.result.is_error,
        outcome.result.details.value()["errors"].clone(),
        statuses,
    );
    let expected = (
        true,
        json!(["Task \"Nope\" not found"]),
        Some(vec![
            ("Scaffold".to_owned(), Status::Completed),
            ("Wire".to_owned(), Status::Pending),
            ("Tag".to_owned(), Status::InProgress),
            ("Publish".to_owned(), Status::Pending),
        ]),
    );
    assert_eq!(actual, expected);
}

// Golden facts from oh-my-pi at 0eee5a4, `appendItems`: the items are
// added in order and the first one already on the list stops the op
// (`return phases`, since b191e6c5ff): it is reported, the items after it
// are not added; the batch goes on with its next op.
#[test]
fn append_stops_at_the_first_task_already_on_the_list() {
    let outcome = call(
        &initialized(),
        r#"{"ops":[{"op":"append","phase":"Ship","items":["Announce","Tag","Celebrate"]},{"op":"done","task":"Scaffold"}]}"#,
    );
    let tasks = outcome.commit.map(|s| {
        s.tasks()
            .map(|t| (t.content.clone(), t.status))
            .collect::<Vec<_>>()
    });
    let actual = (
        outcome.result.is_error,
        outcome.result.details.value()["errors"].clone(),
        tasks,
    );
    let expected = (
        true,
        json!(["Task \"Tag\" already exists"]),
        Some(vec![
            ("Scaffold".to_owned(), Status::Completed),
            ("Wire".to_owned(), Status::InProgress),
            ("Tag".to_owned(), Status::Pending),
            ("Publish".to_owned(), Status::Pending),
            ("Announce".to_owned(), Status::Pending),
        ]),
    );
    assert_eq!(actual, expected);
}

// Golden facts from oh-my-pi at 0eee5a4, `resolveTaskOrError`: a task
// named like `task-3` (/^task-\d+$/) that is not on the list gets the hint
// that tasks are named by content, on a list with tasks and on an empty
// one alike; `execute` sets `isError: true` when any op failed and leaves
// it out otherwise.
#[test]
fn an_invented_task_id_is_answered_with_the_hint_on_content() {
    let named = call(&initialized(), r#"{"ops":[{"op":"start","task":"task-3"}]}"#);
    let empty = call(&TodoState::new(), r#"{"ops":[{"op":"done","task":"task-1"}]}"#);
    let fine = call(&initialized(), r#"{"ops":[{"op":"start","task":"Wire"}]}"#);
    let actual = [
        (
            named.result.is_error,
            named.result.content.lines().next().map(str::to_owned),
        ),
        (empty.result.is_error, Some(empty.result.content)),
        (fine.result.is_error, None),
    ];
    let hint =
        "Tasks are referenced by content, not by IDs — pass the task's full text from the previous result.";
    let expected = [
        (true, Some(format!("Errors: Task \"task-3\" not found. {hint}"))),
        (true, Some(format!("Errors: Task \"task-1\" not found. {hint}"))),
        (false, None),
    ];
    assert_eq!(actual, expected);
}

// Golden facts from oh-my-pi at 0eee5a4, `execute`: `details` is
// `{phases, storage}`, with `completedTasks` (`{phase, content}` of each
// task that went from another status to completed) only when there is one.
#[test]
fn completed_tasks_are_in_the_details_only_when_the_batch_completed_one() {
    let started = call(&initialized(), r#"{"ops":[{"op":"start","task":"Wire"}]}"#);
    let done = call(&initialized(), r#"{"ops":[{"op":"done","task":"Scaffold"}]}"#);
    let actual = (
        started.result.details.value().get("completedTasks").cloned(),
        done.result.details.value().get("completedTasks").cloned(),
    );
    let expected = (None, Some(json!([{"phase": "Build", "content": "Scaffold"}])));
    assert_eq!(actual, expected);
}

// Golden facts from oh-my-pi at 0eee5a4, the prompt
// (`prompts/tools/todo-write.md`): it opens by saying that tasks are named
// by their content and that there is no `task-1`/`task-N` id, and says that
// `init`, `start`, `done`, `drop`, `rm`, `append` and `note` are the only
// values of `op`, `pending` being a status and not an op. Our description
// says the same in its own words.
#[test]
fn the_description_says_tasks_have_no_ids_and_names_the_only_ops() {
    let description = TodoWrite::DESCRIPTION;
    let first = description.split("\n\n").next().unwrap_or_default();
    let actual = (
        first.contains("no ids") && first.contains("`task-1`"),
        description.contains(
            "`op` takes only `init`, `start`, `done`, `drop`, `rm`, `append` and `note`; `pending` is a status, not an op"
        ),
    );
    let expected = (true, true);
    assert_eq!(actual, expected);
}

#[test]
fn ops_needs_at_least_one_op() {
    let outcome = call(&TodoState::new(), r#"{"ops":[]}"#);
    let actual = (
        outcome.result.is_error,
        outcome.result.details.value()["error"]["problems"][0]["message"].clone(),
    );
    let expected = (true, json!("ops: needs at least 1 item, got 0"));
    assert_eq!(actual, expected);
}

#[test]
fn details_carry_phases_storage_and_completed_tasks() {
    let outcome = call(&initialized(), r#"{"ops":[{"op":"done","task":"Scaffold"}]}"#);
    let details = outcome.result.details.value();
    let actual = (
        details["storage"].clone(),
        details["completedTasks"].clone(),
        details["phases"][0]["tasks"][1].clone(),
    );
    let expected = (
        json!("session"),
        json!([{"content": "Scaffold", "phase": "Build"}]),
        json!({"content": "Wire", "status": "in_progress"}),
    );
    assert_eq!(actual, expected);
}

#[test]
fn a_batch_that_changes_nothing_writes_nothing() {
    let actual = call(&initialized(), r#"{"ops":[{"op":"start","task":"Scaffold"}]}"#).commit;
    let expected = None;
    assert_eq!(actual, expected);
}

#[test]
fn finished_tasks_clear_after_the_delay_on_the_profile_clock() {
    let fixture = call(&initialized(), r#"{"ops":[{"op":"done","task":"Scaffold"}]}"#)
        .commit
        .unwrap_or_default();
    let profile = profile();
    let actual = (
        profile.settle(&fixture, NOW + 59_999).tasks().count(),
        profile.settle(&fixture, NOW + 60_000).tasks().count(),
    );
    let expected = (4, 3);
    assert_eq!(actual, expected);
}

#[test]
fn a_batch_that_outgrows_the_limits_is_refused_whole() {
    let long = "x".repeat(Limits::DEFAULT.max_content_bytes + 1);
    let args = json!({"ops": [{"op": "append", "phase": "P", "items": ["ok", long]}]});
    let outcome = call(&initialized(), &args.to_string());
    let actual = verdict(outcome);
    let expected = (
        true,
        vec!["ops[0].items[1]: 1025 bytes of UTF-8 were sent; at most 1024 bytes are allowed".to_owned()],
        None,
    );
    assert_eq!(actual, expected);
}

#[test]
fn summaries() {
    let with_notes = call(
        &initialized(),
        r#"{"ops":[{"op":"done","task":"Scaffold"},{"op":"note","task":"Wire","text":"Store goes behind a trait.\nCLI next."},{"op":"note","task":"Wire","text":"Ask about the lock file."},{"op":"note","task":"Tag","text":"after CI"},{"op":"drop","task":"Publish"}]}"#,
    );
    let cases = [
        ("empty", call(&initialized(), r#"{"ops":[{"op":"rm"}]}"#).result),
        ("one_phase", call(&TodoState::new(), r#"{"ops":[{"op":"init","list":[{"phase":"Fix","items":["Reproduce","Patch","Test"]}]}]}"#).result),
        ("phases_with_notes", with_notes.result),
        ("error_batch", call(&initialized(), r#"{"ops":[{"op":"init"},{"op":"done","task":""},{"op":"append","phase":"Ship","items":["Tag","Announce"]},{"op":"note","task":"Wire"},{"op":"rm","phase":"Docs"}]}"#).result),
        ("all_done", call(&initialized(), r#"{"ops":[{"op":"done"}]}"#).result),
    ];
    snapshot_settings().bind(|| {
        for (name, result) in cases {
            insta::assert_snapshot!(format!("result__pi__{name}"), result.content);
            insta::assert_json_snapshot!(format!("details__pi__{name}"), result.details.value());
        }
    });
}

#[test]
fn the_preview_caps_each_phase() {
    let items: Vec<String> = (1..=11).map(|i| format!("Step {i}")).collect();
    let args = json!({"ops": [{"op": "init", "list": [{"phase": "Long", "items": items}, {"phase": "Short", "items": ["Only"]}]}]});
    let state = call(&TodoState::new(), &args.to_string())
        .commit
        .unwrap_or_default();
    snapshot_settings().bind(|| insta::assert_snapshot!("preview__pi", preview(&state)));
}
