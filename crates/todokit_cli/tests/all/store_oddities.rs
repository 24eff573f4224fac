//! A store folder that holds things named like state files but that are no
//! files: a FIFO (whose open would wait for a writer), a socket and a
//! folder. Every command answers at once, lists them with their problem,
//! and serves the other conversations as before.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use pretty_assertions::assert_eq;
use serde_json::json;

use crate::support::cli::{todokit, write_todos};
use crate::support::serve::{Server, request, todo};

/// Longer than any command here takes; a command still running then hangs.
const HANG: Duration = Duration::from_secs(5);

/// `ok` (a real list), then `piped` (a FIFO), `sock` (a socket) and
/// `folder` (a folder) under the names their ids would have.
fn odd_store(store: &Path) -> std::os::unix::net::UnixListener {
    write_todos(store, "ok", &json!([todo("Plan", "in_progress")]));
    let made = Command::new("mkfifo").arg(store.join("c-piped.json")).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo runs");
    std::fs::create_dir(store.join("c-folder.json")).expect("a folder");
    std::os::unix::net::UnixListener::bind(store.join("c-sock.json")).expect("a socket")
}

/// Runs `cmd` to its end, or kills it after [`HANG`]; the output, and how
/// long it took (`None` when it hung).
fn bounded(cmd: &mut Command) -> (Output, Option<Duration>) {
    let started = Instant::now();
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    while started.elapsed() < HANG {
        if let Ok(Some(_)) = child.try_wait() {
            let took = started.elapsed();
            return (child.wait_with_output().expect("its output"), Some(took));
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let _ = child.kill();
    (child.wait_with_output().expect("its output"), None)
}

/// `text` with each `YYYY-MM-DD HH:MM UTC` as `DATE`.
fn undated(text: &str) -> String {
    text.lines()
        .map(|line| match line.find(" UTC") {
            Some(end) if end >= 16 && line.is_char_boundary(end - 16) => {
                format!("{}DATE{}", &line[..end - 16], &line[end + 4..])
            }
            _ => line.to_owned(),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn a_fifo_a_socket_and_a_folder_named_like_state_files_hang_no_command() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = dir.path().join("store");
    let _socket = odd_store(&store);
    let write = r#"{"todos":[{"content":"x","status":"pending","activeForm":"X"}]}"#;
    let commands: Vec<(&str, Vec<&str>)> = vec![
        ("check", vec!["--conversation", "ok", "check"]),
        ("conversations", vec!["conversations"]),
        ("show piped", vec!["--conversation", "piped", "show"]),
        ("show sock", vec!["--conversation", "sock", "show"]),
        ("show folder", vec!["--conversation", "folder", "show"]),
        ("export piped", vec!["--conversation", "piped", "export"]),
        (
            "call piped",
            vec!["--conversation", "piped", "call", "TodoWrite", write],
        ),
        (
            "call folder",
            vec!["--conversation", "folder", "call", "TodoWrite", write],
        ),
        (
            "call ok",
            vec!["--conversation", "ok", "call", "TodoWrite", write],
        ),
    ];
    let mut shown = Vec::new();
    let mut hung = Vec::new();
    for (name, args) in &commands {
        let (out, took) = bounded(todokit(&store).args(args));
        if took.is_none() {
            hung.push(*name);
        }
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        let text = undated(&text.replace(&store.display().to_string(), "STORE"));
        // Listed newest first; these were all made within a millisecond.
        let mut lines: Vec<&str> = text.lines().collect();
        if *name == "conversations" {
            lines.sort_unstable();
        }
        let text = lines.join("\n");
        shown.push(format!(
            "$ todokit {name}: exit {:?}\n{}",
            out.status.code(),
            text.trim_end()
        ));
    }
    // `watch --latest` through a pipe: its first line comes at once.
    let started = Instant::now();
    let mut watch = todokit(&store)
        .args(["watch", "--latest"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("watch starts");
    let stdout = watch.stdout.take().expect("piped stdout");
    let (sender, first) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let line = BufReader::new(stdout).lines().next().and_then(Result::ok);
        let _ = sender.send(line);
    });
    let first = first.recv_timeout(HANG).ok().flatten();
    let _ = watch.kill();
    let _ = watch.wait();
    if first.is_none() {
        hung.push("watch --latest");
    }
    assert_eq!(
        hung,
        Vec::<&str>::new(),
        "after {:?}:\n{}",
        started.elapsed(),
        shown.join("\n")
    );
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(concat!(env!("CARGO_MANIFEST_DIR"), "/../../snapshots"));
    settings.set_omit_expression(true);
    settings.bind(|| insta::assert_snapshot!("store_oddities_commands", shown.join("\n")));
}

#[test]
fn the_board_lists_them_with_their_problem_and_keeps_answering() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = dir.path().join("store");
    let _socket = odd_store(&store);
    let server = Server::start(&store, &[]);
    let replies: Vec<(u16, String)> = (0..20)
        .map(|_| {
            let reply = request(&server.address, "GET", "/api/conversations", &[], None);
            (reply.status, reply.body)
        })
        .collect();
    let listed = replies[0].1.clone();
    let summaries: Vec<(String, bool)> = serde_json::from_str::<serde_json::Value>(&listed)
        .ok()
        .and_then(|v| v.as_array().cloned())
        .unwrap_or_default()
        .iter()
        .map(|s| {
            let problem = s.to_string().contains("keeps only regular files");
            (s["id"].as_str().unwrap_or_default().to_owned(), problem)
        })
        .collect();
    let mut summaries = summaries;
    summaries.sort();
    let one = request(&server.address, "GET", "/api/conversations/piped", &[], None);
    let expected = vec![
        ("folder".to_owned(), true),
        ("ok".to_owned(), false),
        ("piped".to_owned(), true),
        ("sock".to_owned(), true),
    ];
    let statuses: Vec<u16> = replies.iter().map(|(status, _)| *status).collect();
    assert_eq!(
        (statuses, summaries, one.body.contains("FIFO")),
        (vec![200; 20], expected, true),
        "{listed}"
    );
}
