use super::*;

use crate::test_support::{ProfileCase, problem_messages, run_session};
use pretty_assertions::assert_eq;

fn case() -> ProfileCase {
    ProfileCase::new(profile())
}

// Golden facts from Augment Code's tool declarations, captured in 2025:
// "Augment Code/claude-4-sonnet-tools.json" in the
// system-prompts-and-models-of-ai-tools collection (x1xhlol's, at commit
// 62ab327703fc0a9967a0aa74b5f444bd7653c01d, first read in a copy at
// 0ef2a40f9c9a5c3b556b44a8dac258820784e60c; gpt-5-tools.json there has the
// same four tools):
// - `view_tasklist {}`; `add_tasks {tasks: [{name, description, state?,
//   parent_task_id?, after_task_id?}]}`; `update_tasks {tasks: [{task_id,
//   state?, name?, description?}]}`; `reorganize_tasklist {markdown}`, "in
//   the format specified by the view_tasklist tool. New tasks should have a
//   UUID of 'NEW_UUID'. Must contain exactly one root task with proper
//   hierarchy using dash indentation".
// - States NOT_STARTED [ ], IN_PROGRESS [/], CANCELLED [-], COMPLETE [x]
//   ("Augment Code/claude-4-sonnet-agent-prompts.txt").
// - The lines themselves, as users' exports of `view_tasklist` show them:
//   `[ ] UUID:… NAME:Current Task List DESCRIPTION:Root task for
//   conversation __NEW_AGENT__`, then `-[x] UUID:… NAME:… DESCRIPTION:…`,
//   one more dash per level.
// And from Auggie 0.36.0 (npm `@augmentcode/auggie`, `augment.mjs`, sha256
// 4fef6ddb…e8f5ab): `view_tasklist` answers `# Current Task List`, the
// list and the reminder (`formatTaskListViewResponse`); the writers
// `Task list updated successfully. Created: N, Updated: N, Deleted: N.`
// then `# Task Changes` with `## Created Tasks`, `## Updated Tasks` and
// `## Deleted Tasks` sections of flat lines (`formatBulkUpdateResponse`
// over `X$`, which counts a task as updated when its name, description,
// state or subtasks changed, the root included); `add_tasks` and
// `update_tasks` with no task answer `tasks array is required and must
// not be empty.`
#[test]
fn tasks_added_under_and_after_others_show_as_augments_tree() {
    let (state, results) = run_session(
        &profile(),
        &[
            (
                "add_tasks",
                r#"{"tasks":[{"name":"Fix login","description":"Users cannot log in","state":"IN_PROGRESS"},{"name":"Ship","description":""}]}"#,
            ),
            ("view_tasklist", "{}"),
        ],
    );
    let first = state
        .tasks()
        .next()
        .and_then(|t| t.id.clone())
        .unwrap_or_default();
    let args = format!(
        r#"{{"tasks":[{{"name":"Find the cause","description":"Read the logs","parent_task_id":"{first}"}},{{"name":"Write a test","description":"","after_task_id":"{first}"}}]}}"#
    );
    let outcome = case().call_on(&state, "add_tasks", &args);
    let after = outcome.commit.clone().unwrap_or_default();
    let ids: Vec<String> = after.tasks().map(|t| t.id.clone().unwrap_or_default()).collect();
    let actual = (results[1].content.clone(), outcome.result.content);
    let root = "[ ] UUID:root NAME:Current Task List DESCRIPTION:Root task for conversation __NEW_AGENT__";
    let expected = (
        format!(
            "# Current Task List\n\n{root}\n\
             -[/] UUID:{} NAME:Fix login DESCRIPTION:Users cannot log in\n-[ ] UUID:{} NAME:Ship DESCRIPTION:\n\n{}",
            ids[0],
            ids[3],
            answers::REMINDER
        ),
        format!(
            "Task list updated successfully. Created: 2, Updated: 2, Deleted: 0.\n\n# Task Changes\n\n\
             ## Created Tasks\n\n[ ] UUID:{} NAME:Find the cause DESCRIPTION:Read the logs\n\
             [ ] UUID:{} NAME:Write a test DESCRIPTION:\n\n\
             ## Updated Tasks\n\n{root}\n[/] UUID:{} NAME:Fix login DESCRIPTION:Users cannot log in\n",
            ids[1], ids[2], ids[0]
        ),
    );
    assert_eq!(actual, expected);
}

#[test]
fn update_tasks_changes_named_tasks_and_refuses_unknown_ones() {
    let written = case().call("add_tasks", r#"{"tasks":[{"name":"Read","description":"d"}]}"#);
    let state = written.commit.unwrap_or_default();
    let id = state
        .tasks()
        .next()
        .and_then(|t| t.id.clone())
        .unwrap_or_default();
    let updated = case().call_on(
        &state,
        "update_tasks",
        &format!(r#"{{"tasks":[{{"task_id":"{id}","state":"COMPLETE","name":"Read it"}}]}}"#),
    );
    let unknown = case().call_on(
        &state,
        "update_tasks",
        r#"{"tasks":[{"task_id":"nope","state":"COMPLETE"}]}"#,
    );
    let root = case().call_on(
        &state,
        "update_tasks",
        r#"{"tasks":[{"task_id":"root","state":"COMPLETE"}]}"#,
    );
    let stored = updated.commit.map(|s| {
        s.tasks()
            .map(|t| (t.content.clone(), t.status))
            .collect::<Vec<_>>()
    });
    let actual = (
        stored,
        (unknown.commit.is_some(), problem_messages(&unknown)),
        (root.commit.is_some(), problem_messages(&root)),
    );
    let expected = (
        Some(vec![("Read it".to_owned(), Status::Completed)]),
        (
            false,
            vec!["tasks[0].task_id: no task has the UUID nope".to_owned()],
        ),
        (
            false,
            vec!["tasks[0].task_id: the root task is the list itself and cannot be changed".to_owned()],
        ),
    );
    assert_eq!(actual, expected);
}

#[test]
fn reorganize_rebuilds_the_tree_keeps_known_uuids_and_drops_what_is_left_out() {
    let written = case().call(
        "add_tasks",
        r#"{"tasks":[{"name":"A","description":"first"},{"name":"B","description":"second"},{"name":"C","description":"third"}]}"#,
    );
    let state = written.commit.unwrap_or_default();
    let ids: Vec<String> = state.tasks().map(|t| t.id.clone().unwrap_or_default()).collect();
    let markdown = format!(
        "[ ] UUID:root NAME:Current Task List DESCRIPTION:Root task for conversation __NEW_AGENT__\n\
         -[/] UUID:{} NAME:B DESCRIPTION:second\n--[x] UUID:{} NAME:A renamed DESCRIPTION:first\n\
         --[ ] UUID:NEW_UUID NAME:New\nDESCRIPTION:on its own line",
        ids[1], ids[0]
    );
    let outcome = case().call_on(
        &state,
        "reorganize_tasklist",
        &serde_json::json!({ "markdown": markdown }).to_string(),
    );
    let after = outcome.commit.unwrap_or_default();
    let actual: Vec<(String, Status, Option<String>, Option<String>)> = after
        .tasks()
        .map(|t| {
            (
                t.content.clone(),
                t.status,
                t.parent.clone(),
                t.description.clone(),
            )
        })
        .collect();
    let expected = vec![
        (
            "B".to_owned(),
            Status::InProgress,
            None,
            Some("second".to_owned()),
        ),
        (
            "A renamed".to_owned(),
            Status::Completed,
            Some(ids[1].clone()),
            Some("first".to_owned()),
        ),
        (
            "New".to_owned(),
            Status::Pending,
            Some(ids[1].clone()),
            Some("on its own line".to_owned()),
        ),
    ];
    assert_eq!(
        (
            actual,
            after.find(&ids[0]).is_some(),
            after.find(&ids[2]).is_some()
        ),
        (expected, true, false)
    );
}

#[test]
fn markdown_without_exactly_one_root_or_with_a_bad_line_is_refused() {
    let fixture = [
        "-[ ] UUID:NEW_UUID NAME:a DESCRIPTION:b",
        "[ ] NAME:root DESCRIPTION:r\n[ ] NAME:other DESCRIPTION:r",
        "[ ] NAME:root DESCRIPTION:r\n--[ ] NAME:too deep DESCRIPTION:x",
        "[ ] NAME:root DESCRIPTION:r\n-[?] NAME:odd DESCRIPTION:x",
        "[ ] NAME:root DESCRIPTION:r\n-just text",
        "",
    ];
    let actual: Vec<Vec<String>> = fixture
        .iter()
        .map(|markdown| {
            let args = serde_json::json!({ "markdown": markdown }).to_string();
            problem_messages(&case().call("reorganize_tasklist", &args))
        })
        .collect();
    let expected: Vec<Vec<String>> = [
        "line 1: the first line must be the root task, with no leading dash",
        "line 2: the markdown must have exactly one root task (the only line with no leading dash)",
        "line 2: a task may sit at most one level deeper than the line above it",
        "line 2: unknown state `[?]`; use [ ], [/], [-] or [x]",
        "line 2: expected `-[ ] UUID:<uuid> NAME:<name> DESCRIPTION:<description>`",
        "the markdown must have exactly one root task; it has none",
    ]
    .iter()
    .map(|m| vec![format!("markdown: {m}")])
    .collect();
    assert_eq!(actual, expected);
}

#[test]
fn tasks_another_profile_wrote_get_uuids_a_read_shows_and_the_next_write_keeps() {
    let other = TodoState::flat(vec![Todo::new("Read").status(Status::Blocked)]);
    let read = case().call_on(&other, "view_tasklist", "{}");
    let shown = read.result.content.clone();
    let uuid = shown
        .split("UUID:")
        .nth(2)
        .and_then(|s| s.split(' ').next())
        .unwrap_or_default()
        .to_owned();
    let updated = case().call_on(
        &other,
        "update_tasks",
        &format!(r#"{{"tasks":[{{"task_id":"{uuid}","state":"IN_PROGRESS"}}]}}"#),
    );
    let stored = updated
        .commit
        .map(|s| s.tasks().map(|t| (t.id.clone(), t.status)).collect::<Vec<_>>());
    let actual = (
        shown.contains(&format!("-[ ] UUID:{uuid} NAME:Read DESCRIPTION:\n\nREMINDER:")),
        uuid.len(),
        stored,
    );
    let expected = (true, 16, Some(vec![(Some(uuid.clone()), Status::InProgress)]));
    assert_eq!(actual, expected);
}

#[test]
fn a_write_with_no_task_is_refused_in_augments_words() {
    let actual: Vec<Vec<String>> = ["add_tasks", "update_tasks"]
        .iter()
        .map(|tool| case().problems(tool, r#"{"tasks":[]}"#))
        .collect();
    let expected = vec![vec![format!("tasks: {}", tools::EMPTY_TASKS)]; 2];
    assert_eq!(actual, expected);
}

#[test]
fn a_state_change_counts_the_task_updated_and_a_removal_deleted() {
    let (state, _) = run_session(
        &profile(),
        &[(
            "add_tasks",
            r#"{"tasks":[{"name":"A","description":"a"},{"name":"B","description":"b"}]}"#,
        )],
    );
    let ids: Vec<String> = state.tasks().map(|t| t.id.clone().unwrap_or_default()).collect();
    let updated = case().call_on(
        &state,
        "update_tasks",
        &format!(r#"{{"tasks":[{{"task_id":"{}","state":"COMPLETE"}}]}}"#, ids[0]),
    );
    let reorganized = case().call_on(
        &state,
        "reorganize_tasklist",
        &format!(
            "{{\"markdown\":\"[ ] UUID:root NAME:Current Task List DESCRIPTION:Root task for conversation __NEW_AGENT__\\n-[ ] UUID:{} NAME:A DESCRIPTION:a\"}}",
            ids[0]
        ),
    );
    let root = "[ ] UUID:root NAME:Current Task List DESCRIPTION:Root task for conversation __NEW_AGENT__";
    let actual = (updated.result.content, reorganized.result.content);
    let expected = (
        format!(
            "Task list updated successfully. Created: 0, Updated: 1, Deleted: 0.\n\n# Task Changes\n\n\
             ## Updated Tasks\n\n[x] UUID:{} NAME:A DESCRIPTION:a\n",
            ids[0]
        ),
        format!(
            "Task list updated successfully. Created: 0, Updated: 1, Deleted: 1.\n\n# Task Changes\n\n\
             ## Updated Tasks\n\n{root}\n\n## Deleted Tasks\n\n[ ] UUID:{} NAME:B DESCRIPTION:b\n",
            ids[1]
        ),
    );
    assert_eq!(actual, expected);
}
