//! What the board's handlers share, and how each handler takes its part.

use std::sync::Arc;

use super::auth::Auth;
use super::remote::Endpoints;
use super::tenancy::Tenancy;

/// What the handlers share.
#[derive(Clone)]
pub(super) struct Board {
    pub(super) tenancy: Arc<Tenancy>,
    pub(super) auth: Arc<Auth>,
    /// Every caller's live streams, and their revocation.
    pub(super) holders: Arc<super::holders::Holders>,
    /// The MCP endpoints, one per profile served.
    pub(super) mcp: Arc<Endpoints>,
    /// Cancelled when the server stops: live streams end.
    pub(super) stopping: tokio_util::sync::CancellationToken,
    /// The server's metrics (`GET /metrics`).
    pub(super) metrics: Arc<crate::metrics::Metrics>,
}

/// Handlers that need only the token and session state take it alone.
impl axum::extract::FromRef<Board> for Arc<Auth> {
    fn from_ref(board: &Board) -> Self {
        Arc::clone(&board.auth)
    }
}

/// The MCP endpoints take their own state.
impl axum::extract::FromRef<Board> for Arc<Endpoints> {
    fn from_ref(board: &Board) -> Self {
        Arc::clone(&board.mcp)
    }
}

/// The token check takes the secrets and the tenancy.
impl axum::extract::FromRef<Board> for super::auth::Gate {
    fn from_ref(board: &Board) -> Self {
        super::auth::Gate {
            auth: Arc::clone(&board.auth),
            tenancy: Arc::clone(&board.tenancy),
        }
    }
}
