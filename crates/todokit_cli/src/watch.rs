//! `todokit watch`: a live view of one conversation's list for a split
//! pane beside an agent. It redraws on every version the library's live
//! feed (`TodoWriteService::subscribe`) reports, at once when the store's
//! file changes (file notifications), and also every interval (for
//! finished tasks that clear with time). On a terminal it redraws in place; otherwise it prints one line
//! per change.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::Result;
use notify::{EventKind, RecursiveMode, Watcher};
use todokit::infra::render::sanitize;
use todokit::{Format, JsonFileStore, Status, TodoState, TodoWriteService, render};

/// Cursor and screen control for the in-place view.
const HIDE_CURSOR: &str = "\u{1b}[?25l";
const SHOW_CURSOR: &str = "\u{1b}[?25h";
const HOME: &str = "\u{1b}[H";
const CLEAR_SCREEN: &str = "\u{1b}[2J";
const CLEAR_LINE_END: &str = "\u{1b}[K";
const CLEAR_BELOW: &str = "\u{1b}[J";

/// Watches `conversation` until Ctrl-C (or until stdout closes).
pub async fn run(
    service: &TodoWriteService,
    store_dir: Option<&Path>,
    conversation: &str,
    terminal: Format,
    interval: Duration,
) -> Result<()> {
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<()>();
    // Keep the watcher alive for the whole loop; without one, polling alone.
    let watcher = store_dir.and_then(|dir| watch(dir, JsonFileStore::new(dir).path_for(conversation), tx));
    let notified = watcher.is_some();
    let tty = std::io::stdout().is_terminal();
    let mut shown: Option<Result<TodoState, String>> = None;
    if tty {
        write_out(&format!("{HIDE_CURSOR}{CLEAR_SCREEN}"))?;
    }
    // One listener for the whole loop, so a Ctrl-C between two waits is not lost.
    let ctrl_c = tokio::signal::ctrl_c();
    tokio::pin!(ctrl_c);
    // Commits from anywhere (this process, another, another machine on a
    // shared database) arrive through the feed.
    let mut feed = service.subscribe(conversation);
    let outcome = loop {
        let current = service.view(conversation).await.map_err(|e| e.to_string());
        if shown.as_ref() != Some(&current) {
            let written = if tty {
                write_out(&screen(conversation, &current, terminal))
            } else {
                write_out(&format!("{}\n", line(&current)))
            };
            if written.is_err() {
                break Ok(());
            }
            shown = Some(current);
        }
        tokio::select! {
            _ = &mut ctrl_c => break Ok(()),
            Some(()) = rx.recv(), if notified => {}
            _ = std::future::poll_fn(|cx| todokit::Stream::poll_next(std::pin::Pin::new(&mut feed), cx)) => {}
            () = tokio::time::sleep(interval) => {}
        }
    };
    if tty {
        let _ = write_out(&format!("{SHOW_CURSOR}\n"));
    }
    drop(watcher);
    outcome
}

/// A watcher on the store folder that signals changes to `file` (writes
/// replace it by a rename, so the folder is watched, not the file). `None`
/// when notifications are not available here.
fn watch(
    dir: &Path,
    file: PathBuf,
    tx: tokio::sync::mpsc::UnboundedSender<()>,
) -> Option<notify::RecommendedWatcher> {
    std::fs::create_dir_all(dir).ok()?;
    let mut watcher = notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
        // Only changes count: reading the file (as this loop does) raises
        // access events too, and reacting to those would spin.
        let changed = |e: &notify::Event| {
            matches!(
                e.kind,
                EventKind::Create(_) | EventKind::Modify(_) | EventKind::Remove(_)
            ) && e.paths.iter().any(|p| p == &file)
        };
        if event.is_ok_and(|e| changed(&e)) {
            let _ = tx.send(());
        }
    })
    .ok()?;
    watcher.watch(dir, RecursiveMode::NonRecursive).ok()?;
    Some(watcher)
}

/// The whole view, drawn over the previous one line by line, so nothing
/// flickers.
fn screen(conversation: &str, state: &Result<TodoState, String>, terminal: Format) -> String {
    let header = format!("todokit watch · {} · Ctrl-C to quit", sanitize(conversation));
    let body = match state {
        Ok(state) => render(state, terminal),
        Err(error) => format!("cannot read the list: {}", sanitize(error)),
    };
    let mut out = String::from(HOME);
    for line in std::iter::once(header.as_str())
        .chain(std::iter::once(""))
        .chain(body.lines())
    {
        out.push_str(line);
        out.push_str(CLEAR_LINE_END);
        out.push('\n');
    }
    out.push_str(CLEAR_BELOW);
    out
}

/// One line per change, for logs and pipes.
fn line(state: &Result<TodoState, String>) -> String {
    let state = match state {
        Ok(state) => state,
        Err(error) => return format!("error: {}", sanitize(error)),
    };
    if state.is_empty() {
        return format!("version {}: no todos", state.version);
    }
    let counts = state.counts();
    let mut out = format!(
        "version {}: {}/{} completed",
        state.version,
        counts.completed,
        counts.total()
    );
    if let Some(task) = state.tasks().find(|t| t.status == Status::InProgress) {
        out.push_str(&format!("; in progress: {}", sanitize(task.display_text())));
    }
    if counts.pending > 0 {
        out.push_str(&format!("; {} pending", counts.pending));
    }
    out
}

fn write_out(text: &str) -> std::io::Result<()> {
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())?;
    out.flush()
}
