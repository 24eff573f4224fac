//! The MCP handler: a profile's tools over the Model Context Protocol, on
//! the same service (and so the same store) as the CLI.
//!
//! Tool errors (a payload the model got wrong) are tool results with
//! `isError: true` and the same message the CLI gives; an unknown tool is a
//! protocol error, and so is a store that cannot be read or written.
//!
//! Every conversation of the store is also a resource the client can list,
//! read and follow ([`super::resources`], [`super::live`]).

use std::sync::Arc;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, CompleteRequestMethod, CompleteRequestParams,
    CompleteResult, ContentBlock, Implementation, InitializeRequestParams, InitializeResult,
    ListPromptsRequestMethod, ListPromptsResult, ListResourceTemplatesResult, ListResourcesResult,
    ListToolsResult, PaginatedRequestParams, ProtocolVersion, ReadResourceRequestParams,
    ReadResourceResponse, ServerCapabilities, ServerConfig, SubscribeRequestParams, SubscriptionFilter, Tool,
    UnsubscribeRequestParams,
};
use rmcp::service::{RequestContext, SubscriptionContext};
use rmcp::{ErrorData, RoleServer, ServerHandler};
use serde_json::value::RawValue;
use serde_json::{Map, Value};
use todokit::app::schema::{SchemaTarget, definition};
use todokit::app::{CallOptions, HostMode, TodoWriteService};
use todokit::domain::{CONVERSATION_ID_RULE, check_conversation_id};

use super::listen_start::ListenStart;
use super::live::Live;
use super::resources;
use super::rmcp_gate::PlainToolCall;

/// The key of a call's `_meta` that names the conversation, for clients
/// that keep several conversations on one server.
pub const CONVERSATION_META_KEY: &str = "todokit/conversation";

/// The key of a call's `_meta` that names the host's mode (`default`,
/// `plan`): in plan mode a tool its original refuses there answers that
/// refusal.
pub const MODE_META_KEY: &str = "todokit/mode";

/// The key of a tool's `_meta` that holds its todokit metadata (read-only
/// with respect to the list, exclusive, inherited by subagents).
pub const TOOL_META_KEY: &str = todokit::app::schema::MCP_TOOL_META_KEY;

/// What a remote request brings besides its message: its caller's service
/// (the whole store, or one tenant's namespace of it) and the conversation
/// its header or query names. The HTTP endpoint puts it in the request's
/// extensions, where the handler finds it; a request without one (stdio)
/// uses the server's own.
#[derive(Debug, Clone)]
pub struct RemoteScope {
    service: TodoWriteService,
    conversation: String,
    calls: Arc<Calls>,
    structured_content: bool,
    /// The metrics of the server the request came through.
    #[cfg(feature = "http")]
    metrics: Option<Arc<crate::metrics::Metrics>>,
}

impl RemoteScope {
    /// The service the request runs on.
    pub fn service(&self) -> &TodoWriteService {
        &self.service
    }

    /// The conversation of a call that names none in its `_meta`.
    pub fn conversation(&self) -> &str {
        &self.conversation
    }

    /// This scope, its tool results carrying `structuredContent`
    /// ([`TodoMcpServer::with_structured_content`]).
    pub fn with_structured_content(mut self, on: bool) -> Self {
        self.structured_content = on;
        self
    }

    /// Whether its tool results carry `structuredContent`.
    pub fn structured_content(&self) -> bool {
        self.structured_content
    }

    /// This scope, its calls counted in `metrics`.
    #[cfg(feature = "http")]
    pub(crate) fn with_metrics(mut self, metrics: Arc<crate::metrics::Metrics>) -> Self {
        self.metrics = Some(metrics);
        self
    }

    /// The metrics its calls are counted in.
    #[cfg(feature = "http")]
    pub(crate) fn metrics(&self) -> Option<&crate::metrics::Metrics> {
        self.metrics.as_deref()
    }

    /// Counts one call as running until the guard is dropped.
    pub fn count_call(&self) -> impl Drop + use<> {
        self.calls.enter()
    }

    /// `service` for this request, with `conversation` for calls that name
    /// none in their `_meta`; a tool call counts itself in `calls` while it
    /// runs.
    pub fn new(service: TodoWriteService, conversation: String, calls: Arc<Calls>) -> Self {
        Self {
            service,
            conversation,
            calls,
            structured_content: false,
            #[cfg(feature = "http")]
            metrics: None,
        }
    }
}

/// The tool calls running now, so a server that stops can let them finish.
#[derive(Debug, Default)]
pub struct Calls {
    running: std::sync::atomic::AtomicUsize,
    idle: tokio::sync::Notify,
}

impl Calls {
    /// Counts one call until the guard is dropped.
    fn enter(self: &Arc<Self>) -> CallGuard {
        self.running.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        CallGuard(Arc::clone(self))
    }

    /// How many calls are running.
    pub fn running(&self) -> usize {
        self.running.load(std::sync::atomic::Ordering::SeqCst)
    }

    /// Resolves once no call is running.
    pub async fn idle(&self) {
        loop {
            let notified = self.idle.notified();
            if self.running() == 0 {
                return;
            }
            notified.await;
        }
    }
}

/// One running call, counted in [`Calls`].
struct CallGuard(Arc<Calls>);

impl Drop for CallGuard {
    fn drop(&mut self) {
        if self.0.running.fetch_sub(1, std::sync::atomic::Ordering::SeqCst) == 1 {
            self.0.idle.notify_waiters();
        }
    }
}

/// The conversation id a remote request names at `source` (`_meta`'s key,
/// the header, the query parameter, the path): `named` is `None` when what
/// came there is not text (not a string, not UTF-8). One check
/// ([`check_conversation_id`]), one set of words, wherever the id came
/// from.
pub fn remote_conversation(source: &str, named: Option<&str>) -> Result<String, String> {
    let problem = match named.map(|id| (id, check_conversation_id(id))) {
        None => "this one is not UTF-8 text".to_owned(),
        Some((_, Err(problem))) => problem.to_string(),
        Some((id, Ok(()))) => return Ok(id.to_owned()),
    };
    Err(format!("{source} {CONVERSATION_ID_RULE}; {problem}"))
}

/// Serves one profile's tools for one default conversation, and the
/// store's conversations as resources.
#[derive(Debug, Clone)]
pub struct TodoMcpServer {
    service: TodoWriteService,
    conversation: String,
    /// The session's followed conversations, shared by every clone.
    live: Arc<Live>,
    /// Whether every request must bring its caller ([`RemoteScope`]): a
    /// server behind the HTTP edge never falls back to its own service.
    callers_only: bool,
    /// Whether a tool result carries the call's details as
    /// `structuredContent` beside the profile's text.
    structured_content: bool,
}

impl TodoMcpServer {
    /// A server for `service`'s profile; calls that name no conversation in
    /// their `_meta` go to `conversation`.
    pub fn new(service: TodoWriteService, conversation: impl Into<String>) -> Self {
        Self {
            service,
            conversation: conversation.into(),
            live: Arc::default(),
            callers_only: false,
            structured_content: false,
        }
    }

    /// This server, answering tool calls with the call's details (the
    /// lists before and after, the transitions) as `structuredContent`
    /// beside the profile's text. Off by default: several agents hand the
    /// model a tool's structured content instead of its text (an MCP tool
    /// that declares no `outputSchema` need not send it), and the model is
    /// to read the words its own agent's tool answers with. For a host
    /// that reads the details itself (`--structured-content`).
    pub fn with_structured_content(mut self, on: bool) -> Self {
        self.structured_content = on;
        self
    }

    /// This server for the HTTP edge: a request that arrives without its
    /// caller's scope (the token's namespace, which the edge sets) is
    /// refused, never run on the server's own (whole-store) service.
    pub fn callers_only(mut self) -> Self {
        self.callers_only = true;
        self
    }

    /// This server for a new session: the same service and conversation,
    /// following nothing yet (a server value may serve one session after
    /// another).
    pub fn for_new_session(mut self) -> Self {
        self.live = Arc::default();
        self
    }

    /// Reads where the listen request `message` starts from and keeps it
    /// for its handler: called by the stdio reader before rmcp sees the
    /// request, so before rmcp acknowledges it. `id` is the request's id
    /// as rmcp reads it.
    pub(super) async fn read_listen_start(&self, id: &Value, message: &[u8]) {
        if let Some(start) = ListenStart::read(&self.service, message).await {
            self.live.starts.keep(id, start);
        }
    }

    /// Where the listen request of `context` starts from: handed over in
    /// the HTTP request, or kept by the stdio reader under its id.
    fn listen_start(&self, context: &RequestContext<RoleServer>) -> Option<ListenStart> {
        #[cfg(feature = "http")]
        if let Some(start) = context
            .extensions
            .get::<axum::http::request::Parts>()
            .and_then(|parts| parts.extensions.get::<ListenStart>())
        {
            return Some(start.clone());
        }
        let id = serde_json::to_value(&context.id).ok()?;
        self.live.starts.take(&id)
    }

    /// Stops following every conversation: the session is over.
    pub(super) fn end_session(&self) {
        self.live.close();
    }

    /// The profile's tools as MCP tool definitions: exactly what
    /// `todokit schema --target mcp` prints (annotations and `_meta`
    /// included), read into rmcp's type.
    pub fn tools(&self) -> Vec<Tool> {
        self.service
            .profile()
            .tools()
            // Every definition has the fields rmcp's `Tool` needs (the MCP
            // test compares every profile's `tools/list` with them), so
            // none is dropped here.
            .filter_map(|tool| serde_json::from_value(definition(tool, SchemaTarget::Mcp)).ok())
            .collect()
    }

    /// The request's [`RemoteScope`], when it came over HTTP.
    fn remote(context: &RequestContext<RoleServer>) -> Option<&RemoteScope> {
        #[cfg(feature = "http")]
        {
            context
                .extensions
                .get::<axum::http::request::Parts>()
                .and_then(|parts| parts.extensions.get::<RemoteScope>())
        }
        #[cfg(not(feature = "http"))]
        {
            let _ = context;
            None
        }
    }

    /// The service a request runs on: its remote caller's, else (stdio) the
    /// server's own. A server for the HTTP edge refuses a request without
    /// its caller rather than serve it the whole store.
    fn service_of<'a>(
        &'a self,
        context: &'a RequestContext<RoleServer>,
    ) -> Result<&'a TodoWriteService, ErrorData> {
        match Self::remote(context) {
            Some(scope) => Ok(&scope.service),
            None if self.callers_only => Err(no_caller()),
            None => Ok(&self.service),
        }
    }

    /// The conversation a call names in its `_meta`, or the server's own.
    /// rmcp moves a request's `_meta` out of its params into the request
    /// context before the handler runs, so that is where it is read; the
    /// params are checked too, for a transport that leaves it there.
    fn conversation_of(
        &self,
        request: &CallToolRequestParams,
        context: &RequestContext<RoleServer>,
    ) -> Result<String, ErrorData> {
        let named = |meta: &Map<String, Value>| meta.get(CONVERSATION_META_KEY).cloned();
        let named =
            named(&context.meta.0.0).or_else(|| request.meta.as_ref().and_then(|meta| named(&meta.0.0)));
        let Some(remote) = Self::remote(context) else {
            if self.callers_only {
                return Err(no_caller());
            }
            // Over stdio the one client is trusted with any name it gives.
            return Ok(named
                .as_ref()
                .and_then(Value::as_str)
                .map_or_else(|| self.conversation.clone(), str::to_owned));
        };
        match named {
            // A value that is not a string is refused, never ignored (the
            // call would otherwise go to another conversation).
            Some(named) => remote_conversation(&format!("_meta.\"{CONVERSATION_META_KEY}\""), named.as_str())
                .map_err(|message| ErrorData::invalid_params(message, None)),
            None => Ok(remote.conversation.clone()),
        }
    }

    /// The host mode a call names in its `_meta` (the default mode when it
    /// names none); a mode todokit does not know is the client's error.
    fn mode_of(
        request: &CallToolRequestParams,
        context: &RequestContext<RoleServer>,
    ) -> Result<HostMode, ErrorData> {
        let named = |meta: &Map<String, Value>| meta.get(MODE_META_KEY).cloned();
        let Some(value) =
            named(&context.meta.0.0).or_else(|| request.meta.as_ref().and_then(|m| named(&m.0.0)))
        else {
            return Ok(HostMode::Default);
        };
        value.as_str().and_then(HostMode::from_word).ok_or_else(|| {
            let words: Vec<&str> = HostMode::ALL.iter().map(|m| m.as_str()).collect();
            ErrorData::invalid_params(
                format!(
                    "_meta.\"{MODE_META_KEY}\" must be one of {}; got {}",
                    words.join(", "),
                    todokit::domain::clip(&value.to_string())
                ),
                None,
            )
        })
    }
}

/// The refusal of a request that reached a server for the HTTP edge
/// without its caller (a fault of ours, never a reason to serve it).
fn no_caller() -> ErrorData {
    ErrorData::internal_error("this request came without its caller, so it is refused", None)
}

impl TodoMcpServer {
    /// Runs a plain `tools/call` (a name and arguments, nothing else) and
    /// writes the reply line rmcp would write for it in a session opened by
    /// `initialize` at a protocol version before 2026-07-28. The arguments
    /// go to the service as the text they came in, and the details into the
    /// reply as the text they were written as: no tree is built either way.
    pub(super) async fn answer_plain_call(&self, call: &PlainToolCall<'_>) -> Vec<u8> {
        let args = call.arguments.map_or("{}", RawValue::get);
        let outcome = super::direct_call::run_call(
            &self.service,
            &self.conversation,
            call.name,
            args,
            CallOptions::default(),
            None,
        )
        .await;
        let mut line = super::direct_call::reply(&call.id, outcome, None, self.structured_content);
        line.push(b'\n');
        line
    }
}

impl ServerHandler for TodoMcpServer {
    fn get_info(&self) -> ServerConfig {
        let capabilities = ServerCapabilities::builder()
            .enable_tools()
            .enable_resources()
            .enable_resources_subscribe()
            .enable_resources_list_changed()
            .build();
        InitializeResult::new(capabilities)
            .with_server_info(Implementation::new("todokit", env!("CARGO_PKG_VERSION")))
            .with_instructions(super::instructions::naming_this_servers_tools(
                self.service.profile().system_prompt(),
                &self.service.profile().tool_names(),
            ))
    }

    /// The handshake, with the conversation's list in the instructions
    /// when it has one (see the `instructions` module). A list that cannot
    /// be read leaves the instructions without it: the session still opens.
    async fn initialize(
        &self,
        request: InitializeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<InitializeResult, ErrorData> {
        context.peer.set_peer_info(request.clone());
        let mut result = self.negotiate_initialize(&request)?;
        let (service, conversation) = match Self::remote(&context) {
            Some(remote) => (&remote.service, remote.conversation.clone()),
            None if self.callers_only => return Ok(result),
            None => (&self.service, self.conversation.clone()),
        };
        let list = service.state(&conversation).await.ok();
        let profile = service.profile();
        result.instructions = Some(super::instructions::instructions(
            profile.system_prompt(),
            &profile.tool_names(),
            &conversation,
            list.as_ref(),
        ));
        Ok(result)
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
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let _counted = Self::remote(&context).map(|remote| remote.calls.enter());
        let conversation = self.conversation_of(&request, &context)?;
        let options = CallOptions::default().mode(Self::mode_of(&request, &context)?);
        // Back to text (no copy of the tree): well-formed arguments then go
        // straight into the tool's typed input; others take the repairing
        // path exactly as the parsed object would.
        let args = match &request.arguments {
            Some(arguments) => serde_json::to_string(arguments).unwrap_or_else(|_| "{}".to_owned()),
            None => "{}".to_owned(),
        };
        let service = self.service_of(&context)?;
        #[cfg(feature = "http")]
        let meter = Self::remote(&context).and_then(RemoteScope::metrics);
        #[cfg(not(feature = "http"))]
        let meter = None;
        let result =
            super::direct_call::run_call(service, &conversation, &request.name, &args, options, meter)
                .await?;
        let content = vec![ContentBlock::text(result.content)];
        let mut response = if result.is_error {
            CallToolResult::error(content)
        } else {
            CallToolResult::success(content)
        };
        if self.structured_content {
            response.structured_content = Some(result.details.value());
        }
        Ok(response.into())
    }

    /// No prompts are declared, so none are listed: `prompts/list` is an
    /// unknown method, as the specification has it for a capability the
    /// server did not declare (rmcp would answer an empty list).
    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        Err(ErrorData::method_not_found::<ListPromptsRequestMethod>())
    }

    /// No completions are declared either (rmcp would answer an empty one).
    async fn complete(
        &self,
        _request: CompleteRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, ErrorData> {
        Err(ErrorData::method_not_found::<CompleteRequestMethod>())
    }

    async fn list_resources(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        let service = self.service_of(&context)?;
        let summaries = resources::summaries(service).await?;
        // A session opened by `initialize` hears of new conversations
        // unasked from its first listing on; a later one asks through
        // `subscriptions/listen`.
        let legacy = context
            .protocol_version()
            .is_some_and(|version| version.as_str() < ProtocolVersion::V_2026_07_28.as_str());
        if legacy {
            let known = summaries.iter().map(|summary| summary.id.clone()).collect();
            self.live
                .announce_list_changes(service, context.peer.clone(), known);
        }
        let cursor = request.as_ref().and_then(|params| params.cursor.as_deref());
        resources::list_page(summaries, cursor)
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        Ok(resources::templates())
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        resources::read(self.service_of(&context)?, &request.uri)
            .await
            .map(Into::into)
    }

    async fn subscribe(
        &self,
        request: SubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.live
            .subscribe(self.service_of(&context)?, context.peer.clone(), request.uri)
            .await
    }

    async fn unsubscribe(
        &self,
        request: UnsubscribeRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.live.unsubscribe(&request.uri);
        Ok(())
    }

    fn accepted_subscription_filter(&self, requested: &SubscriptionFilter) -> Option<SubscriptionFilter> {
        Some(self.live.accept(requested))
    }

    async fn listen(&self, context: SubscriptionContext) -> Result<(), ErrorData> {
        let service = self.service_of(context.request_context())?.clone();
        let start = self.listen_start(context.request_context());
        self.live.listen(&service, context, start).await;
        Ok(())
    }
}
