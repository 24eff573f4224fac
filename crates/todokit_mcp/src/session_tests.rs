//! The reader's own answers to plain tool calls against rmcp's: the same
//! script through a session that answers them itself and one that leaves
//! everything to rmcp gives the same bytes.

use std::sync::Arc;

use pretty_assertions::assert_eq;
use serde_json::json;
use todokit::{ManualClock, MemoryStore, TodoWriteService, profiles};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

use super::*;

fn server() -> TodoMcpServer {
    let service = TodoWriteService::new(
        profiles::by_name("claude-code").expect("registered"),
        Arc::new(MemoryStore::new()),
        Arc::new(ManualClock::new(1_700_000_000_000)),
    );
    TodoMcpServer::new(service, "default")
}

/// Runs `script` (lines, and whether each is a request to wait for the
/// answer to) through one session; its output lines, and how many calls
/// the reader answered itself.
async fn run(script: &[(String, bool)], plain_calls_here: bool) -> (Vec<String>, usize) {
    run_on(server(), script, plain_calls_here).await
}

/// [`run`] on `server`.
async fn run_on(
    server: TodoMcpServer,
    script: &[(String, bool)],
    plain_calls_here: bool,
) -> (Vec<String>, usize) {
    let (mut to_server, server_input) = tokio::io::duplex(1 << 20);
    let (server_output, from_server) = tokio::io::duplex(1 << 20);
    let session = tokio::spawn(serve_session(
        server,
        server_input,
        server_output,
        plain_calls_here,
    ));
    let mut replies = BufReader::new(from_server).lines();
    let mut seen = Vec::new();
    for (line, is_request) in script {
        to_server
            .write_all(format!("{line}\n").as_bytes())
            .await
            .expect("the session reads");
        if *is_request {
            seen.push(replies.next_line().await.expect("readable").expect("an answer"));
        }
    }
    drop(to_server);
    let (_, answered_here) = session.await.expect("the session ends");
    while let Ok(Some(line)) = replies.next_line().await {
        seen.push(line);
    }
    (seen, answered_here)
}

fn request(id: serde_json::Value, method: &str, params: serde_json::Value) -> (String, bool) {
    (
        json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}).to_string(),
        true,
    )
}

fn call(id: serde_json::Value, name: &str, arguments: serde_json::Value) -> (String, bool) {
    request(id, "tools/call", json!({"name": name, "arguments": arguments}))
}

/// A session opened at `version` (rmcp settles every one of these at a
/// version before 2026-07-28), then calls of every kind the reader
/// answers itself, one it leaves to rmcp, and a second `initialize`.
fn script(version: &str) -> Vec<(String, bool)> {
    let todo =
        |content: &str, status: &str| json!({"content": content, "status": status, "activeForm": content});
    vec![
        request(
            json!(0),
            "initialize",
            json!({"protocolVersion": version, "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}),
        ),
        (
            json!({"jsonrpc": "2.0", "method": "notifications/initialized"}).to_string(),
            false,
        ),
        call(
            json!(1),
            "TodoWrite",
            json!({"todos": [todo("Plan", "in_progress"), todo("Ship", "pending")]}),
        ),
        // Refused by the tool: a tool result with isError.
        call(json!("s"), "TodoWrite", json!({"todos": [todo("", "pending")]})),
        // No such tool: a protocol error.
        call(json!(-3), "NoSuchTool", json!({})),
        // No arguments at all.
        request(json!(4), "tools/call", json!({"name": "TodoWrite"})),
        // Repaired on the way in: the list sent as a string.
        call(
            json!(5),
            "TodoWrite",
            json!({"todos": json!([todo("Fix", "pending")]).to_string()}),
        ),
        // Text that JSON must escape, in and out.
        call(
            json!(6),
            "TodoWrite",
            json!({"todos": [todo("quote \" back\\slash \u{1} \u{2028} ✓ <b>", "completed")]}),
        ),
        // With `_meta`: rmcp's in both sessions.
        request(
            json!(7),
            "tools/call",
            json!({"name": "TodoWrite", "arguments": {"todos": []}, "_meta": {"todokit/conversation": "other"}}),
        ),
        // A second `initialize`: from here on rmcp answers everything.
        request(
            json!(8),
            "initialize",
            json!({"protocolVersion": version, "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}),
        ),
        call(json!(9), "TodoWrite", json!({"todos": []})),
    ]
}

#[tokio::test]
async fn the_reader_answers_plain_calls_with_the_bytes_rmcp_would_write() {
    let mut actual = Vec::new();
    let mut expected = Vec::new();
    for version in ["2024-11-05", "2025-06-18", "2026-07-28", "2099-01-01"] {
        let script = script(version);
        let (here, answered_here) = run(&script, true).await;
        let (by_rmcp, answered_by_reader) = run(&script, false).await;
        actual.push((version, here, answered_here));
        expected.push((version, by_rmcp, answered_by_reader + 6));
    }
    assert_eq!(actual, expected);
}

#[tokio::test]
async fn a_call_sent_before_the_session_is_open_is_rmcps() {
    let mut script = script("2025-06-18");
    // The call first: rmcp refuses it (no initialize yet), and so the
    // reader must not answer it either.
    script.insert(0, call(json!(10), "TodoWrite", json!({"todos": []})));
    script.truncate(3);
    let (here, answered_here) = run(&script, true).await;
    let (by_rmcp, _) = run(&script, false).await;
    let actual = (here, answered_here);
    let expected = (by_rmcp, 0);
    assert_eq!(actual, expected);
}

#[test]
fn the_reader_answers_only_after_rmcp_accepted_the_one_initialize_below_2026_07_28() {
    let opened = |asked: &[serde_json::Value], answered: (serde_json::Value, &str)| {
        let lifecycle = Lifecycle(Mutex::new(Opening::NotYet));
        for id in asked {
            lifecycle.asked(id);
        }
        lifecycle.answered(&answered.0, answered.1);
        lifecycle.open()
    };
    let accepted =
        |version: &str| format!(r#"{{"jsonrpc":"2.0","id":0,"result":{{"protocolVersion":"{version}"}}}}"#);
    let actual = vec![
        opened(&[json!(0)], (json!(0), &accepted("2025-11-25"))),
        opened(&[json!(0)], (json!(0), &accepted("2026-07-28"))),
        opened(&[json!(0)], (json!(1), &accepted("2025-11-25"))),
        opened(
            &[json!(0)],
            (
                json!(0),
                r#"{"jsonrpc":"2.0","id":0,"error":{"code":-1,"message":"no"}}"#,
            ),
        ),
        opened(&[json!(0), json!(1)], (json!(0), &accepted("2025-11-25"))),
        opened(&[], (json!(0), &accepted("2025-11-25"))),
    ];
    let expected = vec![true, false, false, false, false, false];
    assert_eq!(actual, expected);
}

#[tokio::test]
async fn ids_up_to_2_64_minus_1_come_back_exactly_and_an_id_alone_is_answered() {
    let mut script = script("2025-06-18");
    script.truncate(2);
    script.push(request(json!(u64::MAX), "ping", json!({})));
    script.push(call(
        json!(9_223_372_036_854_775_808u64),
        "TodoWrite",
        json!({"todos": []}),
    ));
    script.push((r#"{"jsonrpc":"2.0","id":201}"#.to_owned(), true));
    script.push((
        r#"{"jsonrpc":"2.0","id":18446744073709551616,"method":"ping"}"#.to_owned(),
        true,
    ));
    let (lines, _) = run(&script, true).await;
    let actual: Vec<String> = lines
        .iter()
        .skip(1)
        .map(|line| {
            let reply: serde_json::Value = serde_json::from_str(line).expect("a JSON reply");
            // The id as written on the wire, and whether it is an error.
            let id = line
                .split("\"id\":")
                .nth(1)
                .unwrap_or("")
                .split([',', '}'])
                .next()
                .unwrap_or("");
            format!(
                "{id} {}",
                reply
                    .get("error")
                    .map_or("result".to_owned(), |e| e["code"].to_string())
            )
        })
        .collect();
    let expected = vec![
        "18446744073709551615 result".to_owned(),
        "9223372036854775808 result".to_owned(),
        "201 -32600".to_owned(),
        "null -32600".to_owned(),
    ];
    assert_eq!(actual, expected);
}

/// A server made for the HTTP edge serves nothing to a request that comes
/// without its caller: no tool call, no listing, no read, no subscription
/// runs on the server's own (whole-store) service.
#[tokio::test]
async fn a_server_for_the_http_edge_refuses_a_request_without_its_caller() {
    let mut script = vec![
        request(
            json!(0),
            "initialize",
            json!({"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}),
        ),
        (
            json!({"jsonrpc": "2.0", "method": "notifications/initialized"}).to_string(),
            false,
        ),
    ];
    script.push(call(json!(1), "TodoWrite", json!({"todos": []})));
    script.push(request(json!(2), "resources/list", json!({})));
    script.push(request(
        json!(3),
        "resources/read",
        json!({"uri": "todokit://conversations/default"}),
    ));
    script.push(request(
        json!(4),
        "resources/subscribe",
        json!({"uri": "todokit://conversations/default"}),
    ));
    let (lines, _) = run_on(server().callers_only(), &script, false).await;
    let actual: Vec<serde_json::Value> = lines
        .iter()
        .skip(1)
        .map(|line| {
            let answer: serde_json::Value = serde_json::from_str(line).unwrap_or_default();
            json!([answer["id"], answer["error"]["message"]])
        })
        .collect();
    let refused = "this request came without its caller, so it is refused";
    let expected = vec![
        json!([1, refused]),
        json!([2, refused]),
        json!([3, refused]),
        json!([4, refused]),
    ];
    assert_eq!(actual, expected);
}
