//! `todokit serve`'s MCP endpoint over Streamable HTTP, driven by the
//! official TypeScript SDK's `StreamableHTTPClientTransport`
//! (`tests/clients/mcp_client.mjs`): every profile's tools listed and
//! called, resources read and followed in both protocol eras, and the
//! conversation a request names by `_meta`, header or query.

use std::path::Path;

use pretty_assertions::assert_eq;
use serde_json::{Value, json};

use crate::support::cli::{todokit, write_todos};
use crate::support::node::{NodeClient, ask};
use crate::support::serve::{Server, todo};

/// A client of `url` sending `headers` with every request, connected.
fn connect(url: &str, headers: &Value, era: &str) -> NodeClient {
    crate::support::node::connect_mcp(url, headers, era)
}

/// What `todokit call` answers on `store` for the same call.
fn cli_call(store: &Path, profile: &str, conversation: &str, tool: &str, args: &str) -> Value {
    let out = todokit(store)
        .args([
            "--profile",
            profile,
            "--conversation",
            conversation,
            "call",
            tool,
            args,
        ])
        .output()
        .expect("todokit runs");
    let answer: Value = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    json!({"text": answer["content"], "isError": answer["is_error"], "details": answer["details"]})
}

#[test]
fn the_typescript_client_lists_and_calls_every_profile_over_http() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = dir.path().join("store");
    let reference = dir.path().join("reference");
    // The details as structured content (asked for here, off by default),
    // so the client's answer can be held against `todokit call`'s whole.
    let server = Server::start(&store, &["--structured-content"]);
    let mut actual = Vec::new();
    let mut expected = Vec::new();
    // One node process visits every profile's endpoint in turn.
    let mut client: Option<NodeClient> = None;
    for profile in todokit::profiles::all() {
        let name = profile.name();
        let conversation = format!("ex-{name}");
        let headers = json!({"Todokit-Conversation": conversation});
        let url = server.url(&format!("/mcp/{name}"));
        let client = match client.as_mut() {
            Some(client) => {
                ask(
                    client,
                    json!({"do": "connect", "url": url, "headers": headers}),
                    "connected",
                );
                client
            }
            None => client.insert(connect(&url, &headers, "legacy")),
        };
        let tools = ask(client, json!({"do": "tools"}), "tools");
        let example = profile.example().expect("every profile has an example");
        let call = json!({"do": "call", "name": example.tool, "arguments": serde_json::from_str::<Value>(example.arguments).unwrap_or_default()});
        let called = ask(client, call, "called");
        actual.push(json!({
            "profile": name,
            "tools": tools,
            "answer": {"text": called["content"][0]["text"], "isError": called["isError"], "details": called["structuredContent"]},
        }));
        let definitions: Vec<Value> = profile
            .tools()
            .map(|tool| todokit::app::schema::definition(tool, todokit::SchemaTarget::Mcp))
            .collect();
        expected.push(json!({
            "profile": name,
            "tools": definitions,
            "answer": cli_call(&reference, name, &conversation, example.tool, example.arguments),
        }));
    }
    assert_eq!(actual, expected);
}

#[test]
fn the_conversation_comes_from_meta_then_header_then_query_then_default() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = dir.path().join("store");
    let server = Server::start(&store, &[]);
    let one = |text: &str| json!({"todos": [todo(text, "pending")]});
    let call = |text: &str| json!({"do": "call", "name": "TodoWrite", "arguments": one(text)});
    let mut by_header = connect(
        &server.url("/mcp?conversation=from-query"),
        &json!({"Todokit-Conversation": "caf%C3%A9"}),
        "legacy",
    );
    ask(&mut by_header, call("header"), "called");
    let mut with_meta = call("meta");
    with_meta["meta"] = json!({"todokit/conversation": "from-meta"});
    ask(&mut by_header, with_meta, "called");
    let mut by_query = connect(&server.url("/mcp?conversation=from-query"), &json!({}), "modern");
    ask(&mut by_query, call("query"), "called");
    let mut plain = connect(&server.url("/mcp"), &json!({}), "modern");
    ask(&mut plain, call("default"), "called");

    let listed = ask(&mut plain, json!({"do": "list"}), "listed");
    let mut uris: Vec<String> = serde_json::from_value(listed).unwrap_or_default();
    uris.sort();
    assert_eq!(
        uris,
        [
            "todokit://conversations/caf%C3%A9",
            "todokit://conversations/default",
            "todokit://conversations/from-meta",
            "todokit://conversations/from-query",
        ]
    );
}

#[test]
fn resources_are_read_and_followed_over_http_in_both_eras() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = dir.path().join("store");
    let server = Server::start(&store, &[]);
    for era in ["legacy", "modern"] {
        let conversation = format!("plan-{era}");
        let uri = format!("todokit://conversations/{conversation}");
        write_todos(
            &store,
            &conversation,
            &json!([todo("Plan it", "in_progress"), todo("Do it", "pending")]),
        );
        let mut client = connect(&server.url("/mcp"), &json!({}), era);
        let read = ask(&mut client, json!({"do": "read", "uri": uri}), "read");
        assert!(
            read[0]["text"].as_str().unwrap_or_default().contains("Plan it"),
            "{era}: {read}"
        );
        ask(&mut client, json!({"do": "follow", "uris": [uri]}), "following");
        write_todos(
            &store,
            &conversation,
            &json!([todo("Plan it", "completed"), todo("Do it", "in_progress")]),
        );
        let updated = client.next_where("the update", |m| m.get("updated").is_some());
        assert_eq!(updated, json!({"updated": uri}), "{era}");
    }
}

#[test]
fn a_conversation_id_too_long_is_refused_before_any_call() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = dir.path().join("store");
    let server = Server::start(&store, &[]);
    let long = "a".repeat(4097);
    let by_query = crate::support::serve::request(
        &server.address,
        "POST",
        &format!("/mcp?conversation={long}"),
        &[
            ("Content-Type", "application/json"),
            ("Accept", "application/json, text/event-stream"),
        ],
        Some("{}"),
    );
    let mut client = connect(&server.url("/mcp"), &json!({}), "legacy");
    let mut call = json!({"do": "call", "name": "TodoWrite", "arguments": {"todos": []}});
    call["meta"] = json!({"todokit/conversation": long});
    client.send(call);
    let refused = client.next_where("the refusal", |m| m.get("failed").is_some());
    // One check, the same words wherever the id came from (pinned).
    let actual = format!(
        "query: {} {}\n_meta: {} {}",
        by_query.status,
        by_query.body.trim(),
        refused["code"],
        refused["failed"].as_str().unwrap_or_default()
    );
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(concat!(env!("CARGO_MANIFEST_DIR"), "/../../snapshots"));
    settings.bind(|| insta::assert_snapshot!("serve_mcp_conversation_too_long", actual));
}

#[test]
fn a_stop_lets_the_call_in_flight_finish_then_exits_0() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = dir.path().join("store");
    write_todos(&store, "default", &json!([todo("Before", "pending")]));
    let mut server = Server::start(&store, &[]);
    let session = crate::support::serve::open_session(&server.address, &[]);
    // Another writer holds the conversation's lock for two seconds, so the
    // call below is still running when the server is told to stop.
    let mut holder = std::process::Command::new("flock")
        .arg("-x")
        .arg(store.join("c-default.lock"))
        .args(["-c", "sleep 2"])
        .spawn()
        .expect("flock runs");
    std::thread::sleep(std::time::Duration::from_millis(300));
    let address = server.address.clone();
    let call = std::thread::spawn(move || {
        let args = json!({"todos": [todo("During the stop", "in_progress")]});
        let body = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "TodoWrite", "arguments": args}});
        crate::support::serve::request(
            &address,
            "POST",
            "/mcp",
            &[
                ("Content-Type", "application/json"),
                ("Accept", "application/json, text/event-stream"),
                ("Mcp-Session-Id", &session),
                ("Mcp-Protocol-Version", "2025-11-25"),
            ],
            Some(&body.to_string()),
        )
    });
    std::thread::sleep(std::time::Duration::from_millis(300));
    let stopped = server.stop_with("TERM");
    let reply = call.join().expect("the call's thread");
    let _ = holder.wait();
    let shown = todokit(&store)
        .args(["show", "--format", "json"])
        .output()
        .expect("todokit runs");
    let shown: Value = serde_json::from_slice(&shown.stdout).unwrap_or_default();
    assert_eq!(
        (
            stopped,
            reply.status,
            reply.body.contains("Todos have been modified successfully")
        ),
        (true, 200, true),
        "{}",
        reply.body
    );
    assert!(shown.to_string().contains("During the stop"), "{shown}");
}

/// The value of `series` (name and labels, as written) in a scrape; 0
/// when it is not there yet.
fn sample(scrape: &str, series: &str) -> f64 {
    scrape
        .lines()
        .find_map(|line| line.strip_prefix(series)?.strip_prefix(' ')?.parse().ok())
        .unwrap_or(0.0)
}

/// A plain `tools/call` of protocol 2026-07-28 (no session) as `auth`.
fn stateless_call(address: &str, auth: &str, name: &str, arguments: &Value) -> u16 {
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
    "name": name, "arguments": arguments,
    "_meta": {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": {"name": "counted", "version": "1"},
        "io.modelcontextprotocol/clientCapabilities": {},
    }}});
    let headers = [
        ("Authorization", auth),
        ("Mcp-Protocol-Version", "2026-07-28"),
        ("Mcp-Method", "tools/call"),
        ("Mcp-Name", name),
    ];
    crate::support::serve::mcp_post(address, &headers, &body).status
}

#[test]
fn metrics_move_by_exactly_the_calls_made_and_only_the_operator_reads_them() {
    let dir = tempfile::tempdir().expect("temp dir");
    let tokens = dir.path().join("tokens");
    std::fs::write(&tokens, "t-acme acme\n").expect("token file");
    let server = Server::start(
        &dir.path().join("store"),
        &[
            "--token",
            "t-operator",
            "--token-file",
            tokens.to_str().unwrap_or_default(),
        ],
    );
    let address = server.address.clone();
    let scrape = |auth: &str| {
        crate::support::serve::request(&address, "GET", "/metrics", &[("Authorization", auth)], None)
    };
    let before = scrape("Bearer t-operator").body;
    // Scraped all along while the calls run.
    let scraper = {
        let address = server.address.clone();
        std::thread::spawn(move || {
            (0..40)
                .map(|_| {
                    std::thread::sleep(std::time::Duration::from_millis(10));
                    let reply = crate::support::serve::request(
                        &address,
                        "GET",
                        "/metrics",
                        &[("Authorization", "Bearer t-operator")],
                        None,
                    );
                    reply.status
                })
                .collect::<Vec<u16>>()
        })
    };
    // A tenant's session (protocol 2025-11-25) and the operator's plain
    // calls of 2026-07-28, both on the direct path.
    let session = crate::support::serve::open_session(&server.address, &[("Authorization", "Bearer t-acme")]);
    let in_session = [
        ("Authorization", "Bearer t-acme"),
        ("Mcp-Session-Id", session.as_str()),
        ("Mcp-Protocol-Version", "2025-11-25"),
    ];
    let todos = |n: usize| json!({"todos": [todo(&format!("Step {n}"), "in_progress")]});
    let mut statuses = Vec::new();
    for n in 0..12 {
        let call = json!({"jsonrpc": "2.0", "id": n + 1, "method": "tools/call",
            "params": {"name": "TodoWrite", "arguments": todos(n)}});
        statuses.push(crate::support::serve::mcp_post(&server.address, &in_session, &call).status);
    }
    for n in 0..8 {
        statuses.push(stateless_call(
            &server.address,
            "Bearer t-operator",
            "TodoWrite",
            &todos(n),
        ));
    }
    for _ in 0..3 {
        statuses.push(stateless_call(
            &server.address,
            "Bearer t-operator",
            "TodoWrite",
            &json!({"todos": "x"}),
        ));
    }
    for _ in 0..2 {
        statuses.push(stateless_call(
            &server.address,
            "Bearer t-operator",
            "Nope",
            &json!({}),
        ));
    }
    let during = scraper.join().expect("the scraper ran");
    let after = scrape("Bearer t-operator");
    let moved = |series: &str| sample(&after.body, series) - sample(&before, series);
    let calls = |tool: &str, outcome: &str| {
        moved(&format!(
            "todokit_tool_calls_total{{profile=\"claude-code\",tool=\"{tool}\",outcome=\"{outcome}\"}}"
        ))
    };
    let actual = (
        statuses.iter().all(|status| *status == 200),
        during.iter().all(|status| *status == 200),
        after.header("content-type").map(str::to_owned),
        (
            calls("TodoWrite", "ok"),
            calls("TodoWrite", "refused"),
            calls("unknown", "unknown_tool"),
        ),
        (
            moved("todokit_store_commits_total"),
            moved("todokit_store_conflicts_total"),
        ),
        sample(&after.body, "todokit_mcp_sessions{caller=\"tenant\"}"),
        moved("todokit_http_request_duration_seconds_count{surface=\"mcp\"}") >= 26.0,
        (scrape("Bearer t-acme").status, scrape("Bearer nobody").status),
        after.body.contains("acme"),
    );
    let expected = (
        true,
        true,
        Some("application/openmetrics-text; version=1.0.0; charset=utf-8".to_owned()),
        (20.0, 3.0, 2.0),
        (20.0, 0.0),
        1.0,
        true,
        (403, 401),
        false,
    );
    assert_eq!(actual, expected, "{}", after.body);
    // Each metric's name, kind and help, as an operator reads them.
    let described: Vec<&str> = after
        .body
        .lines()
        .filter(|line| line.starts_with("# HELP") || line.starts_with("# TYPE"))
        .collect();
    crate::support::cli::snapshot_settings()
        .bind(|| insta::assert_snapshot!("serve_metrics_described", described.join("\n")));
}

#[test]
fn the_json_log_has_a_line_per_request_and_a_tenants_failure_whole_under_its_request_id() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = dir.path().join("store");
    let tokens = dir.path().join("tokens");
    std::fs::write(&tokens, "t-acme acme\n").expect("token file");
    write_todos(&store, "acme/broken", &json!([todo("Ship", "pending")]));
    let broken = todokit::JsonFileStore::new(&store).path_for("acme/broken");
    std::fs::write(&broken, "{ not json").expect("broken");
    let log = dir.path().join("log");
    let mut child = todokit(&store)
        .args(["serve", "--bind", "127.0.0.1:0", "--log-format", "json"])
        .args([
            "--token",
            "t-operator",
            "--token-file",
            tokens.to_str().unwrap_or_default(),
        ])
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::fs::File::create(&log).expect("a log file"))
        .spawn()
        .expect("todokit serve starts");
    let mut lines = std::io::BufRead::lines(std::io::BufReader::new(child.stdout.take().expect("piped")));
    let first = lines.next().and_then(Result::ok).unwrap_or_default();
    let address = first
        .split("http://")
        .nth(1)
        .unwrap_or_default()
        .trim_end_matches('/')
        .to_owned();
    let tenant = [("Authorization", "Bearer t-acme")];
    let failed = crate::support::serve::request(&address, "GET", "/api/conversations/broken", &tenant, None);
    let listed = crate::support::serve::request(&address, "GET", "/api/conversations", &tenant, None);
    let refused = crate::support::serve::request(&address, "GET", "/metrics", &tenant, None);
    let _ = std::process::Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status();
    let _ = child.wait();
    let logged: Vec<Value> = std::fs::read_to_string(&log)
        .expect("the log")
        .lines()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|_| panic!("not JSON: {line}")))
        .collect();
    let reference = failed.json()["problem"]
        .as_str()
        .and_then(|problem| problem.split("request ").nth(1))
        .map(|rest| rest.chars().take(10).collect::<String>())
        .unwrap_or_default();
    let requests: Vec<Value> = logged
        .iter()
        .filter(|line| line["target"] == "todokit::request")
        .map(|line| {
            json!([
                line["request"] == json!(reference.clone()),
                line["caller"],
                line["method"],
                line["route"],
                line["status"],
                line["duration_ms"].is_f64()
            ])
        })
        .collect();
    let error = logged
        .iter()
        .find(|line| line["level"] == "ERROR")
        .cloned()
        .unwrap_or_default();
    let actual = (
        (failed.status, listed.status, refused.status),
        reference.len(),
        failed.body.contains(store.to_str().unwrap_or_default()),
        requests,
        (
            error["request"] == json!(reference),
            error["target"].clone(),
            error["error"]
                .as_str()
                .is_some_and(|text| text.contains(broken.to_str().unwrap_or_default())),
        ),
    );
    let expected = (
        (200, 200, 403),
        10,
        false,
        vec![
            json!([true, "tenant", "GET", "/api/conversations/{id}", 200, true]),
            json!([false, "tenant", "GET", "/api/conversations", 200, true]),
            json!([false, "tenant", "GET", "/metrics", 403, true]),
        ],
        (true, json!("todokit::store"), true),
    );
    assert_eq!(actual, expected, "{logged:#?}");
    // The shape of a request's line and of an error's, as a log pipeline
    // reads them: each key and the kind of its value.
    let shape = |line: &Value| {
        let mut keys: Vec<String> = line
            .as_object()
            .into_iter()
            .flatten()
            .map(|(key, value)| {
                let kind = match value {
                    Value::String(_) => "string",
                    Value::Number(_) => "number",
                    Value::Bool(_) => "bool",
                    Value::Null => "null",
                    Value::Array(_) => "array",
                    Value::Object(_) => "object",
                };
                format!("{key}: {kind}")
            })
            .collect();
        keys.sort();
        keys.join("\n")
    };
    let request_line = logged
        .iter()
        .find(|line| line["target"] == "todokit::request")
        .cloned()
        .unwrap_or_default();
    let shown = format!(
        "--- a request\n{}\n--- an error\n{}",
        shape(&request_line),
        shape(&error)
    );
    crate::support::cli::snapshot_settings().bind(|| insta::assert_snapshot!("serve_json_log_lines", shown));
}
