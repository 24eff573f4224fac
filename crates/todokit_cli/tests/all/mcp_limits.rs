//! `todokit mcp` against clients that push it: several conversations on one
//! server, messages past the size cap, endless lines, replies nobody reads,
//! the end of input with a thousand calls still in flight, and request ids
//! in every spelling JSON allows.

use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

use pretty_assertions::assert_eq;
use rmcp::ServiceExt;
use rmcp::model::{CallToolRequestParams, RequestMetaObject};
use rmcp::transport::TokioChildProcess;
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::process::{Child, ChildStdin, ChildStdout};

use crate::support::cli::status_kib;
use crate::support::mcp::{call_line, command, handshake, one, todokit_show};

/// The server as a raw child, past the handshake, its reply to
/// `initialize` already read.
async fn raw_server(store: &Path) -> (Child, ChildStdin, tokio::io::Lines<BufReader<ChildStdout>>) {
    let mut child = command(store, "claude-code")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("todokit mcp starts");
    let mut stdin = child.stdin.take().expect("stdin is piped");
    let mut lines = BufReader::new(child.stdout.take().expect("stdout is piped")).lines();
    for line in handshake() {
        stdin
            .write_all(format!("{line}\n").as_bytes())
            .await
            .expect("the server reads");
    }
    let _ = next_reply(&mut lines).await;
    (child, stdin, lines)
}

async fn next_reply(lines: &mut tokio::io::Lines<BufReader<ChildStdout>>) -> Value {
    match tokio::time::timeout(Duration::from_secs(30), lines.next_line()).await {
        Ok(Ok(Some(line))) => serde_json::from_str(&line).unwrap_or(Value::String(line)),
        _ => Value::Null,
    }
}

async fn send(stdin: &mut ChildStdin, line: &str) {
    stdin.write_all(line.as_bytes()).await.expect("the server reads");
    stdin.write_all(b"\n").await.expect("the server reads");
    stdin.flush().await.expect("the server reads");
}

#[tokio::test]
async fn two_conversations_on_one_server_stay_apart_through_rmcp_and_raw_json_rpc() {
    let store = tempfile::tempdir().unwrap();
    let transport = TokioChildProcess::new(command(store.path(), "claude-code")).expect("todokit mcp starts");
    let client = ().serve(transport).await.expect("the handshake completes");
    for (conversation, content) in [("alpha", "alpha's task"), ("beta", "beta's task")] {
        let mut params = CallToolRequestParams::new("TodoWrite");
        params.arguments = one(content).as_object().cloned();
        let mut meta = serde_json::Map::new();
        meta.insert("todokit/conversation".to_owned(), json!(conversation));
        params.meta = Some(RequestMetaObject::from(meta));
        client.call_tool(params).await.expect("tools/call answers");
    }
    client.cancel().await.ok();

    let (mut child, mut stdin, mut lines) = raw_server(store.path()).await;
    let raw = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "TodoWrite", "arguments": one("gamma's task"), "_meta": {"todokit/conversation": "gamma"}}});
    send(&mut stdin, &raw.to_string()).await;
    send(&mut stdin, &call_line(2, "TodoWrite", one("the default's task"))).await;
    let _ = (next_reply(&mut lines).await, next_reply(&mut lines).await);
    drop(stdin);
    let _ = child.wait().await;

    let first_task = |conversation: Option<&str>| {
        todokit_show(store.path(), conversation)["phases"][0]["tasks"][0]["content"].clone()
    };
    let actual = [
        first_task(Some("alpha")),
        first_task(Some("beta")),
        first_task(Some("gamma")),
        first_task(None),
    ];
    let expected = [
        json!("alpha's task"),
        json!("beta's task"),
        json!("gamma's task"),
        json!("the default's task"),
    ];
    assert_eq!(actual, expected);
}

#[tokio::test]
async fn a_20_mb_request_gets_an_error_with_its_id_within_seconds_and_the_server_stays_up() {
    let store = tempfile::tempdir().unwrap();
    let (mut child, mut stdin, mut lines) = raw_server(store.path()).await;
    let big = one(&"x".repeat(20 * 1024 * 1024));
    let started = Instant::now();
    send(&mut stdin, &call_line(7, "TodoWrite", big)).await;
    let refused = next_reply(&mut lines).await;
    let waited = started.elapsed();
    send(&mut stdin, &call_line(8, "TodoWrite", one("after"))).await;
    let after = next_reply(&mut lines).await;
    drop(stdin);
    let _ = child.wait().await;
    let actual = (
        refused["id"].clone(),
        refused["error"]["code"].clone(),
        refused["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("reads at most 4194304 bytes")),
        waited < Duration::from_secs(10),
        after["id"].clone(),
        after["result"]["isError"].clone(),
    );
    let expected = (json!(7), json!(-32600), true, true, json!(8), json!(false));
    assert_eq!(actual, expected);
}

#[tokio::test]
async fn a_300_mb_line_without_a_newline_keeps_the_server_under_128_mb() {
    let store = tempfile::tempdir().unwrap();
    let (mut child, mut stdin, mut lines) = raw_server(store.path()).await;
    let pid = child.id().expect("the server runs");
    let chunk = vec![b'x'; 1024 * 1024];
    for _ in 0..300 {
        stdin.write_all(&chunk).await.expect("the server keeps reading");
    }
    // The newline ends the endless line; the next call proves all of it
    // was read before the peak is taken.
    send(&mut stdin, "").await;
    let refused = next_reply(&mut lines).await;
    send(&mut stdin, &call_line(9, "TodoWrite", one("after"))).await;
    let after = next_reply(&mut lines).await;
    let peak_kib = status_kib(pid, "VmHWM");
    drop(stdin);
    let _ = child.wait().await;
    let actual = (
        refused["error"]["code"].clone(),
        refused["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("314572800 bytes")),
        after["result"]["isError"].clone(),
        peak_kib > 0 && peak_kib < 128 * 1024,
    );
    let expected = (json!(-32600), true, json!(false), true);
    assert_eq!(actual, expected, "peak resident set: {peak_kib} KiB");
}

#[tokio::test]
async fn replies_a_client_does_not_read_stop_the_server_reading_instead_of_piling_up() {
    let store = tempfile::tempdir().unwrap();
    let (mut child, mut stdin, mut lines) = raw_server(store.path()).await;
    let pid = child.id().expect("the server runs");
    let calls = 10_000;
    let writer = tokio::spawn(async move {
        for id in 1..=calls {
            let line = json!({"jsonrpc": "2.0", "id": id, "method": "tools/list"}).to_string();
            if stdin.write_all(format!("{line}\n").as_bytes()).await.is_err() {
                break;
            }
        }
        stdin
    });
    // Nobody reads for a while: the server must stall, not buffer.
    tokio::time::sleep(Duration::from_secs(3)).await;
    let stalled_kib = status_kib(pid, "VmRSS");
    let mut answered = 0;
    while answered < calls {
        let reply = next_reply(&mut lines).await;
        if reply.is_null() {
            break;
        }
        answered += 1;
    }
    drop(writer.await);
    let _ = child.wait().await;
    let actual = (answered, stalled_kib > 0 && stalled_kib < 64 * 1024);
    let expected = (calls, true);
    assert_eq!(actual, expected, "resident set while stalled: {stalled_kib} KiB");
}

#[tokio::test]
async fn after_1000_pipelined_calls_and_an_immediate_end_of_input_every_call_is_answered() {
    let store = tempfile::tempdir().unwrap();
    // Another writer holds the conversation's lock for longer than rmcp
    // waits for running calls after the end of input (5 s): every call is
    // still in flight when the input ends.
    let lock = std::fs::File::create(store.path().join("c-default.lock")).expect("the lock file can be made");
    lock.lock().expect("the lock is free");
    let (mut child, mut stdin, mut lines) = raw_server(store.path()).await;
    let calls = 1_000;
    let mut batch = String::new();
    for id in 1..=calls {
        let args = one(&format!("call {id}"));
        batch.push_str(&call_line(id, "TodoWrite", args));
        batch.push('\n');
    }
    // Written while the replies are read, as any client must: a server
    // that buffers only so many replies stops reading when they go unread.
    let writer = tokio::spawn(async move {
        let written = stdin.write_all(batch.as_bytes()).await;
        drop(stdin);
        written
    });
    tokio::time::sleep(Duration::from_secs(6)).await;
    lock.unlock().expect("the lock is held");
    let mut ids = Vec::new();
    let mut successes = 0;
    loop {
        let reply = next_reply(&mut lines).await;
        if reply.is_null() {
            break;
        }
        successes += usize::from(reply["result"]["isError"] == json!(false));
        ids.push(reply["id"].as_i64().unwrap_or(-1));
    }
    let _ = child.wait().await;
    assert!(matches!(writer.await, Ok(Ok(()))), "the server read every call");
    ids.sort_unstable();
    let version = todokit_show(store.path(), None)["version"].as_u64().unwrap_or(0);
    let actual = (ids, successes as u64 == version, successes);
    let expected = ((1..=calls).collect::<Vec<i64>>(), true, 1_000);
    assert_eq!(actual, expected);
}

#[tokio::test]
async fn rmcp_warnings_reach_standard_error() {
    let store = tempfile::tempdir().unwrap();
    let (mut child, mut stdin, mut lines) = raw_server(store.path()).await;
    send(
        &mut stdin,
        &json!({"jsonrpc": "2.0", "id": 3, "method": "no/such/method"}).to_string(),
    )
    .await;
    let reply = next_reply(&mut lines).await;
    drop(stdin);
    let mut stderr = String::new();
    if let Some(mut err) = child.stderr.take() {
        let _ = err.read_to_string(&mut stderr).await;
    }
    let _ = child.wait().await;
    let actual = (reply["error"]["code"].clone(), stderr.contains("WARN"));
    let expected = (json!(-32601), true);
    assert_eq!(actual, expected, "stderr: {stderr}");
}

#[tokio::test]
async fn ids_in_any_spelling_are_each_answered_and_the_end_of_input_is_prompt() {
    let store = tempfile::tempdir().unwrap();
    let (mut child, mut stdin, mut lines) = raw_server(store.path()).await;
    // More than MAX_IN_FLIGHT (32) requests whose ids rmcp answers in
    // another spelling, then ones it cannot read at all or that repeat a
    // key, then a last ping: each gets one reply with its id.
    let mut sent = Vec::new();
    for n in 0..40 {
        let id = match n % 4 {
            0 => format!("{}.0", 100 + n),
            1 => format!("{}e0", 100 + n),
            2 => format!("{}0e-1", 100 + n),
            _ => format!("{}", 100 + n),
        };
        sent.push((
            json!(100 + n),
            format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"ping"}}"#),
        ));
    }
    sent.push((
        json!(0),
        r#"{"jsonrpc":"2.0","id":-0,"method":"ping"}"#.to_owned(),
    ));
    // Not an integer: an invalid request, answered with a null id as
    // JSON-RPC 2.0 says.
    sent.push((
        Value::Null,
        r#"{"jsonrpc":"2.0","id":2.5,"method":"ping"}"#.to_owned(),
    ));
    sent.push((json!(9), r#"{"jsonrpc":"2.0","id":9,"method":null}"#.to_owned()));
    sent.push((
        json!(8),
        r#"{"jsonrpc":"2.0","id":7,"id":8,"method":"ping"}"#.to_owned(),
    ));
    sent.push((
        json!("probe"),
        r#"{"jsonrpc":"2.0","id":"probe","method":"ping"}"#.to_owned(),
    ));
    for (_, line) in &sent {
        send(&mut stdin, line).await;
    }
    let mut answered = Vec::new();
    for _ in 0..sent.len() {
        let reply = next_reply(&mut lines).await;
        answered.push(reply["id"].clone());
    }
    let ended = Instant::now();
    drop(stdin);
    let rest = next_reply(&mut lines).await;
    let exited = tokio::time::timeout(Duration::from_secs(10), child.wait())
        .await
        .is_ok();
    let took = ended.elapsed();
    let mut expected: Vec<String> = sent.iter().map(|(id, _)| id.to_string()).collect();
    let mut answered: Vec<String> = answered.iter().map(Value::to_string).collect();
    expected.sort();
    answered.sort();
    assert_eq!((answered, rest, exited), (expected, Value::Null, true));
    // A request left unsettled would hold the exit for the 60 s drain limit.
    assert!(
        took < Duration::from_secs(5),
        "the server took {took:?} to exit after the end of input"
    );
}

/// Refused calls of the shapes that once took a hundred times their size
/// (millions of tiny values: nested arrays, a flat array, an object of
/// keys), just under the 4 MiB message cap, each by the plain path and by
/// the full reading (a `_meta` key): the server's peak memory stays within
/// 8 times the message's size, or 64 MiB, of where it rested.
#[tokio::test]
async fn a_refused_call_of_any_shape_takes_memory_in_proportion_to_its_size() {
    let store = tempfile::tempdir().unwrap();
    let (child, mut stdin, mut lines) = raw_server(store.path()).await;
    let pid = child.id().unwrap_or_default();
    let resting = status_kib(pid, "VmRSS");
    let mut codes = Vec::new();
    let mut largest = 0usize;
    for (i, todos) in crate::support::cli::tiny_value_floods().iter().enumerate() {
        for meta in [false, true] {
            let meta = if meta { r#","_meta":{"k":1}"# } else { "" };
            let line = format!(
                r#"{{"jsonrpc":"2.0","id":{i},"method":"tools/call","params":{{"name":"TodoWrite","arguments":{{"todos":{todos}}}{meta}}}}}"#
            );
            largest = largest.max(line.len());
            send(&mut stdin, &line).await;
            let reply = next_reply(&mut lines).await;
            codes.push((
                reply["id"].clone(),
                reply["error"]["code"].clone(),
                reply["result"]["isError"].clone(),
            ));
        }
    }
    let peak = status_kib(pid, "VmHWM");
    let bound_kib = crate::support::cli::memory_bound_kib(largest);
    let grown = peak.saturating_sub(resting);
    drop(stdin);
    // The plain path refuses as a tool result (`isError`), the full reading
    // as an invalid request; nothing is stored.
    let expected = vec![
        (json!(0), Value::Null, json!(true)),
        (json!(0), json!(-32600), Value::Null),
        (json!(1), Value::Null, json!(true)),
        (json!(1), json!(-32600), Value::Null),
        (json!(2), Value::Null, json!(true)),
        (json!(2), json!(-32600), Value::Null),
    ];
    assert_eq!(codes, expected);
    assert!(
        grown <= bound_kib,
        "peak {peak} KiB, resting {resting} KiB: grew {grown} KiB (bound {bound_kib} KiB)"
    );
    assert_eq!(todokit_show(store.path(), None)["version"], json!(0));
}
