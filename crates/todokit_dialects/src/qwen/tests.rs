//! Qwen Code's `todo_write`, checked against its published package.

use super::*;

use crate::test_support::{refusals, run_tool};
use pretty_assertions::assert_eq;

fn call(state: &TodoState, args: &str) -> Outcome {
    run_tool(&profile(), QwenTodoWrite::NAME, state, args)
}

fn stored(outcome: &Outcome) -> Option<Vec<(String, Status, Vec<String>)>> {
    outcome.commit.as_ref().map(|s| {
        s.tasks()
            .map(|t| (t.id.clone().unwrap_or_default(), t.status, t.blocked_by.clone()))
            .collect()
    })
}

// Golden facts from Qwen Code: the npm package @qwen-code/qwen-code 0.24.4
// (sha256 7840ff5c70010be9bd7c903d1ec0893893f5429fde5b4e8a189f61450269d8f4),
// chunks/todoWrite-QTSCFAI3.js, bundled from
// packages/core/src/tools/todoWrite.ts:
// - `validateToolParams` is `validateTodos`, which replaces the schema
//   check: `todos` an array; each item an object with a non-empty (after
//   `trim`) string `id` of at most 500 characters, a non-empty `content`,
//   a status among the three, and a `blockedBy`, when present, that is an
//   array of non-empty ids of at most 500 characters; ids unique; per item
//   no repeated, self or unknown dependency; no cycle. The first failure's
//   message is the refusal.
// - `execute`: while the stored list has an item not completed, an item
//   sent without `blockedBy` takes its stored dependencies that are among
//   the ids sent (dropped again if that makes a cycle); a list equal to the
//   stored one answers `Todo list is already up to date. No changes were
//   needed.` with its reminder; an empty list answers `Todo list has been
//   cleared.`; any other the nudge (no final period), a blank line and a
//   `<system-reminder>` holding `JSON.stringify` of the list written.
#[test]
fn the_answer_repeats_the_list_as_written_inside_a_reminder() {
    let outcome = call(
        &TodoState::new(),
        r#"{"todos":[{"status":"in_progress","content":"Read \"a\"","id":"r"},{"id":"2","content":"Fix","status":"pending","blockedBy":["r"]}]}"#,
    );
    let actual = (outcome.result.content.clone(), stored(&outcome));
    let expected = (
        "Todos have been modified successfully. Ensure that you continue to use the todo list to track your \
         progress. Please proceed with the current tasks if applicable\n\n<system-reminder>\nYour todo list has \
         changed. DO NOT mention this explicitly to the user. Here are the latest contents of your todo \
         list:\n\n[{\"status\":\"in_progress\",\"content\":\"Read \\\"a\\\"\",\"id\":\"r\"},{\"id\":\"2\",\
         \"content\":\"Fix\",\"status\":\"pending\",\"blockedBy\":[\"r\"]}]. Continue on with the tasks at hand if \
         applicable.\n</system-reminder>"
            .to_owned(),
        Some(vec![
            ("r".to_owned(), Status::InProgress, vec![]),
            ("2".to_owned(), Status::Pending, vec!["r".to_owned()]),
        ]),
    );
    assert_eq!(actual, expected);
}

#[test]
fn an_open_plan_keeps_the_dependencies_an_item_sent_without_them_had() {
    let first = call(
        &TodoState::new(),
        r#"{"todos":[{"id":"1","content":"Read","status":"in_progress"},{"id":"2","content":"Fix","status":"pending","blockedBy":["1"]},{"id":"3","content":"Ship","status":"pending","blockedBy":["1","2"]}]}"#,
    );
    let before = first.commit.unwrap_or_default();
    // "2" keeps its dependency; "3" keeps only the one still sent; "1"
    // clears nothing it never had.
    let kept = call(
        &before,
        r#"{"todos":[{"id":"1","content":"Read","status":"completed"},{"id":"2","content":"Fix","status":"in_progress"},{"id":"3","content":"Ship","status":"pending"}]}"#,
    );
    let dropped = call(
        &before,
        r#"{"todos":[{"id":"2","content":"Fix","status":"in_progress","blockedBy":[]},{"id":"3","content":"Ship","status":"pending"}]}"#,
    );
    let actual = (
        stored(&kept),
        stored(&dropped),
        kept.result
            .content
            .contains(r#"{"id":"2","content":"Fix","status":"in_progress","blockedBy":["1"]}"#),
    );
    let expected = (
        Some(vec![
            ("1".to_owned(), Status::Completed, vec![]),
            ("2".to_owned(), Status::InProgress, vec!["1".to_owned()]),
            (
                "3".to_owned(),
                Status::Pending,
                vec!["1".to_owned(), "2".to_owned()],
            ),
        ]),
        Some(vec![
            ("2".to_owned(), Status::InProgress, vec![]),
            ("3".to_owned(), Status::Pending, vec!["2".to_owned()]),
        ]),
        true,
    );
    assert_eq!(actual, expected);
}

#[test]
fn kept_dependencies_that_would_close_a_cycle_are_dropped_again() {
    let before = call(
        &TodoState::new(),
        r#"{"todos":[{"id":"a","content":"A","status":"pending"},{"id":"b","content":"B","status":"pending","blockedBy":["a"]}]}"#,
    )
    .commit
    .unwrap_or_default();
    // "a" now waits for "b"; "b" sent without its dependency would keep
    // "a" and close a loop, so the list stays as sent.
    let outcome = call(
        &before,
        r#"{"todos":[{"id":"a","content":"A","status":"pending","blockedBy":["b"]},{"id":"b","content":"B","status":"pending"}]}"#,
    );
    let actual = stored(&outcome);
    let expected = Some(vec![
        ("a".to_owned(), Status::Pending, vec!["b".to_owned()]),
        ("b".to_owned(), Status::Pending, vec![]),
    ]);
    assert_eq!(actual, expected);
}

#[test]
fn a_list_sent_as_stored_is_already_up_to_date() {
    let args = r#"{"todos":[{"id":"1","content":"Read","status":"in_progress"}]}"#;
    let before = call(&TodoState::new(), args).commit.unwrap_or_default();
    let actual = (
        call(&before, args).result.content,
        call(&TodoState::new(), r#"{"todos":[]}"#).result.content,
    );
    let expected = (UNCHANGED.to_owned(), UNCHANGED.to_owned());
    assert_eq!(actual, expected);
}

#[test]
fn an_empty_list_clears_it_in_qwens_words() {
    let before = TodoState::flat(vec![Todo::new("Read")]);
    let outcome = call(&before, r#"{"todos":[]}"#);
    let actual = (outcome.result.content, outcome.commit.map(|s| s.is_empty()));
    let expected = (CLEARED.to_owned(), Some(true));
    assert_eq!(actual, expected);
}

#[test]
fn each_broken_list_is_refused_with_qwens_first_complaint_and_nothing_is_stored() {
    let long = "x".repeat(MAX_ID_UNITS + 1);
    let too_long_id = format!(r#"{{"todos":[{{"id":"{long}","content":"a","status":"pending"}}]}}"#);
    let too_long_dependency =
        format!(r#"{{"todos":[{{"id":"1","content":"a","status":"pending","blockedBy":["{long}"]}}]}}"#);
    let fixture = [
        r#"{"todos":"none"}"#,
        r#"{}"#,
        r#"{"todos":[{"id":" ","content":"a","status":"pending"}]}"#,
        r#"{"todos":[{"id":7,"content":"a","status":"pending"}]}"#,
        too_long_id.as_str(),
        r#"{"todos":["a"]}"#,
        r#"{"todos":[{"id":"1","content":"\ufeff","status":"pending"}]}"#,
        r#"{"todos":[{"id":"1","content":"a","status":"done"}]}"#,
        r#"{"todos":[{"id":"1","content":"a","status":"pending","blockedBy":[" "]}]}"#,
        too_long_dependency.as_str(),
        r#"{"todos":[{"id":"1","content":"a","status":"pending"},{"id":"1","content":"b","status":"pending"}]}"#,
        r#"{"todos":[{"id":"1","content":"a","status":"pending"},{"id":"2","content":"b","status":"pending","blockedBy":["1","1"]}]}"#,
        r#"{"todos":[{"id":"1","content":"a","status":"pending","blockedBy":["1"]}]}"#,
        r#"{"todos":[{"id":"1","content":"a","status":"pending","blockedBy":["9"]}]}"#,
        r#"{"todos":[{"id":"1","content":"a","status":"pending","blockedBy":["2"]},{"id":"2","content":"b","status":"pending","blockedBy":["1"]}]}"#,
    ];
    let actual = refusals(&profile(), QwenTodoWrite::NAME, &fixture);
    let refusal = |message: &str| (false, vec![format!("todos: {message}")]);
    let expected = vec![
        refusal(NOT_AN_ARRAY),
        refusal(NOT_AN_ARRAY),
        refusal(NO_ID),
        refusal(NO_ID),
        refusal(NO_ID),
        refusal(NOT_AN_OBJECT),
        refusal(NO_CONTENT),
        refusal(BAD_STATUS),
        refusal(BAD_BLOCKED_BY),
        refusal(BAD_BLOCKED_BY),
        refusal(DUPLICATE_IDS),
        refusal("Todo \"2\" must not contain duplicate blockedBy references."),
        refusal("Todo \"1\" must not depend on itself."),
        refusal("Todo \"1\" references unknown dependency \"9\"."),
        refusal(CYCLE),
    ];
    assert_eq!(actual, expected);
}

#[test]
fn fields_qwen_does_not_check_are_kept_in_the_echo_and_ids_are_stored() {
    let outcome = call(
        &TodoState::new(),
        r#"{"todos":[{"id":"a1","content":"Read","status":"completed","note":"x"}]}"#,
    );
    let actual = (outcome.result.content.contains(r#""note":"x""#), stored(&outcome));
    let expected = (true, Some(vec![("a1".to_owned(), Status::Completed, vec![])]));
    assert_eq!(actual, expected);
}

#[test]
fn javascript_white_space_decides_what_is_blank() {
    let fixture = ["\u{feff}", " \t\u{3000}", "\u{85}", "a"];
    let actual: Vec<bool> = fixture.iter().map(|t| checks::is_filled(t)).collect();
    let expected = vec![false, false, true, true];
    assert_eq!(actual, expected);
}
