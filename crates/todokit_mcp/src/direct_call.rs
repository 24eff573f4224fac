//! A `tools/call` answered without rmcp's message tree: the arguments go
//! to the service as the text they came in, and the reply is written as
//! the text rmcp would write for it (its key order, its error shape), the
//! details spliced in as the text they were written as.

use rmcp::ErrorData;
use rmcp::model::ErrorCode;
use serde::Serialize;
use serde_json::Value;
use serde_json::value::RawValue;
use todokit::app::{CallOptions, ServiceError, TodoWriteService, ToolResult};

/// What a call is counted in: the metrics of the server it came through
/// (a call over stdio has none; without `http` there are none).
#[cfg(feature = "http")]
pub(super) type Meter = crate::metrics::Metrics;
/// What a call is counted in: nothing, without `http`.
#[cfg(not(feature = "http"))]
pub(super) type Meter = ();

/// Runs one call: a tool result (refusals included), or the protocol error
/// for a call that names no tool of the profile or cannot reach the store.
pub(super) async fn run_call(
    service: &TodoWriteService,
    conversation: &str,
    name: &str,
    args: &str,
    options: CallOptions,
    meter: Option<&Meter>,
) -> Result<ToolResult, ErrorData> {
    let called = service.call_with(conversation, name, args, options).await;
    #[cfg(feature = "http")]
    if let Some(metrics) = meter {
        metrics.count_call(service, name, &called);
    }
    #[cfg(not(feature = "http"))]
    let _ = meter;
    match called {
        Ok(result) => Ok(result),
        Err(error @ ServiceError::UnknownTool { .. }) => {
            Err(ErrorData::invalid_params(error.to_string(), None))
        }
        Err(error) => Err(ErrorData::internal_error(error.to_string(), None)),
    }
}

/// The JSON-RPC response for request `id` with `outcome`; `result_type` is
/// the `resultType` a protocol of 2026-07-28 puts first in a result; the
/// details go in as `structuredContent` only when `structured` (see
/// [`crate::TodoMcpServer::with_structured_content`]).
pub(super) fn reply(
    id: &Value,
    outcome: Result<ToolResult, ErrorData>,
    result_type: Option<&'static str>,
    structured: bool,
) -> Vec<u8> {
    let written = match outcome {
        Ok(result) => {
            let details = result.details.as_raw();
            // Room for the whole reply up front: the details alone are
            // kilobytes, and a buffer grown from empty copies them over and
            // over as it doubles.
            let mut out = Vec::with_capacity(details.get().len() + result.content.len() * 9 / 8 + 160);
            serde_json::to_writer(
                &mut out,
                &PlainReply {
                    jsonrpc: "2.0",
                    id,
                    result: PlainResult {
                        result_type,
                        content: [TextBlock {
                            kind: "text",
                            text: &result.content,
                        }],
                        structured_content: structured.then_some(details),
                        is_error: result.is_error,
                    },
                },
            )
            .map(|()| out)
        }
        Err(error) => serde_json::to_vec(&PlainError {
            jsonrpc: "2.0",
            id,
            error: &error,
        }),
    };
    // Every part is a string, a number or JSON already checked, so writing
    // cannot fail; the fallback is an internal error all the same.
    written.unwrap_or_else(|error| {
        super::rmcp_gate::error_reply(
            Some(id.clone()),
            ErrorCode::INTERNAL_ERROR.0.into(),
            error.to_string(),
        )
        .to_string()
        .into_bytes()
    })
}

/// A JSON-RPC response to a `tools/call`, in rmcp's key order.
#[derive(Serialize)]
struct PlainReply<'a> {
    jsonrpc: &'static str,
    id: &'a Value,
    result: PlainResult<'a>,
}

/// `CallToolResult` with one text block and, when asked for, the details
/// as structured content, in rmcp's key order.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PlainResult<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    result_type: Option<&'static str>,
    content: [TextBlock<'a>; 1],
    #[serde(skip_serializing_if = "Option::is_none")]
    structured_content: Option<&'a RawValue>,
    is_error: bool,
}

#[derive(Serialize)]
struct TextBlock<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    text: &'a str,
}

/// A JSON-RPC error response.
#[derive(Serialize)]
struct PlainError<'a> {
    jsonrpc: &'static str,
    id: &'a Value,
    error: &'a ErrorData,
}
