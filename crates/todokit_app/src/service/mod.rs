//! The service that runs one tool call: decode, validate, apply, store with
//! compare-and-swap on the version, and format the result. The same
//! commit loop serves user edits, resume, restoring from a transcript and
//! taking notices; live feeds are rung by every commit.
//!
//! [`TodoWriteService`] is defined in `todo_write_service`; each module
//! beside it adds one job's methods.

mod alarms;
mod calls;
mod commit;
mod conversations;
mod edit_request;
mod error;
mod lifecycle;
mod lists;
mod restore;
mod rounds;
mod subscription;
mod todo_write_service;
mod user_edit;
mod user_edit_limits;
mod user_words;

pub use commit::MAX_COMMIT_ATTEMPTS;
pub use conversations::ConversationSummary;
pub use edit_request::EditRequest;
pub use error::ServiceError;
pub use rounds::RoundCall;
pub use subscription::{SUBSCRIBE_POLL_INTERVAL, Subscription};
pub use todo_write_service::{Catalog, TodoWriteService};
pub use user_edit::{ImportError, MarkdownCodec, UserAction, UserEdit, UserEditError, user_edit_reminder};
