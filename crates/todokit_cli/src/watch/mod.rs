//! `todokit watch`: a live view of one conversation's list for a split
//! pane beside an agent (or, with `--latest`, of whichever conversation
//! changed last). It redraws on every version the library's live feed
//! (`TodoWriteService::subscribe`) reports, at once when the store's file
//! changes (file notifications), when the pane is resized (SIGWINCH), and
//! every interval (for finished tasks that clear with time). On a terminal
//! it draws a screen that fits the pane ([`screen`]); otherwise it prints
//! one line per change.

mod screen;
mod wrap;

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::Result;
use notify::{EventKind, RecursiveMode, Watcher};
use todokit::infra::render::{Glyphs, sanitize};
use todokit::{Format, JsonFileStore, Status, Subscription, TodoState, TodoWriteService};

use screen::{ScreenSpec, screen};

/// Cursor and screen control for the in-place view.
const HIDE_CURSOR: &str = "\u{1b}[?25l";
const SHOW_CURSOR: &str = "\u{1b}[?25h";
const HOME: &str = "\u{1b}[H";
const CLEAR_SCREEN: &str = "\u{1b}[2J";
const CLEAR_LINE_END: &str = "\u{1b}[K";
const CLEAR_BELOW: &str = "\u{1b}[J";
/// The pane assumed when the terminal does not say.
const FALLBACK_SIZE: (usize, usize) = (80, 24);

/// What to watch and how to draw it.
#[derive(Debug, Clone)]
pub struct WatchOptions {
    /// The conversation to show (with `latest`: until another one changes).
    pub conversation: String,
    /// Follow whichever conversation changed last.
    pub latest: bool,
    /// The store's folder, for file notifications (`None`: a database).
    pub store_dir: Option<PathBuf>,
    /// The store as the header names it.
    pub store_label: String,
    /// Glyphs and colour.
    pub terminal: Format,
    /// How often to look again regardless of notifications.
    pub interval: Duration,
}

/// Watches until Ctrl-C (or until stdout closes).
pub async fn run(service: &TodoWriteService, options: &WatchOptions) -> Result<()> {
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<()>();
    // With --latest every conversation's file matters; otherwise one.
    let only = (!options.latest).then(|| {
        options
            .store_dir
            .as_deref()
            .map(|dir| JsonFileStore::new(dir).path_for(&options.conversation))
    });
    // Keep the watcher alive for the whole loop; without one, polling alone.
    let watcher = options
        .store_dir
        .as_deref()
        .and_then(|dir| watch(dir, only.flatten(), tx));
    let notified = watcher.is_some();
    let tty = std::io::stdout().is_terminal();
    if tty {
        write_out(&format!("{HIDE_CURSOR}{CLEAR_SCREEN}"))?;
    }
    // One listener each for the whole loop, so a signal between two waits
    // is not lost.
    let ctrl_c = tokio::signal::ctrl_c();
    tokio::pin!(ctrl_c);
    let mut resized = resize_signal();
    let mut shown: Option<Frame> = None;
    let mut target = options.conversation.clone();
    // Commits from anywhere (this process, another, another machine on a
    // shared database) arrive through the feed.
    let mut feed: Subscription = service.subscribe(&target);
    let outcome = loop {
        let newer = match options.latest {
            true => newest(service).await.filter(|newest| *newest != target),
            false => None,
        };
        if let Some(newest) = newer {
            target = newest;
            feed = service.subscribe(&target);
        }
        let (profile, state) = service.view_as_written(&target).await;
        let state = state.map_err(|error| error.to_string());
        let now = Frame {
            conversation: target.clone(),
            profile: profile.name(),
            ids: profile.shows_ids(),
            state,
            size: pane_size(),
        };
        if shown.as_ref() != Some(&now) {
            let written = if tty {
                let resized = shown.as_ref().is_some_and(|before| before.size != now.size);
                write_out(&draw(options, &now, resized))
            } else {
                let named = options.latest.then_some(now.conversation.as_str());
                write_out(&format!("{}\n", line(named, &now.state)))
            };
            if written.is_err() {
                break Ok(());
            }
            shown = Some(now);
        }
        tokio::select! {
            _ = &mut ctrl_c => break Ok(()),
            Some(()) = rx.recv(), if notified => {}
            _ = std::future::poll_fn(|cx| todokit::Stream::poll_next(std::pin::Pin::new(&mut feed), cx)) => {}
            () = resized.recv() => {}
            () = tokio::time::sleep(options.interval) => {}
        }
    };
    if tty {
        let _ = write_out(&format!("{SHOW_CURSOR}\n"));
    }
    drop(watcher);
    outcome
}

/// What one screen showed: redrawn only when any of it changes.
#[derive(Debug, PartialEq)]
struct Frame {
    conversation: String,
    /// The profile whose tools last wrote the list (else the one asked for).
    profile: &'static str,
    /// Whether that profile's agent shows task ids.
    ids: bool,
    state: Result<TodoState, String>,
    /// Columns and rows of the pane.
    size: (usize, usize),
}

/// The conversation changed most recently, if the store lists any.
async fn newest(service: &TodoWriteService) -> Option<String> {
    let listed = service.conversations().await.ok()?;
    listed.into_iter().next().map(|summary| summary.id)
}

/// The terminal's size in columns and rows.
fn pane_size() -> (usize, usize) {
    match terminal_size::terminal_size() {
        Some((terminal_size::Width(w), terminal_size::Height(h))) if w > 0 && h > 0 => {
            (usize::from(w), usize::from(h))
        }
        _ => FALLBACK_SIZE,
    }
}

/// Window-size changes (SIGWINCH), or a source that never fires where
/// there are none (then the interval notices a new size).
struct Resized {
    #[cfg(unix)]
    signal: Option<tokio::signal::unix::Signal>,
}

impl Resized {
    async fn recv(&mut self) {
        #[cfg(unix)]
        if let Some(signal) = &mut self.signal {
            if signal.recv().await.is_some() {
                return;
            }
            self.signal = None;
        }
        std::future::pending::<()>().await
    }
}

fn resize_signal() -> Resized {
    Resized {
        #[cfg(unix)]
        signal: tokio::signal::unix::signal(tokio::signal::unix::SignalKind::window_change()).ok(),
    }
}

/// The whole screen, drawn over the previous one row by row so nothing
/// flickers; after a resize, on a cleared screen, since every row moved.
/// The last row ends without a newline, so the pane never scrolls.
fn draw(options: &WatchOptions, frame: &Frame, resized: bool) -> String {
    let (glyphs, color) = match options.terminal {
        Format::Ansi { color, glyphs } => (glyphs, color),
        _ => (Glyphs::Unicode, false),
    };
    let spec = ScreenSpec {
        width: frame.size.0,
        height: frame.size.1,
        conversation: frame.conversation.clone(),
        profile: frame.profile.to_owned(),
        store: options.store_label.clone(),
        ids: frame.ids,
        glyphs,
        color,
    };
    let rows = screen(&frame.state, &spec);
    let mut out = String::from(if resized { CLEAR_SCREEN } else { "" });
    out.push_str(HOME);
    let last = rows.len().saturating_sub(1);
    for (index, row) in rows.iter().enumerate() {
        out.push_str(row);
        out.push_str(CLEAR_LINE_END);
        if index < last {
            out.push('\n');
        }
    }
    out.push_str(CLEAR_BELOW);
    out
}

/// A watcher on the store folder that signals changes to `file`, or to any
/// conversation's file when `None` (writes replace a file by a rename, so
/// the folder is watched, not the file). `None` when notifications are not
/// available here.
fn watch(
    dir: &Path,
    file: Option<PathBuf>,
    tx: tokio::sync::mpsc::UnboundedSender<()>,
) -> Option<notify::RecommendedWatcher> {
    std::fs::create_dir_all(dir).ok()?;
    let mut watcher = notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
        let relevant = |path: &PathBuf| match &file {
            Some(file) => path == file,
            None => path.extension().is_some_and(|e| e == "json"),
        };
        // Only changes count: reading the file (as this loop does) raises
        // access events too, and reacting to those would spin.
        let changed = |e: &notify::Event| {
            matches!(
                e.kind,
                EventKind::Create(_) | EventKind::Modify(_) | EventKind::Remove(_)
            ) && e.paths.iter().any(relevant)
        };
        if event.is_ok_and(|e| changed(&e)) {
            let _ = tx.send(());
        }
    })
    .ok()?;
    watcher.watch(dir, RecursiveMode::NonRecursive).ok()?;
    Some(watcher)
}

/// One line per change, for logs and pipes: the version and the profile
/// whose tools made it (two agents can share a conversation); with
/// `--latest`, each line names its conversation.
fn line(conversation: Option<&str>, state: &Result<TodoState, String>) -> String {
    let lead = conversation
        .map(|c| format!("{}: ", sanitize(c)))
        .unwrap_or_default();
    let state = match state {
        Ok(state) => state,
        Err(error) => return format!("{lead}error: {}", sanitize(error)),
    };
    let by = state
        .profile
        .as_deref()
        .map(|profile| format!(" by {}", sanitize(profile)))
        .unwrap_or_default();
    if state.is_empty() {
        return format!("{lead}version {}{by}: no todos", state.version);
    }
    let counts = state.counts();
    let mut out = format!(
        "{lead}version {}{by}: {}/{} completed",
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
