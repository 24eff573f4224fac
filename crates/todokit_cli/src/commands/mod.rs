//! One module per command of the `todokit` binary, each a `run` over the
//! [`Context`] every command shares: the store, profile and conversation
//! the options name, and how the terminal is drawn.

pub mod call;
pub mod check;
pub mod conversations;
pub mod demo;
pub mod edit;
pub mod mcp;
pub mod output;
mod pretty_json;
pub mod profiles;
mod registry;
pub mod reminders;
pub mod schema;
#[cfg(feature = "serve")]
pub mod serve;
pub mod setup;
pub mod show;
pub mod watch;

use std::path::Path;

use anyhow::Result;
use todokit::{Format, TodoWriteService};

use crate::store::make_service;

/// Exit code for a usage error: unknown tool or profile, bad flags, or a
/// hand edit or import that cannot be applied.
pub const EXIT_USAGE: u8 = 2;

/// Exit code for a change the store may or may not have taken: the answer
/// to the write was lost and reading the list back could not tell.
pub const EXIT_OUTCOME_UNKNOWN: u8 = 4;

/// The conversation a command works on when `--conversation` names none.
pub const DEFAULT_CONVERSATION: &str = "default";

/// A command line that asks for something no command does (an id a client
/// may not name, a namespace no tenant has): said on standard error, exit
/// status [`EXIT_USAGE`].
#[derive(Debug)]
pub struct UsageError(pub String);

impl std::fmt::Display for UsageError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for UsageError {}

/// `id` as a client may name a conversation, else the refusal, in the words
/// every surface uses (`todokit::domain::check_conversation_id`); `source`
/// says where the id came from.
pub fn client_conversation(source: &str, id: &str) -> Result<(), UsageError> {
    todokit::domain::check_conversation_id(id).map_err(|problem| {
        UsageError(format!(
            "{source} {}; {problem}",
            todokit::domain::CONVERSATION_ID_RULE
        ))
    })
}

/// What every command gets from the global options.
pub struct Context<'a> {
    /// `--store`: a folder or a database URL; `None` for the default.
    pub store: Option<&'a Path>,
    /// `--profile`.
    pub profile: &'a str,
    /// `--conversation`, when given.
    pub conversation: Option<String>,
    /// How lists are drawn on this terminal.
    pub terminal: Format,
    /// Whether file I/O runs on the calling thread (the MCP server's
    /// one-thread runtime) rather than the blocking pool.
    pub files_on_calling_thread: bool,
}

impl Context<'_> {
    /// The service for the options' store and profile.
    pub async fn service(&self) -> Result<TodoWriteService> {
        make_service(self.store, self.profile, self.files_on_calling_thread).await
    }

    /// The conversation the options name, else [`DEFAULT_CONVERSATION`].
    pub fn conversation(&self) -> String {
        self.conversation
            .clone()
            .unwrap_or_else(|| DEFAULT_CONVERSATION.to_owned())
    }
}
