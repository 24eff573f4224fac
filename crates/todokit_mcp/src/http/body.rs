//! Every request body read whole, on a deadline, before a handler sees it.
//!
//! hyper bounds how long a request head may take, not its body: a client
//! that sends `Content-Length: 1000` and then a byte every few seconds
//! would hold its connection (and a file descriptor) for ever. Here the
//! whole body must arrive within [`BODY_DEADLINE`] of its head, else the
//! answer is 408 and the connection is closed. Bodies are small on every
//! route (an edit, one MCP message), so reading them whole costs nothing
//! the handlers would not spend anyway, and it bounds each one by its
//! route's cap before any of it is parsed.
//!
//! A body past the cap is answered 413 at once; the rest is then read and
//! thrown away (up to [`LINGER_BYTES`], within the same deadline), as
//! nginx's lingering close does, so a client that writes its whole request
//! before it reads (Python's `http.client`) reads the 413 instead of a
//! reset connection.

use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::Request;
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use futures_util::StreamExt;

use crate::limits::MAX_MESSAGE_BYTES;
use crate::rmcp_gate::INVALID_REQUEST;

use super::shares::BodyPlace;

/// The largest request body the board reads (an edit is a few hundred
/// bytes); the MCP routes read one message (`MAX_MESSAGE_BYTES`).
pub const MAX_BODY_BYTES: usize = 64 * 1024;

/// How long a request's body may take to arrive, from its head.
pub const BODY_DEADLINE: Duration = Duration::from_secs(30);

/// How much of a body past its cap is read (and thrown away) after the 413,
/// so the client can finish writing and read the answer.
pub const LINGER_BYTES: usize = 64 << 20;

/// What reading a body came to.
enum Read {
    Whole(Bytes),
    TooLarge(axum::body::BodyDataStream),
    Broken,
}

/// The largest body the route of `path` takes.
fn cap_of(path: &str) -> usize {
    match path == "/mcp" || path.starts_with("/mcp/") {
        true => MAX_MESSAGE_BYTES,
        false => MAX_BODY_BYTES,
    }
}

/// Reads the body of `request` whole (see the module docs), then hands the
/// request on with the body in memory.
pub async fn read_whole(request: Request, next: Next) -> Response {
    let cap = cap_of(request.uri().path());
    let mcp = cap == MAX_MESSAGE_BYTES;
    let (mut parts, body) = request.into_parts();
    // The caller's place among the bodies being read (see `shares`) is
    // given back once this body is read, whatever came of it.
    let place = parts.extensions.remove::<std::sync::Arc<BodyPlace>>();
    let mut stream = body.into_data_stream();
    let reading = async move {
        let mut bytes = Vec::new();
        while let Some(chunk) = stream.next().await {
            let Ok(chunk) = chunk else {
                return Read::Broken;
            };
            if bytes.len() + chunk.len() > cap {
                return Read::TooLarge(stream);
            }
            bytes.extend_from_slice(&chunk);
        }
        Read::Whole(Bytes::from(bytes))
    };
    let read = tokio::time::timeout(BODY_DEADLINE, reading).await;
    drop(place);
    match read {
        Ok(Read::Whole(bytes)) => next.run(Request::from_parts(parts, Body::from(bytes))).await,
        Ok(Read::TooLarge(rest)) => {
            tokio::spawn(linger(rest));
            let message = format!("the request's body is larger than the {cap} bytes this route reads");
            refusal(StatusCode::PAYLOAD_TOO_LARGE, mcp, &message, false)
        }
        Ok(Read::Broken) => refusal(
            StatusCode::BAD_REQUEST,
            mcp,
            "the request's body could not be read (its framing is broken)",
            true,
        ),
        Err(_) => refusal(
            StatusCode::REQUEST_TIMEOUT,
            mcp,
            &format!(
                "the request's body did not arrive within {} seconds of its head",
                BODY_DEADLINE.as_secs()
            ),
            true,
        ),
    }
}

/// Reads what is left of a body past its cap and throws it away: at most
/// [`LINGER_BYTES`], within [`BODY_DEADLINE`].
async fn linger(mut rest: axum::body::BodyDataStream) {
    let draining = async {
        let mut read = 0usize;
        while let Some(Ok(chunk)) = rest.next().await {
            read = read.saturating_add(chunk.len());
            if read > LINGER_BYTES {
                return;
            }
        }
    };
    let _ = tokio::time::timeout(BODY_DEADLINE, draining).await;
}

/// A refusal of the body: a JSON-RPC error with no id on the MCP routes
/// (what the MCP specification asks of a message the server cannot take),
/// plain text elsewhere; `close` ends the connection after it.
fn refusal(status: StatusCode, mcp: bool, message: &str, close: bool) -> Response {
    let mut response = match mcp {
        true => (
            status,
            [(header::CONTENT_TYPE, "application/json")],
            serde_json::json!({
                "jsonrpc": "2.0",
                "id": null,
                "error": {"code": INVALID_REQUEST, "message": message},
            })
            .to_string(),
        )
            .into_response(),
        false => (status, format!("{message}\n")).into_response(),
    };
    if close {
        response
            .headers_mut()
            .insert(header::CONNECTION, HeaderValue::from_static("close"));
    }
    response
}

#[cfg(test)]
mod tests {
    use pretty_assertions::assert_eq;

    use super::*;

    #[test]
    fn the_mcp_routes_read_one_message_and_the_others_an_edit() {
        let actual = ["/mcp", "/mcp/codex", "/mcpx", "/api/conversations/a/edits", "/"].map(cap_of);
        let expected = [
            MAX_MESSAGE_BYTES,
            MAX_MESSAGE_BYTES,
            MAX_BODY_BYTES,
            MAX_BODY_BYTES,
            MAX_BODY_BYTES,
        ];
        assert_eq!(actual, expected);
    }
}
