//! `todokit serve` against a hostile neighbour on the same machine:
//! requests addressed to another name (DNS rebinding), clients that never
//! finish a request, thousands of streams on new ids, and the
//! `Authorization` scheme in any case, and one token sending slow bodies
//! on many connections.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use pretty_assertions::assert_eq;
use serde_json::json;

use crate::support::cli::write_todos;
use crate::support::serve::{Events, Server, request, todo};

/// The name a rebinding page is served from.
const FOREIGN: &str = "rebind.attacker.test";

fn alpha(store: &std::path::Path) {
    write_todos(store, "alpha", &json!([todo("Plan A", "in_progress")]));
}

fn port_of(server: &Server) -> &str {
    server.address.rsplit(':').next().unwrap_or_default()
}

#[test]
fn a_request_addressed_to_another_name_gets_no_list_on_any_route() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = dir.path().join("store");
    alpha(&store);
    let open = Server::start(&store, &[]);
    let guarded = Server::start(&store, &["--token", "s3cret", "--public-host", "board.example"]);
    let routes = [
        ("GET", "/"),
        ("GET", "/c/alpha"),
        ("GET", "/assets/board.js"),
        ("GET", "/api/conversations"),
        ("GET", "/api/conversations/alpha"),
        ("GET", "/api/conversations/alpha/events"),
        ("GET", "/api/events"),
        ("POST", "/api/conversations/alpha/edits"),
        ("GET", "/login?code=x"),
        ("GET", "/no/such/route"),
    ];
    let foreign = format!("{FOREIGN}:{}", port_of(&open));
    let answers: Vec<(&str, u16, bool)> = routes
        .iter()
        .map(|(method, path)| {
            let reply = request(&open.address, method, path, &[("Host", &foreign)], Some(""));
            (*path, reply.status, reply.body.contains("Plan A"))
        })
        .collect();
    let refusal = request(&open.address, "GET", "/", &[("Host", &foreign)], None).body;
    // The user's own names, and the proxy's name the user gave.
    let local = format!("localhost:{}", port_of(&open));
    let auth = ("Authorization", "Bearer s3cret");
    let admitted = [
        request(
            &open.address,
            "GET",
            "/api/conversations/alpha",
            &[("Host", &local)],
            None,
        ),
        request(
            &guarded.address,
            "GET",
            "/api/conversations/alpha",
            &[auth, ("Host", "board.example")],
            None,
        ),
        request(
            &guarded.address,
            "GET",
            "/api/conversations/alpha",
            &[auth, ("Host", "Board.Example:443")],
            None,
        ),
    ]
    .map(|reply| (reply.status, reply.body.contains("Plan A")));
    let guarded_foreign = request(
        &guarded.address,
        "GET",
        "/api/conversations/alpha",
        &[auth, ("Host", &format!("{FOREIGN}:{}", port_of(&guarded)))],
        None,
    )
    .status;

    let expected: Vec<(&str, u16, bool)> = routes.iter().map(|(_, path)| (*path, 421, false)).collect();
    assert_eq!(
        (answers, admitted, guarded_foreign),
        (expected, [(200, true); 3], 421)
    );
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(concat!(env!("CARGO_MANIFEST_DIR"), "/../../snapshots"));
    settings.set_omit_expression(true);
    let refusal = refusal.replace(port_of(&open), "PORT");
    settings.bind(|| insta::assert_snapshot!("serve_foreign_host", refusal.trim_end()));
}

#[test]
fn the_bearer_scheme_is_matched_in_any_case() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = dir.path().join("store");
    alpha(&store);
    let server = Server::start(&store, &["--token", "s3cret"]);
    let statuses = [
        "Bearer s3cret",
        "bearer s3cret",
        "BEARER  s3cret",
        "Basic s3cret",
        "bearer wrong",
    ]
    .map(|value| {
        request(
            &server.address,
            "GET",
            "/api/conversations/alpha",
            &[("Authorization", value)],
            None,
        )
        .status
    });
    assert_eq!(statuses, [200, 200, 200, 401, 401]);
}

#[test]
fn a_client_that_never_finishes_its_request_is_let_go() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = dir.path().join("store");
    alpha(&store);
    let server = Server::start(&store, &[]);
    let mut stalled: Vec<TcpStream> = (0..200)
        .map(|_| {
            let mut stream = TcpStream::connect(&server.address).expect("the server accepts");
            let _ = stream.write_all(b"GET /api/conversations HTTP/1.1\r\nHost: ");
            stream
        })
        .collect();
    // The board still answers others meanwhile.
    let meanwhile = request(&server.address, "GET", "/api/conversations/alpha", &[], None).status;
    // Each stalled connection is closed by the server: a read ends (EOF or
    // reset) instead of waiting on.
    let deadline = Instant::now() + Duration::from_secs(30);
    let closed = stalled
        .iter_mut()
        .map(|stream| {
            let left = deadline
                .saturating_duration_since(Instant::now())
                .max(Duration::from_millis(10));
            stream.set_read_timeout(Some(left)).ok();
            let mut byte = [0u8; 512];
            loop {
                match stream.read(&mut byte) {
                    Ok(0) => return true,
                    Ok(_) => continue,
                    Err(e) => {
                        return e.kind() != std::io::ErrorKind::WouldBlock
                            && e.kind() != std::io::ErrorKind::TimedOut;
                    }
                }
            }
        })
        .filter(|closed| *closed)
        .count();
    assert_eq!((meanwhile, closed), (200, 200));
}

/// Opens a stream on `id`, waits for its first list, and closes it.
fn one_stream(server: &Server, id: &str) -> bool {
    let mut events = Events::open(&server.address, &format!("/api/conversations/{id}/events"));
    events.next("list", Duration::from_secs(10)).is_some()
}

#[test]
fn streams_on_ever_new_ids_leave_no_memory_behind() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = dir.path().join("store");
    alpha(&store);
    let server = Server::start(&store, &[]);
    let pid = server.pid();
    // Warm up the runtime's threads and the allocator's pools first:
    // memory reaches its working size within the first thousand streams.
    let warm = (0..1000)
        .filter(|i| one_stream(&server, &format!("warm-{i}")))
        .count();
    std::thread::sleep(Duration::from_secs(1));
    let start = crate::support::cli::status_kib(pid, "VmRSS");
    let mut served = 0;
    let mut after_rounds = Vec::new();
    for round in 0..3 {
        served += (0..1000)
            .filter(|i| one_stream(&server, &format!("new-{round}-{i}")))
            .count();
        after_rounds.push(crate::support::cli::status_kib(pid, "VmRSS"));
    }
    // The last streams' feeds end at their next tick; then measure in the
    // same quiet as at the start.
    std::thread::sleep(Duration::from_secs(1));
    let deadline = Instant::now() + Duration::from_secs(5);
    let mut end = crate::support::cli::status_kib(pid, "VmRSS");
    while end > start + 5 * 1024 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(200));
        end = crate::support::cli::status_kib(pid, "VmRSS");
    }
    let grew = end.saturating_sub(start);
    assert!(
        warm == 1000 && served == 3000 && grew <= 5 * 1024,
        "{served} of 3000 streams served; RSS {start} KiB at the start, {after_rounds:?} after each 1000, {end} KiB at the end"
    );
    println!("RSS {start} KiB, after each 1000 streams {after_rounds:?} KiB, at the end {end} KiB");
}

/// A head that announces a 1000-byte body, sent with `token`, and one byte
/// of that body: the server holds the connection while the rest trickles.
fn slow_body(server: &Server, token: &str) -> TcpStream {
    let mut stream = TcpStream::connect(&server.address).expect("connects");
    let head = format!(
        "POST /mcp HTTP/1.1\r\nHost: {}\r\nAuthorization: Bearer {token}\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nContent-Length: 1000\r\n\r\n{{",
        server.address
    );
    stream.write_all(head.as_bytes()).expect("sent");
    stream
}

#[test]
fn a_tenant_with_its_share_of_bodies_arriving_is_refused_more_and_others_are_served() {
    let dir = tempfile::tempdir().expect("temp dir");
    let tokens = dir.path().join("tokens");
    std::fs::write(&tokens, "t-acme acme\nt-initech initech\n").expect("token file");
    // 32 connections: each token reads at most 2 bodies at once.
    let args = [
        "--token-file",
        tokens.to_str().unwrap_or_default(),
        "--max-connections",
        "32",
    ];
    let server = Server::start(&dir.path().join("store"), &args);
    let trickling: Vec<TcpStream> = (0..2).map(|_| slow_body(&server, "t-acme")).collect();
    let ask = |token: &str| {
        let auth = format!("Bearer {token}");
        crate::support::serve::mcp_initialize(&server.address, &[("Authorization", auth.as_str())])
    };
    // Asked until the server has taken both slow heads in (a loaded machine
    // takes a moment); with no share at all, every answer would be 200.
    let third = crate::support::serve::poll_until(|| ask("t-acme"), |reply| reply.status == 429);
    let other = ask("t-initech");
    // A caller without a token is refused from its head: its body is
    // never waited for.
    let mut stranger = TcpStream::connect(&server.address).expect("connects");
    let head = format!(
        "POST /mcp HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{{",
        server.address
    );
    stranger.write_all(head.as_bytes()).expect("sent");
    stranger.set_read_timeout(Some(Duration::from_secs(5))).ok();
    let mut buffer = [0u8; 64];
    let read = stranger.read(&mut buffer).unwrap_or(0);
    let stranger_status = String::from_utf8_lossy(&buffer[..read])
        .split_whitespace()
        .nth(1)
        .unwrap_or_default()
        .to_owned();
    drop(trickling);
    std::thread::sleep(Duration::from_millis(300));
    let after = ask("t-acme");
    let actual = (
        third.status,
        third.json()["error"]["message"].clone(),
        other.status,
        stranger_status,
        after.status,
    );
    let expected = (
        429,
        json!("this token already has 2 request bodies arriving; let one finish and retry"),
        200,
        "401".to_owned(),
        200,
    );
    assert_eq!(actual, expected);
}

/// The server's open file descriptors.
fn descriptors(server: &Server) -> usize {
    std::fs::read_dir(format!("/proc/{}/fd", server.pid())).map_or(0, |entries| entries.count())
}

#[test]
fn a_flood_of_sessionless_listens_holds_at_most_the_quotas() {
    let dir = tempfile::tempdir().expect("temp dir");
    let tokens = dir.path().join("tokens");
    std::fs::write(&tokens, "t-acme acme\n").expect("token file");
    let args = [
        "--token-file",
        tokens.to_str().unwrap_or_default(),
        "--max-connections",
        "64",
    ];
    let server = Server::start(&dir.path().join("store"), &args);
    let resting = (
        descriptors(&server),
        crate::support::cli::status_kib(server.pid(), "VmRSS"),
    );
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "subscriptions/listen", "params": {
        "_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientInfo": {"name": "flood", "version": "1"},
            "io.modelcontextprotocol/clientCapabilities": {},
        },
        "notifications": {"resourcesListChanged": true}}})
    .to_string();
    // 100 listens, each on its own connection, none ever closed by the
    // client (more would wait on the system's accept queue, not the server).
    let head = format!(
        "POST /mcp HTTP/1.1\r\nHost: {}\r\nAuthorization: Bearer t-acme\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nMcp-Protocol-Version: 2026-07-28\r\n\
         Mcp-Method: subscriptions/listen\r\nContent-Length: {}\r\n\r\n{body}",
        server.address,
        body.len()
    );
    let flood: Vec<TcpStream> = (0..100)
        .filter_map(|_| {
            let mut stream = TcpStream::connect(&server.address).ok()?;
            stream.write_all(head.as_bytes()).ok()?;
            Some(stream)
        })
        .collect();
    // What each connection heard: its status, or nothing yet (not accepted:
    // it waits in the system's backlog). Asked again until the token's 16
    // streams are all answered (a slow machine takes longer), then once
    // more, so a seventeenth would be seen.
    let mut heard: Vec<Option<String>> = vec![None; flood.len()];
    let held_now = |heard: &[Option<String>]| heard.iter().filter(|s| s.as_deref() == Some("200")).count();
    for round in 0..100 {
        std::thread::sleep(Duration::from_millis(100));
        for (stream, status) in flood.iter().zip(heard.iter_mut()).filter(|(_, s)| s.is_none()) {
            stream.set_read_timeout(Some(Duration::from_millis(5))).ok();
            let mut buffer = [0u8; 12];
            if let Ok(12) = stream.peek(&mut buffer) {
                *status = Some(String::from_utf8_lossy(&buffer[9..12]).into_owned());
            }
        }
        if round >= 10 && held_now(&heard) >= 16 {
            break;
        }
    }
    let mut statuses = std::collections::BTreeMap::new();
    for status in &heard {
        *statuses
            .entry(status.clone().unwrap_or_else(|| "none".to_owned()))
            .or_insert(0) += 1;
    }
    let held = (
        descriptors(&server),
        crate::support::cli::status_kib(server.pid(), "VmRSS"),
    );
    drop(flood);
    // 16 streams held (the token's quota); every other connection refused
    // (429) or still waiting to be accepted, never more than 64 at once.
    let held_streams = statuses.get("200").copied().unwrap_or(0);
    let refused_or_waiting: i32 = statuses
        .iter()
        .filter(|(status, _)| *status != "200")
        .map(|(_, n)| n)
        .sum();
    let others: Vec<&String> = statuses
        .keys()
        .filter(|s| !["200", "429", "none"].contains(&s.as_str()))
        .collect();
    assert_eq!(
        (held_streams, refused_or_waiting, others),
        (16, 84, Vec::<&String>::new()),
        "{statuses:?}"
    );
    assert!(
        held.0 <= resting.0 + 64 + 8,
        "descriptors {} at rest, {} under the flood",
        resting.0,
        held.0
    );
    assert!(
        held.1 <= resting.1 + 64 * 1024,
        "RSS {} KiB at rest, {} KiB under the flood",
        resting.1,
        held.1
    );
}
