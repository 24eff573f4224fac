//! Subtasks end to end, through the real binary on a real store folder: a
//! tracker task written through `gemini-tracker` under a parent and with a
//! dependency shows under its parent in `watch` (in a tmux pane) and on
//! the board (in chromium), keeps its parent through a `claude-code`
//! `TodoWrite` rewrite of the same conversation, and survives `export` and
//! `import`.

use std::path::Path;
use std::time::Duration;

use pretty_assertions::assert_eq;
use serde_json::{Value, json};

use crate::support::cli::{json_of, run, todokit, write_todos};
use crate::support::serve::{Browser, Server};
use crate::support::tmux::Pane;

const CONVERSATION: &str = "tree";

/// One tracker call through the binary; its answer.
fn tracker(store: &Path, tool: &str, args: Value) -> String {
    let out = run(todokit(store).args([
        "--profile",
        "gemini-tracker",
        "--conversation",
        CONVERSATION,
        "call",
        tool,
        &args.to_string(),
    ]));
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    json_of(&out)["content"].as_str().unwrap_or_default().to_owned()
}

/// An epic, a task under it, and a bug under it that depends on the task;
/// returns the three ids.
fn plant_tree(store: &Path) -> [String; 3] {
    let id = |answer: String| answer.split([' ', ':']).nth(2).unwrap_or_default().to_owned();
    let epic = id(tracker(
        store,
        "tracker_create_task",
        json!({"title": "Ship the export", "description": "All of it", "type": "epic"}),
    ));
    let parser = id(tracker(
        store,
        "tracker_create_task",
        json!({"title": "Write the parser", "description": "Markdown in", "type": "task", "parentId": epic}),
    ));
    let flag = id(tracker(
        store,
        "tracker_create_task",
        json!({"title": "Wire the flag", "description": "CLI", "type": "bug", "parentId": epic, "dependencies": [parser]}),
    ));
    // A task after the tree, so "under its parent" is not just "last".
    tracker(
        store,
        "tracker_create_task",
        json!({"title": "Tidy the docs", "description": "Later", "type": "task"}),
    );
    [epic, parser, flag]
}

/// The stored tasks as (content, id, parent, blocked_by).
fn stored(store: &Path) -> Vec<(String, Value, Value, Value)> {
    let out = run(todokit(store).args(["--conversation", CONVERSATION, "show", "--format", "json"]));
    json_of(&out)["phases"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|p| p["tasks"].as_array().cloned().unwrap_or_default())
        .map(|t| {
            (
                t["content"].as_str().unwrap_or_default().to_owned(),
                t["id"].clone(),
                t["parent"].clone(),
                t["blocked_by"].clone(),
            )
        })
        .collect()
}

#[test]
fn a_subtask_keeps_its_parent_through_a_rewrite_and_the_markdown_round_trip() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = dir.path().join("store");
    let [epic, parser, flag] = plant_tree(&store);
    let planted = stored(&store);

    // Claude Code's `TodoWrite` rewrites the list, naming the tasks by
    // their text only.
    write_todos(
        &store,
        CONVERSATION,
        &json!([
            {"content": "Ship the export", "activeForm": "Shipping the export", "status": "in_progress"},
            {"content": "Write the parser", "activeForm": "Writing the parser", "status": "completed"},
            {"content": "Wire the flag", "activeForm": "Wiring the flag", "status": "pending"},
            {"content": "Tidy the docs", "activeForm": "Tidying the docs", "status": "pending"},
        ]),
    );
    let rewritten = stored(&store);

    // Out as markdown, back in: nothing the text cannot say is lost.
    let file = dir.path().join("list.md");
    let exported = run(todokit(&store)
        .args(["--conversation", CONVERSATION, "export"])
        .arg(&file));
    assert!(
        exported.status.success(),
        "{}",
        String::from_utf8_lossy(&exported.stderr)
    );
    let imported = run(todokit(&store)
        .args(["--conversation", CONVERSATION, "import"])
        .arg(&file));
    assert!(
        imported.status.success(),
        "{}",
        String::from_utf8_lossy(&imported.stderr)
    );
    let round_tripped = stored(&store);

    let visualized = tracker(&store, "tracker_visualize", json!({}));

    let row = |content: &str, id: &Value, parent: Option<&str>, deps: Value| {
        (content.to_owned(), id.clone(), json!(parent), deps)
    };
    let docs_id = planted[3].1.clone();
    let expected_rows = vec![
        row("Ship the export", &json!(epic), None, Value::Null),
        row("Write the parser", &json!(parser), Some(&epic), Value::Null),
        row("Wire the flag", &json!(flag), Some(&epic), json!([parser])),
        row("Tidy the docs", &docs_id, None, Value::Null),
    ];
    let actual = (planted.clone(), rewritten, round_tripped, visualized);
    let expected = (
        expected_rows.clone(),
        expected_rows.clone(),
        expected_rows,
        format!(
            "Task Tracker Graph:\n🚧 {epic} [EPIC] Ship the export\n  ✅ {parser} [TASK] Write the parser\n  \
             ⭕ {flag} [BUG] Wire the flag\n    └─ Depends on: {parser}\n⭕ {} [TASK] Tidy the docs\n",
            docs_id.as_str().unwrap_or_default()
        ),
    );
    assert_eq!(actual, expected);
}

#[test]
fn watch_shows_a_subtask_under_its_parent() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = dir.path().join("store");
    let command = format!(
        "{} --store store --conversation {CONVERSATION} --color never watch --interval-ms 5000",
        env!("CARGO_BIN_EXE_todokit")
    );
    let [epic, parser, flag] = plant_tree(&store);
    let pane = Pane::start(dir.path(), 60, 12, &command);
    let rows = pane.wait_for(|rows| rows.iter().any(|r| r.contains("Tidy the docs")));
    let tasks: Vec<String> = rows
        .iter()
        .filter(|r| ["Ship", "Write", "Wire", "Tidy"].iter().any(|w| r.contains(w)))
        .map(|r| r.trim_end().to_owned())
        .collect();
    let actual: Vec<(usize, String)> = tasks
        .iter()
        .map(|r| {
            (
                r.len() - r.trim_start().len(),
                r.trim_start().chars().skip(2).collect(),
            )
        })
        .collect();
    // The tracker's agent shows ids, so `watch` does too.
    let docs = rows
        .iter()
        .find_map(|r| r.split_once("#")?.1.strip_suffix(" Tidy the docs"))
        .unwrap_or_default();
    let expected = vec![
        (0, format!("#{epic} Ship the export")),
        (2, format!("#{parser} Write the parser")),
        (2, format!("#{flag} Wire the flag")),
        (0, format!("#{docs} Tidy the docs")),
    ];
    assert_eq!(actual, expected, "pane:\n{}", rows.join("\n"));
}

#[test]
fn the_board_shows_a_subtask_under_its_parent() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = dir.path().join("store");
    plant_tree(&store);
    let server = Server::start(&store, &[]);
    let browser = Browser::start(1280, 900, false);
    browser.open(&server.url(&format!("/c/{CONVERSATION}")));
    let drawn = browser.wait_for(
        "return document.querySelectorAll('.task').length === 4",
        Duration::from_secs(10),
    );
    let rows = browser.eval(
        "return [...document.querySelectorAll('.task')].map(t => [
            t.querySelector('.text').textContent,
            [...t.classList].filter(c => c.startsWith('sub-')).join(''),
            Math.round(t.getBoundingClientRect().left),
        ])",
    );
    let lefts: Vec<i64> = rows
        .as_array()
        .into_iter()
        .flatten()
        .map(|r| r[2].as_i64().unwrap_or_default())
        .collect();
    let actual: (bool, Vec<(String, String)>, bool) = (
        drawn,
        rows.as_array()
            .into_iter()
            .flatten()
            .map(|r| {
                (
                    r[0].as_str().unwrap_or_default().to_owned(),
                    r[1].as_str().unwrap_or_default().to_owned(),
                )
            })
            .collect(),
        // The subtasks start further right than the tasks at the top.
        lefts.len() == 4 && lefts[1] > lefts[0] && lefts[2] == lefts[1] && lefts[3] == lefts[0],
    );
    let expected = (
        true,
        vec![
            ("Ship the export".to_owned(), String::new()),
            ("Write the parser".to_owned(), "sub-1".to_owned()),
            ("Wire the flag".to_owned(), "sub-1".to_owned()),
            ("Tidy the docs".to_owned(), String::new()),
        ],
        true,
    );
    assert_eq!(actual, expected, "board rows: {rows}");
}
