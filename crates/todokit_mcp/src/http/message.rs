//! One MCP message over HTTP, looked at before rmcp sees it.
//!
//! The JSON-RPC checks are the stdio server's (`crate::rmcp_gate`):
//! text that is not JSON is answered `-32700`, a batch or a message that
//! is not a valid request `-32600`, a known method with missing or
//! malformed `params` `-32602`, all as JSON-RPC errors (with the id when
//! the message has a readable one) rather than rmcp's plain-text 415s.
//! What the message is comes from its body, never from the headers a
//! client sets (`Mcp-Method` may say anything): an `initialize` opens a
//! session whatever the headers say, and is held to the session quotas.

use crate::rmcp_gate::{
    INVALID_PARAMS, MAX_MESSAGE_VALUES, Verdict, classify, error_reply, is_initialize, is_listen,
    too_many_values,
};
use axum::body::Body;
use axum::extract::Request;
use axum::http::{Method, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::Value;
use serde_json::value::RawValue;

/// The most bytes of `initialize` parameters a session keeps (they are
/// kept for the session's life, and in the database when processes share
/// sessions).
pub const MAX_INITIALIZE_PARAMS_BYTES: usize = 64 * 1024;

/// What the edge learnt of a request's message.
#[derive(Debug, Clone, PartialEq)]
pub enum Seen {
    /// An `initialize` request, with its id: it opens a session.
    Initialize(Value),
    /// A `subscriptions/listen` request, with its id and the message: a
    /// stream that lasts until the client ends it.
    Listen(Value, axum::body::Bytes),
    /// Anything else (or no message at all: a GET, a DELETE).
    Other,
}

/// Looks at the message of `request` (a POST of JSON): refuses it as the
/// stdio server would, or hands it back, its body unchanged, with what it
/// is.
pub async fn inspect(request: Request) -> Result<(Request, Seen), Response> {
    let json = request
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.to_ascii_lowercase().starts_with("application/json"));
    if request.method() != Method::POST || !json {
        return Ok((request, Seen::Other));
    }
    let (parts, body) = request.into_parts();
    // The body was read whole (and capped) before the router: this only
    // takes it.
    let Ok(bytes) = axum::body::to_bytes(body, usize::MAX).await else {
        return Err(StatusCode::BAD_REQUEST.into_response());
    };
    let seen = judge(&bytes).map_err(answer)?;
    Ok((Request::from_parts(parts, Body::from(bytes)), seen))
}

/// The verdict on one message's bytes: what it is, or the JSON-RPC error
/// that refuses it.
fn judge(bytes: &axum::body::Bytes) -> Result<Seen, Value> {
    // rmcp reads every message of a session as a tree, plain tool calls
    // included: none past the count reaches it.
    if todokit::internal::json_values_over(bytes, MAX_MESSAGE_VALUES) {
        return Err(too_many_values(bytes));
    }
    match classify(bytes) {
        Verdict::Reply(error) => return Err(error),
        Verdict::Drop(reason) => {
            // A notification or response nothing may answer: over HTTP the
            // POST itself is refused.
            return Err(error_reply(
                None,
                crate::rmcp_gate::INVALID_REQUEST,
                format!("Invalid request: {reason}"),
            ));
        }
        Verdict::Forward { .. } => {}
    }
    #[derive(Deserialize)]
    struct Id {
        id: Value,
    }
    if is_listen(bytes) {
        let id = serde_json::from_slice::<Id>(bytes).map_or(Value::Null, |request| request.id);
        return Ok(Seen::Listen(id, bytes.clone()));
    }
    if !is_initialize(bytes) {
        return Ok(Seen::Other);
    }
    #[derive(Deserialize)]
    struct Initialize<'a> {
        id: Value,
        #[serde(borrow)]
        params: Option<&'a RawValue>,
    }
    let Ok(initialize) = serde_json::from_slice::<Initialize<'_>>(bytes) else {
        return Ok(Seen::Other);
    };
    let length = initialize.params.map_or(0, |params| params.get().len());
    if length > MAX_INITIALIZE_PARAMS_BYTES {
        return Err(error_reply(
            Some(initialize.id),
            INVALID_PARAMS,
            format!(
                "Invalid params for initialize: they are {length} bytes and this server keeps at most \
                 {MAX_INITIALIZE_PARAMS_BYTES} bytes of them for a session"
            ),
        ));
    }
    Ok(Seen::Initialize(initialize.id))
}

/// A JSON-RPC error as the HTTP answer: 400 for a message that is not a
/// valid request (not JSON, or not a request), 200 for a request answered
/// with an error.
fn answer(error: Value) -> Response {
    let code = error["error"]["code"].as_i64().unwrap_or_default();
    let status = match code {
        crate::rmcp_gate::PARSE_ERROR | crate::rmcp_gate::INVALID_REQUEST => StatusCode::BAD_REQUEST,
        _ => StatusCode::OK,
    };
    (
        status,
        [(header::CONTENT_TYPE, "application/json")],
        error.to_string(),
    )
        .into_response()
}

/// A JSON-RPC error answering the request with `id`, with `status`: what a
/// quota or a cap refuses.
pub fn refused(status: StatusCode, id: Option<Value>, code: i64, message: String) -> Response {
    let body = error_reply(id, code, message).to_string();
    (status, [(header::CONTENT_TYPE, "application/json")], body).into_response()
}

#[cfg(test)]
mod tests {
    use pretty_assertions::assert_eq;
    use serde_json::json;

    use super::*;

    fn verdict(text: &str) -> (u16, Value) {
        let bytes = axum::body::Bytes::copy_from_slice(text.as_bytes());
        match judge(&bytes).map_err(answer) {
            Ok(Seen::Initialize(id)) => (0, json!({"initialize": id})),
            Ok(Seen::Listen(id, _)) => (0, json!({"listen": id})),
            Ok(Seen::Other) => (0, Value::Null),
            Err(response) => {
                let status = response.status().as_u16();
                let body = futures_util::FutureExt::now_or_never(axum::body::to_bytes(
                    response.into_body(),
                    usize::MAX,
                ))
                .and_then(Result::ok)
                .unwrap_or_default();
                let value: Value = serde_json::from_slice(&body).unwrap_or_default();
                (status, json!([value["id"], value["error"]["code"]]))
            }
        }
    }

    #[test]
    fn a_message_is_judged_by_its_body_as_the_stdio_server_judges_it() {
        let big = "x".repeat(MAX_INITIALIZE_PARAMS_BYTES);
        let fixture = [
            r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#.to_owned(),
            format!(r#"{{"jsonrpc":"2.0","id":2,"method":"initialize","params":{{"pad":"{big}"}}}}"#),
            r#"{"jsonrpc":"2.0","id":3,"method":"tools/list"}"#.to_owned(),
            r#"{"jsonrpc":"2.0","id":"l","method":"subscriptions/listen","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"raw","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}},"notifications":{"resourceSubscriptions":["todokit://conversations/c"]}}}"#.to_owned(),
            "{not json".to_owned(),
            r#"[{"jsonrpc":"2.0","id":4,"method":"ping"}]"#.to_owned(),
            r#"{"jsonrpc":"2.0","id":null,"method":"ping"}"#.to_owned(),
            r#"{"jsonrpc":"1.0","id":5,"method":"ping"}"#.to_owned(),
            r#"{"jsonrpc":"2.0","id":6,"method":"tools/call"}"#.to_owned(),
            r#"{"jsonrpc":"2.0","id":"\u0001x","method":"ping"}"#.to_owned(),
        ];
        let actual: Vec<(u16, Value)> = fixture.iter().map(|text| verdict(text)).collect();
        let expected = vec![
            (0, json!({"initialize": 1})),
            (200, json!([2, INVALID_PARAMS])),
            (0, Value::Null),
            (0, json!({"listen": "l"})),
            (400, json!([null, -32700])),
            (400, json!([null, -32600])),
            (400, json!([null, -32600])),
            (400, json!([5, -32600])),
            (200, json!([6, INVALID_PARAMS])),
            (400, json!(["\u{1}x", -32600])),
        ];
        assert_eq!(actual, expected);
    }
}
