//! End-to-end tests of the `todokit` binary against a real store folder.

use std::process::Stdio;

use pretty_assertions::assert_eq;
use serde_json::{Value, json};

use crate::support::cli::{json_of, run, run_with_stdin, snapshot_dir, snapshot_settings, stdout, todokit};

#[test]
fn the_help_and_the_profile_list() {
    let store = tempfile::tempdir().unwrap();
    let help = run(todokit(store.path()).arg("--help"));
    let call_help = run(todokit(store.path()).args(["call", "--help"]));
    let profiles = run(todokit(store.path()).arg("profiles"));
    snapshot_settings().bind(|| {
        insta::assert_snapshot!("cli__help", stdout(&help));
        insta::assert_snapshot!("cli__call_help", stdout(&call_help));
        insta::assert_snapshot!("cli__profiles", stdout(&profiles));
    });
    assert_eq!((help.status.code(), profiles.status.code()), (Some(0), Some(0)));
}

#[test]
fn docs_dialects_lists_every_profile_as_the_registry_does() {
    let store = tempfile::tempdir().unwrap();
    let table = run(todokit(store.path()).args(["profiles", "--format", "markdown"]));
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/dialects.md"))
        .unwrap_or_default();
    let committed = doc
        .split_once("<!-- registry:begin -->\n")
        .and_then(|(_, rest)| rest.split_once("<!-- registry:end -->"))
        .map(|(table, _)| table.to_owned());
    let actual = (table.status.code(), committed);
    let expected = (Some(0), Some(stdout(&table)));
    assert_eq!(
        actual, expected,
        "docs/dialects.md is stale: paste `todokit profiles --format markdown` between its markers"
    );
}

const ONE_ITEM: &str =
    r#"{"todos":[{"content":"Run tests","status":"in_progress","activeForm":"Running tests"}]}"#;

#[test]
fn call_prints_the_result_with_its_details_and_show_sees_it_from_another_process() {
    let store = tempfile::tempdir().unwrap();
    let call = run(todokit(store.path()).args(["call", "TodoWrite", ONE_ITEM]));
    let result = json_of(&call);
    let details_keys: Vec<&str> = result["details"]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    let show = run(todokit(store.path()).args(["show", "--format", "text"]));
    let actual = (
        call.status.code(),
        result["is_error"].clone(),
        details_keys,
        stdout(&call).contains("\"is_error\": false"),
        show.status.code(),
        stdout(&show),
    );
    let expected = (
        Some(0),
        json!(false),
        vec![
            "previous",
            "current",
            "transitions",
            "wiped_on_all_completed",
            "in_progress_count",
        ],
        true,
        Some(0),
        "Progress: 0/1 completed\n\n[>] Running tests\n".to_owned(),
    );
    assert_eq!(actual, expected);
}

#[test]
fn arguments_can_come_from_standard_input() {
    let store = tempfile::tempdir().unwrap();
    let call = run_with_stdin(
        todokit(store.path()).args(["call", "TodoWrite"]),
        ONE_ITEM.as_bytes(),
    );
    let dash = run_with_stdin(
        todokit(store.path()).args(["call", "TodoWrite", "-"]),
        ONE_ITEM.as_bytes(),
    );
    let actual = (
        json_of(&call)["is_error"].clone(),
        json_of(&dash)["is_error"].clone(),
    );
    let expected = (json!(false), json!(false));
    assert_eq!(actual, expected);
}

/// (case, exit code, is_error, fields named by the problems, content is short).
type CaseOutcome<'a> = (&'a str, Option<i32>, Value, Vec<Value>, bool);

#[test]
fn malformed_payloads_are_tool_errors_that_name_the_field_and_change_nothing() {
    let store = tempfile::tempdir().unwrap();
    run(todokit(store.path()).args(["call", "TodoWrite", ONE_ITEM]));
    let before = snapshot_dir(store.path());
    let huge =
        json!({"todos": [{"content": "x".repeat(10 * 1024 * 1024), "status": "pending", "activeForm": "a"}]});
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("not json", b"{\"todos\": [".to_vec()),
        ("todos as a string of prose", br#"{"todos":"buy milk"}"#.to_vec()),
        (
            "todos as truncated JSON in a string",
            br#"{"todos":"[{\"content\":\"a\",\"status\":\"pend"}"#.to_vec(),
        ),
        (
            "number for status",
            br#"{"todos":[{"content":"a","status":3,"activeForm":"b"}]}"#.to_vec(),
        ),
        ("10 MB of content", huge.to_string().into_bytes()),
    ];
    let actual: Vec<CaseOutcome> = cases
        .iter()
        .map(|(name, input)| {
            let out = run_with_stdin(todokit(store.path()).args(["call", "TodoWrite", "-"]), input);
            let result = json_of(&out);
            let fields: Vec<Value> = result["details"]["error"]["problems"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| p["field"].clone())
                .collect();
            let short = result["content"].as_str().unwrap().len() < 2_000;
            (
                *name,
                out.status.code(),
                result["is_error"].clone(),
                fields,
                short,
            )
        })
        .collect();
    let expected = vec![
        ("not json", Some(0), json!(true), vec![json!("(arguments)")], true),
        (
            "todos as a string of prose",
            Some(0),
            json!(true),
            vec![json!("todos")],
            true,
        ),
        (
            "todos as truncated JSON in a string",
            Some(0),
            json!(true),
            vec![json!("todos")],
            true,
        ),
        (
            "number for status",
            Some(0),
            json!(true),
            vec![json!("todos[0].status")],
            true,
        ),
        (
            "10 MB of content",
            Some(0),
            json!(true),
            vec![json!("todos[0].content")],
            true,
        ),
    ];
    assert_eq!((actual, snapshot_dir(store.path())), (expected, before));
}

#[test]
fn an_unknown_tool_or_profile_is_a_usage_error() {
    let store = tempfile::tempdir().unwrap();
    let tool = run(todokit(store.path()).args(["call", "NoSuchTool", "{}"]));
    let profile = run(todokit(store.path()).args(["--profile", "nope", "show"]));
    let actual = (
        tool.status.code(),
        String::from_utf8_lossy(&tool.stderr).into_owned(),
        profile.status.code(),
        snapshot_dir(store.path()),
    );
    let expected = (
        Some(2),
        "todokit: profile \"claude-code\" has no tool \"NoSuchTool\"; its tools are: TodoWrite\n".to_owned(),
        Some(2),
        Vec::new(),
    );
    assert_eq!(actual, expected);
}

#[test]
fn a_path_like_conversation_id_stays_inside_the_store() {
    let root = tempfile::tempdir().unwrap();
    let store = root.path().join("store");
    let call = run(todokit(&store).args(["--conversation", "../../etc/x", "call", "TodoWrite", ONE_ITEM]));
    let show = run(todokit(&store).args(["--conversation", "../../etc/x", "show", "--format", "json"]));
    let outside: Vec<String> = std::fs::read_dir(root.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    let actual = (
        json_of(&call)["is_error"].clone(),
        json_of(&show)["phases"][0]["tasks"][0]["content"].clone(),
        outside,
        snapshot_dir(&store).iter().all(|(p, _)| p.starts_with(&store)),
    );
    let expected = (json!(false), json!("Run tests"), vec!["store".to_owned()], true);
    assert_eq!(actual, expected);
}

#[test]
fn two_processes_updating_different_tasks_of_one_list_lose_nothing() {
    const UPDATES: usize = 8;
    let store = tempfile::tempdir().unwrap();
    let tasks = |args: &[&str]| {
        let mut cmd = todokit(store.path());
        cmd.args(["--profile", "claude-tasks", "--conversation", "team"])
            .args(args);
        run(&mut cmd)
    };
    tasks(&["call", "TaskCreate", r#"{"subject":"a","description":""}"#]);
    tasks(&["call", "TaskCreate", r#"{"subject":"b","description":""}"#]);
    let writers: Vec<_> = ["1", "2"]
        .into_iter()
        .map(|id| {
            let path = store.path().to_owned();
            std::thread::spawn(move || {
                for n in 0..UPDATES {
                    let args = format!(r#"{{"taskId":"{id}","metadata":{{"k{n}":{n}}}}}"#);
                    let out = run(todokit(&path).args([
                        "--profile",
                        "claude-tasks",
                        "--conversation",
                        "team",
                        "call",
                        "TaskUpdate",
                        &args,
                    ]));
                    assert_eq!(json_of(&out)["is_error"], json!(false));
                }
            })
        })
        .collect();
    for writer in writers {
        writer.join().unwrap();
    }
    let state = json_of(&tasks(&["show", "--format", "json"]));
    let keys = |i: usize| {
        state["phases"][0]["tasks"][i]["metadata"]
            .as_object()
            .map_or(0, |m| m.len())
    };
    let actual = (keys(0), keys(1), state["version"].clone());
    let expected = (UPDATES, UPDATES, json!(2 + 2 * UPDATES));
    assert_eq!(actual, expected);
}

#[test]
fn check_exits_three_while_something_is_open_and_zero_after() {
    let store = tempfile::tempdir().unwrap();
    let empty = run(todokit(store.path()).arg("check"));
    run(todokit(store.path()).args(["call", "TodoWrite", ONE_ITEM]));
    let open = run(todokit(store.path()).arg("check"));
    let done = r#"{"todos":[{"content":"Run tests","status":"completed","activeForm":"Running tests"}]}"#;
    run(todokit(store.path()).args(["call", "TodoWrite", done]));
    let closed = run(todokit(store.path()).arg("check"));
    let actual = (
        empty.status.code(),
        open.status.code(),
        stdout(&open).contains("[in_progress] Run tests"),
        closed.status.code(),
    );
    let expected = (Some(0), Some(3), true, Some(0));
    assert_eq!(actual, expected);
}

#[test]
fn forge_writes_and_reads_through_the_cli() {
    let store = tempfile::tempdir().unwrap();
    let write = run(todokit(store.path()).args([
        "--profile",
        "forge",
        "call",
        "todo_write",
        r#"{"todos":[{"id":"1","content":"Plan","status":"completed"},{"id":"2","content":"Build","status":"in_progress"}]}"#,
    ]));
    let read = run(todokit(store.path())
        .args(["--profile", "forge", "call", "todo_read"])
        .stdin(Stdio::null()));
    let actual = (
        json_of(&write)["is_error"].clone(),
        json_of(&read)["content"].clone(),
    );
    let expected = (
        json!(false),
        json!("Progress: 1/2 completed\n\n- [x] ~~Plan~~\n- [~] **Build**"),
    );
    assert_eq!(actual, expected);
}

#[test]
fn an_unreadable_store_exits_one_and_keeps_the_file() {
    let store = tempfile::tempdir().unwrap();
    let path = store.path().join("c-default.json");
    std::fs::write(&path, b"not json").unwrap();
    let call = run(todokit(store.path()).args(["call", "TodoWrite", ONE_ITEM]));
    let actual = (
        call.status.code(),
        String::from_utf8_lossy(&call.stderr).contains("cannot be read"),
        std::fs::read(&path).unwrap(),
    );
    let expected = (Some(1), true, b"not json".to_vec());
    assert_eq!(actual, expected);
}

#[test]
fn concurrent_processes_lose_no_update() {
    const PROCESSES: usize = 4;
    const CALLS: usize = 5;
    let store = tempfile::tempdir().unwrap();
    let children: Vec<_> = (0..PROCESSES)
        .map(|p| {
            let path = store.path().to_owned();
            std::thread::spawn(move || {
                for c in 0..CALLS {
                    let args = format!(
                        r#"{{"todos":[{{"content":"p{p} c{c}","status":"pending","activeForm":"x"}}]}}"#
                    );
                    let out = run(todokit(&path).args(["call", "TodoWrite", &args]));
                    assert_eq!(
                        out.status.code(),
                        Some(0),
                        "{}",
                        String::from_utf8_lossy(&out.stderr)
                    );
                }
            })
        })
        .collect();
    for child in children {
        child.join().unwrap();
    }
    let show = run(todokit(store.path()).args(["show", "--format", "json"]));
    let actual = json_of(&show)["version"].clone();
    let expected = json!(PROCESSES * CALLS);
    assert_eq!(actual, expected);
}

#[test]
fn the_demo_transcript() {
    let store = tempfile::tempdir().unwrap();
    let out = run(todokit(store.path()).args(["demo", "--delay-ms", "0"]));
    snapshot_settings().bind(|| insta::assert_snapshot!("cli__demo_transcript", stdout(&out)));
    assert_eq!(out.status.code(), Some(0));
}

#[cfg(feature = "postgres")]
#[test]
fn call_then_show_across_processes_on_postgres() {
    let url = std::env::var("TODOKIT_TEST_POSTGRES_URL").expect("make test sets TODOKIT_TEST_POSTGRES_URL");
    let conversation = format!("cli-{}", std::process::id());
    let with = |args: &[&str]| {
        let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_todokit"));
        cmd.args(["--store", &url, "--conversation", &conversation])
            .args(args);
        run(&mut cmd)
    };
    let call = with(&["call", "TodoWrite", ONE_ITEM]);
    let show = with(&["show", "--format", "json"]);
    let actual = (
        json_of(&call)["is_error"].clone(),
        json_of(&show)["phases"][0]["tasks"][0]["content"].clone(),
    );
    let expected = (json!(false), json!("Run tests"));
    assert_eq!(actual, expected);
}

#[test]
fn invalid_utf8_on_stdin_is_a_tool_error_naming_the_offset_and_stores_nothing() {
    let store = tempfile::tempdir().unwrap();
    let fixture: &[u8] = b"{\"todos\":[{\"content\":\"a\xff\",\"status\":\"pending\",\"activeForm\":\"A\"}]}";
    let call = run_with_stdin(todokit(store.path()).args(["call", "TodoWrite"]), fixture);
    let show = run(todokit(store.path()).args(["show", "--format", "json"]));
    let actual = (
        call.status.code(),
        json_of(&call)["is_error"].clone(),
        json_of(&call)["content"].as_str().is_some_and(|c| {
            c.contains("- (arguments): standard input is not valid UTF-8: the byte at offset 23")
        }),
        json_of(&show)["version"].clone(),
    );
    let expected = (Some(0), json!(true), true, json!(0));
    assert_eq!(actual, expected);
}
