//! `todokit watch` for real: in a tmux pane (a real pseudo-terminal) that
//! is resized under it, and through a pipe, with commits made by other
//! `todokit` processes.

use std::collections::HashSet;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

use pretty_assertions::assert_eq;

use crate::support::cli::{todokit, write_todos};
use crate::support::tmux::Pane;
use serde_json::{Value, json};

/// A `todokit watch` whose standard output is a pipe, read line by line.
pub(crate) struct PipedWatch {
    child: std::process::Child,
    lines: std::sync::mpsc::Receiver<String>,
}

impl PipedWatch {
    /// Starts `todokit watch` on `store` with `args`.
    pub(crate) fn start(store: &Path, args: &[&str]) -> PipedWatch {
        let mut child = todokit(store)
            .arg("watch")
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("todokit watch starts");
        let (tx, lines) = std::sync::mpsc::channel();
        let stdout = child.stdout.take().expect("stdout is piped");
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        PipedWatch { child, lines }
    }

    /// The next line, or an empty one after 20 s.
    pub(crate) fn next(&self) -> String {
        self.lines
            .recv_timeout(Duration::from_secs(20))
            .unwrap_or_default()
    }
}

impl Drop for PipedWatch {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// 40 todos for `write_todos`: 10 completed, the 11th in progress (or the 12th when
/// `moved`), the rest pending; long enough to wrap at 40 columns.
fn forty(moved: bool) -> Value {
    let in_progress = if moved { 11 } else { 10 };
    let todos: Vec<Value> = (0..40)
        .map(|n| {
            let status = match n {
                n if n < 10 || (moved && n == 10) => "completed",
                n if n == in_progress => "in_progress",
                _ => "pending",
            };
            json!({
                "content": format!("Step {} of the release with a description that goes on", n + 1),
                "activeForm": format!("Working on step {} of the release", n + 1),
                "status": status,
            })
        })
        .collect();
    Value::Array(todos)
}

/// What the done-when asks of a screen of `height` rows: header first,
/// the progress line, the task in progress, and every row within `width`.
fn fits(rows: &[String], width: usize, height: usize, progress: &str, active: &str) -> bool {
    rows.len() <= height
        && rows.first().is_some_and(|r| r.starts_with("todokit watch"))
        && rows.iter().any(|r| r.starts_with(progress))
        && rows.iter().any(|r| r.contains(active))
        && rows.iter().all(|r| r.chars().count() <= width)
}

#[test]
fn watch_fits_the_pane_is_redrawn_on_resize_and_never_splits_a_word() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = dir.path().join("store");
    write_todos(&store, "release", &forty(false));
    let command = format!(
        "{} --store store --conversation release --color never watch --interval-ms 5000",
        env!("CARGO_BIN_EXE_todokit")
    );
    let pane = Pane::start(dir.path(), 100, 30, &command);
    let active = "~ Working on step 11 of the release";
    let tall = pane.wait_for(|rows| fits(rows, 100, 30, "Progress: 10/40 completed", active));

    pane.resize(100, 20);
    // Waits for all 20 rows: a capture taken mid-redraw can hold fewer.
    let short =
        pane.wait_for(|rows| rows.len() == 20 && fits(rows, 100, 20, "Progress: 10/40 completed", active));

    // Another process moves the list on: the pane follows within the wait.
    write_todos(&store, "release", &forty(true));
    let moved =
        pane.wait_for(|rows| fits(rows, 100, 20, "Progress: 11/40 completed", "~ Working on step 12"));

    pane.resize(40, 30);
    let narrow = pane.wait_for(|rows| {
        rows.iter().all(|r| r.chars().count() <= 40)
            && fits(rows, 40, 30, "Progress: 11/40 completed", "~ Working")
    });
    let words: HashSet<String> = forty(true)
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|t| {
            format!("{} {}", t["content"], t["activeForm"])
                .replace('"', " ")
                .split_whitespace()
                .map(str::to_owned)
                .collect::<Vec<_>>()
        })
        .chain(
            "Progress: 11/40 completed ✓ ~ ○ … more"
                .split_whitespace()
                .map(str::to_owned),
        )
        .collect();
    let split: Vec<String> = narrow
        .iter()
        .skip(1) // the header is cut to the width, not wrapped
        .flat_map(|r| r.split_whitespace().map(str::to_owned).collect::<Vec<_>>())
        .filter(|w| !words.contains(w) && w.parse::<u32>().is_err())
        .collect();

    let actual = (
        fits(&tall, 100, 30, "Progress: 10/40 completed", active),
        tall.get(1..4).map(<[String]>::to_vec),
        fits(&short, 100, 20, "Progress: 10/40 completed", active),
        short.len(),
        fits(
            &moved,
            100,
            20,
            "Progress: 11/40 completed",
            "~ Working on step 12",
        ),
        fits(&narrow, 40, 30, "Progress: 11/40 completed", "~ Working"),
        split,
    );
    let expected = (
        true,
        Some(vec![
            "Progress: 10/40 completed".to_owned(),
            String::new(),
            "✓ 10 completed".to_owned(),
        ]),
        true,
        20,
        true,
        true,
        Vec::<String>::new(),
    );
    assert_eq!(
        actual,
        expected,
        "tall:\n{}\nshort:\n{}\nnarrow:\n{}",
        tall.join("\n"),
        short.join("\n"),
        narrow.join("\n")
    );
}

#[test]
fn watch_latest_follows_whichever_conversation_changed_last() {
    let store = tempfile::tempdir().expect("temp dir");
    let plan = |text: &str| json!([{"content": text, "status": "in_progress", "activeForm": text}]);
    write_todos(store.path(), "first", &plan("Plan A"));
    let watcher = PipedWatch::start(store.path(), &["--latest", "--interval-ms", "200"]);
    let next = || watcher.next();
    let mut lines = vec![next()];
    // Store times are in milliseconds: keep the two commits apart.
    std::thread::sleep(Duration::from_millis(20));
    write_todos(store.path(), "second", &plan("Plan B"));
    lines.push(next());
    std::thread::sleep(Duration::from_millis(20));
    write_todos(store.path(), "first", &plan("Plan A2"));
    lines.push(next());
    drop(watcher);
    let expected = vec![
        "first: version 1 by claude-code: 0/1 completed; in progress: Plan A",
        "second: version 1 by claude-code: 0/1 completed; in progress: Plan B",
        "first: version 2 by claude-code: 0/1 completed; in progress: Plan A2",
    ];
    assert_eq!(lines, expected);
}

#[test]
fn watch_prints_one_line_per_change_when_not_on_a_terminal() {
    let store = tempfile::tempdir().unwrap();
    let watcher = PipedWatch::start(store.path(), &["--interval-ms", "200"]);
    let next = || watcher.next();
    let mut lines = vec![next()];
    let writes = [
        r#"[{"content":"Plan","status":"in_progress","activeForm":"Planning"},{"content":"Build","status":"pending","activeForm":"Building"}]"#,
        r#"[{"content":"Plan","status":"completed","activeForm":"Planning"},{"content":"Build","status":"in_progress","activeForm":"Building \u001b[31m"}]"#,
        r#"[{"content":"Plan","status":"completed","activeForm":"Planning"},{"content":"Build","status":"completed","activeForm":"Building"}]"#,
    ];
    for todos in writes {
        write_todos(
            store.path(),
            "default",
            &serde_json::from_str(todos).expect("JSON"),
        );
        lines.push(next());
    }
    drop(watcher);
    let actual = lines;
    let expected = vec![
        "version 0: no todos".to_owned(),
        "version 1 by claude-code: 0/2 completed; in progress: Planning; 1 pending".to_owned(),
        "version 2 by claude-code: 1/2 completed; in progress: Building ␛[31m".to_owned(),
        "version 3 by claude-code: no todos".to_owned(),
    ];
    assert_eq!(actual, expected);
}

#[test]
fn call_on_a_terminal_without_arguments_says_it_is_reading_standard_input() {
    let dir = tempfile::tempdir().expect("temp dir");
    let command = format!("{} --store store call TodoWrite", env!("CARGO_BIN_EXE_todokit"));
    let pane = Pane::start(dir.path(), 100, 10, &command);
    let hint = "todokit call: reading TodoWrite's arguments from standard input; end with Ctrl-D";
    let rows = pane.wait_for(|rows| rows.iter().any(|r| r == hint));
    assert!(rows.iter().any(|r| r == hint), "{}", rows.join("\n"));
}

#[test]
fn watch_shows_a_list_the_way_the_profile_that_wrote_it_does() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = dir.path().join("store");
    let init = r#"{"ops":[{"op":"init","list":[{"phase":"Build","items":["Wire the store","Add tests"]}]},{"op":"note","task":"Wire the store","text":"use the lock"}]}"#;
    let out = todokit(&store)
        .args([
            "--profile",
            "pi",
            "--conversation",
            "p",
            "call",
            "todo_write",
            init,
        ])
        .output()
        .expect("todokit call runs");
    assert!(out.status.success());
    // No --profile: the default (claude-code) is asked for, pi wrote it.
    let command = format!(
        "{} --store store --conversation p --color never watch",
        env!("CARGO_BIN_EXE_todokit")
    );
    let pane = Pane::start(dir.path(), 80, 12, &command);
    let rows = pane.wait_for(|rows| rows.iter().any(|r| r.contains("› use the lock")));
    let actual = rows.iter().map(String::as_str).take(7).collect::<Vec<_>>();
    let expected = vec![
        "todokit watch · p · pi · store",
        "Progress: 0/2 completed",
        "",
        "Build",
        "  ~ Wire the store",
        "    › use the lock",
        "  ○ Add tests",
    ];
    assert_eq!(actual, expected);
}
