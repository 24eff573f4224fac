//! `todokit serve` through a real HTTP client: the JSON API, Server-Sent
//! Events carrying another process's commits, the token and the edit
//! guards.

use std::time::{Duration, Instant};

use pretty_assertions::assert_eq;
use serde_json::{Value, json};

use crate::support::cli::{todokit, write_todos};
use crate::support::serve::{Events, Server, request, todo};

/// Three conversations, written in this order (so `gamma` is the newest).
fn three(store: &std::path::Path) {
    for (id, text) in [("alpha", "Plan A"), ("beta", "Plan B"), ("gamma", "Plan C")] {
        write_todos(
            store,
            id,
            &json!([todo(text, "in_progress"), todo("Ship", "pending")]),
        );
        // The store's change times have millisecond resolution.
        std::thread::sleep(Duration::from_millis(15));
    }
}

#[test]
fn the_api_lists_every_conversation_newest_first_and_events_bring_another_process_commit() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = dir.path().join("store");
    three(&store);
    let server = Server::start(&store, &[]);
    let listed = request(&server.address, "GET", "/api/conversations", &[], None);
    let ids: Vec<Value> = listed
        .json()
        .as_array()
        .into_iter()
        .flatten()
        .map(|c| c["id"].clone())
        .collect();
    let one = request(&server.address, "GET", "/api/conversations/beta", &[], None).json();

    let mut events = Events::open(&server.address, "/api/conversations/alpha/events");
    let first = events
        .next("list", Duration::from_secs(10))
        .map(|d| serde_json::from_str::<Value>(&d).unwrap_or_default());
    let started = Instant::now();
    write_todos(
        &store,
        "alpha",
        &json!([todo("Plan A", "completed"), todo("Ship", "in_progress")]),
    );
    let second = events
        .next("list", Duration::from_secs(10))
        .map(|d| serde_json::from_str::<Value>(&d).unwrap_or_default());
    let within_two_seconds = started.elapsed() < Duration::from_secs(2);

    let mut overview = Events::open(&server.address, "/api/events");
    let summaries = overview
        .next("conversations", Duration::from_secs(10))
        .unwrap_or_default();

    let actual = (
        listed.status,
        listed
            .header("content-security-policy")
            .is_some_and(|p| p.contains("script-src 'self'")),
        ids,
        one["phases"][0]["tasks"][0]["display"].clone(),
        first.map(|v| v["counts"]["completed"].clone()),
        second.map(|v| (v["version"].clone(), v["counts"]["completed"].clone())),
        within_two_seconds,
        summaries.matches("\"id\"").count(),
    );
    let expected = (
        200,
        true,
        vec![json!("gamma"), json!("beta"), json!("alpha")],
        json!("Plan B"),
        Some(json!(0)),
        Some((json!(2), json!(1))),
        true,
        3,
    );
    assert_eq!(actual, expected);
}

#[test]
fn the_overview_comes_in_pages_and_its_stream_sends_only_what_changed() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = dir.path().join("store");
    three(&store);
    let server = Server::start(&store, &[]);
    let get = |path: &str| request(&server.address, "GET", path, &[], None).json();
    let ids = |page: &Value| -> Vec<String> {
        page.as_array()
            .into_iter()
            .flatten()
            .map(|c| c["id"].as_str().unwrap_or_default().to_owned())
            .collect()
    };
    let first = get("/api/conversations?limit=2");
    let last = &first[1];
    let cursor = format!(
        "{}:{}",
        last["changed_at"],
        last["id"].as_str().unwrap_or_default()
    );
    let second = get(&format!("/api/conversations?limit=2&after={cursor}"));

    let mut overview = Events::open(&server.address, "/api/events");
    let page = overview
        .next("conversations", Duration::from_secs(10))
        .unwrap_or_default();
    write_todos(
        &store,
        "beta",
        &json!([todo("Plan B", "completed"), todo("Ship", "in_progress")]),
    );
    let change: Value = overview
        .next("changed", Duration::from_secs(10))
        .and_then(|d| serde_json::from_str(&d).ok())
        .unwrap_or_default();
    let actual = (
        ids(&first),
        ids(&second),
        ids(&serde_json::from_str(&page).unwrap_or_default()),
        ids(&change["changed"]),
        change["changed"][0]["counts"]["completed"].clone(),
        change["removed"].clone(),
    );
    let expected = (
        vec!["gamma".to_owned(), "beta".to_owned()],
        vec!["alpha".to_owned()],
        vec!["gamma".to_owned(), "beta".to_owned(), "alpha".to_owned()],
        vec!["beta".to_owned()],
        json!(1),
        json!([]),
    );
    assert_eq!(actual, expected);
}

#[test]
fn a_non_loopback_bind_without_a_token_is_refused() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = todokit(&dir.path().join("store"))
        .args(["serve", "--bind", "0.0.0.0:0"])
        .output()
        .expect("todokit runs");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let actual = (
        out.status.code(),
        stderr.starts_with("todokit serve: binding 0.0.0.0:0 would show every list"),
    );
    assert_eq!(actual, (Some(2), true), "{stderr}");
}

#[test]
fn with_a_token_every_request_needs_it_and_the_sign_in_link_works_once() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = dir.path().join("store");
    three(&store);
    let server = Server::start(&store, &["--token", "s3cret-token"]);
    let code = server.login_code.clone().unwrap_or_default();
    let get = |path: &str, headers: &[(&str, &str)]| request(&server.address, "GET", path, headers, None);

    let without = get("/api/conversations", &[]);
    let page_without = get("/", &[]);
    let wrong = get("/api/conversations", &[("Authorization", "Bearer nope")]);
    let bearer = get("/api/conversations", &[("Authorization", "Bearer s3cret-token")]);
    let login = get(&format!("/login?code={code}"), &[]);
    let cookie = login
        .header("set-cookie")
        .and_then(|c| c.split(';').next())
        .unwrap_or_default()
        .to_owned();
    let with_cookie = get("/api/conversations", &[("Cookie", &cookie)]);
    let again = get(&format!("/login?code={code}"), &[]);

    let actual = (
        without.status,
        page_without.status,
        wrong.status,
        bearer.status,
        login.status,
        login
            .header("set-cookie")
            .is_some_and(|c| c.contains("HttpOnly") && c.contains("SameSite=Strict")),
        with_cookie.status,
        again.status,
    );
    assert_eq!(actual, (401, 401, 401, 200, 303, true, 200, 401));
}

#[test]
fn edits_need_the_token_and_the_boards_own_page_and_reach_the_model() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = dir.path().join("store");
    three(&store);
    let open = Server::start(&store, &[]);
    let guarded = Server::start(&store, &["--token", "s3cret-token"]);
    let body = r#"{"action":"done","name":"plan a"}"#;
    let json_type = ("Content-Type", "application/json");
    let auth = ("Authorization", "Bearer s3cret-token");
    let csrf = ("X-Todokit-Csrf", "1");
    let path = "/api/conversations/alpha/edits";

    let read_only = request(&open.address, "POST", path, &[json_type, csrf], Some(body));
    let no_csrf = request(&guarded.address, "POST", path, &[json_type, auth], Some(body));
    let other_origin = request(
        &guarded.address,
        "POST",
        path,
        &[json_type, auth, csrf, ("Origin", "http://evil.example")],
        Some(body),
    );
    let bad_action = request(
        &guarded.address,
        "POST",
        path,
        &[json_type, auth, csrf],
        Some(r#"{"action":"explode","name":"x"}"#),
    );
    // The board's own page behind a TLS proxy: same host, https.
    let own_origin = format!("https://{}", guarded.address);
    let done = request(
        &guarded.address,
        "POST",
        path,
        &[json_type, auth, csrf, ("Origin", &own_origin)],
        Some(body),
    );
    let reminders = todokit(&store)
        .args(["--conversation", "alpha", "reminders"])
        .output()
        .expect("todokit runs");

    let actual = (
        read_only.status,
        no_csrf.status,
        other_origin.status,
        (bad_action.status, bad_action.json()["error"].clone()),
        (done.status, done.json()["action"].clone()),
        String::from_utf8_lossy(&reminders.stdout)
            .lines()
            .next()
            .map(str::to_owned),
    );
    let expected = (
        403,
        403,
        403,
        (
            400,
            json!("action: got \"explode\"; allowed: `start`, `done`, `drop`, `claim`, `release`"),
        ),
        (200, json!("marked \"Plan A\" completed; started \"Ship\"")),
        Some(
            "The user edited the todo list by hand: they marked \"Plan A\" completed; started \"Ship\". The change is \
             deliberate: carry on from this list, and do not restore or re-add anything they removed or changed."
                .to_owned(),
        ),
    );
    assert_eq!(actual, expected);
}

#[test]
fn on_a_task_board_the_user_gives_and_takes_tasks_from_the_board() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = dir.path().join("store");
    let task = |args: Value| {
        let out = todokit(&store)
            .args(["--profile", "claude-tasks", "--conversation", "team", "call"])
            .args([
                args["tool"].as_str().unwrap_or_default(),
                &args["input"].to_string(),
            ])
            .output()
            .expect("todokit runs");
        assert!(out.status.success());
    };
    task(
        json!({"tool": "TaskCreate", "input": {"subject": "Fix the upload test", "description": "flaky", "activeForm": "Fixing"}}),
    );
    task(json!({"tool": "TaskUpdate", "input": {"taskId": "1", "owner": "alice", "status": "in_progress"}}));
    let server = Server::start(&store, &["--token", "s3cret-token"]);
    let headers = [
        ("Content-Type", "application/json"),
        ("Authorization", "Bearer s3cret-token"),
        ("X-Todokit-Csrf", "1"),
    ];
    let post = |body: &str| {
        request(
            &server.address,
            "POST",
            "/api/conversations/team/edits",
            &headers,
            Some(body),
        )
    };
    let list = || {
        request(
            &server.address,
            "GET",
            "/api/conversations/team",
            &[headers[1]],
            None,
        )
        .json()
    };
    let view = list();
    let claimed = post(r#"{"action":"claim","name":"upload","owner":"bob"}"#);
    let nobody = post(r#"{"action":"claim","name":"upload"}"#);
    let released = post(r#"{"action":"release","name":"upload"}"#);
    let after = list();
    let actual = (
        view["can_claim"].clone(),
        claimed.json()["action"].clone(),
        nobody.status,
        released.json()["action"].clone(),
        after["phases"][0]["tasks"][0]["owner"].clone(),
    );
    let expected = (
        json!(true),
        json!("gave \"Fix the upload test\" to bob (it was alice's)"),
        400,
        json!("released \"Fix the upload test\" from bob"),
        Value::Null,
    );
    assert_eq!(actual, expected);
}

#[test]
fn live_streams_are_capped_and_a_closed_one_frees_its_place() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = dir.path().join("store");
    three(&store);
    // One caller (the open loopback server is one) holds at most
    // `--max-streams-per-token` streams: 64 here, each seen to have started.
    let server = Server::start(&store, &["--max-streams-per-token", "64"]);
    let mut open: Vec<Events> = (0..64)
        .map(|i| {
            let path = match i % 2 {
                0 => "/api/events".to_owned(),
                _ => format!("/api/conversations/c{i}/events"),
            };
            Events::open(&server.address, &path)
        })
        .collect();
    let started = open
        .iter_mut()
        .enumerate()
        .map(|(i, events)| {
            let name = if i % 2 == 0 { "conversations" } else { "list" };
            events.next(name, Duration::from_secs(10)).is_some()
        })
        .filter(|started| *started)
        .count();
    let refused = request(&server.address, "GET", "/api/events", &[], None);
    drop(open.pop());
    // The server notices the closed stream at its next write (a keep-alive
    // or an event); the overview stream writes only on change, so wait for
    // the place to come back.
    let deadline = Instant::now() + Duration::from_secs(30);
    let mut again = Events::open(&server.address, "/api/events");
    let mut reopened = again.next("conversations", Duration::from_secs(1)).is_some();
    while !reopened && Instant::now() < deadline {
        again = Events::open(&server.address, "/api/events");
        reopened = again.next("conversations", Duration::from_secs(1)).is_some();
    }
    let actual = (
        started,
        refused.status,
        refused.body.contains("64 live streams"),
        reopened,
    );
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(concat!(env!("CARGO_MANIFEST_DIR"), "/../../snapshots"));
    settings.set_omit_expression(true);
    settings.bind(|| insta::assert_snapshot!("serve_streams_all_taken", refused.body.trim_end()));
    assert_eq!(actual, (64, 429, true, true));
}

#[test]
fn every_refusal_the_board_gives_is_pinned() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = dir.path().join("store");
    three(&store);
    let open = Server::start(&store, &[]);
    let guarded = Server::start(&store, &["--token", "s3cret-token"]);
    let code = guarded.login_code.clone().unwrap_or_default();
    let json_type = ("Content-Type", "application/json");
    let auth = ("Authorization", "Bearer s3cret-token");
    let csrf = ("X-Todokit-Csrf", "1");
    let path = "/api/conversations/alpha/edits";
    let edit =
        |headers: &[(&str, &str)], body: &str| request(&guarded.address, "POST", path, headers, Some(body));
    let _ = request(&guarded.address, "GET", &format!("/login?code={code}"), &[], None);
    let replies = [
        (
            "no token",
            request(&guarded.address, "GET", "/api/conversations", &[], None),
        ),
        (
            "sign-in link used again",
            request(&guarded.address, "GET", &format!("/login?code={code}"), &[], None),
        ),
        (
            "read-only board",
            request(
                &open.address,
                "POST",
                path,
                &[json_type, csrf],
                Some(r#"{"action":"done","name":"plan a"}"#),
            ),
        ),
        (
            "no CSRF header",
            edit(&[json_type, auth], r#"{"action":"done","name":"plan a"}"#),
        ),
        (
            "no CSRF header, a body that is not JSON",
            edit(&[json_type, auth], "{not json"),
        ),
        (
            "a body that is not JSON",
            edit(&[json_type, auth, csrf], "{not json"),
        ),
        (
            "unknown action",
            edit(&[json_type, auth, csrf], r#"{"action":"explode","name":"x"}"#),
        ),
        (
            "claim without owner",
            edit(&[json_type, auth, csrf], r#"{"action":"claim","name":"plan a"}"#),
        ),
        (
            "unknown task",
            edit(
                &[json_type, auth, csrf],
                r#"{"action":"done","name":"nothing like it"}"#,
            ),
        ),
        (
            "page limit out of range",
            request(&open.address, "GET", "/api/conversations?limit=0", &[], None),
        ),
        (
            "page cursor not MILLIS:ID",
            request(
                &open.address,
                "GET",
                "/api/conversations?after=yesterday",
                &[],
                None,
            ),
        ),
    ];
    let bad_bind = todokit(&store)
        .args(["serve", "--bind", "nowhere"])
        .output()
        .expect("todokit runs");
    let open_bind = todokit(&store)
        .args(["serve", "--bind", "0.0.0.0:0"])
        .output()
        .expect("todokit runs");
    let mut shown: Vec<String> = replies
        .iter()
        .map(|(case, reply)| format!("{case}: {} {}", reply.status, reply.body.trim_end()))
        .collect();
    for (case, out) in [("--bind nowhere", bad_bind), ("--bind 0.0.0.0:0", open_bind)] {
        shown.push(format!(
            "{case}: exit {:?} {}",
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).trim_end()
        ));
    }
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(concat!(env!("CARGO_MANIFEST_DIR"), "/../../snapshots"));
    settings.set_omit_expression(true);
    settings.bind(|| insta::assert_snapshot!("serve_refusals", shown.join("\n")));
}

#[test]
fn a_service_manager_stop_or_ctrl_c_ends_the_board_cleanly_with_streams_open() {
    let store = tempfile::tempdir().unwrap();
    let mut actual = Vec::new();
    for signal in ["TERM", "INT"] {
        let mut server = Server::start(store.path(), &[]);
        let mut events = Events::open(&server.address, "/api/events");
        let opened = events.next("conversations", Duration::from_secs(10)).is_some();
        actual.push((signal, opened, server.stop_with(signal)));
    }
    assert_eq!(actual, vec![("TERM", true, true), ("INT", true, true)]);
}
