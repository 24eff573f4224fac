//! `todokit serve` against a hostile caller, over real sockets on
//! loopback: the session quotas whatever the headers say, `initialize`
//! parameters bounded, JSON-RPC errors for messages that are not valid
//! requests, bodies on a deadline, a 413 a client that writes first can
//! read, one `Host` per request, unknown sessions unknown, signals taken
//! over before the first line, and no open server behind a proxy.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::Stdio;
use std::time::{Duration, Instant};

use pretty_assertions::assert_eq;
use serde_json::{Value, json};

use crate::support::cli::{todokit, write_todos};
use crate::support::serve::{Events, Reply, Server, mcp_initialize, mcp_post, open_session, request};

/// A reply's status, and its JSON-RPC id and error code.
fn refusal(reply: &Reply) -> (u16, Value, Value) {
    let body = reply.json();
    (reply.status, body["id"].clone(), body["error"]["code"].clone())
}

/// The resident memory of process `pid`, in KiB.
fn rss_kib(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .unwrap_or_default()
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|kib| kib.parse().ok())
        .unwrap_or(0)
}

#[test]
fn a_public_host_without_any_token_is_refused_at_start() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = todokit(&dir.path().join("store"))
        .args(["serve", "--bind", "127.0.0.1:0", "--public-host", "board.example"])
        .stdin(Stdio::null())
        .output()
        .expect("todokit runs");
    let actual = (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).trim().to_owned(),
    );
    let expected = (
        Some(2),
        String::new(),
        "todokit serve: --public-host serves callers who reach this server through a proxy, and with no token \
         each of them would see and change every list; give --token TOKEN or --token-file FILE"
            .to_owned(),
    );
    assert_eq!(actual, expected);
}

/// A supervisor that reloads the token file as soon as it sees the first
/// line must not kill the server (SIGHUP's default ends a process).
#[test]
fn a_hangup_right_after_the_first_line_leaves_the_server_running() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = crate::support::serve::tenant_tokens(dir.path());
    let store = dir.path().join("store");
    let mut survived = 0;
    for _ in 0..20 {
        let mut child = todokit(&store)
            .args(["serve", "--bind", "127.0.0.1:0", "--token-file"])
            .arg(&file)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("todokit serve starts");
        let mut first = String::new();
        let mut out = BufReader::new(child.stdout.take().expect("piped"));
        out.read_line(&mut first).expect("the first line");
        let _ = std::process::Command::new("kill")
            .args(["-HUP", &child.id().to_string()])
            .status();
        std::thread::sleep(Duration::from_millis(200));
        if child.try_wait().ok().flatten().is_none() {
            survived += 1;
        }
        let _ = child.kill();
        let _ = child.wait();
    }
    assert_eq!(survived, 20);
}

#[test]
fn a_session_id_the_server_never_opened_is_not_found() {
    let dir = tempfile::tempdir().expect("temp dir");
    let server = Server::start(&dir.path().join("store"), &[]);
    let reply = mcp_post(
        &server.address,
        &[
            ("Mcp-Session-Id", "made-up"),
            ("Mcp-Protocol-Version", "2025-11-25"),
        ],
        &json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}),
    );
    assert_eq!(reply.status, 404);
}

/// `Mcp-Method` says `ping`, the body says `initialize`: a session opens
/// and counts, so the process cap holds whatever the header claims, and
/// memory stays within what the kept sessions take.
#[test]
fn the_process_cap_holds_whatever_the_headers_say() {
    let dir = tempfile::tempdir().expect("temp dir");
    let server = Server::start(&dir.path().join("store"), &["--max-sessions", "50"]);
    let padding = "p".repeat(60 * 1024);
    let before = rss_kib(server.pid());
    let mut statuses = std::collections::BTreeMap::new();
    for id in 0..120 {
        let init = json!({"jsonrpc": "2.0", "id": id, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "x", "version": "1"},
            "padding": padding}});
        let reply = mcp_post(&server.address, &[("Mcp-Method", "ping")], &init);
        *statuses.entry(reply.status).or_insert(0) += 1;
        if reply.status == 503 {
            assert_eq!(refusal(&reply), (503, json!(id), json!(-32600)));
        }
    }
    let grown = rss_kib(server.pid()).saturating_sub(before);
    assert_eq!(statuses, [(200, 50), (503, 70)].into_iter().collect());
    // 50 kept sessions of 60 KiB each, with room for the allocator.
    assert!(grown < 48 * 1024, "grew by {grown} KiB");
}

/// One tenant at its session quota gets 429; the other tenant and the
/// operator are still served.
#[test]
fn one_tenant_at_its_quota_leaves_the_others_served() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = crate::support::serve::tenant_tokens(dir.path());
    let server = Server::start(
        &dir.path().join("store"),
        &[
            "--token",
            "t-operator",
            "--token-file",
            file.to_str().unwrap_or_default(),
            "--max-sessions-per-token",
            "3",
        ],
    );
    let acme = [("Authorization", "Bearer t-acme")];
    let opened: Vec<u16> = (0..5)
        .map(|_| mcp_initialize(&server.address, &acme).status)
        .collect();
    let refused = mcp_initialize(&server.address, &acme);
    let initech = mcp_initialize(&server.address, &[("Authorization", "Bearer t-initech")]);
    let operator = mcp_initialize(&server.address, &[("Authorization", "Bearer t-operator")]);
    let actual = (
        opened,
        refusal(&refused),
        refused.json()["error"]["message"].clone(),
        initech.status,
        operator.status,
    );
    let expected = (
        vec![200, 200, 200, 429, 429],
        (429, json!(0), json!(-32600)),
        json!("this token already holds 3 MCP sessions; end one (DELETE) before opening another"),
        200,
        200,
    );
    assert_eq!(actual, expected);
}

#[test]
fn an_initialize_with_more_than_64_kib_of_parameters_opens_nothing() {
    let dir = tempfile::tempdir().expect("temp dir");
    let server = Server::start(&dir.path().join("store"), &[]);
    let init = json!({"jsonrpc": "2.0", "id": 7, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "x", "version": "1"},
        "padding": "p".repeat(64 * 1024)}});
    let reply = mcp_post(&server.address, &[], &init);
    let actual = (refusal(&reply), reply.header("mcp-session-id").is_some());
    let expected = ((200, json!(7), json!(-32602)), false);
    assert_eq!(actual, expected);
}

/// What JSON-RPC 2.0 and the MCP transport ask for messages that are not
/// valid requests, with the status each gets.
#[test]
fn messages_that_are_not_valid_requests_get_json_rpc_errors() {
    let dir = tempfile::tempdir().expect("temp dir");
    let server = Server::start(&dir.path().join("store"), &[]);
    let session = open_session(&server.address, &[]);
    let in_session = [
        ("Mcp-Session-Id", session.as_str()),
        ("Mcp-Protocol-Version", "2025-11-25"),
    ];
    let post = |body: &str| {
        let mut headers = crate::support::serve::MCP_HEADERS.to_vec();
        headers.extend_from_slice(&in_session);
        refusal(&request(&server.address, "POST", "/mcp", &headers, Some(body)))
    };
    let actual = vec![
        post("{not json"),
        post(r#"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#),
        post(r#"{"jsonrpc":"2.0","id":null,"method":"ping"}"#),
        post(r#"{"jsonrpc":"1.0","id":2,"method":"ping"}"#),
        post(r#"{"jsonrpc":"2.0","id":3,"method":"tools/call"}"#),
        post(
            r#"{"jsonrpc":"2.0","id":"\u0001x","method":"tools/call","params":{"name":"TodoWrite","arguments":{"todos":[]}}}"#,
        ),
    ];
    let expected = vec![
        (400, Value::Null, json!(-32700)),
        (400, Value::Null, json!(-32600)),
        (400, Value::Null, json!(-32600)),
        (400, json!(2), json!(-32600)),
        (200, json!(3), json!(-32602)),
        (400, json!("\u{1}x"), json!(-32600)),
    ];
    assert_eq!(actual, expected);
}

/// A body that does not arrive within 30 s of its head: 408 and the
/// connection closed, so a client dripping a byte every few seconds holds
/// nothing for long.
#[test]
fn a_drip_fed_body_is_cut_off_after_its_deadline() {
    let dir = tempfile::tempdir().expect("temp dir");
    let server = Server::start(&dir.path().join("store"), &[]);
    let mut stream = TcpStream::connect(&server.address).expect("connects");
    let head = format!(
        "POST /mcp HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nAccept: application/json, \
         text/event-stream\r\nContent-Length: 1000\r\n\r\n{{",
        server.address
    );
    stream.write_all(head.as_bytes()).expect("sent");
    stream.set_read_timeout(Some(Duration::from_secs(3))).ok();
    let start = Instant::now();
    let mut answer = Vec::new();
    // Drip a byte every 2 s and look for the answer in between.
    while start.elapsed() < Duration::from_secs(45) {
        let mut buffer = [0u8; 4096];
        match stream.read(&mut buffer) {
            Ok(0) => break,
            Ok(n) => answer.extend_from_slice(&buffer[..n]),
            Err(_) => {
                if stream.write_all(b" ").is_err() {
                    break;
                }
            }
        }
    }
    let waited = start.elapsed();
    let text = String::from_utf8_lossy(&answer);
    assert!(text.starts_with("HTTP/1.1 408"), "{text}");
    assert!(
        waited >= Duration::from_secs(29) && waited < Duration::from_secs(40),
        "{waited:?}"
    );
}

/// A client that writes its whole 20 MB request before reading (as
/// Python's `http.client` does) reads the 413, not a reset.
#[test]
fn a_client_that_writes_a_huge_body_first_reads_the_413() {
    let dir = tempfile::tempdir().expect("temp dir");
    let server = Server::start(&dir.path().join("store"), &[]);
    let body = vec![b' '; 20 << 20];
    let mut stream = TcpStream::connect(&server.address).expect("connects");
    let head = format!(
        "POST /mcp HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nAccept: application/json, \
         text/event-stream\r\nContent-Length: {}\r\n\r\n",
        server.address,
        body.len()
    );
    stream.write_all(head.as_bytes()).expect("the head is sent");
    let written = stream.write_all(&body).is_ok();
    stream.set_read_timeout(Some(Duration::from_secs(10))).ok();
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    let text = String::from_utf8_lossy(&answer);
    assert!(written, "the server stopped reading before the body was written");
    assert!(text.starts_with("HTTP/1.1 413"), "{text}");
}

#[test]
fn a_request_with_two_hosts_or_broken_chunks_is_a_bad_request() {
    let dir = tempfile::tempdir().expect("temp dir");
    let server = Server::start(&dir.path().join("store"), &[]);
    let raw = |text: String| {
        let mut stream = TcpStream::connect(&server.address).expect("connects");
        stream.set_read_timeout(Some(Duration::from_secs(10))).ok();
        stream.write_all(text.as_bytes()).expect("sent");
        let mut answer = Vec::new();
        let _ = stream.read_to_end(&mut answer);
        String::from_utf8_lossy(&answer)
            .lines()
            .next()
            .unwrap_or_default()
            .to_owned()
    };
    let address = &server.address;
    let actual = [
        raw(format!(
            "GET /healthz HTTP/1.1\r\nHost: {address}\r\nHost: evil.example\r\nConnection: close\r\n\r\n"
        )),
        raw(format!(
            "POST /mcp HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\nAccept: application/json, \
             text/event-stream\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\nZZ\r\n{{}}\r\n0\r\n\r\n"
        )),
    ];
    let expected = ["HTTP/1.1 400 Bad Request", "HTTP/1.1 400 Bad Request"];
    assert_eq!(actual, expected);
}

/// The event stream of an MCP session (its GET), as `auth`.
fn mcp_stream(server: &Server, auth: &str, session: &str) -> Events {
    Events::open_with(
        &server.address,
        "/mcp",
        &[
            ("Authorization", auth),
            ("Mcp-Session-Id", session),
            ("Mcp-Protocol-Version", "2025-11-25"),
        ],
    )
}

/// The board's event stream of conversation `id`, as `auth`: open once its
/// first list arrived.
fn board_stream(server: &Server, auth: &str, id: &str) -> Events {
    let mut events = Events::open_with(
        &server.address,
        &format!("/api/conversations/{id}/events"),
        &[("Authorization", auth)],
    );
    assert!(
        events.next("list", Duration::from_secs(5)).is_some(),
        "the stream opened"
    );
    events
}

#[test]
fn a_revoked_token_loses_every_stream_within_two_seconds() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = crate::support::serve::tenant_tokens(dir.path());
    let server = Server::start(
        &dir.path().join("store"),
        &["--token-file", file.to_str().unwrap_or_default()],
    );
    let (acme, initech) = ("Bearer t-acme", "Bearer t-initech");
    let session = open_session(&server.address, &[("Authorization", acme)]);
    let mut acme_mcp = mcp_stream(&server, acme, &session);
    let mut acme_board = board_stream(&server, acme, "plan");
    let mut initech_board = board_stream(&server, initech, "plan");
    // Both open before the token goes.
    assert!(!acme_mcp.ended_within(Duration::from_millis(300)));
    std::fs::write(&file, "t-initech initech\n").expect("token file rewritten");
    server.hang_up();
    let start = Instant::now();
    let ended = (
        acme_board.ended_within(Duration::from_secs(2)),
        acme_mcp.ended_within(Duration::from_secs(2)),
    );
    let within = start.elapsed() < Duration::from_secs(3);
    let others = initech_board.ended_within(Duration::from_millis(500));
    let after = mcp_post(
        &server.address,
        &[
            ("Authorization", acme),
            ("Mcp-Session-Id", &session),
            ("Mcp-Protocol-Version", "2025-11-25"),
        ],
        &json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}),
    );
    let actual = (ended, within, others, after.status);
    let expected = ((true, true), true, false, 401);
    assert_eq!(actual, expected);
}

#[test]
fn one_token_at_its_stream_quota_leaves_the_others_served() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = crate::support::serve::tenant_tokens(dir.path());
    let server = Server::start(
        &dir.path().join("store"),
        &[
            "--token-file",
            file.to_str().unwrap_or_default(),
            "--max-streams-per-token",
            "2",
        ],
    );
    let (acme, initech) = ("Bearer t-acme", "Bearer t-initech");
    let session = open_session(&server.address, &[("Authorization", acme)]);
    let _first = board_stream(&server, acme, "a");
    let _second = board_stream(&server, acme, "b");
    let third = request(
        &server.address,
        "GET",
        "/api/conversations/c/events",
        &[("Authorization", acme)],
        None,
    );
    let mcp = request(
        &server.address,
        "GET",
        "/mcp",
        &[
            ("Authorization", acme),
            ("Accept", "text/event-stream"),
            ("Mcp-Session-Id", &session),
            ("Mcp-Protocol-Version", "2025-11-25"),
        ],
        None,
    );
    let _other = board_stream(&server, initech, "a");
    let actual = (third.status, third.json(), refusal(&mcp));
    let expected = (
        429,
        json!({"error": "this token already holds 2 live streams; close one and retry"}),
        (429, Value::Null, json!(-32600)),
    );
    assert_eq!(actual, expected);
}

/// A list that cannot be read, seen by a tenant through MCP and the board's
/// API: what failed, with a reference to the server's log, never the
/// store's path.
#[test]
fn a_tenant_reads_what_failed_never_where() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = crate::support::serve::tenant_tokens(dir.path());
    let store = dir.path().join("store");
    write_todos(
        &store,
        "acme/plan",
        &json!([crate::support::serve::todo("Ship", "pending")]),
    );
    for entry in std::fs::read_dir(&store)
        .expect("the store")
        .filter_map(Result::ok)
    {
        if entry.path().extension().is_some_and(|e| e == "json") {
            std::fs::write(entry.path(), "{ not json").expect("broken");
        }
    }
    let server = Server::start(&store, &["--token-file", file.to_str().unwrap_or_default()]);
    let auth = [("Authorization", "Bearer t-acme")];
    let session = open_session(&server.address, &auth);
    let mut in_session = auth.to_vec();
    in_session.push(("Mcp-Session-Id", &session));
    in_session.push(("Mcp-Protocol-Version", "2025-11-25"));
    let call = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
        "name": "TodoWrite", "arguments": {"todos": []}, "_meta": {"todokit/conversation": "plan"}}});
    let answer = crate::support::serve::mcp_message(&mcp_post(&server.address, &in_session, &call));
    let api = request(&server.address, "GET", "/api/conversations/plan", &auth, None);
    let texts = [answer.to_string(), api.body.clone()];
    let place = dir.path().display().to_string();
    let actual: Vec<(bool, bool)> = texts
        .iter()
        .map(|text| {
            (
                text.contains(&place) || text.contains("c-"),
                text.contains("request r-"),
            )
        })
        .collect();
    assert_eq!(actual, vec![(false, true), (false, true)], "{texts:?}");
}

/// At `--max-connections`, a new connection waits until one closes: the
/// process never holds more, and the waiting one is served then.
#[test]
fn past_the_connection_cap_a_new_client_waits_for_a_free_place() {
    let dir = tempfile::tempdir().expect("temp dir");
    let server = Server::start(&dir.path().join("store"), &["--max-connections", "3"]);
    // Three clients that send half a head and wait.
    let holders: Vec<TcpStream> = (0..3)
        .map(|_| {
            let mut stream = TcpStream::connect(&server.address).expect("connects");
            stream.write_all(b"GET /healthz HTTP/1.1\r\n").expect("sent");
            stream
        })
        .collect();
    std::thread::sleep(Duration::from_millis(300));
    let mut late = TcpStream::connect(&server.address).expect("the backlog takes it");
    let head = format!(
        "GET /healthz HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
        server.address
    );
    late.write_all(head.as_bytes()).expect("sent");
    late.set_read_timeout(Some(Duration::from_millis(800))).ok();
    let mut buffer = [0u8; 64];
    let answered_while_full = late.read(&mut buffer).is_ok_and(|n| n > 0);
    drop(holders);
    late.set_read_timeout(Some(Duration::from_secs(5))).ok();
    let mut answer = Vec::new();
    let _ = late.read_to_end(&mut answer);
    let actual = (
        answered_while_full,
        String::from_utf8_lossy(&answer)
            .lines()
            .next()
            .unwrap_or_default()
            .to_owned(),
    );
    let expected = (false, "HTTP/1.1 200 OK".to_owned());
    assert_eq!(actual, expected);
}

/// The shapes of millions of tiny values, over HTTP in a session (rmcp
/// would read each as a tree): refused by count at the edge, the peak
/// memory within 8 times the body's size, or 64 MiB, of where it rested.
#[test]
fn a_refused_message_of_any_shape_takes_memory_in_proportion_to_its_size() {
    let dir = tempfile::tempdir().expect("temp dir");
    let server = Server::start(&dir.path().join("store"), &[]);
    let session = open_session(&server.address, &[]);
    let headers = [
        ("Mcp-Session-Id", session.as_str()),
        ("Mcp-Protocol-Version", "2025-11-25"),
    ];
    let resting = crate::support::cli::status_kib(server.pid(), "VmRSS");
    let shapes = crate::support::cli::tiny_value_floods();
    let mut largest = 0;
    let statuses: Vec<(u16, Value)> = shapes
        .iter()
        .enumerate()
        .map(|(i, todos)| {
            let body = format!(
                r#"{{"jsonrpc":"2.0","id":{i},"method":"tools/call","params":{{"name":"TodoWrite","arguments":{{"todos":{todos}}}}}}}"#
            );
            largest = largest.max(body.len());
            let mut all = crate::support::serve::MCP_HEADERS.to_vec();
            all.extend_from_slice(&headers);
            let reply = request(&server.address, "POST", "/mcp", &all, Some(&body));
            (reply.status, reply.json()["error"]["code"].clone())
        })
        .collect();
    let grown = crate::support::cli::status_kib(server.pid(), "VmHWM").saturating_sub(resting);
    let bound = crate::support::cli::memory_bound_kib(largest);
    assert_eq!(statuses, vec![(400, json!(-32600)); 3]);
    assert!(grown <= bound, "grew {grown} KiB (bound {bound} KiB)");
}

/// What `serve` prints on start, every line (the address and the sign-in
/// code made stable): pinned, since scripts and supervisors read it.
#[test]
fn the_start_up_lines_are_pinned() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut child = todokit(&dir.path().join("store"))
        .args(["serve", "--bind", "127.0.0.1:0", "--token", "t-operator"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("todokit serve starts");
    let mut out = BufReader::new(child.stdout.take().expect("piped"));
    let mut lines = Vec::new();
    for _ in 0..3 {
        let mut line = String::new();
        out.read_line(&mut line).expect("a line");
        lines.push(line.trim_end().to_owned());
    }
    let _ = child.kill();
    let _ = child.wait();
    let address = lines[0]
        .split("http://")
        .nth(1)
        .map(|rest| rest.trim_end_matches('/').to_owned())
        .unwrap_or_default();
    let text = lines.join("\n").replace(&address, "ADDRESS");
    let text = match text.split_once("code=") {
        Some((before, after)) => format!(
            "{before}code=CODE{}",
            after
                .split_once(' ')
                .map(|(_, rest)| format!(" {rest}"))
                .unwrap_or_default()
        ),
        None => text,
    };
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(concat!(env!("CARGO_MANIFEST_DIR"), "/../../snapshots"));
    settings.set_omit_expression(true);
    settings.bind(|| insta::assert_snapshot!("serve_start_up_lines", text));
}
