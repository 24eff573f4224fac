//! The MCP server: a profile's tools over the Model Context Protocol, on the
//! same service (and so the same store) as the CLI.
//!
//! Tool errors (a payload the model got wrong) are tool results with
//! `isError: true` and the same message the CLI gives; an unknown tool is a
//! protocol error, and so is a store that cannot be read or written.

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation, InitializeResult,
    ListToolsResult, MetaObject, PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
    ToolAnnotations,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt};
use serde_json::{Map, Value, json};
use todokit_app::schema::{SchemaTarget, definition};
use todokit_app::{ServiceError, TodoWriteService};
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};

/// The key of a call's `_meta` that names the conversation, for clients
/// that keep several conversations on one server.
pub const CONVERSATION_META_KEY: &str = "todokit/conversation";

/// The key of a tool's `_meta` that holds its todokit metadata (read-only
/// with respect to the list, exclusive, inherited by subagents).
pub const TOOL_META_KEY: &str = "todokit/metadata";

/// JSON-RPC's code for text that is not JSON.
pub const PARSE_ERROR: i64 = -32700;

/// Room in each in-process pipe between the line filter, the MCP service
/// and the output writer.
const PIPE_BYTES: usize = 1 << 16;

/// Serves `server` on standard input and output until the client closes its
/// end; see [`serve`].
pub async fn serve_stdio(server: TodoMcpServer) -> std::io::Result<()> {
    serve(server, tokio::io::stdin(), tokio::io::stdout()).await
}

/// Serves `server` over newline-delimited JSON-RPC on `input` and `output`.
///
/// Every line is checked before the MCP service sees it: a line that is not
/// JSON (garbage, a truncated message, nesting deeper than the parser's
/// limit) is answered with a JSON-RPC parse error (`-32700`, `id: null`)
/// instead of being dropped silently, and the session goes on.
pub async fn serve<I, O>(server: TodoMcpServer, input: I, output: O) -> std::io::Result<()>
where
    I: AsyncRead + Unpin + Send + 'static,
    O: AsyncWrite + Unpin + Send + 'static,
{
    let (mut to_service, service_in) = tokio::io::duplex(PIPE_BYTES);
    let (service_out, from_service) = tokio::io::duplex(PIPE_BYTES);
    let (replies, mut pending) = tokio::sync::mpsc::unbounded_channel::<String>();
    // One writer for both streams, a whole line at a time, so answers from
    // the service and parse errors never interleave.
    let writer = tokio::spawn(async move {
        let mut output = output;
        let mut lines = BufReader::new(from_service).lines();
        let mut service_open = true;
        loop {
            let line = tokio::select! {
                line = lines.next_line(), if service_open => match line {
                    Ok(Some(line)) => line,
                    _ => { service_open = false; continue; }
                },
                reply = pending.recv() => match reply {
                    Some(reply) => reply,
                    None if service_open => { continue; }
                    None => break,
                },
            };
            if output.write_all(format!("{line}\n").as_bytes()).await.is_err()
                || output.flush().await.is_err()
            {
                break;
            }
        }
    });
    let reader = tokio::spawn(async move {
        let mut input = BufReader::new(input);
        let mut line = Vec::new();
        loop {
            line.clear();
            match input.read_until(b'\n', &mut line).await {
                Ok(0) | Err(_) => break,
                Ok(_) => {}
            }
            let text = line.trim_ascii();
            if text.is_empty() {
                continue;
            }
            // Parsed as a value, not skimmed: the same nesting limit the
            // service's parser has, so nothing reaches it that it would drop.
            match serde_json::from_slice::<Value>(text) {
                Ok(_) => {
                    let forwarded = to_service
                        .write_all(text)
                        .await
                        .and(to_service.write_all(b"\n").await);
                    if forwarded.is_err() {
                        break;
                    }
                }
                Err(error) => {
                    let answer = json!({
                        "jsonrpc": "2.0",
                        "id": null,
                        "error": {"code": PARSE_ERROR, "message": format!("Parse error: {error}")}
                    });
                    let _ = replies.send(answer.to_string());
                }
            }
        }
        // Dropping the pipe ends the service's input, and so the session.
    });
    let running = server
        .serve((service_in, service_out))
        .await
        .map_err(std::io::Error::other)?;
    let _ = running.waiting().await;
    let _ = reader.await;
    let _ = writer.await;
    Ok(())
}

/// Serves one profile's tools for one default conversation.
#[derive(Debug, Clone)]
pub struct TodoMcpServer {
    service: TodoWriteService,
    conversation: String,
}

impl TodoMcpServer {
    /// A server for `service`'s profile; calls that name no conversation in
    /// their `_meta` go to `conversation`.
    pub fn new(service: TodoWriteService, conversation: impl Into<String>) -> Self {
        Self {
            service,
            conversation: conversation.into(),
        }
    }

    /// The profile's tools as MCP tool definitions, with annotations from
    /// their metadata.
    pub fn tools(&self) -> Vec<Tool> {
        self.service
            .profile()
            .tools()
            .map(|tool| {
                let schema = match definition(tool, SchemaTarget::Mcp).get("inputSchema") {
                    Some(Value::Object(map)) => map.clone(),
                    _ => Map::new(),
                };
                let meta = tool.metadata();
                // The read-only hint is about the workspace (files, processes,
                // network), which no todo tool touches, so clients may allow
                // them in plan mode; the finer facts go under `_meta`.
                let annotations = ToolAnnotations::new()
                    .read_only(meta.read_only_workspace)
                    .destructive(false)
                    .idempotent(meta.idempotent)
                    .open_world(false);
                let mut facts = Map::new();
                facts.insert(TOOL_META_KEY.to_owned(), json!(meta));
                Tool::new(tool.name(), tool.description(), std::sync::Arc::new(schema))
                    .annotate(annotations)
                    .with_meta(MetaObject(facts))
            })
            .collect()
    }

    fn conversation_of(&self, request: &CallToolRequestParams) -> String {
        request
            .meta
            .as_ref()
            .and_then(|meta| meta.0.0.get(CONVERSATION_META_KEY))
            .and_then(Value::as_str)
            .unwrap_or(&self.conversation)
            .to_owned()
    }
}

impl ServerHandler for TodoMcpServer {
    fn get_info(&self) -> ServerConfig {
        InitializeResult::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("todokit", env!("CARGO_PKG_VERSION")))
            .with_instructions(self.service.profile().system_prompt())
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(self.tools()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let conversation = self.conversation_of(&request);
        let args = Value::Object(request.arguments.clone().unwrap_or_default());
        match self.service.call_value(&conversation, &request.name, &args).await {
            Ok(result) => {
                let content = vec![ContentBlock::text(result.content)];
                let mut response = if result.is_error {
                    CallToolResult::error(content)
                } else {
                    CallToolResult::success(content)
                };
                response.structured_content = Some(result.details.value());
                Ok(response.into())
            }
            Err(error @ ServiceError::UnknownTool { .. }) => {
                Err(ErrorData::invalid_params(error.to_string(), None))
            }
            Err(error) => Err(ErrorData::internal_error(error.to_string(), None)),
        }
    }
}
