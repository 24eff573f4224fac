//! Every profile's schemas and example calls through the `todokit`
//! binary: the strict views meet the strict rules, each target prints its
//! own keys, every example call is stored as the profile says, and the
//! slips each profile forgives are taken.

use pretty_assertions::assert_eq;
use serde_json::{Value, json};
use todokit::app::schema::strict_violations;

use crate::support::cli::{json_of, run, todokit};

#[test]
fn strict_schemas_of_every_profile_meet_the_strict_rules() {
    let store = tempfile::tempdir().unwrap();
    let actual: Vec<(String, Vec<String>)> = todokit::profiles::names()
        .into_iter()
        .flat_map(|profile| {
            let out = run(todokit(store.path()).args([
                "--profile",
                profile,
                "schema",
                "--target",
                "openai-strict",
            ]));
            json_of(&out)
                .as_array()
                .unwrap()
                .iter()
                .map(|def| {
                    let name = format!("{profile}/{}", def["function"]["name"].as_str().unwrap());
                    let mut problems = strict_violations(&def["function"]["parameters"]);
                    if def["function"]["strict"] != json!(true) {
                        problems.push("strict is not true".to_owned());
                    }
                    (name, problems)
                })
                .collect::<Vec<_>>()
        })
        .collect();
    let expected: Vec<(String, Vec<String>)> = todokit::profiles::all()
        .iter()
        .flat_map(|p| {
            p.tool_names()
                .into_iter()
                .map(move |t| (format!("{}/{t}", p.name()), Vec::new()))
        })
        .collect();
    assert_eq!(actual, expected);
}

#[test]
fn every_schema_target_prints_the_key_that_target_uses() {
    let store = tempfile::tempdir().unwrap();
    let keys: Vec<(&str, Vec<String>)> = ["json-schema", "openai", "openai-strict", "anthropic", "mcp"]
        .into_iter()
        .map(|target| {
            let out = run(todokit(store.path()).args(["schema", "--target", target]));
            let def = json_of(&out)[0].clone();
            (target, def.as_object().unwrap().keys().cloned().collect())
        })
        .collect();
    let actual = keys;
    let expected = vec![
        (
            "json-schema",
            vec!["name".to_owned(), "description".to_owned(), "schema".to_owned()],
        ),
        ("openai", vec!["type".to_owned(), "function".to_owned()]),
        ("openai-strict", vec!["type".to_owned(), "function".to_owned()]),
        (
            "anthropic",
            vec![
                "name".to_owned(),
                "description".to_owned(),
                "input_schema".to_owned(),
            ],
        ),
        (
            "mcp",
            vec![
                "name".to_owned(),
                "description".to_owned(),
                "inputSchema".to_owned(),
                "annotations".to_owned(),
                "_meta".to_owned(),
            ],
        ),
    ];
    assert_eq!(actual, expected);
}

#[test]
fn every_profiles_example_call_is_accepted_by_the_binary_and_stored() {
    let store = tempfile::tempdir().unwrap();
    let fixture = todokit::profiles::all();
    let actual: Vec<(String, Option<i32>, Value, Vec<String>)> = fixture
        .iter()
        .map(|profile| {
            let example = profile.example().expect("every profile has an example call");
            let conversation = format!("c-{}", profile.name());
            let base = ["--profile", profile.name(), "--conversation", &conversation];
            let call = run(todokit(store.path())
                .args(base)
                .args(["call", example.tool, example.arguments]));
            let show = run(todokit(store.path())
                .args(base)
                .args(["show", "--format", "json"]));
            let stored: Vec<String> = json_of(&show)["phases"]
                .as_array()
                .into_iter()
                .flatten()
                .flat_map(|phase| phase["tasks"].as_array().cloned().unwrap_or_default())
                .map(|task| {
                    format!(
                        "{} {}",
                        task["status"].as_str().unwrap_or("?"),
                        task["content"].as_str().unwrap_or("?")
                    )
                })
                .collect();
            (
                profile.name().to_owned(),
                call.status.code(),
                json_of(&call)["is_error"].clone(),
                stored,
            )
        })
        .collect();
    // What the same call stores when the library runs it in process.
    let expected: Vec<(String, Option<i32>, Value, Vec<String>)> = fixture
        .iter()
        .map(|p| (p.name().to_owned(), Some(0), json!(false), stored_in_process(p)))
        .collect();
    assert_eq!(actual, expected);
}

/// The tasks (`status content`) a profile's example call stores when run in
/// process on an empty list.
fn stored_in_process(profile: &todokit::Profile) -> Vec<String> {
    let example = profile.example().expect("every profile has an example call");
    let tool = profile
        .tools()
        .find(|t| t.name() == example.tool)
        .expect("the example names a tool");
    let args: Value = serde_json::from_str(example.arguments).expect("the example is JSON");
    let empty = todokit::TodoState::new();
    let ctx = todokit::app::CallContext::new(&empty, 0, profile.rules());
    let outcome = tool.call(&args, &ctx);
    outcome
        .commit
        .map(|state| {
            state
                .tasks()
                .map(|t| format!("{} {}", t.status, t.content))
                .collect()
        })
        .unwrap_or_default()
}

/// Slips each profile forgives, through the binary (the decoding layer's
/// own tests cover each repair).
#[test]
fn lenient_calls_are_accepted_by_the_binary() {
    let store = tempfile::tempdir().unwrap();
    let calls = [
        (
            "claude-code",
            "TodoWrite",
            r#"{"todos":"[{\"content\":\"a\",\"status\":\"pending\",\"activeForm\":\"b\"}]"}"#,
        ),
        (
            "forge",
            "todo_write",
            r#"{"todos":[{"id":1,"content":"a","status":"in_progress"}]}"#,
        ),
        (
            "learn",
            "todo",
            r#"{"items":[{"id":1,"text":"a","status":"In_Progress"}]}"#,
        ),
        (
            "codex",
            "update_plan",
            r#"{"plan":[{"step":"Read code","status":"in_progress"}]}"#,
        ),
        (
            "gemini",
            "write_todos",
            r#"{"todos":[{"description":"a","status":"canceled"}]}"#,
        ),
        (
            "opencode",
            "todowrite",
            r#"{"todos":[{"content":"a","status":"done","priority":"high"}]}"#,
        ),
        (
            "todo-update",
            "todo_update",
            r#"{"add":[{"content":"a","priority":"low"}]}"#,
        ),
        (
            "claude-tasks",
            "TaskCreate",
            r#"{"subject":"a","description":"b"}"#,
        ),
    ];
    let actual: Vec<(String, Option<i32>, Value)> = calls
        .iter()
        .map(|(profile, tool, args)| {
            let conversation = format!("c-{profile}");
            let out = run(todokit(store.path()).args([
                "--profile",
                profile,
                "--conversation",
                &conversation,
                "call",
                tool,
                args,
            ]));
            (
                profile.to_string(),
                out.status.code(),
                json_of(&out)["is_error"].clone(),
            )
        })
        .collect();
    let expected: Vec<(String, Option<i32>, Value)> = calls
        .iter()
        .map(|(p, _, _)| (p.to_string(), Some(0), json!(false)))
        .collect();
    assert_eq!(actual, expected);
}
