//! Live updates as Server-Sent Events: one list (fed by the library's
//! `subscribe`, so commits from other processes and machines arrive), and
//! the overview of every conversation.

use std::convert::Infallible;
use std::time::Duration;

use axum::extract::{Path, State};
use axum::response::sse::{Event, KeepAlive, Sse};
use futures_util::{Stream, StreamExt, stream};
use todokit::Subscription;

use super::Board;
use super::api::view;

/// How often a stream looks again without a commit: finished tasks that
/// clear with time, and the overview (which watches every conversation).
const RECHECK: Duration = Duration::from_millis(300);

/// `GET /api/conversations/{id}/events`: the list now, then every change.
pub async fn conversation(
    State(board): State<Board>,
    Path(id): Path<String>,
) -> Sse<impl Stream<Item = Result<Event, Infallible>>> {
    let feed: Subscription = board.service.subscribe(&id);
    let start = (board, id, feed, None::<String>);
    let events = stream::unfold(start, |(board, id, mut feed, last)| async move {
        loop {
            tokio::select! {
                _ = feed.next() => {}
                () = tokio::time::sleep(RECHECK) => {}
            }
            let now = view(&board, &id).await.to_string();
            if last.as_deref() != Some(now.as_str()) {
                let event = Event::default().event("list").data(now.clone());
                return Some((Ok(event), (board, id, feed, Some(now))));
            }
        }
    });
    Sse::new(events).keep_alive(KeepAlive::default())
}

/// `GET /api/events`: every conversation's summary, again on every change.
pub async fn overview(State(board): State<Board>) -> Sse<impl Stream<Item = Result<Event, Infallible>>> {
    let events = stream::unfold((board, None::<String>), |(board, last)| async move {
        loop {
            let now = match board.service.conversations().await {
                Ok(list) => serde_json::to_string(&list).unwrap_or_else(|_| "[]".to_owned()),
                Err(error) => serde_json::json!({"error": error.to_string()}).to_string(),
            };
            if last.as_deref() != Some(now.as_str()) {
                let event = Event::default().event("conversations").data(now.clone());
                return Some((Ok(event), (board, Some(now))));
            }
            tokio::time::sleep(RECHECK).await;
        }
    });
    Sse::new(events).keep_alive(KeepAlive::default())
}
