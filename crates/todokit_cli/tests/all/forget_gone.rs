//! Forget means gone, across processes: a turn hook in another process
//! cannot bring a forgotten list back to the model, a follower hears a
//! forget and a rewrite that land inside one poll, a prune goes on past a
//! conversation it cannot remove, and no client names a turn record's key.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use pretty_assertions::assert_eq;
use serde_json::json;
use todokit::{Delivery, Enforcement, TurnDriver, turn_key};

use crate::support::cli::{claude_code_on, todokit, write_todos};
use crate::support::serve::{Server, mcp_post, open_session, request, todo};

/// Set in a child process to the store it runs hooks on.
const CHILD_STORE: &str = "TODOKIT_FORGET_CHILD_STORE";
/// Set in a child process to the folder the parent steers it through.
const CHILD_STEER: &str = "TODOKIT_FORGET_CHILD_STEER";
/// The item every round writes, and no record may name once it is gone.
const ITEM: &str = "Ship the forgotten item";

/// The number in `path`, if it holds one.
fn number_in(path: &Path) -> Option<u64> {
    std::fs::read_to_string(path).ok()?.trim().parse().ok()
}

/// In a child: a host's loop on `conversation` as fast as it goes (a user
/// prompt, then the model ending its turn with the list as stored, strict),
/// until `steer/stop` appears; while `steer/pause` holds a round number, it
/// finishes its hook, says so in `steer/paused` and waits.
async fn hook_loop(store: &str, steer: &Path, conversation: &str) {
    let driver = TurnDriver::new(claude_code_on(store).await).storing_end_of_turn(Enforcement::Strict);
    loop {
        if steer.join("stop").exists() {
            return;
        }
        if let Some(round) = number_in(&steer.join("pause")) {
            if number_in(&steer.join("paused")) != Some(round) {
                let _ = std::fs::write(steer.join("paused.tmp"), round.to_string());
                let _ = std::fs::rename(steer.join("paused.tmp"), steer.join("paused"));
            }
            tokio::time::sleep(Duration::from_millis(1)).await;
            continue;
        }
        // A hook that fails (contention with the parent) is the host's to
        // retry; the loop goes on.
        let _ = driver.user_prompt(conversation).await;
        let _ = driver.turn_end(conversation, Delivery::NextRequest).await;
    }
}

/// Runs test `test` of this module again as a child on `store`, steered
/// through `steer`.
fn spawn_hooks(test: &str, store: &str, steer: &Path) -> Child {
    let exe = std::env::current_exe().expect("the test binary knows its path");
    let test = crate::support::harness::exact_name(module_path!(), test);
    Command::new(exe)
        .args([test.as_str(), "--exact", "--nocapture", "--test-threads=1"])
        .env(CHILD_STORE, store)
        .env(CHILD_STEER, steer)
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("a child starts")
}

/// The parent's side of the race: `rounds` times, the list written, the
/// hooks let run a moment, the conversation forgotten, the hooks paused;
/// then what a fresh process's next request would carry is read. The
/// rounds in which a record named the forgotten item.
async fn race_hooks_against_forget(test: &str, store: &str, conversation: &str, rounds: u64) -> (u64, u64) {
    let steer = tempfile::tempdir().expect("temp dir");
    std::fs::write(steer.path().join("pause"), "0").expect("paused");
    let mut child = spawn_hooks(test, store, steer.path());
    let service = claude_code_on(store).await;
    let reader = TurnDriver::new(claude_code_on(store).await);
    let mut resurrected = 0;
    let mut forgotten = 0;
    let arguments = json!({"todos": [todo(ITEM, "in_progress")]}).to_string();
    for round in 1..=rounds {
        service
            .call(conversation, "TodoWrite", &arguments)
            .await
            .expect("written");
        std::fs::remove_file(steer.path().join("pause")).expect("resumed");
        // A different moment each round, so the forget meets a hook at
        // every step of it.
        tokio::time::sleep(Duration::from_micros(300 * (round % 7))).await;
        forgotten += u64::from(service.forget(conversation).await.expect("forgot"));
        std::fs::write(steer.path().join("pause"), round.to_string()).expect("paused");
        let waited = Instant::now();
        while number_in(&steer.path().join("paused")) != Some(round) {
            assert!(
                waited.elapsed() < Duration::from_secs(20),
                "the hook process stopped answering"
            );
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
        let list = service.state(conversation).await.expect("read").version;
        let record = reader.record(conversation).await.expect("read");
        let named = record
            .pending
            .iter()
            .any(|injection| injection.text.contains(ITEM));
        if list == 0 && named {
            resurrected += 1;
        }
        let _ = service.forget(conversation).await;
    }
    std::fs::write(steer.path().join("stop"), "").expect("stopped");
    let _ = child.wait();
    (forgotten, resurrected)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn turn_hooks_in_another_process_never_bring_a_forgotten_list_back_on_the_file_store() {
    const TEST: &str = "turn_hooks_in_another_process_never_bring_a_forgotten_list_back_on_the_file_store";
    if let (Ok(store), Ok(steer)) = (std::env::var(CHILD_STORE), std::env::var(CHILD_STEER)) {
        return hook_loop(&store, Path::new(&steer), "raced").await;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let store = dir.path().to_str().expect("a UTF-8 temp path").to_owned();
    let actual = race_hooks_against_forget(TEST, &store, "raced", 150).await;
    let expected = (150, 0);
    assert_eq!(actual, expected);
}

#[cfg(feature = "postgres")]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn turn_hooks_in_another_process_never_bring_a_forgotten_list_back_on_postgres() {
    const TEST: &str = "turn_hooks_in_another_process_never_bring_a_forgotten_list_back_on_postgres";
    if let (Ok(store), Ok(steer)) = (std::env::var(CHILD_STORE), std::env::var(CHILD_STEER)) {
        return hook_loop(&store, Path::new(&steer), "raced-pg").await;
    }
    let url = std::env::var("TODOKIT_TEST_POSTGRES_URL").expect("make test sets TODOKIT_TEST_POSTGRES_URL");
    let service = claude_code_on(&url).await;
    service.forget("raced-pg").await.expect("a clean start");
    let actual = race_hooks_against_forget(TEST, &url, "raced-pg", 100).await;
    let expected = (100, 0);
    assert_eq!(actual, expected);
}

/// In a child: forgets `conversation` and writes it again at once, to a
/// list of its own at the version the forgotten one had.
async fn forget_and_rewrite(store: &str, conversation: &str) {
    let service = claude_code_on(store).await;
    service.forget(conversation).await.expect("forgot");
    let arguments = json!({"todos": [todo("Rewritten after the forget", "pending")]}).to_string();
    service
        .call(conversation, "TodoWrite", &arguments)
        .await
        .expect("written");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_follower_hears_a_forget_and_rewrite_that_land_inside_one_poll() {
    const TEST: &str = "a_follower_hears_a_forget_and_rewrite_that_land_inside_one_poll";
    if let Ok(store) = std::env::var(CHILD_STORE) {
        return forget_and_rewrite(&store, "followed").await;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let store = dir.path().to_str().expect("a UTF-8 temp path").to_owned();
    let service = claude_code_on(&store).await;
    let arguments = json!({"todos": [todo("The list before", "in_progress")]}).to_string();
    service
        .call("followed", "TodoWrite", &arguments)
        .await
        .expect("written");
    let mut feed = service.subscribe("followed");
    let first = feed.changed().await.and_then(Result::ok).map(|s| s.version);
    let exe = std::env::current_exe().expect("the test binary knows its path");
    let status = Command::new(exe)
        .args([
            crate::support::harness::exact_name(module_path!(), TEST).as_str(),
            "--exact",
        ])
        .env(CHILD_STORE, &store)
        .stdout(Stdio::null())
        .status()
        .expect("the child ran");
    let heard = tokio::time::timeout(Duration::from_secs(5), feed.changed())
        .await
        .ok()
        .flatten()
        .and_then(Result::ok)
        .map(|state| (state.version, state.phases[0].tasks[0].content.clone()));
    let actual = (first, status.success(), heard);
    let expected = (Some(1), true, Some((1, "Rewritten after the forget".to_owned())));
    assert_eq!(actual, expected);
}

/// `todokit` on `store` with `args`: exit status, stdout, stderr.
fn run(store: &Path, args: &[&str]) -> (Option<i32>, String, String) {
    let out = todokit(store).args(args).output().expect("todokit runs");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_prune_goes_on_past_a_conversation_it_cannot_forget_and_says_so() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = dir.path().join("store");
    for id in ["a", "bad", "c"] {
        write_todos(&store, id, &json!([todo("x", "pending")]));
    }
    // The conversation's lock path is a folder: it cannot be locked.
    std::fs::remove_file(store.join("c-bad.lock")).expect("the lock file removed");
    std::fs::create_dir(store.join("c-bad.lock")).expect("a folder where the lock goes");
    std::thread::sleep(Duration::from_millis(1100));
    let (code, stdout, stderr) = run(&store, &["prune", "--idle", "1s"]);
    let left = run(&store, &["conversations", "--format", "json"]).1;
    let actual = (
        code,
        stdout,
        stderr
            .lines()
            .next()
            .unwrap_or_default()
            .starts_with("todokit: could not forget bad: could not open "),
        stderr.lines().nth(1).map(str::to_owned),
        serde_json::from_str::<serde_json::Value>(&left).ok().map(|v| {
            v.as_array().map(|a| {
                a.iter()
                    .filter_map(|c| c["id"].as_str().map(str::to_owned))
                    .collect::<Vec<_>>()
            })
        }),
    );
    let expected = (
        Some(1),
        "a\nc\nforgot 2 conversations\n".to_owned(),
        true,
        Some("todokit: 1 conversation could not be forgotten (one named above); the others were".to_owned()),
        Some(Some(vec!["bad".to_owned()])),
    );
    assert_eq!(actual, expected, "{stderr}");
    crate::support::cli::snapshot_settings().bind(|| {
        insta::assert_snapshot!(
            "prune_past_a_failure_stderr",
            stderr.replace(store.to_str().unwrap_or_default(), "STORE")
        )
    });
}

#[test]
fn the_command_line_refuses_ids_no_client_may_name_and_namespaces_no_tenant_has() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = dir.path().join("store");
    let long = "x".repeat(100_000);
    let rule = "must name a conversation in 1 to 4096 bytes of UTF-8 text without U+0001";
    let cases = [
        (
            vec!["--conversation", "c1\u{1}turn", "show"],
            format!("todokit: --conversation {rule}; this one holds U+0001 at byte 2\n"),
        ),
        (
            vec!["forget", ""],
            format!("todokit: todokit forget's ID {rule}; this one is empty\n"),
        ),
        (
            vec!["forget", long.as_str()],
            format!("todokit: todokit forget's ID {rule}; this one is 100000 bytes\n"),
        ),
        (
            vec!["prune", "--idle", "1d", "--namespace", "ACME"],
            "todokit: --namespace \"ACME\": a namespace is a tenant's, 1 to 32 of a-z, 0-9, `_` and `-`\n"
                .to_owned(),
        ),
        (
            vec!["prune", "--idle", "1d", "--namespace", "."],
            "todokit: --namespace \".\": a namespace is a tenant's, 1 to 32 of a-z, 0-9, `_` and `-`\n"
                .to_owned(),
        ),
    ];
    let actual: Vec<(Option<i32>, String)> = cases
        .iter()
        .map(|(args, _)| {
            let (code, _, stderr) = run(&store, args);
            (code, stderr)
        })
        .collect();
    let expected: Vec<(Option<i32>, String)> =
        cases.iter().map(|(_, says)| (Some(2), says.clone())).collect();
    assert_eq!(actual, expected);
    let shown: String = actual.iter().map(|(_, stderr)| stderr.as_str()).collect();
    crate::support::cli::snapshot_settings()
        .bind(|| insta::assert_snapshot!("refused_ids_and_namespaces", shown));
}

/// The store's folder: a conversation and its turn record.
fn store_with_record(dir: &Path) -> PathBuf {
    let store = dir.join("store");
    write_todos(&store, "c1", &json!([todo("x", "in_progress")]));
    let (runtime, service) = crate::support::cli::in_process(&store);
    runtime.block_on(async {
        let driver = TurnDriver::new(service).storing_end_of_turn(Enforcement::Strict);
        driver.user_prompt("c1").await.expect("a record");
    });
    store
}

#[test]
fn no_surface_of_the_server_reaches_a_turn_records_key() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = store_with_record(dir.path());
    let server = Server::start(&store, &["--token", "t0ken"]);
    let auth = [("Authorization", "Bearer t0ken")];
    let edit = [
        ("Authorization", "Bearer t0ken"),
        ("X-Todokit-Csrf", "1"),
        ("Content-Type", "application/json"),
    ];
    let status = |method: &str, path: &str, headers: &[(&str, &str)], body: Option<&str>| {
        request(&server.address, method, path, headers, body).status
    };
    let long = "a".repeat(5_000);
    let paths = vec![
        status("GET", "/api/conversations/c1%01turn", &auth, None),
        status("GET", "/api/conversations/c1%01turn/events", &auth, None),
        status(
            "POST",
            "/api/conversations/c1%01turn/edits",
            &edit,
            Some(r#"{"action":"done","task":"1"}"#),
        ),
        status("DELETE", "/api/conversations/c1%01turn", &edit, None),
        status("DELETE", &format!("/api/conversations/{long}"), &edit, None),
    ];
    let session = open_session(&server.address, &auth);
    let in_session = [
        ("Authorization", "Bearer t0ken"),
        ("Mcp-Session-Id", session.as_str()),
        ("Mcp-Protocol-Version", "2025-11-25"),
    ];
    // What a client is told: the reply's status, and whether its words
    // name the character refused.
    let told = |headers: &[(&str, &str)], body: serde_json::Value| {
        let mut all = in_session.to_vec();
        all.extend_from_slice(headers);
        let reply = mcp_post(&server.address, &all, &body);
        (reply.status, reply.body.contains("U+0001"))
    };
    let call = |meta: serde_json::Value| {
        json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": "TodoWrite", "arguments": {"todos": []}, "_meta": meta}})
    };
    let mcp = vec![
        told(&[], call(json!({"todokit/conversation": "c1\u{1}turn"}))),
        told(&[("todokit-conversation", "c1%01turn")], call(json!({}))),
        told(
            &[],
            json!({"jsonrpc": "2.0", "id": 2, "method": "resources/read",
                "params": {"uri": "todokit://conversations/c1%01turn"}}),
        ),
    ];
    let (runtime, service) = crate::support::cli::in_process(&store);
    let record_kept = runtime
        .block_on(service.state(&turn_key("c1")))
        .map(|s| s.version > 0)
        .ok();
    let actual = (paths, mcp, record_kept);
    let expected = (
        vec![400, 400, 400, 400, 400],
        vec![(200, true), (400, true), (200, true)],
        Some(true),
    );
    assert_eq!(actual, expected);
}
