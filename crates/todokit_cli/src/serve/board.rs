//! What the board's handlers share, how many live streams it keeps, and
//! the middleware that gives each request its caller's [`Scope`].

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::{StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::auth::Auth;
use super::remote::Endpoints;
use super::tenancy::{Scope, Tenancy};

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

/// Refuses requests without a token the server knows (when it has any),
/// and gives the others their [`Scope`].
pub async fn require_token(State(board): State<Board>, mut request: Request, next: Next) -> Response {
    let Some(caller) = board.auth.caller(request.headers()) else {
        // Only the operator's token has a sign-in link; every token signs
        // in at /login.
        let how = match board.auth.has_operator_token() {
            true => {
                "send Authorization: Bearer TOKEN, or sign in with your token at /login (or open the sign-in \
                 link todokit serve printed)"
            }
            false => {
                "send Authorization: Bearer TOKEN with a token of the server's token file, or sign in with it \
                 at /login"
            }
        };
        return (
            StatusCode::UNAUTHORIZED,
            [(header::WWW_AUTHENTICATE, "Bearer")],
            format!("this server needs a token: {how}\n"),
        )
            .into_response();
    };
    // The main profile exists, so there is always a service.
    let Some(service) = board.tenancy.service(&caller, None) else {
        return StatusCode::INTERNAL_SERVER_ERROR.into_response();
    };
    let can_edit = board.auth.edits_allowed(&caller);
    request.extensions_mut().insert(Scope {
        caller,
        service,
        can_edit,
    });
    next.run(request).await
}
