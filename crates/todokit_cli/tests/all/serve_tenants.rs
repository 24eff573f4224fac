//! Tenants of one `todokit serve`: a token of the `--token-file` sees and
//! changes only its namespace, through every route (MCP with the official
//! TypeScript client, the pages, the JSON API, the event streams, edits);
//! the operator's `--token` sees every namespace; and every refusal.

use std::time::Duration;

use pretty_assertions::assert_eq;
use serde_json::{Value, json};

use crate::support::cli::{todokit, write_todos};
use crate::support::node::{NodeClient, ask};
use crate::support::serve::{Events, Reply, Server, cookie_of, poll_until, request, todo};

const ACME: &str = "Bearer t-acme";
const INITECH: &str = "Bearer t-initech";
const OPERATOR: &str = "Bearer t-operator";

fn get(server: &Server, path: &str, auth: &str) -> Reply {
    request(&server.address, "GET", path, &[("Authorization", auth)], None)
}

fn ids(reply: &Reply) -> Vec<String> {
    let mut ids: Vec<String> = reply
        .json()
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|c| c["id"].as_str().map(str::to_owned))
        .collect();
    ids.sort();
    ids
}

fn contents(view: &Value) -> Vec<String> {
    view["phases"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|phase| phase["tasks"].as_array().cloned().unwrap_or_default())
        .filter_map(|task| task["content"].as_str().map(str::to_owned))
        .collect()
}

fn connect(server: &Server, auth: &str, era: &str) -> NodeClient {
    crate::support::node::connect_mcp(&server.url("/mcp"), &json!({"Authorization": auth}), era)
}

fn write_call(text: &str) -> Value {
    json!({"do": "call", "name": "TodoWrite", "arguments": {"todos": [todo(text, "in_progress"), todo("Then", "pending")]}})
}

#[test]
fn a_tenant_sees_and_changes_only_its_namespace_through_every_route() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = dir.path().join("store");
    write_todos(&store, "plain", &json!([todo("The operator's own", "pending")]));
    let tokens = crate::support::serve::tenant_tokens(dir.path());
    let server = Server::start(
        &store,
        &[
            "--token",
            "t-operator",
            "--token-file",
            tokens.to_str().unwrap_or_default(),
        ],
    );

    // MCP: each tenant writes its own `default`.
    let mut acme = connect(&server, ACME, "legacy");
    ask(&mut acme, write_call("Acme's plan"), "called");
    let mut initech = connect(&server, INITECH, "modern");
    ask(&mut initech, write_call("Initech's plan"), "called");
    let acme_lists = ask(&mut acme, json!({"do": "list"}), "listed");
    let acme_reads = ask(
        &mut acme,
        json!({"do": "read", "uri": "todokit://conversations/default"}),
        "read",
    );
    let initech_lists = ask(&mut initech, json!({"do": "list"}), "listed");
    let stored = todokit(&store)
        .args(["conversations", "--format", "json"])
        .output()
        .expect("todokit runs");
    let mut stored_ids: Vec<String> = serde_json::from_slice::<Value>(&stored.stdout)
        .unwrap_or_default()
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|c| c["id"].as_str().map(str::to_owned))
        .collect();
    stored_ids.sort();
    assert_eq!(
        (acme_lists, initech_lists, stored_ids),
        (
            json!(["todokit://conversations/default"]),
            json!(["todokit://conversations/default"]),
            vec![
                "acme/default".to_owned(),
                "initech/default".to_owned(),
                "plain".to_owned()
            ],
        )
    );
    assert!(acme_reads.to_string().contains("Acme's plan") && !acme_reads.to_string().contains("Initech"));

    // Following: a commit in the other namespace's `default` is not news.
    ask(
        &mut acme,
        json!({"do": "follow", "uris": ["todokit://conversations/default"]}),
        "following",
    );
    ask(&mut initech, write_call("Initech's second plan"), "called");
    let quiet = acme.unasked_after(Duration::from_millis(1500));
    assert_eq!(quiet, Vec::<Value>::new());
    ask(&mut acme, write_call("Acme's second plan"), "called");
    let updated = acme.next_where("acme's update", |m| m.get("updated").is_some());
    assert_eq!(updated, json!({"updated": "todokit://conversations/default"}));

    // The JSON API.
    let listed = (
        ids(&get(&server, "/api/conversations", ACME)),
        ids(&get(&server, "/api/conversations", INITECH)),
        ids(&get(&server, "/api/conversations", OPERATOR)),
    );
    assert_eq!(
        listed,
        (
            vec!["default".to_owned()],
            vec!["default".to_owned()],
            vec![
                "acme/default".to_owned(),
                "initech/default".to_owned(),
                "plain".to_owned()
            ],
        )
    );
    let views = (
        contents(&get(&server, "/api/conversations/default", ACME).json()),
        contents(&get(&server, "/api/conversations/initech%2Fdefault", ACME).json()),
        contents(&get(&server, "/api/conversations/plain", ACME).json()),
        contents(&get(&server, "/api/conversations/acme%2Fdefault", OPERATOR).json()),
    );
    assert_eq!(
        views,
        (
            vec!["Acme's second plan".to_owned(), "Then".to_owned()],
            Vec::new(),
            Vec::new(),
            vec!["Acme's second plan".to_owned(), "Then".to_owned()],
        )
    );

    // A hand edit from the board lands in the tenant's own list only.
    let edit = request(
        &server.address,
        "POST",
        "/api/conversations/default/edits",
        &[
            ("Authorization", INITECH),
            ("X-Todokit-Csrf", "1"),
            ("Content-Type", "application/json"),
        ],
        Some(r#"{"action":"done","name":"initech's second plan"}"#),
    );
    assert_eq!(edit.status, 200, "{}", edit.body);
    let after = (
        get(&server, "/api/conversations/default", INITECH).json()["counts"].clone(),
        get(&server, "/api/conversations/default", ACME).json()["counts"]["completed"].clone(),
    );
    assert_eq!((after.0["completed"].clone(), after.1), (json!(1), json!(0)));

    // The event streams and the pages.
    let mut overview = Events::open_with(&server.address, "/api/events", &[("Authorization", ACME)]);
    let first = overview
        .next("conversations", Duration::from_secs(10))
        .unwrap_or_default();
    let first: Value = serde_json::from_str(&first).unwrap_or_default();
    assert_eq!(
        ids(&Reply {
            status: 200,
            headers: Vec::new(),
            body: first.to_string()
        }),
        ["default"]
    );
    let mut list = Events::open_with(
        &server.address,
        "/api/conversations/default/events",
        &[("Authorization", ACME)],
    );
    let now: Value = serde_json::from_str(&list.next("list", Duration::from_secs(10)).unwrap_or_default())
        .unwrap_or_default();
    assert_eq!(contents(&now), ["Acme's second plan", "Then"]);
    let pages = (
        get(&server, "/", ACME).status,
        get(&server, "/c/default", ACME).status,
    );
    assert_eq!(pages, (200, 200));
}

#[test]
fn a_session_answers_only_the_caller_that_opened_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = dir.path().join("store");
    let tokens = crate::support::serve::tenant_tokens(dir.path());
    let server = Server::start(&store, &["--token-file", tokens.to_str().unwrap_or_default()]);
    let mut acme = connect(&server, ACME, "legacy");
    let session = ask(&mut acme, json!({"do": "session"}), "session");
    let session = session.as_str().expect("a legacy session has an id").to_owned();
    let ping = r#"{"jsonrpc":"2.0","id":7,"method":"ping"}"#;
    let with = |auth: &str| {
        request(
            &server.address,
            "POST",
            "/mcp",
            &[
                ("Authorization", auth),
                ("Mcp-Session-Id", &session),
                ("Mcp-Protocol-Version", "2025-11-25"),
                ("Content-Type", "application/json"),
                ("Accept", "application/json, text/event-stream"),
            ],
            Some(ping),
        )
    };
    let (theirs, own) = (with(INITECH), with(ACME));
    assert_eq!(
        (theirs.status, theirs.body.as_str(), own.status),
        (404, "Not Found: Session not found", 200)
    );
}

#[test]
fn every_refusal_of_the_mcp_endpoint_and_the_token_file_is_pinned() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = dir.path().join("store");
    let tokens = crate::support::serve::tenant_tokens(dir.path());
    let guarded = Server::start(&store, &["--token-file", tokens.to_str().unwrap_or_default()]);
    let open = Server::start(&store, &[]);
    let post = |server: &Server, path: &str, headers: &[(&str, &str)]| {
        let mut all = vec![
            ("Content-Type", "application/json"),
            ("Accept", "application/json, text/event-stream"),
        ];
        all.extend_from_slice(headers);
        request(&server.address, "POST", path, &all, Some("{}"))
    };
    let long = format!("/mcp?conversation={}", "a".repeat(4097));
    let replies = [
        ("no token", post(&guarded, "/mcp", &[])),
        (
            "a token not in the file",
            post(&guarded, "/mcp", &[("Authorization", "Bearer t-nobody")]),
        ),
        (
            "the board without a token",
            request(&guarded.address, "GET", "/api/conversations", &[], None),
        ),
        (
            "an unknown profile",
            post(&guarded, "/mcp/no-such-agent", &[("Authorization", ACME)]),
        ),
        (
            "a header that is not percent-encoded UTF-8",
            post(
                &guarded,
                "/mcp",
                &[("Authorization", ACME), ("Todokit-Conversation", "%FF")],
            ),
        ),
        (
            "a conversation id too long",
            post(&guarded, &long, &[("Authorization", ACME)]),
        ),
        (
            "no token, a foreign page",
            post(&open, "/mcp", &[("Origin", "https://evil.example")]),
        ),
    ];
    let mut shown: Vec<String> = replies
        .iter()
        .map(|(case, reply)| format!("{case}: {} {}", reply.status, reply.body.trim_end()))
        .collect();
    // What a caller may do is not refused: health without a token, and a
    // page on this machine calling an open server.
    let health = request(&guarded.address, "GET", "/healthz", &[], None);
    let local = post(&open, "/mcp", &[("Origin", "http://localhost:5173")]);
    assert_eq!(
        (health.status, health.body.as_str(), local.status == 403),
        (200, "ok\n", false)
    );

    let twice = dir.path().join("twice");
    std::fs::write(&twice, "t1 acme\nt1 initech\n").expect("file");
    let bad_namespace = dir.path().join("bad-namespace");
    std::fs::write(&bad_namespace, "t1 Acme/Corp\n").expect("file");
    let one_word = dir.path().join("one-word");
    std::fs::write(&one_word, "# a comment\nt1\n").expect("file");
    for (case, file) in [
        ("a token listed twice", &twice),
        ("a namespace of other characters", &bad_namespace),
        ("a line of one word", &one_word),
    ] {
        let out = todokit(&store)
            .args(["serve", "--bind", "127.0.0.1:0", "--token-file"])
            .arg(file)
            .output()
            .expect("todokit runs");
        let said =
            String::from_utf8_lossy(&out.stderr).replace(dir.path().to_str().unwrap_or_default(), "DIR");
        shown.push(format!(
            "{case}: exit {:?} {}",
            out.status.code(),
            said.trim_end()
        ));
    }
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(concat!(env!("CARGO_MANIFEST_DIR"), "/../../snapshots"));
    settings.set_omit_expression(true);
    settings.bind(|| insta::assert_snapshot!("serve_mcp_refusals", shown.join("\n")));
}

#[test]
fn a_missing_token_file_stops_the_start_and_sighup_reads_it_again() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = dir.path().join("store");
    let missing = dir.path().join("missing");
    let absent = todokit(&store)
        .args(["serve", "--bind", "127.0.0.1:0", "--token-file"])
        .arg(&missing)
        .output()
        .expect("todokit runs");
    let said = String::from_utf8_lossy(&absent.stderr);
    assert_eq!(absent.status.code(), Some(2), "{said}");
    assert!(
        said.contains(&format!("--token-file {}: ", missing.display())),
        "{said}"
    );

    let tokens = crate::support::serve::tenant_tokens(dir.path());
    let server = Server::start(&store, &["--token-file", tokens.to_str().unwrap_or_default()]);
    let before = get(&server, "/api/conversations", "Bearer t-new").status;
    std::fs::write(&tokens, "t-acme acme\nt-new newcomer\n").expect("token file");
    let sent = server.hang_up();
    let after = poll_until(
        || get(&server, "/api/conversations", "Bearer t-new").status,
        |s| *s == 200,
    );
    let gone = get(&server, "/api/conversations", INITECH).status;
    assert_eq!((before, sent, after, gone), (401, true, 200, 401));
}

#[test]
fn each_person_signs_in_with_their_own_token_until_it_is_revoked() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = dir.path().join("store");
    write_todos(&store, "acme/plan", &json!([todo("Acme's", "in_progress")]));
    write_todos(&store, "initech/plan", &json!([todo("Initech's", "in_progress")]));
    let tokens = crate::support::serve::tenant_tokens(dir.path());
    let args = [
        "--token",
        "t-operator",
        "--token-file",
        tokens.to_str().unwrap_or_default(),
    ];
    let server = Server::start(&store, &args);
    let form = [("Content-Type", "application/x-www-form-urlencoded")];
    let paste = |body: &str, extra: &[(&str, &str)]| {
        let mut headers = form.to_vec();
        headers.extend_from_slice(extra);
        request(&server.address, "POST", "/login", &headers, Some(body))
    };
    let page = request(&server.address, "GET", "/login", &[], None);
    let acme = paste("token=t-acme", &[]);
    let operator = paste("token=+t-operator+", &[]);
    let wrong = paste("token=t-nobody", &[]);
    let empty = paste("nothing=here", &[]);
    let foreign = paste("token=t-acme", &[("Origin", "http://evil.example")]);
    let with = |cookie: &str| {
        let cookie = cookie.to_owned();
        let reply = request(
            &server.address,
            "GET",
            "/api/conversations",
            &[("Cookie", &cookie)],
            None,
        );
        (reply.status, ids(&reply))
    };
    let (acme_cookie, operator_cookie) = (cookie_of(&acme), cookie_of(&operator));
    let as_acme = with(&acme_cookie);
    let as_operator = with(&operator_cookie);

    // The token leaves the file: its cookie signs in no more.
    std::fs::write(&tokens, "t-initech initech\n").expect("token file");
    let sent = server.hang_up();
    let after = poll_until(|| with(&acme_cookie).0, |s| *s == 401);
    let actual = (
        page.status,
        page.header("content-security-policy").map(str::to_owned),
        page.body.contains(r#"<form method="post" action="/login">"#),
        (acme.status, acme.header("location").map(str::to_owned)),
        as_acme,
        as_operator,
        (
            wrong.status,
            wrong.body.contains("That token is not one of this server's"),
        ),
        (empty.status, foreign.status),
        (sent, after),
    );
    let expected = (
        200,
        Some("default-src 'none'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'".to_owned()),
        true,
        (303, Some("/".to_owned())),
        (200, vec!["plan".to_owned()]),
        (200, vec!["acme/plan".to_owned(), "initech/plan".to_owned()]),
        (401, true),
        (400, 403),
        (true, 401),
    );
    assert_eq!(actual, expected);
}

/// The ids the operator's listing shows under `a/` and `b/`, sorted.
fn under(server: &Server, a: &str, b: &str) -> Vec<String> {
    ids(&get(server, "/api/conversations?limit=500", OPERATOR))
        .into_iter()
        .filter(|id| id.starts_with(&format!("{a}/")) || id.starts_with(&format!("{b}/")))
        .collect()
}

/// `DELETE /api/conversations/<id>` and `serve --retain` on the store
/// `store` names, with tenants `a` and `b` (namespaces of the test's own);
/// `age` makes a stored conversation look unchanged for two days. What
/// each step saw.
fn forgetting_over_http(store: &std::path::Path, a: &str, b: &str, age: &dyn Fn(&str)) -> Vec<Value> {
    let dir = tempfile::tempdir().expect("temp dir");
    let tokens = dir.path().join("tokens");
    std::fs::write(&tokens, format!("t-a {a}\nt-b {b}\n")).expect("token file");
    let todos = json!([todo("A task", "pending")]);
    for id in [
        format!("{a}/plan"),
        format!("{a}/spare"),
        format!("{a}/old"),
        format!("{b}/plan"),
    ] {
        write_todos(store, &id, &todos);
    }
    age(&format!("{a}/old"));
    let server = Server::start(
        store,
        &[
            "--token",
            "t-operator",
            "--token-file",
            tokens.to_str().unwrap_or_default(),
            "--retain",
            "1d",
        ],
    );
    let mut seen = Vec::new();
    // The sweep at start-up forgot the old one.
    let swept = poll_until(|| under(&server, a, b), |ids| ids.len() == 3);
    seen.push(json!(swept));
    let (tenant_a, tenant_b) = ("Bearer t-a", "Bearer t-b");
    let delete = |path: &str, auth: &str, csrf: bool| {
        let mut headers = vec![("Authorization", auth)];
        if csrf {
            headers.push(("X-Todokit-Csrf", "1"));
        }
        let reply = request(&server.address, "DELETE", path, &headers, None);
        json!([reply.status, reply.json()])
    };
    let mut follower = Events::open_with(
        &server.address,
        "/api/conversations/plan/events",
        &[("Authorization", tenant_a)],
    );
    let before: Value =
        serde_json::from_str(&follower.next("list", Duration::from_secs(10)).unwrap_or_default())
            .unwrap_or_default();
    seen.push(before["version"].clone());
    // An MCP client of the tenant's follows it too (the official SDK).
    let mut mcp = connect(&server, tenant_a, "modern");
    let uri = "todokit://conversations/plan";
    ask(&mut mcp, json!({"do": "follow", "uris": [uri]}), "following");
    seen.push(delete("/api/conversations/plan", tenant_a, false));
    seen.push(delete("/api/conversations/plan", tenant_a, true));
    let after: Value =
        serde_json::from_str(&follower.next("list", Duration::from_secs(10)).unwrap_or_default())
            .unwrap_or_default();
    seen.push(json!([after["version"].clone(), contents(&after)]));
    seen.push(mcp.next_where("the update", |m| m.get("updated").is_some()));
    // Reading it now is reading a conversation never written.
    mcp.send(json!({"do": "read", "uri": uri}));
    seen.push(mcp.next_where("the read", |m| {
        m.get("read").is_some() || m.get("failed").is_some()
    }));
    seen.push(delete("/api/conversations/plan", tenant_a, true));
    // A tenant names nothing outside its namespace: this is `a/b/plan`.
    seen.push(delete(&format!("/api/conversations/{b}%2Fplan"), tenant_a, true));
    seen.push(json!(under(&server, a, b)));
    seen.push(delete("/api/conversations/plan", tenant_b, true));
    seen.push(delete(&format!("/api/conversations/{a}%2Fspare"), OPERATOR, true));
    seen.push(json!(under(&server, a, b)));
    seen
}

/// What [`forgetting_over_http`] must see, for tenants `a` and `b`: a
/// delete without the board's cross-site guard is refused (403, a text
/// body), and one of a conversation not stored is a 404.
fn forgotten_over_http(a: &str, b: &str) -> Vec<Value> {
    vec![
        json!([format!("{a}/plan"), format!("{a}/spare"), format!("{b}/plan")]),
        json!(1),
        json!([403, Value::Null]),
        json!([204, Value::Null]),
        json!([0, []]),
        json!({"updated": "todokit://conversations/plan"}),
        json!({"failed": "Conversation \"plan\" has no list in this store yet", "code": -32602}),
        json!([404, {"error": "no conversation \"plan\" is stored"}]),
        json!([404, {"error": format!("no conversation \"{b}/plan\" is stored")}]),
        json!([format!("{a}/spare"), format!("{b}/plan")]),
        json!([204, Value::Null]),
        json!([204, Value::Null]),
        json!([]),
    ]
}

#[test]
fn tenants_and_the_operator_forget_conversations_and_retain_sweeps_a_folder() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = dir.path().join("store");
    let files = todokit::JsonFileStore::new(&store);
    let age = |id: &str| crate::support::cli::two_days_back(&files.path_for(id));
    let actual = forgetting_over_http(&store, "acme", "initech", &age);
    assert_eq!(actual, forgotten_over_http("acme", "initech"));
}

#[cfg(feature = "postgres")]
#[test]
fn tenants_and_the_operator_forget_conversations_and_retain_sweeps_a_database() {
    let url = std::env::var("TODOKIT_TEST_POSTGRES_URL").expect("make test sets TODOKIT_TEST_POSTGRES_URL");
    let (a, b) = (
        format!("http{}a", std::process::id()),
        format!("http{}b", std::process::id()),
    );
    let age = |id: &str| crate::support::cli::two_days_back_in(&url, id);
    let actual = forgetting_over_http(std::path::Path::new(&url), &a, &b, &age);
    assert_eq!(actual, forgotten_over_http(&a, &b));
}
