//! `todokit call TOOL [JSON]`: one tool call as an agent would make it.

use std::io::{IsTerminal, Read};
use std::process::ExitCode;

use anyhow::{Context as _, Result};

use super::Context;
use super::output::print_result;

/// The largest argument text `call` reads from standard input.
pub const MAX_STDIN_BYTES: u64 = 64 * 1024 * 1024;

/// Runs `tool` with `json` (standard input when absent or `-`) and prints
/// the result as JSON; exit 0 even for a tool error.
pub async fn run(ctx: &Context<'_>, tool: String, json: Option<String>) -> Result<ExitCode> {
    let service = ctx.service().await?;
    let from_stdin = matches!(json.as_deref(), None | Some("-"));
    if from_stdin && std::io::stdin().is_terminal() {
        // Otherwise a user who forgot the JSON sees a hang.
        eprintln!("todokit call: reading {tool}'s arguments from standard input; end with Ctrl-D");
    }
    let args = match json.as_deref() {
        None | Some("-") => match read_stdin()? {
            Stdin::Text(text) => text,
            refused => {
                // Not the model's arguments at all: a tool error, and
                // nothing is stored.
                let message = match refused {
                    Stdin::NotUtf8 { offset } => format!(
                        "standard input is not valid UTF-8: the byte at offset {offset} does not start \
                         a valid character"
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
        },
        Some(text) => text.to_owned(),
    };
    let result = service.call(&ctx.conversation(), &tool, &args).await?;
    print_result(&result)?;
    Ok(ExitCode::SUCCESS)
}

/// What standard input held.
enum Stdin {
    /// Text, as sent.
    Text(String),
    /// More than [`MAX_STDIN_BYTES`].
    TooLarge,
    /// Bytes that are not UTF-8, from `offset` on.
    NotUtf8 {
        /// The byte offset of the first byte that starts no valid character.
        offset: usize,
    },
}

/// The whole of standard input. Invalid UTF-8 is refused, never replaced:
/// a list must not store text the model did not send.
fn read_stdin() -> Result<Stdin> {
    let mut bytes = Vec::new();
    std::io::stdin()
        .take(MAX_STDIN_BYTES + 1)
        .read_to_end(&mut bytes)
        .context("cannot read the arguments from standard input")?;
    if bytes.len() as u64 > MAX_STDIN_BYTES {
        return Ok(Stdin::TooLarge);
    }
    Ok(match String::from_utf8(bytes) {
        Ok(text) => Stdin::Text(text),
        Err(e) => Stdin::NotUtf8 {
            offset: e.utf8_error().valid_up_to(),
        },
    })
}
