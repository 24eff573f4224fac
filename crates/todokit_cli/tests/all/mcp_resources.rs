//! The store's conversations as live MCP resources, seen by a client built
//! on the official MCP TypeScript SDK (`@modelcontextprotocol/client`,
//! `tests/clients/mcp_client.mjs`) in both protocol eras: a session opened
//! by `initialize` that follows with `resources/subscribe`, and a
//! 2026-07-28 session that follows with `subscriptions/listen`.
//!
//! Needs node with the clients' packages (`make node-clients`).

use std::path::Path;
use std::time::{Duration, Instant};

use crate::support::cli::{in_process, run, stdout, todokit, write_todos};
use crate::support::mcp::raw_session;
use crate::support::node::NodeClient;
use pretty_assertions::assert_eq;
use serde_json::{Value, json};
use todokit_mcp::{
    CONVERSATION_URI_PREFIX, MAX_FOLLOWED_CONVERSATIONS, RESOURCES_PAGE_SIZE, conversation_uri,
};

/// How long the test waits to be sure a notification is not coming.
const QUIET: Duration = Duration::from_millis(1500);

/// The client, connected to `todokit mcp` on `store` in `era`.
fn client(store: &Path, era: &str) -> NodeClient {
    let args = [
        env!("CARGO_BIN_EXE_todokit").as_ref(),
        store.as_os_str(),
        era.as_ref(),
    ];
    let mut client = NodeClient::start("mcp_client.mjs", "@modelcontextprotocol/client", &args, &[]);
    let connected = client.next_where("the connection", |m| m.get("connected").is_some());
    assert_eq!(connected, json!({ "connected": "todokit", "era": era }));
    client
}

/// Sends `command` and returns the client's answer to it (an answer or a
/// failure, not a notification).
fn ask(client: &mut NodeClient, command: Value) -> Value {
    client.send(command.clone());
    client.next_where(&format!("an answer to {command}"), |m| {
        m.get("updated").is_none() && m.get("listChanged").is_none()
    })
}

fn todo(content: &str, status: &str) -> Value {
    json!({ "content": content, "status": status, "activeForm": format!("Doing {content}") })
}

/// The conversation's list as `todokit show` prints it: markdown, and the
/// stored state as JSON.
fn shown(store: &Path, conversation: &str) -> (String, Value) {
    let markdown = run(todokit(store).args(["--conversation", conversation, "show", "--format", "markdown"]));
    let state = run(todokit(store).args(["--conversation", conversation, "show", "--format", "json"]));
    let state = serde_json::from_slice(&state.stdout).unwrap_or_default();
    (stdout(&markdown), state)
}

/// What a read returned, in the same two forms.
fn read_back(read: &Value) -> (String, Value) {
    let contents = &read["read"];
    assert_eq!(contents[0]["mimeType"], "text/markdown", "{read}");
    assert_eq!(contents[1]["mimeType"], "application/json", "{read}");
    let markdown = contents[0]["text"].as_str().unwrap_or_default().to_owned();
    let state = serde_json::from_str(contents[1]["text"].as_str().unwrap_or_default()).unwrap_or_default();
    (markdown, state)
}

fn follow_commits_of_other_processes(era: &str) {
    let store = tempfile::tempdir().expect("a store folder");
    let conversation = "sprint 7/α?#";
    let uri = conversation_uri(conversation);
    write_todos(
        store.path(),
        conversation,
        &json!([todo("plan", "in_progress"), todo("build", "pending")]),
    );
    let mut client = client(store.path(), era);

    let listed = ask(&mut client, json!({ "do": "list" }));
    assert_eq!(listed, json!({ "listed": [uri], "pages": 1 }));
    let first = ask(&mut client, json!({ "do": "read", "uri": uri }));
    assert_eq!(read_back(&first), shown(store.path(), conversation));

    let following = ask(&mut client, json!({ "do": "follow", "uris": [uri] }));
    assert_eq!(following["following"], json!([uri]), "{following}");

    // Another process commits; the client hears of it, then reads it.
    let started = Instant::now();
    write_todos(
        store.path(),
        conversation,
        &json!([todo("plan", "completed"), todo("build", "in_progress")]),
    );
    let (heard_at, updated) = client.next_timed("the update", |m| m.get("updated").is_some());
    assert_eq!(updated, json!({ "updated": uri }));
    eprintln!(
        "{era}: heard of the commit {:?} after the committing process started",
        heard_at - started
    );
    let second = ask(&mut client, json!({ "do": "read", "uri": uri }));
    let (markdown, state) = read_back(&second);
    assert_eq!(state["version"], 2);
    assert_eq!((markdown, state), shown(store.path(), conversation));

    // A new conversation changes the list of resources.
    write_todos(store.path(), "another", &json!([todo("review", "pending")]));
    client.next_where("the list change", |m| m.get("listChanged").is_some());
    let listed = ask(&mut client, json!({ "do": "list" }));
    assert_eq!(listed["listed"], json!([conversation_uri("another"), uri]));

    // Once unfollowed, commits are not announced any more.
    let unfollowed = ask(&mut client, json!({ "do": "unfollow", "uris": [uri] }));
    assert_eq!(unfollowed, json!({ "unfollowed": [uri] }));
    let _ = client.unasked_after(Duration::ZERO);
    write_todos(store.path(), conversation, &json!([todo("build", "completed")]));
    let heard: Vec<Value> = client
        .unasked_after(QUIET)
        .into_iter()
        .filter(|m| m.get("updated").is_some())
        .collect();
    assert_eq!(heard, Vec::<Value>::new());
}

#[test]
fn a_subscribed_client_hears_of_another_process_commit_and_reads_the_new_list() {
    follow_commits_of_other_processes("legacy");
}

#[test]
fn a_listening_client_hears_of_another_process_commit_and_reads_the_new_list() {
    follow_commits_of_other_processes("modern");
}

/// `count` conversations committed through the library, quicker than one
/// process each.
fn many_conversations(store: &Path, count: usize) -> Vec<String> {
    let (runtime, service) = in_process(store);
    let args = json!({ "todos": [todo("one", "pending")] }).to_string();
    let mut ids: Vec<String> = (0..count).map(|n| format!("c{n:04}")).collect();
    for id in &ids {
        let done = runtime.block_on(service.call(id, "TodoWrite", &args));
        assert!(done.is_ok_and(|result| !result.is_error));
    }
    ids.sort();
    ids
}

#[test]
fn a_client_gets_every_page_in_id_order() {
    let store = tempfile::tempdir().expect("a store folder");
    let ids = many_conversations(store.path(), 2 * RESOURCES_PAGE_SIZE + 50);
    let mut client = client(store.path(), "legacy");
    // The SDK follows `nextCursor` to the last page itself.
    let listed = ask(&mut client, json!({ "do": "list" }));
    let expected: Vec<String> = ids.iter().map(|id| conversation_uri(id)).collect();
    assert_eq!(listed, json!({ "listed": expected, "pages": 1 }));
}

#[test]
fn a_session_follows_at_most_the_cap_in_either_era() {
    let store = tempfile::tempdir().expect("a store folder");
    let uris: Vec<String> = (0..MAX_FOLLOWED_CONVERSATIONS + 6)
        .map(|n| conversation_uri(&format!("c{n}")))
        .collect();
    let (fits, past) = uris.split_at(MAX_FOLLOWED_CONVERSATIONS);

    let mut legacy = client(store.path(), "legacy");
    let taken = ask(&mut legacy, json!({ "do": "follow", "uris": fits }));
    let refused = ask(&mut legacy, json!({ "do": "follow", "uris": &past[..1] }));
    let _ = ask(&mut legacy, json!({ "do": "unfollow", "uris": &fits[..1] }));
    let after_room = ask(&mut legacy, json!({ "do": "follow", "uris": &past[..1] }));

    let mut modern = client(store.path(), "modern");
    let honored = ask(&mut modern, json!({ "do": "follow", "uris": uris }));

    let actual = (
        taken["following"].as_array().map(Vec::len),
        refused,
        after_room["following"].clone(),
        honored["honored"]["resourceSubscriptions"].clone(),
    );
    let expected = (
        Some(MAX_FOLLOWED_CONVERSATIONS),
        json!({
            "failed": format!(
                "This session already follows {MAX_FOLLOWED_CONVERSATIONS} conversations, the most it may; unsubscribe from one first"
            ),
            "code": -32600,
        }),
        json!(&past[..1]),
        json!(fits),
    );
    assert_eq!(actual, expected);
}

#[test]
fn reading_what_is_not_a_conversation_says_why() {
    let store = tempfile::tempdir().expect("a store folder");
    let mut actual = Vec::new();
    for era in ["legacy", "modern"] {
        let mut client = client(store.path(), era);
        for uri in [
            "file:///etc/passwd".to_owned(),
            format!("{CONVERSATION_URI_PREFIX}a/b"),
            conversation_uri("never written"),
        ] {
            let read = ask(&mut client, json!({ "do": "read", "uri": uri }));
            let reason = read["failed"].as_str().unwrap_or_default();
            let reason = reason.split(':').next().unwrap_or_default().to_owned();
            actual.push((era, reason, read["code"].clone()));
        }
    }
    let not_segment = "The conversation id must be one path segment, with `/`, `?` and `#` escaped";
    let missing = "Conversation \"never written\" has no list in this store yet";
    let expected = vec![
        (
            "legacy",
            "Not a todokit conversation URI".to_owned(),
            json!(-32602),
        ),
        ("legacy", not_segment.to_owned(), json!(-32602)),
        // The SDK reports the legacy resource-not-found code (-32002,
        // pinned by the raw test below) as 2026-07-28's invalid params.
        ("legacy", missing.to_owned(), json!(-32602)),
        (
            "modern",
            "Not a todokit conversation URI".to_owned(),
            json!(-32602),
        ),
        ("modern", not_segment.to_owned(), json!(-32602)),
        ("modern", missing.to_owned(), json!(-32602)),
    ];
    assert_eq!(actual, expected);
}

#[test]
fn a_missing_conversation_is_resource_not_found_in_a_session_opened_by_initialize() {
    let store = tempfile::tempdir().expect("a store folder");
    let uri = conversation_uri("never written");
    let lines = [
        json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}}),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        json!({"jsonrpc": "2.0", "id": 1, "method": "resources/read", "params": {"uri": uri}}),
    ];
    let (replies, _) = raw_session(store.path(), &lines.map(|line| line.to_string()), |reply| {
        reply["id"] == 1
    });
    let actual = replies.iter().find(|reply| reply["id"] == 1).cloned();
    let expected = json!({
        "jsonrpc": "2.0",
        "id": 1,
        "error": {
            "code": -32002,
            "message": "Conversation \"never written\" has no list in this store yet",
            "data": { "uri": uri },
        },
    });
    assert_eq!(actual, Some(expected));
}

#[test]
fn the_end_of_input_ends_an_open_listen_without_waiting_for_it() {
    let store = tempfile::tempdir().expect("a store folder");
    let meta = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": { "name": "raw", "version": "1" },
        "io.modelcontextprotocol/clientCapabilities": {},
    });
    let listen = json!({
        "jsonrpc": "2.0",
        "id": "listen:0",
        "method": "subscriptions/listen",
        "params": { "_meta": meta, "notifications": { "resourceSubscriptions": [conversation_uri("c")] } },
    });
    let acknowledged = |reply: &Value| reply["method"] == "notifications/subscriptions/acknowledged";
    let (replies, stderr) = raw_session(store.path(), &[listen.to_string()], acknowledged);
    let actual = (
        replies.iter().filter(|reply| acknowledged(reply)).count(),
        // rmcp waits 5 s for a request still open when its input ends, and
        // says so; the session cancels the listen for the client instead.
        stderr.contains("timed out draining"),
    );
    assert_eq!(actual, (1, false), "{stderr}");
}

#[test]
fn a_memory_store_holds_the_list_for_the_session_and_writes_no_folder() {
    // `--store memory:` names the process's memory; were it read as a
    // folder, the server would make `memory:` here.
    let store = Path::new("memory:");
    let uri = conversation_uri("default");
    let mut lines = crate::support::mcp::handshake().to_vec();
    lines.push(crate::support::mcp::call_line(
        1,
        "TodoWrite",
        crate::support::mcp::one("Plan"),
    ));
    lines.push(
        json!({"jsonrpc": "2.0", "id": 2, "method": "resources/read", "params": {"uri": uri}}).to_string(),
    );
    let (replies, stderr) = raw_session(store, &lines, |reply| reply["id"] == 2);
    let read = replies
        .iter()
        .find(|reply| reply["id"] == 2)
        .cloned()
        .unwrap_or_default();
    let actual = (
        read["result"]["contents"][0]["text"]
            .as_str()
            .is_some_and(|text| text.contains("Plan")),
        store.exists(),
        stderr,
    );
    let expected = (
        true,
        false,
        "todokit mcp: serving claude-code (TodoWrite) for conversation \"default\" on stdio\n".to_owned(),
    );
    assert_eq!(actual, expected, "{read}");
}
