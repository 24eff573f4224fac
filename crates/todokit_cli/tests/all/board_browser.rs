//! The board in a real headless browser (Debian's chromium, driven through
//! chromedriver): the overview lists the store's conversations, a commit
//! from another process appears without a reload, hostile model text stays
//! text, and each page is photographed at desktop and phone width.
//!
//! `TODOKIT_UPDATE_SCREENSHOTS=1` writes the photographs to `docs/` (the
//! README shows them); otherwise they go to `target/board-screenshots/`.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use pretty_assertions::assert_eq;
use serde_json::{Value, json};

use crate::support::cli::{todokit, write_todos};
use crate::support::serve::{Browser, Events, Server, todo};

const HOSTILE: &str = r#"<img src=x onerror="window.pwned=1">"#;
const CLOSING: &str = "</script><script>window.pwned=2</script>";

/// The plain two-task list most pages here start from.
fn write_alpha(store: &std::path::Path) {
    write_todos(
        store,
        "alpha",
        &json!([todo("Plan A", "in_progress"), todo("Ship A", "pending")]),
    );
}

#[test]
fn the_overview_follows_another_process_and_hostile_text_stays_text() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = dir.path().join("store");
    // Apart by more than a tick of the file system's clock (a few
    // milliseconds): the overview orders by change time, and two calls
    // within one tick would tie.
    let tick = || std::thread::sleep(Duration::from_millis(20));
    write_alpha(&store);
    tick();
    write_todos(&store, "beta", &json!([todo("Plan B", "in_progress")]));
    tick();
    write_todos(
        &store,
        "gamma",
        &json!([todo(HOSTILE, "in_progress"), todo(CLOSING, "pending")]),
    );
    let server = Server::start(&store, &[]);
    let browser = Browser::start(1280, 900, false);

    browser.open(&server.url("/"));
    let listed = browser.wait_for(
        "return document.querySelectorAll('.card').length === 3",
        Duration::from_secs(10),
    );
    let ids = browser.eval("return [...document.querySelectorAll('.card h2')].map(h => h.textContent)");

    // Another process commits; the open page shows it without a reload.
    let started = Instant::now();
    write_todos(
        &store,
        "alpha",
        &json!([todo("Plan A", "completed"), todo("Ship A", "in_progress")]),
    );
    let followed = browser.wait_for(
        "return [...document.querySelectorAll('.card')].some(c => c.dataset.id === 'alpha' && c.textContent.includes('1/2 done'))",
        Duration::from_secs(5),
    );
    let within = started.elapsed();
    let loads = browser.eval("return document.body.dataset.loads");
    let seen = browser.eval("return [document.body.dataset.updates, document.getElementById('live').textContent, [...document.querySelectorAll('.card')].map(c => c.textContent)]");

    browser.open(&server.url("/c/gamma"));
    let drawn = browser.wait_for(
        "return document.querySelectorAll('.task').length === 2",
        Duration::from_secs(10),
    );
    let inert = browser.eval(
        "return [document.querySelectorAll('main img, main script').length, typeof window.pwned, \
         [...document.querySelectorAll('.task .text')].map(t => t.textContent)]",
    );

    let actual = (
        listed,
        ids,
        followed,
        within < Duration::from_secs(2),
        loads,
        drawn,
        inert,
    );
    let expected = (
        true,
        json!(["gamma", "beta", "alpha"]),
        true,
        true,
        json!("1"),
        true,
        json!([0, "undefined", [HOSTILE, CLOSING]]),
    );
    assert_eq!(
        actual, expected,
        "the commit showed after {within:?}; the page: {seen}"
    );
}

/// What a script on the page reads from `path` with a same-origin request:
/// its status and whether the answer holds `needle`.
const READ_SAME_ORIGIN: &str = "var x = new XMLHttpRequest(); x.open('GET', arguments[0], false); x.send(); \
     return [x.status, x.responseText.includes(arguments[1])];";

#[test]
fn a_page_on_a_rebound_name_reads_no_list() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = dir.path().join("store");
    write_alpha(&store);
    let server = Server::start(&store, &[]);
    let port = server.address.rsplit(':').next().unwrap_or_default().to_owned();
    // The attacker's name now resolves to this machine, as after a DNS
    // rebinding; the page's scripts run as that name's origin.
    let rule = "--host-resolver-rules=MAP rebind.attacker.test 127.0.0.1";
    let browser = Browser::start_with(1280, 900, false, &[rule]);
    let read = |path: &str| browser.eval_with(READ_SAME_ORIGIN, &[json!(path), json!("Plan A")]);

    browser.open(&format!("http://rebind.attacker.test:{port}/"));
    let rebound = [
        read("/api/conversations/alpha"),
        read("/api/conversations"),
        read("/"),
    ];
    browser.open(&format!("http://localhost:{port}/"));
    let own = read("/api/conversations/alpha");

    let actual = (rebound, own);
    let expected = (
        [json!([421, false]), json!([421, false]), json!([421, false])],
        json!([200, true]),
    );
    assert_eq!(actual, expected);
}

#[test]
fn an_address_that_names_no_conversation_says_so() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = dir.path().join("store");
    write_alpha(&store);
    let server = Server::start(&store, &[]);
    let browser = Browser::start(1280, 900, false);
    browser.open(&server.url("/c/%ff"));
    let said = browser.wait_for(
        "return document.querySelector('main .problem') !== null",
        Duration::from_secs(10),
    );
    let shown = browser.eval(
        "return [document.getElementById('live').textContent, document.querySelector('main h1').textContent, \
         document.querySelector('main .problem').textContent]",
    );
    let expected = json!([
        "not following",
        "No such conversation",
        "This address does not name a conversation: %ff is not a valid percent-encoded id. Open one from the overview."
    ]);
    assert_eq!((said, shown), (true, expected));
}

#[test]
fn each_page_is_photographed_at_desktop_and_phone_width() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = dir.path().join("store");
    example_store(&store);
    let server = Server::start(&store, &[]);
    let out = screenshot_dir();
    let mut written = Vec::new();
    for (device, width, height, phone) in [("desktop", 1280, 800, false), ("phone", 390, 844, true)] {
        let browser = Browser::start(width, height, phone);
        for (page, path, ready) in [
            ("overview", "/", "document.querySelectorAll('.card').length === 3"),
            (
                "list",
                "/c/release-1.4",
                "document.querySelectorAll('.task').length === 6",
            ),
            (
                "tasks",
                "/c/team-board",
                "document.querySelectorAll('.task .owner').length === 1",
            ),
        ] {
            browser.open(&server.url(path));
            assert!(
                browser.wait_for(&format!("return {ready}"), Duration::from_secs(10)),
                "{page} on {device}"
            );
            let png = browser.screenshot();
            let file = out.join(format!("board-{page}-{device}.png"));
            std::fs::write(&file, &png).expect("the screenshot is written");
            written.push((
                file.file_name().map(|n| n.to_string_lossy().into_owned()),
                png.starts_with(b"\x89PNG"),
            ));
        }
    }
    let expected: Vec<(Option<String>, bool)> = [
        "overview-desktop",
        "list-desktop",
        "tasks-desktop",
        "overview-phone",
        "list-phone",
        "tasks-phone",
    ]
    .iter()
    .map(|name| (Some(format!("board-{name}.png")), true))
    .collect();
    assert_eq!(written, expected);
}

#[test]
fn a_signed_in_browser_edits_the_list_and_the_model_is_told() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = dir.path().join("store");
    write_alpha(&store);
    let server = Server::start(&store, &["--token", "s3cret-token"]);
    let browser = Browser::start(1280, 900, false);
    let code = server.login_code.clone().unwrap_or_default();
    browser.open(&server.url(&format!("/login?code={code}")));
    browser.open(&server.url("/c/alpha"));
    let drawn = browser.wait_for(
        "return document.querySelectorAll('.task button').length > 0",
        Duration::from_secs(10),
    );
    browser.eval(
        "const done = [...document.querySelectorAll('.status-in_progress button')].find(b => b.textContent === 'Done'); \
         done.click(); return true",
    );
    let moved = browser.wait_for(
        "return document.querySelector('.status-completed .text')?.textContent === 'Plan A' && \
         document.getElementById('flash').textContent.startsWith('You marked')",
        Duration::from_secs(10),
    );
    let flash = browser.eval("return document.getElementById('flash').textContent");
    let reminders = todokit(&store)
        .args(["--conversation", "alpha", "reminders"])
        .output()
        .expect("todokit runs");
    let actual = (
        drawn,
        moved,
        flash,
        String::from_utf8_lossy(&reminders.stdout)
            .starts_with("The user edited the todo list by hand: they marked \"Plan A\" completed"),
    );
    let expected = (
        true,
        true,
        json!("You marked \"Plan A\" completed; started \"Ship A\"."),
        true,
    );
    assert_eq!(actual, expected);
}

/// Where the photographs go: `docs/` when asked to update them.
fn screenshot_dir() -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let dir = match std::env::var("TODOKIT_UPDATE_SCREENSHOTS").as_deref() {
        Ok("1") => root.join("docs"),
        _ => root.join("target/board-screenshots"),
    };
    std::fs::create_dir_all(&dir).expect("the screenshot folder");
    dir
}

/// Three conversations as a team would have them: a pi plan in phases with
/// notes, a claude-tasks board with owners and blockers, and a Codex plan.
fn example_store(store: &Path) {
    let run = |profile: &str, conversation: &str, tool: &str, args: Value| {
        let out = todokit(store)
            .args([
                "--profile",
                profile,
                "--conversation",
                conversation,
                "call",
                tool,
                &args.to_string(),
            ])
            .output()
            .expect("todokit runs");
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    };
    run(
        "codex",
        "docs-refresh",
        "update_plan",
        json!({
            "explanation": "The API reference comes first: the guides link into it.",
            "plan": [
                {"step": "Regenerate the API reference", "status": "completed"},
                {"step": "Rewrite the getting-started guide", "status": "in_progress"},
                {"step": "Check every link", "status": "pending"}
            ]
        }),
    );
    for (subject, form) in [
        ("Fix the flaky upload test", "Fixing the flaky upload test"),
        ("Add retry to the uploader", "Adding retry"),
        ("Profile the parser", "Profiling the parser"),
    ] {
        run(
            "claude-tasks",
            "team-board",
            "TaskCreate",
            json!({"subject": subject, "description": subject, "activeForm": form}),
        );
    }
    run(
        "claude-tasks",
        "team-board",
        "TaskUpdate",
        json!({"taskId": "1", "owner": "alice", "status": "in_progress"}),
    );
    run(
        "claude-tasks",
        "team-board",
        "TaskUpdate",
        json!({"taskId": "2", "addBlockedBy": ["1"]}),
    );
    run(
        "pi",
        "release-1.4",
        "todo_write",
        json!({"ops": [
            {"op": "init", "list": [
                {"phase": "Prepare", "items": ["Freeze the branch", "Update the changelog"]},
                {"phase": "Build", "items": ["Build the packages", "Sign the artifacts"]},
                {"phase": "Ship", "items": ["Publish", "Announce"]}
            ]},
            {"op": "done", "task": "Freeze the branch"},
            {"op": "done", "task": "Update the changelog"},
            {"op": "note", "task": "Build the packages", "text": "arm64 runner is slow today; allow 20 minutes"}
        ]}),
    );
}

#[test]
fn a_long_overview_shows_a_page_then_the_next_and_a_change_moves_its_card_to_the_top() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = dir.path().join("store");
    let files = todokit::JsonFileStore::new(&store);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("a runtime");
    for i in 0..105 {
        let list = todokit::TodoState::flat(vec![todokit::Todo::new(format!("task {i}"))]).version(1u64);
        runtime
            .block_on(todokit::ConversationContext::save(
                &files,
                &format!("c-{i:03}"),
                0,
                &list,
            ))
            .expect("saved");
        // Apart in time, so the newest is the last written.
        std::thread::sleep(Duration::from_millis(2));
    }
    let server = Server::start(&store, &[]);
    let browser = Browser::start(1280, 900, false);
    browser.open(&server.url("/"));
    let cards = "return document.querySelectorAll('.card').length";
    let first_page = browser.wait_for(
        "return document.querySelectorAll('.card').length === 100 && !!document.querySelector('button.more')",
        Duration::from_secs(10),
    );
    browser.eval("document.querySelector('button.more').click(); return true");
    let next_page = browser.wait_for(
        "return document.querySelectorAll('.card').length === 105 && !document.querySelector('button.more')",
        Duration::from_secs(10),
    );
    write_todos(&store, "c-000", &json!([todo("moved up", "in_progress")]));
    let moved = browser.wait_for(
        "return document.querySelector('.card').dataset.id === 'c-000'",
        Duration::from_secs(5),
    );
    let actual = (first_page, next_page, moved, browser.eval(cards));
    assert_eq!(actual, (true, true, true, json!(105)));
}

#[test]
fn a_page_draws_its_list_before_and_without_its_live_stream() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = dir.path().join("store");
    write_alpha(&store);
    // Every live stream the caller may hold (4 here) is taken, so the
    // pages' own streams are refused: whatever they show, they drew
    // without one.
    let server = Server::start(&store, &["--max-streams-per-token", "4"]);
    let mut taken: Vec<Events> = (0..4)
        .map(|_| Events::open(&server.address, "/api/events"))
        .collect();
    let all_taken = taken
        .iter_mut()
        .all(|events| events.next("conversations", Duration::from_secs(10)).is_some());
    let browser = Browser::start(1280, 900, false);
    let mut actual = vec![json!(all_taken)];
    for (path, drawn) in [
        (
            "/c/alpha",
            "return document.querySelectorAll('.task').length === 2",
        ),
        ("/", "return document.querySelectorAll('.card').length === 1"),
    ] {
        browser.open(&server.url(path));
        let shown = browser.wait_for(drawn, Duration::from_secs(10));
        let seen = browser.eval(
            "return [document.body.dataset.updates, document.getElementById('main').textContent.includes('Plan A')]",
        );
        actual.push(json!([path, shown, seen]));
    }
    // No stream event came (`updates` stays 0), and the list is there.
    let expected = vec![
        json!(true),
        json!(["/c/alpha", true, ["0", true]]),
        json!(["/", true, ["0", true]]),
    ];
    assert_eq!(actual, expected);
}
