//! The direct path of `todokit serve`'s MCP endpoint: a plain
//! `tools/call` is answered without rmcp, and the answer must be the one
//! rmcp gives. Each case is sent twice, once plain and once with an extra
//! `_meta` key the direct path does not take (so rmcp answers it), and the
//! two answers compared.

use pretty_assertions::assert_eq;
use serde_json::{Value, json};

use crate::support::serve::{Reply, Server, todo};

/// The cases: (endpoint, tool, arguments, extra `_meta`).
fn cases() -> Vec<(&'static str, &'static str, Value, Value)> {
    vec![
        (
            "/mcp",
            "TodoWrite",
            json!({"todos": [todo("Plan it", "in_progress")]}),
            json!({}),
        ),
        ("/mcp", "TodoWrite", json!({"todos": "not a list"}), json!({})),
        ("/mcp", "NoSuchTool", json!({}), json!({})),
        (
            "/mcp/codex",
            "update_plan",
            json!({"plan": [{"step": "Look", "status": "pending"}]}),
            json!({"todokit/mode": "plan"}),
        ),
        (
            "/mcp",
            "TodoWrite",
            json!({"todos": []}),
            json!({"todokit/conversation": "named"}),
        ),
    ]
}

#[test]
fn a_plain_call_of_2026_07_28_is_answered_as_rmcp_answers_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = dir.path().join("store");
    let server = Server::start(&store, &[]);
    let meta = json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {}});
    let cases = cases();
    let mut actual = Vec::new();
    let mut expected = Vec::new();
    for (i, (path, tool, arguments, extra)) in cases.iter().enumerate() {
        let mut plain_meta = meta.clone();
        for (key, value) in extra.as_object().into_iter().flatten() {
            plain_meta[key] = value.clone();
        }
        // An extra key the direct path does not take sends the same call
        // through rmcp.
        let mut rmcp_meta = plain_meta.clone();
        rmcp_meta["org.example/trace"] = json!("1");
        let send = |meta: &Value, conversation: &str| {
            let body = json!({"jsonrpc": "2.0", "id": i, "method": "tools/call",
                "params": {"name": tool, "arguments": arguments, "_meta": meta}});
            let reply = crate::support::serve::request(
                &server.address,
                "POST",
                path,
                &[
                    ("Content-Type", "application/json"),
                    ("Accept", "application/json, text/event-stream"),
                    ("Mcp-Protocol-Version", "2026-07-28"),
                    ("Mcp-Method", "tools/call"),
                    ("Mcp-Name", tool),
                    ("Todokit-Conversation", conversation),
                ],
                Some(&body.to_string()),
            );
            (
                reply.status,
                reply.header("content-type").map(str::to_owned),
                reply.json(),
            )
        };
        actual.push(send(&plain_meta, &format!("direct-{i}")));
        expected.push(send(&rmcp_meta, &format!("rmcp-{i}")));
    }
    assert_eq!(actual, expected);
    assert_eq!(actual[0].2["result"]["isError"], json!(false), "{:?}", actual[0]);
    assert_eq!(actual[2].2["error"]["code"], json!(-32602), "{:?}", actual[2]);
}

/// A session of protocol `version` opened on `path`: its id.
fn session(address: &str, path: &str, version: &str) -> String {
    let post = |headers: &[(&str, &str)], body: &Value| {
        let mut all = crate::support::serve::MCP_HEADERS.to_vec();
        all.extend_from_slice(headers);
        crate::support::serve::request(address, "POST", path, &all, Some(&body.to_string()))
    };
    let opened = post(
        &[],
        &json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": version, "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}}),
    );
    let id = opened.header("mcp-session-id").unwrap_or_default().to_owned();
    let initialized = post(
        &[("Mcp-Session-Id", &id), ("Mcp-Protocol-Version", version)],
        &json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
    );
    assert_eq!((opened.status, initialized.status), (200, 202), "{}", opened.body);
    id
}

/// What a client reads of an answer in a session: its status, content
/// type, and the message of its one event with a message.
fn read(reply: &Reply) -> (u16, Option<String>, Value) {
    (
        reply.status,
        reply.header("content-type").map(str::to_owned),
        crate::support::serve::mcp_message(reply),
    )
}

#[test]
fn a_plain_call_in_a_session_is_answered_as_rmcp_answers_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = dir.path().join("store");
    let server = Server::start(&store, &[]);
    let mut actual = Vec::new();
    let mut expected = Vec::new();
    let mut framing = Vec::new();
    for version in ["2025-06-18", "2025-11-25"] {
        for (i, (path, tool, arguments, extra)) in cases().into_iter().enumerate() {
            let id = session(&server.address, path, version);
            // A progress token is a key the direct path leaves to rmcp (no
            // progress is ever reported, so the answer is the same).
            let mut rmcp_meta = extra.clone();
            rmcp_meta["progressToken"] = json!("p");
            let send = |meta: &Value, conversation: &str| {
                let mut params = json!({"name": tool, "arguments": arguments});
                if meta.as_object().is_some_and(|meta| !meta.is_empty()) {
                    params["_meta"] = meta.clone();
                }
                let body = json!({"jsonrpc": "2.0", "id": i, "method": "tools/call", "params": params});
                crate::support::serve::request(
                    &server.address,
                    "POST",
                    path,
                    &[
                        ("Content-Type", "application/json"),
                        ("Accept", "application/json, text/event-stream"),
                        ("Mcp-Session-Id", &id),
                        ("Mcp-Protocol-Version", version),
                        ("Todokit-Conversation", conversation),
                    ],
                    Some(&body.to_string()),
                )
            };
            let direct = send(&extra, &format!("direct-{version}-{i}"));
            let through_rmcp = send(&rmcp_meta, &format!("rmcp-{version}-{i}"));
            actual.push(read(&direct));
            expected.push(read(&through_rmcp));
            // Both streams open with the priming event (an id, the retry
            // hint, empty data), then the message with the next id.
            framing.push((shape(&unchunked(&direct)), shape(&unchunked(&through_rmcp))));
        }
    }
    assert_eq!(actual, expected);
    assert_eq!(actual[0].2["result"]["isError"], json!(false), "{:?}", actual[0]);
    assert_eq!(actual[2].2["error"]["code"], json!(-32602), "{:?}", actual[2]);
    let primed = "data: \nid: 0/*\nretry: 3000\n\ndata: <message>\nid: 1/*\n".to_owned();
    assert_eq!(framing, vec![(primed.clone(), primed); 10]);
}

/// A reply's body as its client reads it: rmcp streams its answer in
/// HTTP chunks (the direct path sends it whole, with its length), and the
/// test's client reads the bytes as they came.
fn unchunked(reply: &crate::support::serve::Reply) -> String {
    if reply.header("transfer-encoding") != Some("chunked") {
        return reply.body.clone();
    }
    let (mut rest, mut body) = (reply.body.as_str(), String::new());
    while let Some((size, after)) = rest.split_once("\r\n") {
        let size = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if size == 0 || after.len() < size {
            break;
        }
        body.push_str(&after[..size]);
        rest = after[size..].strip_prefix("\r\n").unwrap_or(&after[size..]);
    }
    body
}

/// An event stream's framing: its ids' event numbers, its retry hints, and
/// where a message or empty data stands.
fn shape(body: &str) -> String {
    body.lines()
        .map(|line| match line.split_once(": ") {
            Some(("id", id)) => format!("id: {}/*", id.split('/').next().unwrap_or_default()),
            Some(("data", data)) if !data.is_empty() => "data: <message>".to_owned(),
            _ => line.to_owned(),
        })
        .collect::<Vec<_>>()
        .join("\n")
}
