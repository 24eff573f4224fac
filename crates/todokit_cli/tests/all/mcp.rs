//! `todokit mcp` as a child process, spoken to through rmcp's client and,
//! for what a well-behaved client never sends, through raw JSON-RPC lines.

use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

use pretty_assertions::assert_eq;
use rmcp::RoleClient;
use rmcp::ServiceExt;
use rmcp::model::{CallToolRequestParams, CallToolResult};
use rmcp::service::RunningService;
use rmcp::transport::TokioChildProcess;
use serde_json::{Map, Value, json};
use tokio::io::AsyncWriteExt;

use crate::support::mcp::{command, handshake, one, raw_session, raw_session_with, todokit_show};

/// The reply to request `id` among `replies` (`null` when none came).
fn reply_to(replies: &[Value], id: i64) -> Value {
    replies
        .iter()
        .find(|r| r["id"] == json!(id))
        .cloned()
        .unwrap_or(Value::Null)
}

async fn client(store: &Path, profile: &str) -> RunningService<RoleClient, ()> {
    let transport = TokioChildProcess::new(command(store, profile)).expect("todokit mcp starts");
    ().serve(transport).await.expect("the handshake completes")
}

fn params(tool: &str, args: Value) -> CallToolRequestParams {
    let mut params = CallToolRequestParams::new(tool.to_owned());
    params.arguments = args.as_object().cloned();
    params
}

fn text(result: &CallToolResult) -> String {
    let value = serde_json::to_value(result).unwrap_or_default();
    value["content"][0]["text"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

#[tokio::test]
async fn every_profile_lists_its_tools_with_schemas_and_annotations() {
    let store = tempfile::tempdir().unwrap();
    let mut actual = Vec::new();
    let mut expected = Vec::new();
    for profile in todokit::profiles::all() {
        let client = client(store.path(), profile.name()).await;
        let tools = client.list_all_tools().await.expect("tools/list answers");
        for tool in tools {
            actual.push((profile.name(), serde_json::to_value(&tool).unwrap_or_default()));
        }
        for tool in profile.tools() {
            let def = todokit::app::schema::definition(tool, todokit::SchemaTarget::Mcp);
            expected.push((profile.name(), def));
        }
        client.cancel().await.ok();
    }
    assert_eq!(actual, expected);
}

#[tokio::test]
async fn three_todo_writes_then_the_cli_shows_the_third_list() {
    let store = tempfile::tempdir().unwrap();
    let client = client(store.path(), "claude-code").await;
    for content in ["first", "second", "third"] {
        let result = client
            .call_tool(params("TodoWrite", one(content)))
            .await
            .expect("tools/call answers");
        assert_eq!(result.is_error, Some(false));
    }
    client.cancel().await.ok();
    let shown = todokit_show(store.path(), None);
    let actual = (
        shown["version"].clone(),
        shown["phases"][0]["tasks"][0]["content"].clone(),
    );
    let expected = (json!(3), json!("third"));
    assert_eq!(actual, expected);
}

#[tokio::test]
async fn a_bad_payload_is_a_tool_error_with_the_cli_message_and_an_unknown_tool_a_protocol_error() {
    let store = tempfile::tempdir().unwrap();
    let client = client(store.path(), "claude-code").await;
    let bad = json!({"todos": [{"content": "a", "status": 3, "activeForm": "b"}]});
    let result = client
        .call_tool(params("TodoWrite", bad.clone()))
        .await
        .expect("tools/call answers");
    let unknown = client.call_tool(params("NoSuchTool", json!({}))).await;
    client.cancel().await.ok();
    let cli = std::process::Command::new(env!("CARGO_BIN_EXE_todokit"))
        .arg("--store")
        .arg(store.path())
        .args(["call", "TodoWrite", &bad.to_string()])
        .output()
        .expect("todokit call runs");
    let cli: Value = serde_json::from_slice(&cli.stdout).expect("call prints JSON");
    let actual = (result.is_error, text(&result), unknown.is_err());
    let expected = (
        Some(true),
        cli["content"].as_str().unwrap_or_default().to_owned(),
        true,
    );
    assert_eq!(actual, expected);
}

#[tokio::test]
async fn the_server_survives_garbage_unknown_methods_and_huge_or_deep_arguments() {
    let store = tempfile::tempdir().unwrap();
    // Built as text: a value this deep would overflow the test's own stack.
    let deep_line = format!(
        r#"{{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{{"name":"TodoWrite","arguments":{{"todos":{}{}}}}}}}"#,
        "[".repeat(100_000),
        "]".repeat(100_000)
    );
    let huge = json!({"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": "TodoWrite", "arguments": {"todos": [{"content": "x".repeat(2 * 1024 * 1024), "status": "pending", "activeForm": "a"}]}}});
    let lines = vec![
        "this is not JSON".to_owned(),
        "{\"jsonrpc\":\"2.0\",\"id\":1,".to_owned(),
        json!({"jsonrpc": "2.0", "id": 2, "method": "no/such/method"}).to_string(),
        deep_line,
        huge.to_string(),
        json!({"jsonrpc": "2.0", "id": 6, "method": "tools/call", "params": {"name": 6}}).to_string(),
        json!({"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": "TodoWrite", "arguments": one("survived")}}).to_string(),
    ];
    let session: Vec<String> = handshake().into_iter().chain(lines).collect();
    // Every line sent before the input ends: no reply is waited for.
    let (replies, _) = raw_session(store.path(), &session, |_| true);
    let by_id = |id: i64| reply_to(&replies, id);
    let parse_errors = replies
        .iter()
        .filter(|r| r["error"]["code"] == json!(-32700) && r["id"].is_null())
        .count();
    let actual = (
        parse_errors,
        by_id(2)["error"]["code"].clone(),
        by_id(4)["result"]["isError"].clone(),
        by_id(6)["error"]["code"].clone(),
        by_id(5)["result"]["isError"].clone(),
        todokit_show(store.path(), None)["phases"][0]["tasks"][0]["content"].clone(),
    );
    // Garbage, a truncated message and the too-deep one each get a parse error.
    // A huge argument within the message cap is the tool's to refuse; wrong
    // params are invalid params, answered with the request's id.
    let expected = (
        3,
        json!(-32601),
        json!(true),
        json!(-32602),
        json!(false),
        json!("survived"),
    );
    assert_eq!(actual, expected);
}

#[tokio::test]
async fn a_client_killed_mid_call_leaves_a_readable_store_and_the_next_client_sees_the_committed_state() {
    let store = tempfile::tempdir().unwrap();
    let first = client(store.path(), "claude-code").await;
    first
        .call_tool(params("TodoWrite", one("committed")))
        .await
        .expect("tools/call answers");
    drop(first);
    for round in 0..5 {
        let mut child = command(store.path(), "claude-code")
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("todokit mcp starts");
        let mut stdin = child.stdin.take().expect("stdin is piped");
        let call = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "TodoWrite", "arguments": one(&format!("killed {round}"))}});
        let session = [
            json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}}),
            json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
            call,
        ];
        for message in session {
            let _ = stdin.write_all(format!("{message}\n").as_bytes()).await;
        }
        let _ = stdin.flush().await;
        tokio::time::sleep(Duration::from_millis(round * 3)).await;
        child.kill().await.expect("the server can be killed");
    }
    let second = client(store.path(), "claude-code").await;
    let result = second
        .call_tool(params("TodoWrite", one("after")))
        .await
        .expect("tools/call answers");
    second.cancel().await.ok();
    let shown = todokit_show(store.path(), None);
    let actual = (result.is_error, shown["phases"][0]["tasks"][0]["content"].clone());
    let expected = (Some(false), json!("after"));
    assert_eq!(actual, expected);
    let _: Map<String, Value> = serde_json::from_value(shown).expect("the stored list is whole");
}

/// A `tools/call` naming the host's mode in its `_meta`.
fn params_in_mode(tool: &str, args: Value, mode: Value) -> CallToolRequestParams {
    serde_json::from_value(json!({"name": tool, "arguments": args, "_meta": {"todokit/mode": mode}}))
        .expect("the params are well formed")
}

#[tokio::test]
async fn plan_mode_in_a_calls_meta_refuses_codexs_update_plan_in_its_words() {
    let store = tempfile::tempdir().unwrap();
    let client = client(store.path(), "codex").await;
    let plan = json!({"plan": [{"step": "Run the tests", "status": "in_progress"}]});
    let refused = client
        .call_tool(params_in_mode("update_plan", plan.clone(), json!("plan")))
        .await
        .expect("tools/call answers");
    let after_refusal = todokit_show(store.path(), None)["version"].clone();
    let unknown = client
        .call_tool(params_in_mode("update_plan", plan.clone(), json!("planning")))
        .await
        .map_err(|e| e.to_string().contains("todokit/mode"));
    let accepted = client
        .call_tool(params_in_mode("update_plan", plan, json!("default")))
        .await
        .expect("tools/call answers");
    client.cancel().await.ok();
    let actual = (
        (refused.is_error, text(&refused)),
        after_refusal,
        unknown.err(),
        (accepted.is_error, text(&accepted)),
    );
    let expected = (
        (
            Some(true),
            "update_plan is a TODO/checklist tool and is not allowed in Plan mode".to_owned(),
        ),
        json!(0),
        Some(true),
        (Some(false), "Plan updated".to_owned()),
    );
    assert_eq!(actual, expected);
}

/// A call's result as a model's host reads it: a plain call (the direct
/// path) and one with a `_meta` key the direct path leaves to rmcp, each
/// with and without `--structured-content`.
#[test]
fn a_result_is_the_profiles_text_and_the_details_only_when_asked_for() {
    let store = tempfile::tempdir().unwrap();
    let call = |id: i64, meta: Value| {
        json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": {"name": "TodoWrite", "arguments": one("Plan it"), "_meta": meta}})
        .to_string()
    };
    let run = |options: &[&str]| {
        let lines: Vec<String> = handshake()
            .into_iter()
            .chain([call(1, json!({})), call(2, json!({"org.example/trace": "1"}))])
            .collect();
        let (replies, _) = raw_session_with(store.path(), options, &lines, |r| r["id"] == json!(2));
        replies
            .iter()
            .filter(|r| r["id"] == json!(1) || r["id"] == json!(2))
            .map(|r| {
                let result = &r["result"];
                (
                    result["content"][0]["text"].as_str().map(str::to_owned),
                    result
                        .get("structuredContent")
                        .map(|d| d["current"][0]["content"].clone()),
                )
            })
            .collect::<Vec<_>>()
    };
    let answer = Some(
        "Todos have been modified successfully. Ensure that you continue to use the todo list to track your \
         progress. Please proceed with the current tasks if applicable"
            .to_owned(),
    );
    let actual = (run(&[]), run(&["--structured-content"]));
    let expected = (
        vec![(answer.clone(), None), (answer.clone(), None)],
        vec![
            (answer.clone(), Some(json!("Plan it"))),
            (answer, Some(json!("Plan it"))),
        ],
    );
    assert_eq!(actual, expected);
}

/// What the server does not declare it does not answer: no prompts, no
/// completions (the methods are unknown, `-32601`), while what it declares
/// answers.
#[test]
fn methods_of_capabilities_the_server_does_not_declare_are_unknown() {
    let store = tempfile::tempdir().unwrap();
    let lines: Vec<String> = handshake()
        .into_iter()
        .chain([
            json!({"jsonrpc": "2.0", "id": 1, "method": "prompts/list"}).to_string(),
            json!({"jsonrpc": "2.0", "id": 2, "method": "completion/complete", "params": {
                "ref": {"type": "ref/resource", "uri": "todokit://conversations/{id}"},
                "argument": {"name": "id", "value": "d"}}})
            .to_string(),
            json!({"jsonrpc": "2.0", "id": 3, "method": "tools/list"}).to_string(),
        ])
        .collect();
    let (replies, _) = raw_session(store.path(), &lines, |r| r["id"] == json!(3));
    let by_id = |id: i64| reply_to(&replies, id);
    let capabilities = replies
        .iter()
        .find(|r| r["result"]["capabilities"].is_object())
        .map(|r| r["result"]["capabilities"].clone())
        .unwrap_or(Value::Null);
    let actual = (
        by_id(1)["error"]["code"].clone(),
        by_id(2)["error"]["code"].clone(),
        by_id(3)["result"]["tools"].is_array(),
        capabilities.get("prompts").is_some() || capabilities.get("completions").is_some(),
    );
    assert_eq!(actual, (json!(-32601), json!(-32601), true, false));
}
