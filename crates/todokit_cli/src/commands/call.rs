//! `todokit call TOOL [JSON]`: one tool call as an agent would make it.

use crate::exit::ExitCode;
use std::ffi::OsString;
use std::io::{IsTerminal, Read};

use anyhow::{Context as _, Result};

use super::Context;
use super::output::print_result;

/// The largest argument text `call` reads from standard input.
pub const MAX_STDIN_BYTES: u64 = 64 * 1024 * 1024;

/// Runs `tool` with `json` (standard input when absent or `-`) in the
/// host's `mode` and prints the result as JSON; exit 0 even for a tool
/// error.
///
/// Arguments that are not UTF-8 are the model's mistake, not the user's,
/// wherever they came from: a tool error (exit 0, nothing stored), the same
/// on the command line as on standard input.
pub async fn run(
    ctx: &Context<'_>,
    tool: String,
    json: Option<OsString>,
    mode: todokit::HostMode,
) -> Result<ExitCode> {
    let service = ctx.service().await?;
    let from_stdin = json.as_deref().is_none_or(|json| json == "-");
    if from_stdin && std::io::stdin().is_terminal() {
        // Otherwise a user who forgot the JSON sees a hang.
        eprintln!("todokit call: reading {tool}'s arguments from standard input; end with Ctrl-D");
    }
    let read = match json {
        Some(text) if !from_stdin => command_line(text),
        _ => read_stdin()?,
    };
    let args = match read {
        Arguments::Text(text) => text,
        refused => {
            // Not the model's arguments at all: a tool error, and nothing
            // is stored.
            let message = match refused {
                Arguments::NotUtf8 { source, offset } => format!(
                    "{source} is not valid UTF-8: the byte at offset {offset} does not start a valid character"
                ),
                _ => format!("standard input holds more than {MAX_STDIN_BYTES} bytes"),
            };
            let error = todokit::app::ArgumentError::Field {
                field: todokit::app::ROOT_FIELD.to_owned(),
                message,
            };
            let result = todokit::app::ToolError::from(error).into_result(&tool);
            print_result(&result)?;
            return Ok(ExitCode::SUCCESS);
        }
    };
    let options = todokit::CallOptions::default().mode(mode);
    let result = service
        .call_with(&ctx.conversation(), &tool, &args, options)
        .await?;
    print_result(&result)?;
    Ok(ExitCode::SUCCESS)
}

/// The argument given on the command line, refused when it is not UTF-8.
fn command_line(text: OsString) -> Arguments {
    match text.into_string() {
        Ok(text) => Arguments::Text(text),
        Err(raw) => Arguments::NotUtf8 {
            source: "the JSON argument",
            offset: std::str::from_utf8(raw.as_encoded_bytes()).map_or_else(|e| e.valid_up_to(), str::len),
        },
    }
}

/// The arguments as read, from the command line or standard input.
enum Arguments {
    /// Text, as sent.
    Text(String),
    /// More than [`MAX_STDIN_BYTES`].
    TooLarge,
    /// Bytes that are not UTF-8, from `offset` on.
    NotUtf8 {
        /// Where they came from, as the message names it.
        source: &'static str,
        /// The byte offset of the first byte that starts no valid character.
        offset: usize,
    },
}

/// The whole of standard input. Invalid UTF-8 is refused, never replaced:
/// a list must not store text the model did not send.
fn read_stdin() -> Result<Arguments> {
    let mut bytes = Vec::new();
    std::io::stdin()
        .take(MAX_STDIN_BYTES + 1)
        .read_to_end(&mut bytes)
        .context("cannot read the arguments from standard input")?;
    if bytes.len() as u64 > MAX_STDIN_BYTES {
        return Ok(Arguments::TooLarge);
    }
    Ok(match String::from_utf8(bytes) {
        Ok(text) => Arguments::Text(text),
        Err(e) => Arguments::NotUtf8 {
            source: "standard input",
            offset: e.utf8_error().valid_up_to(),
        },
    })
}
