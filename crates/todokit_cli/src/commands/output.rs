//! Writing to standard output and standard error the way every command does.

use std::io::Write;

use anyhow::{Context as _, Result};

/// A tool call's result as pretty JSON on its own line: what
/// [`print_json`] prints for it, without reading its details back into a
/// tree to indent them.
pub fn print_result(result: &todokit::ToolResult) -> Result<()> {
    print_line(&super::pretty_json::to_string_pretty(result)?)
}

/// `value` as pretty JSON on its own line.
pub fn print_json(value: &serde_json::Value) -> Result<()> {
    print_line(&serde_json::to_string_pretty(value)?)
}

/// Says on stderr when a command reads a conversation the store does not
/// have (likely a mistyped `--conversation`), with the closest ids. A store
/// that cannot list its conversations says nothing: the command goes on.
/// Costs one load of the conversation when it has a list.
pub async fn warn_if_unknown(service: &todokit::TodoWriteService, conversation: &str) {
    // Every commit bumps the version, so a list with one exists: the store
    // is listed (every file of it, on a cold JSON-file store) only when the
    // conversation has none.
    if service
        .state(conversation)
        .await
        .is_ok_and(|state| state.version > 0)
    {
        return;
    }
    if let Ok(summaries) = service.conversations().await
        && let Some(warning) =
            super::conversations::listing::unknown_conversation_warning(conversation, &summaries)
    {
        eprint_inert(&warning);
    }
}

/// `text` made inert for a terminal, line by line: every character that
/// could steer it (escape sequences, bidirectional overrides, NUL, C1 and
/// tag characters) shown as a visible stand-in, the line breaks kept. What
/// `show` does to model text, for any text a model or a user wrote.
pub fn inert(text: &str) -> String {
    text.split('\n')
        .map(|line| todokit::infra::render::sanitize(line).into_owned())
        .collect::<Vec<_>>()
        .join("\n")
}

/// `text`, made [`inert`], and a line end on standard error.
pub fn eprint_inert(text: &str) {
    eprintln!("{}", inert(text));
}

/// [`inert`] `text` and a line end on standard output.
pub fn print_inert_line(text: &str) -> Result<()> {
    print_line(&inert(text))
}

/// Whether a write to standard output failed because its reader closed
/// the pipe: `BrokenPipe`, and on Windows also `ERROR_PIPE_NOT_CONNECTED`
/// (233), which a pipe whose reader has gone gives there (Wine gives it
/// where Windows gives `ERROR_NO_DATA`, which is `BrokenPipe`).
fn reader_left(error: &std::io::Error) -> bool {
    const ERROR_PIPE_NOT_CONNECTED: i32 = 233;
    error.kind() == std::io::ErrorKind::BrokenPipe
        || (cfg!(windows) && error.raw_os_error() == Some(ERROR_PIPE_NOT_CONNECTED))
}

/// `text` and a line end on standard output; a closed pipe is not an error.
pub fn print_line(text: &str) -> Result<()> {
    let mut out = std::io::stdout().lock();
    match writeln!(out, "{text}").and_then(|()| out.flush()) {
        // A closed pipe (`todokit show | head -1`) is the reader's choice, not an error.
        Err(e) if reader_left(&e) => Ok(()),
        other => other.context("cannot write to standard output"),
    }
}
