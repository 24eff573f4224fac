//! The four wire formats, as far as the scripted model needs them: the
//! tools a request offers, the tool results it carries, and an answer (a
//! text or one tool call) written as that format's event stream.

use std::collections::HashMap;

use axum::http::header::CONTENT_TYPE;
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

/// A wire format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Anthropic Messages (Claude Code).
    Anthropic,
    /// OpenAI Responses (Codex).
    Responses,
    /// OpenAI Chat Completions (Qwen Code, opencode).
    Chat,
    /// Gemini `generateContent` (Gemini CLI).
    Gemini,
}

impl Format {
    /// A short name for file names.
    pub fn name(self) -> &'static str {
        match self {
            Self::Anthropic => "anthropic",
            Self::Responses => "responses",
            Self::Chat => "chat",
            Self::Gemini => "gemini",
        }
    }
}

/// What the model answers.
#[derive(Debug, Clone)]
pub enum Reply {
    /// Plain text; the turn ends.
    Text(String),
    /// One call of the named tool (a Responses namespace's tool as
    /// `NAMESPACE.NAME`) with these arguments.
    Call(String, Value),
}

fn array<'a>(value: &'a Value, pointer: &str) -> impl Iterator<Item = &'a Value> {
    value
        .pointer(pointer)
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
}

fn str_at<'a>(value: &'a Value, pointer: &str) -> &'a str {
    value.pointer(pointer).and_then(Value::as_str).unwrap_or_default()
}

/// A tool result's content as text: a string, or its text parts joined.
fn text_of(content: &Value) -> String {
    match content {
        Value::String(text) => text.clone(),
        Value::Array(parts) => parts
            .iter()
            .filter_map(|p| p.get("text").and_then(Value::as_str))
            .collect::<Vec<_>>()
            .join("\n"),
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

/// The names of the tools `body` offers the model.
pub fn offered_tools(format: Format, body: &Value) -> Vec<String> {
    match format {
        Format::Anthropic => array(body, "/tools")
            .map(|t| str_at(t, "/name").to_owned())
            .collect(),
        Format::Chat => array(body, "/tools")
            .map(|t| str_at(t, "/function/name").to_owned())
            .collect(),
        Format::Gemini => array(body, "/tools")
            .flat_map(|t| array(t, "/functionDeclarations"))
            .map(|d| str_at(d, "/name").to_owned())
            .collect(),
        Format::Responses => array(body, "/tools")
            .flat_map(|t| match str_at(t, "/type") {
                "namespace" => {
                    let namespace = str_at(t, "/name");
                    array(t, "/tools")
                        .map(|inner| format!("{namespace}.{}", str_at(inner, "/name")))
                        .collect()
                }
                "function" => vec![str_at(t, "/name").to_owned()],
                other => vec![other.to_owned()],
            })
            .collect(),
    }
}

/// The tools `body` names as reachable only through the agent's tool
/// search (Claude Code's deferred tools, listed in a reminder).
pub fn deferred_tools(format: Format, body: &Value) -> Vec<String> {
    const CLAUDE_CODE: &str = "The following deferred tools are now available via ToolSearch.";
    if format != Format::Anthropic {
        return Vec::new();
    }
    array(body, "/messages")
        .flat_map(|m| array(m, "/content"))
        .filter_map(|block| block.get("text").and_then(Value::as_str))
        .filter(|text| text.contains(CLAUDE_CODE))
        .flat_map(|text| {
            text.lines()
                .skip_while(|line| !line.contains(CLAUDE_CODE))
                .skip(1)
                .take_while(|line| !line.starts_with('<'))
                .map(str::to_owned)
                .collect::<Vec<_>>()
        })
        .collect()
}

/// The input schema of each tool a request offers by name, as the model
/// reads it: `(name, schema)`.
pub fn tool_schemas(format: Format, body: &Value) -> Vec<(String, Value)> {
    let schema = |tool: &Value, pointers: &[&str]| {
        pointers
            .iter()
            .find_map(|p| tool.pointer(p).cloned())
            .unwrap_or(Value::Null)
    };
    match format {
        Format::Anthropic => array(body, "/tools")
            .map(|t| (str_at(t, "/name").to_owned(), schema(t, &["/input_schema"])))
            .collect(),
        Format::Chat => array(body, "/tools")
            .map(|t| {
                (
                    str_at(t, "/function/name").to_owned(),
                    schema(t, &["/function/parameters"]),
                )
            })
            .collect(),
        Format::Gemini => array(body, "/tools")
            .flat_map(|t| array(t, "/functionDeclarations"))
            .map(|d| {
                (
                    str_at(d, "/name").to_owned(),
                    schema(d, &["/parametersJsonSchema", "/parameters"]),
                )
            })
            .collect(),
        Format::Responses => array(body, "/tools")
            .filter(|t| str_at(t, "/type") == "function")
            .map(|t| (str_at(t, "/name").to_owned(), schema(t, &["/parameters"])))
            .collect(),
    }
}

/// The tool results `body` carries, in order: the tool's name (as
/// [`offered_tools`] names it) and the result as text.
pub fn tool_results(format: Format, body: &Value) -> Vec<(String, String)> {
    match format {
        Format::Anthropic => {
            let messages: Vec<&Value> = array(body, "/messages").collect();
            let names: HashMap<&str, &str> = messages
                .iter()
                .flat_map(|m| array(m, "/content"))
                .filter(|b| str_at(b, "/type") == "tool_use")
                .map(|b| (str_at(b, "/id"), str_at(b, "/name")))
                .collect();
            messages
                .iter()
                .flat_map(|m| array(m, "/content"))
                .filter(|b| str_at(b, "/type") == "tool_result")
                .map(|b| {
                    let name = names.get(str_at(b, "/tool_use_id")).copied().unwrap_or_default();
                    (name.to_owned(), text_of(b.get("content").unwrap_or(&Value::Null)))
                })
                .collect()
        }
        Format::Chat => {
            let messages: Vec<&Value> = array(body, "/messages").collect();
            let names: HashMap<&str, &str> = messages
                .iter()
                .flat_map(|m| array(m, "/tool_calls"))
                .map(|c| (str_at(c, "/id"), str_at(c, "/function/name")))
                .collect();
            messages
                .iter()
                .filter(|m| str_at(m, "/role") == "tool")
                .map(|m| {
                    let name = names.get(str_at(m, "/tool_call_id")).copied().unwrap_or_default();
                    (name.to_owned(), text_of(m.get("content").unwrap_or(&Value::Null)))
                })
                .collect()
        }
        Format::Gemini => array(body, "/contents")
            .flat_map(|c| array(c, "/parts"))
            .filter_map(|p| p.get("functionResponse"))
            .map(|r| {
                let response = r.get("response").cloned().unwrap_or(Value::Null);
                let text = match response.get("output") {
                    Some(Value::String(output)) => output.clone(),
                    _ => response.to_string(),
                };
                (str_at(r, "/name").to_owned(), text)
            })
            .collect(),
        Format::Responses => {
            let items: Vec<&Value> = array(body, "/input").collect();
            let names: HashMap<&str, String> = items
                .iter()
                .filter(|i| str_at(i, "/type") == "function_call")
                .map(|i| {
                    let name = match str_at(i, "/namespace") {
                        "" => str_at(i, "/name").to_owned(),
                        namespace => format!("{namespace}.{}", str_at(i, "/name")),
                    };
                    (str_at(i, "/call_id"), name)
                })
                .collect();
            items
                .iter()
                .filter_map(|i| match str_at(i, "/type") {
                    "function_call_output" => Some((
                        names.get(str_at(i, "/call_id")).cloned().unwrap_or_default(),
                        text_of(i.get("output").unwrap_or(&Value::Null)),
                    )),
                    "tool_search_output" => Some(("tool_search".to_owned(), i.to_string())),
                    _ => None,
                })
                .collect()
        }
    }
}

fn sse(events: &[(Option<&str>, Value)], done: bool) -> Response {
    let mut text = String::new();
    for (event, data) in events {
        if let Some(event) = event {
            text.push_str(&format!("event: {event}\n"));
        }
        text.push_str(&format!("data: {data}\n\n"));
    }
    if done {
        text.push_str("data: [DONE]\n\n");
    }
    ([(CONTENT_TYPE, "text/event-stream")], text).into_response()
}

/// `reply` as `format` writes it; `n` makes the ids unique, `streamed`
/// says whether a Gemini request asked for a stream.
pub fn respond(format: Format, reply: &Reply, n: usize, streamed: bool) -> Response {
    match format {
        Format::Anthropic => anthropic(reply, n),
        Format::Responses => responses(reply, n),
        Format::Chat => chat(reply, n),
        Format::Gemini => gemini(reply, streamed),
    }
}

fn anthropic(reply: &Reply, n: usize) -> Response {
    let usage = json!({"input_tokens": 10, "output_tokens": 5});
    let start = json!({"type": "message_start", "message": {
        "id": format!("msg_{n}"), "type": "message", "role": "assistant", "model": "scripted",
        "content": [], "stop_reason": null, "stop_sequence": null, "usage": usage}});
    let (block, delta, stop) = match reply {
        Reply::Text(text) => (
            json!({"type": "text", "text": ""}),
            json!({"type": "text_delta", "text": text}),
            "end_turn",
        ),
        Reply::Call(name, args) => (
            json!({"type": "tool_use", "id": format!("toolu_{n}"), "name": name, "input": {}}),
            json!({"type": "input_json_delta", "partial_json": args.to_string()}),
            "tool_use",
        ),
    };
    sse(
        &[
            (Some("message_start"), start),
            (
                Some("content_block_start"),
                json!({"type": "content_block_start", "index": 0, "content_block": block}),
            ),
            (
                Some("content_block_delta"),
                json!({"type": "content_block_delta", "index": 0, "delta": delta}),
            ),
            (
                Some("content_block_stop"),
                json!({"type": "content_block_stop", "index": 0}),
            ),
            (
                Some("message_delta"),
                json!({"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": null}, "usage": {"output_tokens": 5}}),
            ),
            (Some("message_stop"), json!({"type": "message_stop"})),
        ],
        false,
    )
}

fn responses(reply: &Reply, n: usize) -> Response {
    let item = match reply {
        Reply::Text(text) => json!({"type": "message", "role": "assistant", "id": format!("msg_{n}"),
            "content": [{"type": "output_text", "text": text, "annotations": []}]}),
        Reply::Call(name, args) => {
            let mut item = json!({"type": "function_call", "id": format!("fc_{n}"), "call_id": format!("call_{n}"),
                "arguments": args.to_string()});
            match name.split_once('.') {
                Some((namespace, tool)) => {
                    item["namespace"] = json!(namespace);
                    item["name"] = json!(tool);
                }
                None => item["name"] = json!(name),
            }
            item
        }
    };
    let id = format!("resp_{n}");
    sse(
        &[
            (
                Some("response.created"),
                json!({"type": "response.created", "response": {"id": id}}),
            ),
            (
                Some("response.output_item.done"),
                json!({"type": "response.output_item.done", "output_index": 0, "item": item}),
            ),
            (
                Some("response.completed"),
                json!({"type": "response.completed", "response": {"id": id, "usage": {
                    "input_tokens": 10, "input_tokens_details": null, "output_tokens": 5,
                    "output_tokens_details": null, "total_tokens": 15}}}),
            ),
        ],
        false,
    )
}

fn chat(reply: &Reply, n: usize) -> Response {
    let chunk = |delta: Value, finish: Value| {
        json!({"id": format!("chatcmpl-{n}"), "object": "chat.completion.chunk", "created": 0, "model": "scripted",
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]})
    };
    let (delta, finish) = match reply {
        Reply::Text(text) => (json!({"role": "assistant", "content": text}), "stop"),
        Reply::Call(name, args) => (
            json!({"role": "assistant", "content": null, "tool_calls": [{"index": 0, "id": format!("call_{n}"),
                "type": "function", "function": {"name": name, "arguments": args.to_string()}}]}),
            "tool_calls",
        ),
    };
    let mut last = chunk(json!({}), json!(finish));
    last["usage"] = json!({"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15});
    sse(&[(None, chunk(delta, Value::Null)), (None, last)], true)
}

fn gemini(reply: &Reply, streamed: bool) -> Response {
    let part = match reply {
        Reply::Text(text) => json!({"text": text}),
        Reply::Call(name, args) => json!({"functionCall": {"name": name, "args": args}}),
    };
    let body = json!({
        "candidates": [{"content": {"role": "model", "parts": [part]}, "finishReason": "STOP", "index": 0}],
        "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15},
        "modelVersion": "scripted"
    });
    if streamed {
        sse(&[(None, body)], false)
    } else {
        axum::Json(body).into_response()
    }
}
