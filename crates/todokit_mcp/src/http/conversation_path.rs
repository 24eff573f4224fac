//! The conversation a board route names in its path
//! (`/api/conversations/{id}`, its `events` and `edits`), checked as every
//! id a client names is ([`remote_conversation`]): a path naming no
//! conversation a client may name is answered 400 with the same words as
//! the header's and `_meta`'s refusals, before any handler runs.

use axum::Json;
use axum::extract::{FromRequestParts, Path};
use axum::http::StatusCode;
use axum::http::request::Parts;
use axum::response::{IntoResponse, Response};
use serde_json::json;

use crate::server::remote_conversation;

/// The checked conversation id of a route's `{id}`.
pub struct ConversationPath(pub String);

impl<S: Send + Sync> FromRequestParts<S> for ConversationPath {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let named = Path::<String>::from_request_parts(parts, state)
            .await
            .ok()
            .map(|Path(id)| id);
        remote_conversation("the conversation in the path (percent-encoded)", named.as_deref())
            .map(Self)
            .map_err(|message| (StatusCode::BAD_REQUEST, Json(json!({"error": message}))).into_response())
    }
}
