//! todokit's MCP server: a profile's tools over the Model Context
//! Protocol on standard input and output, on a host's service (and so its
//! store); with the `http` feature, [`http`] serves the same over
//! Streamable HTTP beside the live board, for many callers (tokens and
//! tenants, quotas, and with `postgres` sessions shared by every process
//! on one database).
//!
//! [`TodoMcpServer`] is the rmcp handler; [`serve`] runs one session with
//! the limits a server facing a model needs: a maximum message size, a
//! bounded number of requests in flight, an answer for every malformed
//! message that has an id, and every request read answered before exit.
//! Each conversation of the store is a resource
//! (`todokit://conversations/<id>`) the client can list, read, and follow
//! with `resources/subscribe` or `subscriptions/listen`.

// Without `http`, what only the HTTP edge uses (a request's remote scope,
// the running calls it counts, the error code it answers a failed store
// with) is built but never called.
#![cfg_attr(not(feature = "http"), allow(dead_code))]

mod direct_call;
#[cfg(feature = "http")]
mod direct_tool_call;
mod framing;
#[cfg(feature = "http")]
pub mod http;
mod instructions;
mod limits;
mod list_watch;
mod listen_start;
mod live;
#[cfg(feature = "http")]
pub(crate) mod metrics;
mod resources;
mod rmcp_gate;
mod server;
mod session;
mod stdio;

pub use limits::{MAX_FOLLOWED_CONVERSATIONS, MAX_IN_FLIGHT, MAX_LISTENS, MAX_MESSAGE_BYTES};
pub use resources::{CONVERSATION_URI_PREFIX, RESOURCES_PAGE_SIZE, SUMMARY_META_KEY, conversation_uri};
pub use rmcp_gate::MAX_MESSAGE_VALUES;
pub use server::{CONVERSATION_META_KEY, TOOL_META_KEY, TodoMcpServer};
pub use session::{serve, serve_stdio};
