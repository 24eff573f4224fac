//! What the board's handlers share, and how many live streams it keeps.

use std::sync::Arc;

use todokit::TodoWriteService;

use super::auth::Auth;
use super::overview::Overview;

/// The most live event streams open at once: each holds a connection and
/// a feed (no thread: feeds share the store's one watch), so a client that
/// opens streams without end is refused past this.
pub const MAX_EVENT_STREAMS: usize = 64;

/// What the handlers share.
#[derive(Clone)]
pub(super) struct Board {
    pub(super) service: TodoWriteService,
    pub(super) auth: Arc<Auth>,
    pub(super) streams: Arc<tokio::sync::Semaphore>,
    /// Every conversation's summary, followed once for every overview.
    pub(super) overview: Arc<Overview>,
}

/// Handlers that need only the token and session state take it alone.
impl axum::extract::FromRef<Board> for Arc<Auth> {
    fn from_ref(board: &Board) -> Self {
        Arc::clone(&board.auth)
    }
}
