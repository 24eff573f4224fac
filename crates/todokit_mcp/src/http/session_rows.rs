//! What the server needs of a store to share MCP sessions between every
//! process on it: rows beside the store's lists. The server owns the
//! trait; each kind of store that can keep sessions implements it
//! (PostgreSQL's in `session_table`).

use std::time::Duration;

use todokit::StoreError;

/// How stale a session's last use may be noted while it is in use: a use
/// notes the time only when the last note is older than this
/// ([`SessionRows::use_session`]). The idle limit sweeps go by exceeds
/// rmcp's own by this much.
pub const SESSION_TOUCH_INTERVAL: Duration = Duration::from_secs(60);

/// Where the sessions every process on one store shares are kept: rows
/// beside the store's lists. A kind of store that can keep them implements
/// this and is named in `SharedSessions::at`; nothing else in the server
/// knows which store it is.
#[async_trait::async_trait]
pub trait SessionRows: Send + Sync + std::fmt::Debug {
    /// Keeps session `id`, opened by `owner`, with `state`. A session kept
    /// already stays as it was: nothing may rewrite whose a session is.
    async fn keep(&self, id: &str, owner: &str, state: &serde_json::Value) -> Result<(), StoreError>;
    /// The owner and state of session `id`, if it is kept.
    async fn get(&self, id: &str) -> Result<Option<(String, serde_json::Value)>, StoreError>;
    /// The owner of session `id` when it is still kept (`None`: it ended,
    /// on this process or another, or was swept), noting the use at most
    /// once every [`SESSION_TOUCH_INTERVAL`].
    async fn use_session(&self, id: &str) -> Result<Option<String>, StoreError>;
    /// Forgets session `id`.
    async fn forget(&self, id: &str) -> Result<(), StoreError>;
    /// Removes every session unused for longer than `idle`; how many.
    async fn sweep(&self, idle: Duration) -> Result<u64, StoreError>;
}
