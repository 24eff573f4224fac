//! What to do with one message from the client before rmcp sees it.
//!
//! rmcp answers some malformed messages without their request id (so the
//! client waits forever) and drops others; the gate answers those itself,
//! with the id whenever the message has one, and passes everything else on.

use crate::limits::MAX_MESSAGE_BYTES;
use rmcp::model::{CallToolRequestParams, ClientJsonRpcMessage, ClientRequest, JsonRpcMessage};
use serde::Deserialize;
use serde::de::IgnoredAny;
use serde_json::value::RawValue;
use serde_json::{Value, json};
use todokit::internal::{json_kind, json_string_end, json_values_over};

/// JSON-RPC's code for text that is not JSON.
pub const PARSE_ERROR: i64 = -32700;
/// JSON-RPC's code for JSON that is not a valid request.
pub const INVALID_REQUEST: i64 = -32600;
/// JSON-RPC's code for a known method called with the wrong parameters.
pub const INVALID_PARAMS: i64 = -32602;
/// JSON-RPC's code for a failure of the server's own (its store).
pub const INTERNAL_ERROR: i64 = -32603;

/// The methods a client may call on an MCP server (as of the rmcp the
/// tests hold the lock file to, `RMCP_VERSION`). A call to one of these
/// that rmcp cannot read has wrong parameters, not an unknown method.
const CLIENT_METHODS: &[&str] = &[
    "initialize",
    "ping",
    "server/discover",
    "completion/complete",
    "logging/setLevel",
    "prompts/get",
    "prompts/list",
    "resources/list",
    "resources/templates/list",
    "resources/read",
    "resources/subscribe",
    "resources/unsubscribe",
    "resources/directory/read",
    "subscriptions/listen",
    "tools/call",
    "tools/list",
    "tasks/get",
    "tasks/update",
    "tasks/cancel",
    "skills/list",
    "skills/get",
];

/// The gate's decision on one message.
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    /// Pass the message to rmcp. A request carries its id, so its reply can
    /// be waited for.
    Forward {
        /// The id of a request, `None` for notifications and responses.
        request: Option<Value>,
        /// For a cancellation notice, the id of the request it cancels.
        cancels: Option<Value>,
        /// The message to pass on instead of the line as read: the parsed
        /// message written again, one value per key and its ids in the
        /// spelling rmcp answers with (see `canonical_id` here). `None` for a
        /// plain tool call, passed on as it came.
        message: Option<Vec<u8>>,
    },
    /// Answer with this JSON-RPC error message instead.
    Reply(Value),
    /// A notification or response rmcp cannot read; nothing may answer it,
    /// so it is only logged, with this reason.
    Drop(String),
}

/// The most values (items, keys, nested values) a message may hold before
/// it is read as a tree, here or by rmcp: counted in its raw text, so a
/// message of millions of tiny values costs a pass over its bytes, never a
/// tree of them. The largest list any profile takes is far below this.
pub const MAX_MESSAGE_VALUES: usize = 128 * 1024;

/// Decides what to do with one line from the client.
pub fn classify(line: &[u8]) -> Verdict {
    match plain_tool_call(line) {
        Some(call) => Verdict::Forward {
            request: Some(call.id),
            cancels: None,
            message: None,
        },
        None if json_values_over(line, MAX_MESSAGE_VALUES) => Verdict::Reply(too_many_values(line)),
        None => classify_fully(line),
    }
}

/// The refusal of a message past [`MAX_MESSAGE_VALUES`], with its id when
/// the top level has a short one (read without building the rest).
pub fn too_many_values(line: &[u8]) -> Value {
    #[derive(Deserialize)]
    struct Head<'a> {
        #[serde(borrow)]
        id: Option<&'a RawValue>,
    }
    let id = serde_json::from_slice::<Head<'_>>(line)
        .ok()
        .and_then(|head| head.id)
        .filter(|id| id.get().len() <= 256)
        .and_then(|id| serde_json::from_str::<Value>(id.get()).ok())
        .filter(is_valid_id);
    error_reply(
        id,
        INVALID_REQUEST,
        format!(
            "Request too large: the message holds more than {MAX_MESSAGE_VALUES} values (items, keys and nested \
             values together)"
        ),
    )
}

/// A well-formed `tools/call` with nothing but a name and arguments, read
/// without building its arguments as a tree.
#[derive(Debug)]
pub struct PlainToolCall<'a> {
    /// The request's id (a string or a 64-bit integer).
    pub id: Value,
    /// The tool's name, as written (no escapes).
    pub name: &'a str,
    /// The arguments' JSON text, an object; `None` when absent or `null`.
    pub arguments: Option<&'a RawValue>,
}

/// A `tools/call` request read for its parts, its arguments and metadata
/// left as the text they came as.
#[derive(Debug)]
pub(crate) struct CallParts<'a> {
    /// The request's id, as sent.
    pub id: Value,
    /// The tool's name, as written (no escapes).
    pub name: &'a str,
    /// The arguments' JSON text, when present.
    pub arguments: Option<&'a RawValue>,
    /// The params' `_meta` JSON text, when present.
    pub meta: Option<&'a RawValue>,
}

/// `line` as a JSON-RPC 2.0 `tools/call` with exactly the envelope's four
/// keys and params of a name, arguments and `_meta`, read in one pass
/// without building the arguments as a tree; `None` for anything else,
/// and for arguments or `_meta` nested deeper than [`QUICK_MAX_DEPTH`] (a
/// raw value is skimmed without the parsers' limit, so the full check
/// refuses those).
pub(crate) fn tool_call_parts(line: &[u8]) -> Option<CallParts<'_>> {
    /// The request's envelope, exactly these four keys.
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Envelope<'a> {
        jsonrpc: &'a str,
        id: Value,
        method: &'a str,
        #[serde(borrow)]
        params: Params<'a>,
    }
    /// `tools/call` params.
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Params<'a> {
        name: &'a str,
        #[serde(borrow)]
        arguments: Option<&'a RawValue>,
        #[serde(rename = "_meta", borrow, default)]
        meta: Option<&'a RawValue>,
    }
    let envelope: Envelope<'_> = serde_json::from_slice(line).ok()?;
    let shallow = |raw: Option<&RawValue>| {
        raw.is_none_or(|raw| nesting_depth(raw.get(), QUICK_MAX_DEPTH) <= QUICK_MAX_DEPTH)
    };
    let plain = envelope.jsonrpc == "2.0"
        && envelope.method == "tools/call"
        && shallow(envelope.params.arguments)
        && shallow(envelope.params.meta);
    plain.then_some(CallParts {
        id: envelope.id,
        name: envelope.params.name,
        arguments: envelope.params.arguments,
        meta: envelope.params.meta,
    })
}

/// The message nearly every session is made of, a well-formed `tools/call`,
/// recognised without building its arguments as a tree (they can be
/// megabytes): `Some` only where [`classify_fully`] would pass it on too,
/// `None` for anything else, which the full check then reads.
pub fn plain_tool_call(line: &[u8]) -> Option<PlainToolCall<'_>> {
    let envelope = tool_call_parts(line)?;
    if envelope.meta.is_some() {
        return None;
    }
    // rmcp reads an id as a string or a signed 64-bit integer.
    let id_fits = envelope.id.as_str().is_some_and(|id| !id.starts_with('\u{1}')) || envelope.id.is_i64();
    if !id_fits {
        return None;
    }
    if envelope
        .arguments
        .is_some_and(|a| !a.get().trim_start().starts_with('{'))
    {
        return None;
    }
    Some(PlainToolCall {
        id: envelope.id,
        name: envelope.name,
        arguments: envelope.arguments,
    })
}

/// True for an `initialize` request: the one that opens a session.
pub fn is_initialize(line: &[u8]) -> bool {
    is_request_for(line, "initialize")
}

/// True for a `subscriptions/listen` request, which lasts until the client
/// cancels it.
pub fn is_listen(line: &[u8]) -> bool {
    is_request_for(line, "subscriptions/listen")
}

/// True for a request (a message with an id) calling `method`.
fn is_request_for(line: &[u8], method: &str) -> bool {
    #[derive(Deserialize)]
    struct Head<'a> {
        #[serde(borrow)]
        method: Option<std::borrow::Cow<'a, str>>,
        id: Option<IgnoredAny>,
    }
    serde_json::from_slice::<Head<'_>>(line)
        .is_ok_and(|head| head.id.is_some() && head.method.as_deref() == Some(method))
}

/// The deepest arguments [`tool_call_parts`] reads; serde_json refuses
/// more than 128 levels in the whole message, so this leaves room.
const QUICK_MAX_DEPTH: usize = 64;

/// How deeply arrays and objects nest in the JSON `text`, counted up to
/// one past `limit` (a deeper text is refused whatever its depth). Strings
/// are skipped to their closing quote (`json_string_end`, the size gate's
/// own skipper): they are most of a tool call's bytes, and only the
/// brackets outside them count.
fn nesting_depth(text: &str, limit: usize) -> usize {
    let bytes = text.as_bytes();
    let (mut depth, mut deepest, mut at) = (0usize, 0usize, 0usize);
    while let Some(&byte) = bytes.get(at) {
        at += 1;
        match byte {
            // A string left open ends the scan.
            b'"' => match json_string_end(bytes, at) {
                Some(end) => at = end,
                None => return deepest,
            },
            b'[' | b'{' => {
                depth += 1;
                deepest = deepest.max(depth);
                if deepest > limit {
                    return deepest;
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    deepest
}

/// [`classify`] for any message: parsed whole, then read as rmcp would.
fn classify_fully(line: &[u8]) -> Verdict {
    let value: Value = match serde_json::from_slice(line) {
        Ok(value) => value,
        Err(error) => return Verdict::Reply(error_reply(None, PARSE_ERROR, format!("Parse error: {error}"))),
    };
    let Some(object) = value.as_object() else {
        return Verdict::Reply(error_reply(
            None,
            INVALID_REQUEST,
            "Invalid request: a message must be a JSON object (batches are not part of MCP)".to_owned(),
        ));
    };
    let id = object
        .get("id")
        .filter(|id| id.is_string() || id.is_number())
        .cloned();
    let method = object.get("method").and_then(Value::as_str);
    let known = method.is_some_and(|method| CLIENT_METHODS.contains(&method));
    if let Some(problem) = id.as_ref().and_then(id_problem) {
        // JSON-RPC answers a request whose id cannot be read with `null`.
        let answer = id.filter(is_valid_id);
        return Verdict::Reply(error_reply(answer, INVALID_REQUEST, problem));
    }
    // An id with neither a method nor a result or error is neither a
    // request nor a response: JSON-RPC calls it an invalid request, and its
    // sender waits for an answer.
    let response = object.contains_key("result") || object.contains_key("error");
    if object.contains_key("id") && !object.contains_key("method") && !response {
        return Verdict::Reply(error_reply(
            id,
            INVALID_REQUEST,
            "Invalid request: a message with an id needs a \"method\" (or, as a response, a \"result\" or an \"error\")"
                .to_owned(),
        ));
    }
    if object.get("method").is_some_and(|method| !method.is_string()) {
        let problem = "Invalid request: \"method\" must be a string".to_owned();
        return match id {
            Some(id) => Verdict::Reply(error_reply(Some(id), INVALID_REQUEST, problem)),
            None => Verdict::Drop(problem),
        };
    }
    if object.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        let problem = "Invalid request: \"jsonrpc\" must be \"2.0\"".to_owned();
        return match (method, id) {
            (Some(_), Some(id)) => Verdict::Reply(error_reply(Some(id), INVALID_REQUEST, problem)),
            _ => Verdict::Drop(problem),
        };
    }
    let cancels = (method == Some("notifications/cancelled"))
        .then(|| object.get("params")?.get("requestId").map(canonical_id))
        .flatten();
    // Read as rmcp will read it: with its id in the spelling rmcp takes
    // (copied only for the rare id that is spelled otherwise).
    let respelled;
    let readable = match value.get("id").map(|id| (id, canonical_id(id))) {
        Some((id, canonical)) if *id != canonical => {
            let mut copy = value.clone();
            copy["id"] = canonical;
            respelled = copy;
            &respelled
        }
        _ => &value,
    };
    match ClientJsonRpcMessage::deserialize(readable) {
        Ok(JsonRpcMessage::Request(request)) => match &request.request {
            ClientRequest::CustomRequest(custom) if known => {
                Verdict::Reply(invalid_params(id, &custom.method, custom.params.as_ref()))
            }
            _ => Verdict::Forward {
                request: id.as_ref().map(canonical_id),
                cancels: None,
                message: Some(rewritten(value)),
            },
        },
        Ok(_) => Verdict::Forward {
            request: None,
            cancels,
            message: Some(rewritten(value)),
        },
        Err(error) => match (method, id) {
            (Some(method), Some(id)) if known => {
                Verdict::Reply(invalid_params(Some(id), method, object.get("params")))
            }
            (Some(_), Some(id)) => Verdict::Reply(error_reply(
                Some(id),
                INVALID_REQUEST,
                format!("Invalid request: {error}"),
            )),
            (Some(method), None) if object.contains_key("id") => Verdict::Reply(error_reply(
                None,
                INVALID_REQUEST,
                format!("Invalid request: the id of a {method} request must be a string or a number"),
            )),
            (Some(method), None) => Verdict::Drop(format!("unreadable {method} notification: {error}")),
            (None, _) => Verdict::Drop(format!("unreadable message without a method: {error}")),
        },
    }
}

/// A request id as rmcp answers it: a number with no fraction that an
/// `f64` holds exactly (`100.0`, `1e2`, `-0`) is written as the integer
/// (`100`, `0`); JSON-RPC compares ids as JSON values, so this is the same
/// id, and settling requests by it matches rmcp's reply.
///
/// rmcp reads integer ids as signed 64-bit numbers only, so an id between
/// 2^63 and 2^64−1 travels through it as a reserved string (see
/// [`client_id`], which turns it back into the number on the way out).
pub fn canonical_id(id: &Value) -> Value {
    /// 2^53: above it an `f64` no longer holds every integer.
    const EXACT: f64 = 9_007_199_254_740_992.0;
    if !id.is_i64()
        && let Some(big) = id.as_u64()
    {
        return Value::String(format!("{WIDE_ID_PREFIX}{big}"));
    }
    match id.as_f64() {
        Some(number) if !id.is_i64() && !id.is_u64() && number.fract() == 0.0 && number.abs() <= EXACT => {
            // Exact: an integer of at most 2^53 in magnitude.
            Value::from(number as i64)
        }
        _ => id.clone(),
    }
}

/// What an id between 2^63 and 2^64−1 is called while rmcp holds it: a
/// string no client sends (it starts with a control character, and a
/// client's id that starts with this is refused).
const WIDE_ID_PREFIX: &str = "\u{1}todokit-u64:";

/// The id the client sent for `id` as rmcp answered it: the reserved
/// spelling of a wide integer ([`canonical_id`]) back as the number, any
/// other id as it is.
pub fn client_id(id: &Value) -> Value {
    id.as_str()
        .and_then(|text| text.strip_prefix(WIDE_ID_PREFIX))
        .and_then(|digits| digits.parse::<u64>().ok())
        .map_or_else(|| id.clone(), Value::from)
}

/// Whether `id` is an id JSON-RPC answers with itself here: a string, or
/// an integer from −2^63 to 2^64−1 (`100.0` counts as `100`). Any other id
/// is refused as an invalid request answered with `id: null`.
pub fn is_valid_id(id: &Value) -> bool {
    id.is_string() || id.is_i64() || id.is_u64() || canonical_id(id).is_i64()
}

/// Why `id` cannot name a request here: it is not a valid id (see
/// [`is_valid_id`]), or it is a string in the spelling reserved for wide
/// integers.
fn id_problem(id: &Value) -> Option<String> {
    if !is_valid_id(id) {
        return Some(
            "Invalid request: a request id must be a string or a whole number from -2^63 to 2^64-1"
                .to_owned(),
        );
    }
    // Every id that starts with U+0001 is refused, not only the wide
    // spelling: the whole prefix is reserved, as `docs/cli.md` says.
    id.as_str()
        .is_some_and(|text| text.starts_with('\u{1}'))
        .then(|| {
            "Invalid request: ids that start with U+0001 are reserved; give the request another id".to_owned()
        })
}

/// `message` written again with its id and a cancellation's `requestId`
/// in their canonical spelling; serde_json keeps one value per key (the
/// last), so a key the client repeated reaches rmcp once.
fn rewritten(mut message: Value) -> Vec<u8> {
    if let Some(id) = message.get_mut("id") {
        *id = canonical_id(id);
    }
    if let Some(cancelled) = message.get_mut("params").and_then(|p| p.get_mut("requestId")) {
        *cancelled = canonical_id(cancelled);
    }
    serde_json::to_vec(&message).unwrap_or_default()
}

/// The answer to a message longer than the server reads
/// ([`MAX_MESSAGE_BYTES`]), with the request's id when its top level
/// had one.
pub fn too_large(id: Option<Value>, bytes: impl std::fmt::Display) -> Value {
    let message = format!(
        "Request too large: the message is {bytes} bytes and this server reads at most {} bytes per message",
        MAX_MESSAGE_BYTES
    );
    error_reply(id, INVALID_REQUEST, message)
}

/// A JSON-RPC error message.
pub fn error_reply(id: Option<Value>, code: i64, message: String) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}

fn invalid_params(id: Option<Value>, method: &str, params: Option<&Value>) -> Value {
    // For the one call that matters, say exactly what is wrong.
    let detail = match (method, params) {
        // Say what is wrong in MCP's words, not in the parser's type names.
        (_, Some(params)) if !params.is_object() => {
            Some(format!("params must be an object, not {}", json_kind(params)))
        }
        ("tools/call", Some(params)) => CallToolRequestParams::deserialize(params)
            .err()
            .map(|error| error.to_string()),
        ("tools/call", None) => Some("params are missing".to_owned()),
        (_, Some(params)) => Some(format!(
            "these params do not fit {method}: {}",
            params
                .as_object()
                .map(|o| o.keys().cloned().collect::<Vec<_>>().join(", "))
                .unwrap_or_default()
        )),
        _ => None,
    };
    let message = match detail {
        Some(detail) => format!("Invalid params for {method}: {detail}"),
        None => format!("Invalid params for {method}"),
    };
    error_reply(id, INVALID_PARAMS, message)
}

#[cfg(test)]
#[path = "rmcp_gate_tests.rs"]
mod tests;
