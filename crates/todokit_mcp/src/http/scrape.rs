//! `GET /metrics`: the server's metrics ([`crate::metrics`]) for the
//! operator only.

use axum::Extension;
use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};

use super::board::Board;
use super::tenancy::Scope;
use crate::metrics::Held;

/// `GET /metrics`: the server's metrics, for the operator only (a
/// tenant's token is 403; no token, 401, as everywhere).
pub(super) async fn route(State(board): State<Board>, Extension(scope): Extension<Scope>) -> Response {
    if scope.caller.namespace().is_some() {
        return (
            StatusCode::FORBIDDEN,
            "only the operator's token reads /metrics\n",
        )
            .into_response();
    }
    let held = Held {
        sessions: board.mcp.sessions_by_kind(),
        streams: board.holders.by_kind(),
    };
    let text = board.metrics.scrape(&held, board.tenancy.store().as_ref());
    (
        [(
            header::CONTENT_TYPE,
            "application/openmetrics-text; version=1.0.0; charset=utf-8",
        )],
        text,
    )
        .into_response()
}
