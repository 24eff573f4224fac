use super::*;
use crate::test_support::{run_session, run_tool, snapshot_settings};
use pretty_assertions::assert_eq;
use todokit_app::ToolResult;
use todokit_domain::TodoState;

// Golden facts from Gemini CLI's tracker: repository
// google-gemini/gemini-cli at commit
// 5411f113cafae26161b4969b0237b8e1e024e2c2 (2026-08-21):
// - packages/core/src/tools/trackerTools.ts: `Created task <id>: <title>`,
//   `Updated task <id>. Status: <status>`, `Task <id> not found.`,
//   `No tasks found matching the criteria.`, list lines
//   `- [<id>] <title> (<status>)`, `Dependency task <id> not found.`,
//   `Linked <a> -> <b>.`, `No tasks to visualize.`, the visualize tree
//   (`Task Tracker Graph:`, ⭕ 🚧 ⛔ ✅, `[EPIC]`/`[TASK]`/`[BUG]`,
//   `  └─ Depends on: a, b`), `tracker_get_task` as
//   `JSON.stringify(task, null, 2)`, and `buildTodosReturnDisplay`
//   (roots and children sorted in progress, open, blocked, closed, then
//   by id; `type: title (id)` indented two spaces a level);
// - packages/core/src/services/trackerService.ts: `Parent task with ID <p>
//   not found.`, `Task with ID <id> not found.`, `Dependency <d> not found
//   for task <id>.`, `Cannot close task <id> because dependency <d> is
//   still <status>.`, `Circular dependency detected involving task <x>.`,
//   `Dependency <x> not found.` (a depth-first walk from the updated task);
//   keys in the order of `TrackerTaskSchema` (services/trackerTypes.ts);
// - packages/core/src/scheduler/tool-executor.ts: a result with `error`
//   reaches the model as `{error: error.message}`, so a failed call reads
//   as the bare message (`Task cannot depend on itself` for a self link).
const CALLS: [(&str, &str); 16] = [
    (
        "tracker_create_task",
        r#"{"title":"Ship the export","description":"Everything for export","type":"epic"}"#,
    ),
    (
        "tracker_create_task",
        r#"{"title":"Write the parser","description":"Markdown in","type":"task","parentId":"4a7c15"}"#,
    ),
    (
        "tracker_create_task",
        r#"{"title":"Wire the command","description":"CLI flag","type":"bug","parentId":"4a7c15","dependencies":["94f82a"]}"#,
    ),
    ("tracker_update_task", r#"{"id":"df743f","status":"closed"}"#),
    ("tracker_update_task", r#"{"id":"94f82a","status":"in_progress"}"#),
    (
        "tracker_add_dependency",
        r#"{"taskId":"94f82a","dependencyId":"df743f"}"#,
    ),
    (
        "tracker_add_dependency",
        r#"{"taskId":"94f82a","dependencyId":"94f82a"}"#,
    ),
    (
        "tracker_add_dependency",
        r#"{"taskId":"abcdef","dependencyId":"94f82a"}"#,
    ),
    (
        "tracker_add_dependency",
        r#"{"taskId":"94f82a","dependencyId":"abcdef"}"#,
    ),
    ("tracker_list_tasks", r#"{"parentId":"4a7c15"}"#),
    ("tracker_list_tasks", r#"{"status":"blocked"}"#),
    (
        "tracker_create_task",
        r#"{"title":"Orphan","description":"x","type":"task","parentId":"abcdef"}"#,
    ),
    ("tracker_update_task", r#"{"id":"abcdef","title":"x"}"#),
    (
        "tracker_update_task",
        r#"{"id":"4a7c15","dependencies":["nope00"]}"#,
    ),
    ("tracker_get_task", r#"{"id":"abcdef"}"#),
    ("tracker_get_task", r#"{"id":"df743f"}"#),
];

fn answers(results: &[ToolResult]) -> Vec<(bool, String)> {
    results.iter().map(|r| (r.is_error, r.content.clone())).collect()
}

#[test]
fn the_answers_are_the_trackers_word_for_word() {
    let (_, results) = run_session(&profile(), &CALLS);
    let actual = answers(&results);
    let text = |s: &str| (false, s.to_owned());
    let error = |s: &str| (true, s.to_owned());
    let expected = vec![
        text("Created task 4a7c15: Ship the export"),
        text("Created task 94f82a: Write the parser"),
        text("Created task df743f: Wire the command"),
        error("Cannot close task df743f because dependency 94f82a is still open."),
        text("Updated task 94f82a. Status: in_progress"),
        error("Circular dependency detected involving task 94f82a."),
        error("Task cannot depend on itself"),
        text("Task abcdef not found."),
        text("Dependency task abcdef not found."),
        text("- [94f82a] Write the parser (in_progress)\n- [df743f] Wire the command (open)"),
        text("No tasks found matching the criteria."),
        error("Parent task with ID abcdef not found."),
        error("Task with ID abcdef not found."),
        error("Dependency nope00 not found."),
        text("Task abcdef not found."),
        text(
            "{\n  \"id\": \"df743f\",\n  \"title\": \"Wire the command\",\n  \"description\": \"CLI flag\",\n  \
             \"type\": \"bug\",\n  \"status\": \"open\",\n  \"parentId\": \"4a7c15\",\n  \"dependencies\": [\n    \
             \"94f82a\"\n  ]\n}",
        ),
    ];
    assert_eq!(actual, expected);
}

#[test]
fn a_refused_call_stores_nothing_and_a_read_never_stores() {
    let (state, _) = run_session(&profile(), &CALLS[..3]);
    let refused = [3, 5, 6, 11, 12, 13];
    let reads = [7, 8, 9, 10, 14, 15];
    let actual: Vec<(usize, bool)> = refused
        .iter()
        .chain(&reads)
        .map(|&i| {
            (
                i,
                run_tool(&profile(), CALLS[i].0, &state, CALLS[i].1)
                    .commit
                    .is_some(),
            )
        })
        .collect();
    let expected: Vec<(usize, bool)> = refused.iter().chain(&reads).map(|&i| (i, false)).collect();
    assert_eq!(actual, expected);
}

#[test]
fn closing_works_once_every_dependency_is_closed() {
    let mut calls = CALLS[..3].to_vec();
    calls.push(("tracker_update_task", r#"{"id":"94f82a","status":"closed"}"#));
    calls.push((
        "tracker_update_task",
        r#"{"id":"df743f","status":"closed","title":"Wire the flag"}"#,
    ));
    let (state, results) = run_session(&profile(), &calls);
    let actual = (
        answers(&results[3..]),
        state.find("df743f").map(|t| (t.content.clone(), t.status)),
    );
    let expected = (
        vec![
            (false, "Updated task 94f82a. Status: closed".to_owned()),
            (false, "Updated task df743f. Status: closed".to_owned()),
        ],
        Some(("Wire the flag".to_owned(), Status::Completed)),
    );
    assert_eq!(actual, expected);
}

#[test]
fn what_a_task_is_maps_onto_the_stored_fields() {
    let (state, _) = run_session(&profile(), &CALLS[..3]);
    let actual = state.find("df743f").cloned().map(|t| Todo {
        created_at: None,
        status_changed_at: None,
        ..t
    });
    let expected = Some(
        Todo::new("Wire the command")
            .id("df743f")
            .description("CLI flag")
            .kind("bug")
            .parent("4a7c15")
            .blocked_by(vec!["94f82a".to_owned()]),
    );
    assert_eq!(actual, expected);
}

#[test]
fn tasks_another_profile_wrote_get_hex_ids_shown_at_once_and_kept_by_a_write() {
    let fixture = TodoState::flat(vec![Todo::new("Written elsewhere").status(Status::Abandoned)]);
    let listed = run_tool(&profile(), "tracker_list_tasks", &fixture, "{}");
    let created = run_tool(
        &profile(),
        "tracker_create_task",
        &fixture,
        r#"{"title":"New","description":"d","type":"task","dependencies":["4a7c15"]}"#,
    );
    let stored = created
        .commit
        .map(|s| s.tasks().map(|t| t.id.clone()).collect::<Vec<_>>());
    let actual = (
        listed.result.content,
        listed.commit.is_some(),
        created.result.content,
        stored,
    );
    let expected = (
        "- [4a7c15] Written elsewhere (closed)".to_owned(),
        false,
        "Created task 94f82a: New".to_owned(),
        Some(vec![Some("4a7c15".to_owned()), Some("94f82a".to_owned())]),
    );
    assert_eq!(actual, expected);
}

#[test]
fn an_empty_tracker_has_nothing_to_draw() {
    let outcome = run_tool(&profile(), "tracker_visualize", &TodoState::new(), "{}");
    let actual = (outcome.result.is_error, outcome.result.content);
    let expected = (false, "No tasks to visualize.".to_owned());
    assert_eq!(actual, expected);
}

#[test]
fn the_tree_the_model_and_the_user_see_is_pinned() {
    let mut calls = CALLS[..5].to_vec();
    calls.push((
        "tracker_create_task",
        r#"{"title":"Loose end","description":"x","type":"task"}"#,
    ));
    calls.push(("tracker_update_task", r#"{"id":"29f054","status":"blocked"}"#));
    calls.push(("tracker_visualize", "{}"));
    let (_, results) = run_session(&profile(), &calls);
    let last = &results[results.len() - 1];
    let display = last.details.value();
    snapshot_settings().bind(|| {
        insta::assert_snapshot!("gemini_tracker__visualize", last.content);
        insta::assert_json_snapshot!("gemini_tracker__return_display", display);
    });
}

// Golden fact: Gemini CLI 0.61.0 (npm @google/gemini-cli@0.61.0) declares
// `tracker_visualize`'s arguments as `{"type": "object", "properties": {}}`.
#[test]
fn visualize_declares_its_empty_properties() {
    let actual = todokit_app::schema::canonical::<tools::VisualizeArguments>();
    let expected = serde_json::json!({"type": "object", "properties": {}});
    assert_eq!(actual, expected);
}
