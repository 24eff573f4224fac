//! Live updates as Server-Sent Events: one list (fed by the library's
//! `subscribe`, so commits from other processes and machines arrive), and
//! the overview of every conversation.

use std::convert::Infallible;
use std::time::Duration;

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use futures_util::{StreamExt, stream};
use todokit::Subscription;

use super::api::view;
use super::board::{Board, MAX_EVENT_STREAMS};

/// How often a stream looks again without a commit: finished tasks that
/// clear with time, and the overview (which watches every conversation).
const RECHECK: Duration = Duration::from_millis(300);

/// A place among the open streams, held by the stream until the client
/// goes; `None` when all are taken.
fn place(board: &Board) -> Option<tokio::sync::OwnedSemaphorePermit> {
    board.streams.clone().try_acquire_owned().ok()
}

/// The answer when every place is taken.
fn all_taken() -> Response {
    (
        StatusCode::SERVICE_UNAVAILABLE,
        format!("the board already serves {MAX_EVENT_STREAMS} live streams; close one and retry\n"),
    )
        .into_response()
}

/// `GET /api/conversations/{id}/events`: the list now, then every change.
pub async fn conversation(State(board): State<Board>, Path(id): Path<String>) -> Response {
    let Some(permit) = place(&board) else {
        return all_taken();
    };
    let feed: Subscription = board.service.subscribe(&id);
    let start = (board, id, feed, None::<String>, permit);
    let events = stream::unfold(start, |(board, id, mut feed, last, permit)| async move {
        loop {
            tokio::select! {
                _ = feed.next() => {}
                () = tokio::time::sleep(RECHECK) => {}
            }
            let now = view(&board, &id).await.to_string();
            if last.as_deref() != Some(now.as_str()) {
                let event = Event::default().event("list").data(now.clone());
                return Some((Ok::<_, Infallible>(event), (board, id, feed, Some(now), permit)));
            }
        }
    });
    Sse::new(events).keep_alive(KeepAlive::default()).into_response()
}

/// `GET /api/events`: every conversation's summary, again on every change.
pub async fn overview(State(board): State<Board>) -> Response {
    let Some(permit) = place(&board) else {
        return all_taken();
    };
    let events = stream::unfold(
        (board, None::<String>, permit),
        |(board, last, permit)| async move {
            loop {
                let now = match board.service.conversations().await {
                    Ok(list) => serde_json::to_string(&list).unwrap_or_else(|_| "[]".to_owned()),
                    Err(error) => serde_json::json!({"error": error.to_string()}).to_string(),
                };
                if last.as_deref() != Some(now.as_str()) {
                    let event = Event::default().event("conversations").data(now.clone());
                    return Some((Ok::<_, Infallible>(event), (board, Some(now), permit)));
                }
                tokio::time::sleep(RECHECK).await;
            }
        },
    );
    Sse::new(events).keep_alive(KeepAlive::default()).into_response()
}
