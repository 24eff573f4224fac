//! The HTTP side of the direct path (`crate::direct_tool_call`): which
//! requests it may answer instead of rmcp, and how the answer is framed.
//!
//! - A call of protocol 2026-07-28 (no session) gets plain JSON, as rmcp
//!   configured with JSON answers gives it.
//! - A call inside a session of an earlier protocol gets a one-event
//!   stream, as rmcp gives it, when rmcp holds that session on this
//!   process; a session it does not hold (ended, expired, or opened on
//!   another process) goes to rmcp, which restores or refuses it.
//!
//! rmcp ends a session idle for its keep-alive (five minutes) and counts
//! only the requests that reach it; a session whose client only calls
//! tools would expire while in use. So a direct call also tells rmcp's
//! session worker it is in use, at most once every [`TOUCH_EVERY`].

use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use axum::extract::Request;
use axum::http::{HeaderMap, Method, StatusCode, header};
use axum::response::{IntoResponse, Response};
use rmcp::model::ProtocolVersion;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use todokit::internal::json_values_over;

use super::owners::Owners;
use crate::direct_tool_call::{CallEra, PlainCall, STATELESS_PROTOCOL, answer_plain_call, plain_tool_call};
use crate::limits::MAX_MESSAGE_BYTES;
use crate::rmcp_gate::MAX_MESSAGE_VALUES;
use crate::server::RemoteScope;

/// How often a session answered on the direct path tells rmcp it is in
/// use, at most: rmcp's idle limit then counts from at most this long
/// before the session's last call.
pub const TOUCH_EVERY: Duration = Duration::from_secs(5);

/// An id no request stream of rmcp's ever has: closing the stream of this
/// id changes nothing in the session but its last use.
const NO_STREAM: u64 = u64::MAX;

/// The session a request names, as far as the direct path needs it.
pub(super) struct InSession<'a> {
    /// The session's id.
    pub id: &'a str,
    /// The session manager of the request's endpoint.
    pub manager: &'a LocalSessionManager,
    /// The sessions' owners (and when each was last touched).
    pub owners: &'a Mutex<Owners>,
}

/// Answers a plain `tools/call` itself: the same answer rmcp gives, for a
/// fraction of the work. It runs before the gate (`super::message`), so it
/// takes only what the gate would pass: within its count of values and its
/// depth, with an id it does not refuse. Any other request is handed back
/// untouched, for the gate and rmcp, its body read into memory when it had
/// to be looked at.
pub(super) async fn answer_directly(
    request: Request,
    session: Option<InSession<'_>>,
    scope: &RemoteScope,
) -> Result<Response, Request> {
    let headers = request.headers();
    let header = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
    let era = match &session {
        None if header("mcp-protocol-version") == Some(STATELESS_PROTOCOL)
            && header("mcp-method") == Some("tools/call") =>
        {
            CallEra::Stateless
        }
        Some(_) if is_session_protocol(headers) => CallEra::Session,
        _ => return Err(request),
    };
    if request.method() != Method::POST || !is_plain_post(headers) {
        return Err(request);
    }
    let (parts, body) = request.into_parts();
    let Ok(bytes) = axum::body::to_bytes(body, MAX_MESSAGE_BYTES).await else {
        return Ok((StatusCode::BAD_REQUEST, "the request's body could not be read\n").into_response());
    };
    // A message past the gate's count is the gate's to refuse.
    if json_values_over(&bytes, MAX_MESSAGE_VALUES) {
        return Err(Request::from_parts(parts, axum::body::Body::from(bytes)));
    }
    let answered = match plain_tool_call(&bytes, era) {
        Some(call) => answer(&parts.headers, session, scope, &call).await,
        None => None,
    };
    answered.ok_or_else(|| Request::from_parts(parts, axum::body::Body::from(bytes)))
}

/// The answer to `call`, or `None` when it is rmcp's to give after all.
async fn answer(
    headers: &HeaderMap,
    session: Option<InSession<'_>>,
    scope: &RemoteScope,
    call: &PlainCall<'_>,
) -> Option<Response> {
    match session {
        None => {
            // The name travels in a header too; one that disagrees is for
            // rmcp to refuse.
            let named = headers.get("mcp-name").and_then(|v| v.to_str().ok());
            if named != Some(call.name) {
                return None;
            }
            let answer = answer_plain_call(scope, call).await;
            Some(([(header::CONTENT_TYPE, "application/json")], answer).into_response())
        }
        Some(session) => {
            if !held_and_touched(&session, TOUCH_EVERY).await {
                return None;
            }
            let answer = answer_plain_call(scope, call).await;
            Some(one_event(answer))
        }
    }
}

/// Whether the request's protocol version (when it names one) is one rmcp
/// answers in a session without the standard headers of 2026-07-28.
fn is_session_protocol(headers: &HeaderMap) -> bool {
    match headers.get("mcp-protocol-version") {
        None => true,
        Some(value) => value.to_str().is_ok_and(|version| {
            version < ProtocolVersion::STANDARD_HEADERS.as_str()
                && ProtocolVersion::KNOWN_VERSIONS
                    .iter()
                    .any(|known| known.as_str() == version)
        }),
    }
}

/// Whether a POST's headers are the plainest: a JSON body within the cap,
/// both kinds of answer accepted with no weights to weigh.
fn is_plain_post(headers: &HeaderMap) -> bool {
    let header = |name: header::HeaderName| headers.get(name).and_then(|v| v.to_str().ok());
    let accept = header(header::ACCEPT).unwrap_or_default();
    let length = header(header::CONTENT_LENGTH).and_then(|v| v.parse::<usize>().ok());
    header(header::CONTENT_TYPE).is_some_and(|v| v.to_ascii_lowercase().starts_with("application/json"))
        && accept.contains("application/json")
        && accept.contains("text/event-stream")
        && !accept.contains("q=")
        && length.is_some_and(|length| length <= MAX_MESSAGE_BYTES)
}

/// Whether rmcp holds `session` on this process and still runs it; when it
/// does and was not told of a use in the last `every`, it is told now.
async fn held_and_touched(session: &InSession<'_>, every: Duration) -> bool {
    let id: rmcp::transport::streamable_http_server::session::SessionId = session.id.into();
    let Some(handle) = session.manager.sessions.read().await.get(&id).cloned() else {
        return false;
    };
    let due = session
        .owners
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .touch_due(session.id, Instant::now(), every);
    // A worker that is gone no longer runs the session: rmcp answers for it.
    !due || handle.close_request_wise_channel(NO_STREAM).await.is_ok()
}

/// How long rmcp tells a client to wait before it reconnects (its
/// `StreamableHttpServerConfig::sse_retry`, which the server keeps at its
/// default), in milliseconds.
const SSE_RETRY_MS: u64 = 3000;

/// `message` as the stream rmcp answers a request in a session with (its
/// headers and framing): first the priming event the 2025-11-25 transport
/// asks for (an event id, the retry hint, empty data), then the message.
/// The ids name [`NO_STREAM`], a stream rmcp never has, so a client that
/// resumes from them is answered with an empty stream, as for any stream
/// rmcp no longer holds; the answer is sent whole, so there is nothing to
/// resume.
fn one_event(message: Vec<u8>) -> Response {
    let priming = format!("data: \nid: 0/{NO_STREAM}\nretry: {SSE_RETRY_MS}\n\n");
    let closing = format!("\nid: 1/{NO_STREAM}\n\n");
    let mut event = Vec::with_capacity(priming.len() + message.len() + closing.len() + 6);
    event.extend_from_slice(priming.as_bytes());
    event.extend_from_slice(b"data: ");
    event.extend_from_slice(&message);
    event.extend_from_slice(closing.as_bytes());
    (
        [
            (header::CONTENT_TYPE, "text/event-stream"),
            (header::CACHE_CONTROL, "no-cache"),
            (header::HeaderName::from_static("x-accel-buffering"), "no"),
        ],
        event,
    )
        .into_response()
}

#[cfg(test)]
mod tests {
    use pretty_assertions::assert_eq;
    use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};

    use super::*;
    use crate::server::TodoMcpServer;

    #[test]
    fn a_session_call_is_taken_for_the_versions_before_the_standard_headers() {
        let fixture = [
            None,
            Some("2025-06-18"),
            Some("2025-11-25"),
            Some("2025-03-26"),
            Some("2026-07-28"),
            Some("1999-01-01"),
        ];
        let actual: Vec<bool> = fixture
            .iter()
            .map(|version| {
                let mut headers = HeaderMap::new();
                if let Some(version) = version {
                    headers.insert("mcp-protocol-version", version.parse().unwrap());
                }
                is_session_protocol(&headers)
            })
            .collect();
        let expected = vec![true, true, true, true, false, false];
        assert_eq!(actual, expected);
    }

    /// Opens a session on `http` with an `initialize`: its id.
    async fn open(http: &StreamableHttpService<TodoMcpServer, LocalSessionManager>) -> String {
        use tower_service::Service as _;
        let init = r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#;
        let request = axum::http::Request::post("/mcp")
            .header(header::HOST, "localhost")
            .header(header::CONTENT_TYPE, "application/json")
            .header(header::ACCEPT, "application/json, text/event-stream")
            .body(axum::body::Body::from(init))
            .expect("a request");
        let Ok(response) = http.clone().call(request).await;
        let id = response
            .headers()
            .get("mcp-session-id")
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);
        id.expect("a session id")
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_session_used_only_on_the_direct_path_outlives_rmcps_idle_limit() {
        let mut manager = LocalSessionManager::default();
        manager.session_config.keep_alive = Some(Duration::from_millis(400));
        let manager = std::sync::Arc::new(manager);
        let service = todokit::Todokit::builder()
            .profile("claude-code")
            .and_then(|builder| builder.memory_store().build())
            .expect("a memory service");
        let server = TodoMcpServer::new(service, "default");
        let http = StreamableHttpService::new(
            move || Ok(server.clone().for_new_session()),
            std::sync::Arc::clone(&manager),
            StreamableHttpServerConfig::default().disable_allowed_hosts(),
        );
        let (used, idle) = (open(&http).await, open(&http).await);
        let owners = Mutex::new(Owners::default());
        let in_session = |id| InSession {
            id,
            manager: &manager,
            owners: &owners,
        };
        // Three times rmcp's idle limit, used every 150 ms on the direct
        // path only.
        let mut uses = Vec::new();
        for _ in 0..8 {
            tokio::time::sleep(Duration::from_millis(150)).await;
            uses.push(held_and_touched(&in_session(&used), Duration::from_millis(100)).await);
        }
        let actual = (uses, held_and_touched(&in_session(&idle), Duration::ZERO).await);
        let expected = (vec![true; 8], false);
        assert_eq!(actual, expected);
    }

    #[tokio::test]
    async fn a_direct_answer_in_a_session_opens_with_the_priming_event() {
        let answer = one_event(br#"{"jsonrpc":"2.0","id":1,"result":{}}"#.to_vec());
        let body = axum::body::to_bytes(answer.into_body(), 1 << 20)
            .await
            .expect("the answer");
        let actual = String::from_utf8_lossy(&body).into_owned();
        let expected = format!(
            "data: \nid: 0/{NO_STREAM}\nretry: 3000\n\ndata: {{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{{}}}}\nid: 1/{NO_STREAM}\n\n"
        );
        assert_eq!(actual, expected);
    }
}
