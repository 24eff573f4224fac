//! The MCP server: a profile's tools over the Model Context Protocol, on the
//! same service (and so the same store) as the CLI.
//!
//! Tool errors (a payload the model got wrong) are tool results with
//! `isError: true` and the same message the CLI gives; an unknown tool is a
//! protocol error, and so is a store that cannot be read or written.

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation, InitializeResult,
    ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool, ToolAnnotations,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};
use serde_json::{Map, Value};
use todokit_app::schema::{SchemaTarget, definition};
use todokit_app::{ServiceError, TodoService};

/// The key of a call's `_meta` that names the conversation, for clients
/// that keep several conversations on one server.
pub const CONVERSATION_META_KEY: &str = "todokit/conversation";

/// Serves one profile's tools for one default conversation.
#[derive(Debug, Clone)]
pub struct TodoMcpServer {
    service: TodoService,
    conversation: String,
}

impl TodoMcpServer {
    /// A server for `service`'s profile; calls that name no conversation in
    /// their `_meta` go to `conversation`.
    pub fn new(service: TodoService, conversation: impl Into<String>) -> Self {
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
                // MCP's read-only hint is about the environment; the list is
                // part of it only for tools that change the list.
                let annotations = ToolAnnotations::new()
                    .read_only(meta.read_only)
                    .destructive(false)
                    .idempotent(meta.idempotent)
                    .open_world(false);
                Tool::new(tool.name(), tool.description(), std::sync::Arc::new(schema)).annotate(annotations)
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
                response.structured_content = Some(result.details);
                Ok(response.into())
            }
            Err(error @ ServiceError::UnknownTool { .. }) => {
                Err(ErrorData::invalid_params(error.to_string(), None))
            }
            Err(error) => Err(ErrorData::internal_error(error.to_string(), None)),
        }
    }
}
