//! `team_task` against what Cline's own tool answered (npm @cline/core
//! 0.0.86, the board of Cline's CLI 3.0.65, run under node).

use serde_json::{Value, json};
use todokit_app::ToolResult;
use todokit_domain::{Status, TodoState};

use super::*;
use crate::test_support::{refusals, run_session, run_tool};
use pretty_assertions::assert_eq;

fn session(calls: &[Value]) -> (TodoState, Vec<ToolResult>) {
    let calls: Vec<String> = calls.iter().map(Value::to_string).collect();
    let calls: Vec<(&str, &str)> = calls.iter().map(|c| ("team_task", c.as_str())).collect();
    run_session(&profile(), &calls)
}

fn answers(calls: &[Value]) -> Vec<(bool, String)> {
    session(calls)
        .1
        .into_iter()
        .map(|r| (r.is_error, r.content))
        .collect()
}

#[test]
fn a_board_is_made_claimed_completed_and_blocked_as_cline_answers() {
    let actual = answers(&[
        json!({"action": "create", "title": "Write the parser", "description": "A recursive descent parser"}),
        json!({"action": "create", "title": "Test the parser", "description": "Unit tests", "dependsOn": ["task_0001"], "status": "pending"}),
        json!({"action": "claim", "taskId": "task_0002"}),
        json!({"action": "claim", "taskId": "task_0001"}),
        json!({"action": "complete", "taskId": "task_0001", "summary": "Parser done"}),
        json!({"action": "block", "taskId": "task_0002", "reason": "Needs fixtures"}),
        json!({"action": "claim", "taskId": "task_9999"}),
    ]);
    let ok = |text: &str| (false, text.to_owned());
    let error = |text: &str| (true, text.to_owned());
    let expected = vec![
        ok(r#"{"action":"create","taskId":"task_0001","status":"pending"}"#),
        ok(
            r#"{"action":"create","taskId":"task_0002","status":"pending","ignoredFields":["status"],"note":"Ignored fields for action=create: status"}"#,
        ),
        error(r#"{"error":"Task \"task_0002\" is blocked by \"task_0001\""}"#),
        ok(
            r#"{"action":"claim","taskId":"task_0001","status":"in_progress","nextStep":"Task is now in_progress. Execute the work using team_run_task or your own tools, then call team_task with action=complete when done."}"#,
        ),
        ok(r#"{"action":"complete","taskId":"task_0001","status":"completed"}"#),
        ok(r#"{"action":"block","taskId":"task_0002","status":"blocked"}"#),
        error(r#"{"error":"Task \"task_9999\" was not found"}"#),
    ];
    assert_eq!(actual, expected);
}

#[test]
fn a_listing_shows_each_task_as_cline_does_with_what_holds_it_back() {
    let (state, results) = session(&[
        json!({"action": "create", "title": "t", "description": "d", "assignee": "bob", "extra": 1}),
        json!({"action": "create", "title": "t2", "description": "d", "dependsOn": ["nope", "task_0001"]}),
        json!({"action": "list", "status": "pending"}),
        json!({"action": "list", "assignee": "bob"}),
    ]);
    let listed = |n: usize| -> Value { serde_json::from_str(&results[n].content).expect("JSON") };
    let created = state
        .find("task_0001")
        .and_then(|t| t.created_at)
        .expect("a creation time");
    let at = UtcTime::of(created).iso_8601();
    let actual = (listed(2), listed(3));
    let expected = (
        json!({"action": "list", "tasks": [{
            "id": "task_0002", "title": "t2", "description": "d", "status": "pending",
            "createdAt": at, "updatedAt": at, "createdBy": "lead",
            "dependsOn": ["nope", "task_0001"], "isReady": false, "blockedBy": ["nope", "task_0001"],
        }]}),
        json!({"action": "list", "tasks": [{
            "id": "task_0001", "title": "t", "description": "d", "status": "in_progress",
            "createdAt": at, "updatedAt": at, "createdBy": "lead", "assignee": "bob",
            "dependsOn": [], "isReady": false, "blockedBy": [],
        }]}),
    );
    assert_eq!(actual, expected);
    // Key order is Cline's too.
    let keys: Vec<String> = listed(3)["tasks"][0]
        .as_object()
        .expect("a task")
        .keys()
        .cloned()
        .collect();
    let order = [
        "id",
        "title",
        "description",
        "status",
        "createdAt",
        "updatedAt",
        "createdBy",
        "assignee",
        "dependsOn",
        "isReady",
        "blockedBy",
    ];
    assert_eq!(keys, order.map(String::from).to_vec());
}

#[test]
fn a_completed_or_blocked_task_keeps_its_summary_and_the_completer_is_its_assignee() {
    let (state, results) = session(&[
        json!({"action": "create", "title": "a", "description": "b"}),
        json!({"action": "complete", "taskId": "task_0001", "summary": "ok", "title": "zzz"}),
        json!({"action": "create", "title": "c", "description": "d"}),
        json!({"action": "block", "taskId": "task_0002", "reason": "r"}),
        json!({"action": "claim", "taskId": "task_0002"}),
        json!({"action": "list"}),
    ]);
    let listed: Value = serde_json::from_str(&results[5].content).expect("JSON");
    let field = |n: usize, key: &str| listed["tasks"][n][key].clone();
    let actual = (
        field(0, "title"),
        field(0, "assignee"),
        field(0, "summary"),
        field(1, "status"),
        field(1, "summary"),
        state.find("task_0002").map(|t| t.status),
    );
    let expected = (
        json!("a"),
        json!("lead"),
        json!("ok"),
        json!("in_progress"),
        json!("r"),
        Some(Status::InProgress),
    );
    assert_eq!(actual, expected);
}

#[test]
fn the_fields_an_action_needs_are_asked_for_in_zods_words() {
    let actual = answers(&[
        json!({"action": "create", "title": "x"}),
        json!({"action": "claim"}),
        json!({"action": "complete", "taskId": "task_0001"}),
        json!({"action": "create", "title": null, "description": "d"}),
    ]);
    let expected: Vec<(bool, String)> = [
        r#"{"error":"✖ Field \"description\" is required when action=create\n  → at description"}"#,
        r#"{"error":"✖ Field \"taskId\" is required when action=claim\n  → at taskId"}"#,
        r#"{"error":"✖ Field \"summary\" is required when action=complete\n  → at summary"}"#,
        r#"{"error":"✖ Field \"title\" is required when action=create\n  → at title"}"#,
    ]
    .into_iter()
    .map(|text| (true, text.to_owned()))
    .collect();
    assert_eq!(actual, expected);
}

// The schema's refusals carry zod's report, in todokit's refusal layout.
#[test]
fn arguments_the_schema_refuses_are_reported_as_zod_reports_them() {
    let fixture = [
        r#"{"action":"create","title":""}"#,
        r#"{"action":"frobnicate"}"#,
        r#"{"title":"t"}"#,
        r#"{"action":"list","status":5,"assignee":7}"#,
        r#"{"action":"create","title":"a","description":"b","dependsOn":["x",2,true]}"#,
        r#"{"action":"create","title":"t","description":"d","dependsOn":"x","assignee":""}"#,
        r#"[]"#,
    ];
    let actual = refusals(&profile(), "team_task", &fixture);
    let zod = |text: &str| (false, vec![format!("(arguments): {text}")]);
    let expected = vec![
        zod(
            "✖ Too small: expected string to have >=1 characters\n  → at title\n✖ Field \"description\" is required when action=create\n  → at description",
        ),
        zod(
            "✖ Invalid option: expected one of \"create\"|\"list\"|\"claim\"|\"complete\"|\"block\"\n  → at action",
        ),
        zod(
            "✖ Invalid option: expected one of \"create\"|\"list\"|\"claim\"|\"complete\"|\"block\"\n  → at action",
        ),
        zod(
            "✖ Invalid input: expected string, received number\n  → at assignee\n✖ Invalid option: expected one of \"pending\"|\"in_progress\"|\"blocked\"|\"completed\"\n  → at status",
        ),
        // A number in `dependsOn` is read as the id it spells (see
        // docs/leniency.md); the boolean is refused.
        zod("✖ Invalid input: expected string, received boolean\n  → at dependsOn[2]"),
        zod(
            "✖ Invalid input: expected array, received string\n  → at dependsOn\n✖ Too small: expected string to have >=1 characters\n  → at assignee",
        ),
        zod("✖ Invalid input: expected object, received array"),
    ];
    assert_eq!(actual, expected);
}

#[test]
fn a_task_another_profile_wrote_gets_a_board_id_and_another_requester_claims_as_itself() {
    let state = TodoState::flat(vec![Todo::new("Written elsewhere")]);
    let outcome = run_tool(
        &profile_as("reviewer"),
        "team_task",
        &state,
        r#"{"action":"claim","taskId":"task_0001"}"#,
    );
    let committed = outcome.commit.expect("a claim stored");
    let task = committed.find("task_0001").expect("the board's id");
    let actual = (task.owner.as_deref(), task.status);
    assert_eq!(actual, (Some("reviewer"), Status::InProgress));
}

#[test]
fn a_blank_title_or_one_past_todokits_limit_is_refused_and_nothing_is_stored() {
    let long = "x".repeat(Limits::DEFAULT.max_content_bytes + 1);
    let (state, results) = session(&[
        json!({"action": "create", "title": "   ", "description": " "}),
        json!({"action": "create", "title": long, "description": "d"}),
    ]);
    let refused: Vec<(bool, bool)> = results
        .iter()
        .map(|r| (r.is_error, r.content.contains("title")))
        .collect();
    let actual = (refused, state.tasks().count());
    assert_eq!(actual, (vec![(true, true); 2], 0));
}
