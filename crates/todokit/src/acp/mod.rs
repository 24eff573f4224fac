//! A conversation's list as an Agent Client Protocol plan (feature `acp`),
//! for Zed and every other editor that shows an ACP agent's plan.
//!
//! ACP's `session/update` with `sessionUpdate: "plan"` carries the whole
//! list each time; the client replaces the plan it shows. [`plan()`] maps
//! any profile's list to one ([the mapping](mod@plan#the-mapping)), and a
//! [`PlanFeed`] follows a conversation, so every commit (the model's calls,
//! a user's hand edit, another process, another machine on a shared
//! database) reaches the editor as a
//! [`SessionNotification`](agent_client_protocol::v1::schema::SessionNotification):
//!
//! ```
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! # futures_executor::block_on(async {
//! use todokit::acp::PlanFeed;
//!
//! let service = todokit::Todokit::builder().profile("claude-code")?.memory_store().build()?;
//! let mut feed = PlanFeed::new(&service, "conversation-1", "acp-session-1");
//! let _empty = feed.next().await; // the list now: nothing yet
//! service
//!     .call(
//!         "conversation-1",
//!         "TodoWrite",
//!         r#"{"todos":[{"content":"Run tests","status":"in_progress","activeForm":"Running tests"}]}"#,
//!     )
//!     .await?;
//! // Then each new version.
//! let update = feed.next().await.expect("the feed goes on")?;
//! // A host sends it: connection.send_notification(update)
//! let json = serde_json::to_value(&update)?;
//! assert_eq!(json["update"]["entries"][0]["content"], "Running tests");
//! # Ok::<(), Box<dyn std::error::Error>>(()) })
//! # }
//! ```
//!
//! With the feature `acp-plan-operations`, a client that declares the
//! (unstable) `plan` capability ([`supports_plan_operations`]) gets
//! `plan_update` with an id per conversation instead, so one session can
//! show several lists (an agent's and its subagents'), and `plan_removed`
//! when a list is emptied.

mod feed;
pub mod plan;

pub use feed::{PlanCatchUp, PlanFeed};
pub use plan::{META_KEY, entry, plan};

/// The official ACP crate, re-exported so a host names the same version
/// todokit builds against.
pub use agent_client_protocol;

#[cfg(feature = "acp-plan-operations")]
use agent_client_protocol::v1::schema::ClientCapabilities;

/// Whether a client's `initialize` declared the unstable plan operations
/// (`clientCapabilities.plan`), so a [`PlanFeed`] may send
/// `plan_update`/`plan_removed` ([`PlanFeed::with_plan_id`]).
#[cfg(feature = "acp-plan-operations")]
pub fn supports_plan_operations(capabilities: &ClientCapabilities) -> bool {
    capabilities.plan.is_some()
}
