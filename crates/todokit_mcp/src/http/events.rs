//! Live updates as Server-Sent Events: one list (fed by the library's
//! `subscribe`, so commits from other processes and machines arrive), and
//! the overview of every conversation (fed by the board's one `Overview`).
//! Neither looks at the store on a timer: a list stream wakes on a commit,
//! or when the profile clears a finished task, and an overview stream when
//! a summary changed.

use std::convert::Infallible;
use std::time::Duration;

use axum::Extension;
use axum::extract::State;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use futures_util::{StreamExt, stream};
use todokit::Subscription;
use tokio::sync::broadcast::error::RecvError;

use super::api::view_until;
use super::board::Board;
use super::conversation_path::ConversationPath;
use super::holders::{StreamPlace, StreamsFull};
use super::overview::Overview;
use super::overview::{PAGE_SIZE, page};
use super::tenancy::Scope;

/// A place among the caller's streams, held by the stream until the
/// client goes (or the caller's token is revoked).
fn place(board: &Board, scope: &Scope) -> Result<StreamPlace, StreamsFull> {
    board.holders.stream(&scope.caller)
}

/// The answer to a stream past a quota: 429 for the caller's, 503 for the
/// process's, with the words MCP's refusal uses.
fn refused(full: StreamsFull) -> Response {
    let (status, message) = full.refusal();
    (status, axum::Json(serde_json::json!({"error": message}))).into_response()
}

/// `GET /api/conversations/{id}/events`: the list now, then every change.
pub async fn conversation(
    State(board): State<Board>,
    Extension(scope): Extension<Scope>,
    ConversationPath(id): ConversationPath,
) -> Response {
    let permit = match place(&board, &scope) {
        Ok(place) => place,
        Err(full) => return refused(full),
    };
    let revoked = permit.revoked.clone().cancelled_owned();
    let stopping = board.stopping.clone().cancelled_owned();
    let feed: Subscription = scope.service.subscribe(&id);
    let start = (scope, id, feed, None::<String>, None, permit);
    let events = stream::unfold(start, |(scope, id, mut feed, last, due, permit)| async move {
        let mut due = due;
        loop {
            let wait = due.map(|at: u64| {
                let now = scope.service.clock().now();
                // A few milliseconds past the moment, so the task is due.
                Duration::from_millis(at.saturating_sub(now).saturating_add(5))
            });
            match wait {
                Some(wait) => {
                    tokio::select! {
                        _ = feed.next() => {}
                        () = tokio::time::sleep(wait) => {}
                    }
                }
                None => {
                    feed.next().await;
                }
            }
            let (now, next) = view_until(&scope, &id).await;
            due = next;
            let now = now.to_string();
            if last.as_deref() != Some(now.as_str()) {
                let event = Event::default().event("list").data(now.clone());
                return Some((
                    Ok::<_, Infallible>(event),
                    (scope, id, feed, Some(now), due, permit),
                ));
            }
        }
    });
    // A stopping server ends its streams (the page reconnects elsewhere),
    // and a revoked token's.
    Sse::new(events.take_until(stopping).take_until(revoked))
        .keep_alive(KeepAlive::default())
        .into_response()
}

/// `GET /api/events`: the first page of conversations (a `conversations`
/// event), then each change (`changed`: the summaries that changed and
/// the ids that went). One that falls too far behind gets the first page
/// again.
pub async fn overview(State(board): State<Board>, Extension(scope): Extension<Scope>) -> Response {
    let permit = match place(&board, &scope) {
        Ok(place) => place,
        Err(full) => return refused(full),
    };
    let revoked = permit.revoked.clone().cancelled_owned();
    let stopping = board.stopping.clone().cancelled_owned();
    let overview = board.tenancy.overview(&scope.caller).await;
    // Following first, so nothing between the page and the first change
    // is missed.
    let changes = overview.changes();
    let first = first_page(&overview);
    let events = stream::unfold(
        (overview, changes, Some(first), permit),
        |(overview, mut changes, first, permit)| async move {
            if let Some(first) = first {
                let event = Event::default().event("conversations").data(first);
                return Some((Ok::<_, Infallible>(event), (overview, changes, None, permit)));
            }
            let event = match changes.recv().await {
                Ok(change) => Event::default().event("changed").data(change.as_ref()),
                Err(RecvError::Lagged(_)) => Event::default()
                    .event("conversations")
                    .data(first_page(&overview)),
                Err(RecvError::Closed) => return None,
            };
            Some((Ok(event), (overview, changes, None, permit)))
        },
    );
    // A stopping server ends its streams (the page reconnects elsewhere),
    // and a revoked token's.
    Sse::new(events.take_until(stopping).take_until(revoked))
        .keep_alive(KeepAlive::default())
        .into_response()
}

/// The first page of the latest listing, as the data of a `conversations`
/// event (or the error, while listing fails).
fn first_page(overview: &Overview) -> String {
    let listing = overview.current();
    match &listing.error {
        Some(error) if listing.summaries.is_empty() => serde_json::json!({"error": error}).to_string(),
        _ => serde_json::to_string(page(&listing.summaries, None, PAGE_SIZE))
            .unwrap_or_else(|_| "[]".to_owned()),
    }
}
