//! `/mcp` and `/mcp/<profile>`: the MCP server over Streamable HTTP, the
//! transport the MCP specification defines for remote servers.
//!
//! rmcp's `StreamableHttpService` does the protocol (sessions, streams,
//! the body cap, idle expiry, both protocol eras); its own `Host` check is
//! off because the board's outer layer refuses a foreign `Host` for every
//! route. What it does not know is added here: who the caller is (its
//! [`Scope`]: the whole store, or one tenant's namespace), the conversation
//! a request names, and that a session belongs to the caller that opened
//! it: a session id presented with another caller's token is unknown.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use axum::Extension;
use axum::extract::{Path, Request, State};
use axum::http::{HeaderMap, Method, StatusCode, header};
use axum::response::{IntoResponse, Response};
use percent_encoding::percent_decode_str;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use tokio_util::sync::CancellationToken;
use tower_service::Service as _;

use super::direct::{InSession, answer_directly};
use super::holders::Holders;
use super::message::{Seen, inspect};
use super::owners::{Full, Opening, Owners, SessionQuotas};
use super::tenancy::{Scope, Tenancy};
use super::tokens::Caller;
use crate::limits::MAX_MESSAGE_BYTES;
use crate::listen_start::ListenStart;
use crate::server::{Calls, RemoteScope, TodoMcpServer, remote_conversation};

/// The header that names a request's conversation (percent-encoded UTF-8).
pub const CONVERSATION_HEADER: &str = "todokit-conversation";

/// The query parameter that names a request's conversation.
pub const CONVERSATION_QUERY: &str = "conversation";

/// The conversation of a request that names none.
pub const DEFAULT_CONVERSATION: &str = "default";

/// The most MCP sessions one process keeps open at once unless
/// `--max-sessions` says otherwise; an `initialize` past this is refused
/// (503) until sessions end or expire (rmcp closes one idle for five
/// minutes).
pub const MAX_SESSIONS: usize = 4096;

/// The most MCP sessions one caller (a token; the open loopback server is
/// one caller) holds at once unless `--max-sessions-per-token` says
/// otherwise; past this its `initialize` is refused (429).
pub const MAX_SESSIONS_PER_TOKEN: usize = 256;

const SESSION_HEADER: &str = "mcp-session-id";

type Http = StreamableHttpService<TodoMcpServer, LocalSessionManager>;

/// One profile's endpoint.
struct Endpoint {
    http: Http,
    sessions: Arc<LocalSessionManager>,
}

/// Every profile's endpoint (made on first use), and which caller opened
/// each session.
pub(super) struct Endpoints {
    tenancy: Arc<Tenancy>,
    endpoints: Mutex<HashMap<&'static str, Endpoint>>,
    owners: Arc<Mutex<Owners>>,
    quotas: SessionQuotas,
    /// Every caller's live streams (shared with the board).
    holders: Arc<Holders>,
    cancel: CancellationToken,
    /// The tool calls running now.
    calls: Arc<Calls>,
    /// The sessions every process on the store shares.
    shared: Option<super::shared::SharedSessions>,
    /// Whether the server has no token at all (loopback, open).
    open: bool,
    /// Whether tool results carry `structuredContent`
    /// (`--structured-content`).
    structured_content: bool,
    /// The server's metrics, which its calls are counted in.
    metrics: Arc<crate::metrics::Metrics>,
}

impl Endpoints {
    /// Endpoints over `tenancy`'s store, counting live streams in `holders`
    /// (shared with the board) and calls in `metrics` (the server's);
    /// cancelling `cancel` ends every session.
    pub(super) fn new(
        tenancy: Arc<Tenancy>,
        cancel: CancellationToken,
        open: bool,
        quotas: SessionQuotas,
        holders: Arc<Holders>,
        metrics: Arc<crate::metrics::Metrics>,
    ) -> Self {
        Self {
            tenancy,
            endpoints: Mutex::default(),
            owners: Arc::default(),
            quotas,
            holders,
            cancel,
            calls: Arc::default(),
            shared: None,
            open,
            structured_content: false,
            metrics,
        }
    }

    /// These endpoints, their tool results carrying `structuredContent`
    /// ([`TodoMcpServer::with_structured_content`]).
    pub(super) fn structured_content(mut self, on: bool) -> Self {
        self.structured_content = on;
        self
    }

    /// The session managers of the endpoints made so far.
    fn managers(&self) -> Vec<Arc<LocalSessionManager>> {
        self.endpoints
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .values()
            .map(|endpoint| Arc::clone(&endpoint.sessions))
            .collect()
    }

    /// The MCP sessions held or being opened, by caller kind.
    pub(super) fn sessions_by_kind(&self) -> [(&'static str, usize); 2] {
        self.owners
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .by_kind()
    }

    // Revocation follows the token file's reload on SIGHUP, which Windows
    // does not have.
    #[cfg_attr(not(unix), allow(dead_code))]
    /// Closes every session `caller` opened (its token was revoked): their
    /// streams end and their ids are unknown from now on.
    pub(super) async fn end_sessions_of(&self, caller: &Caller) {
        let ids = self
            .owners
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .sessions_of(caller);
        for id in ids {
            self.end_session(&id).await;
        }
    }

    // Revocation follows the token file's reload on SIGHUP, which Windows
    // does not have.
    #[cfg_attr(not(unix), allow(dead_code))]
    /// Closes session `id` on this process: its streams end and its id is
    /// unknown here from now on.
    async fn end_session(&self, id: &str) {
        self.owners
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(id);
        let id: rmcp::transport::streamable_http_server::session::SessionId = id.to_owned().into();
        for manager in &self.managers() {
            // A manager that never had the session has nothing to close.
            let _ =
                rmcp::transport::streamable_http_server::SessionManager::close_session(&**manager, &id).await;
        }
    }

    /// These endpoints, keeping their sessions in `shared`.
    pub(super) fn shared(mut self, shared: super::shared::SharedSessions) -> Self {
        self.shared = Some(shared);
        self
    }

    /// Lets the tool calls running now finish (for at most `limit`), then
    /// ends every session and stream.
    pub(super) async fn drain(&self, limit: std::time::Duration) {
        let _ = tokio::time::timeout(limit, self.calls.idle()).await;
        self.cancel.cancel();
    }

    /// The endpoint of the profile `name` (the main one when `None`), and
    /// its session manager; `None` when no profile has that name.
    fn endpoint(&self, name: Option<&str>) -> Option<(Http, Arc<LocalSessionManager>)> {
        // The operator's service carries the profile's name and words
        // (instructions); each request brings its caller's own service.
        let service = self.tenancy.service(&Caller::Operator, name)?;
        let profile = service.profile().name();
        let mut endpoints = self.endpoints.lock().unwrap_or_else(PoisonError::into_inner);
        let endpoint = endpoints.entry(profile).or_insert_with(|| {
            let sessions = Arc::new(LocalSessionManager::default());
            let server = TodoMcpServer::new(service, DEFAULT_CONVERSATION)
                .callers_only()
                .with_structured_content(self.structured_content);
            let mut config = StreamableHttpServerConfig::default()
                .disable_allowed_hosts()
                .with_max_request_body_bytes(MAX_MESSAGE_BYTES)
                // A request of 2026-07-28 whose answer is one message gets
                // it as plain JSON, not as a one-event stream.
                .with_json_response(true)
                .with_cancellation_token(self.cancel.child_token());
            config.session_store = self
                .shared
                .as_ref()
                .map(super::shared::SharedSessions::session_store);
            let http = StreamableHttpService::new(
                move || Ok(server.clone().for_new_session()),
                Arc::clone(&sessions),
                config,
            );
            Endpoint { http, sessions }
        });
        Some((endpoint.http.clone(), Arc::clone(&endpoint.sessions)))
    }

    /// A place for a session `caller` opens, from the quotas; when the
    /// process looks full, the owners of sessions rmcp no longer has (ended
    /// or expired) are forgotten first.
    async fn place_for_a_session(&self, caller: &Caller) -> Result<Opening, Full> {
        let mark = {
            let owners = self.owners.lock().unwrap_or_else(PoisonError::into_inner);
            if owners.total() < self.quotas.per_process && owners.of(caller) < self.quotas.per_caller {
                drop(owners);
                return Opening::take(&self.owners, caller, self.quotas);
            }
            owners.mark()
        };
        let managers = self.managers();
        let mut live = std::collections::HashSet::new();
        for manager in managers {
            live.extend(manager.sessions.read().await.keys().map(|id| id.to_string()));
        }
        self.owners
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .prune(&live, mark);
        Opening::take(&self.owners, caller, self.quotas)
    }
}

/// `/mcp`: the main profile's tools.
pub async fn main_endpoint(
    State(endpoints): State<Arc<Endpoints>>,
    Extension(scope): Extension<Scope>,
    request: Request,
) -> Response {
    answer(&endpoints, scope, None, request).await
}

/// `/mcp/{profile}`: any profile's tools, by name.
pub async fn profile_endpoint(
    State(endpoints): State<Arc<Endpoints>>,
    Extension(scope): Extension<Scope>,
    Path(profile): Path<String>,
    request: Request,
) -> Response {
    answer(&endpoints, scope, Some(&profile), request).await
}

async fn answer(endpoints: &Endpoints, scope: Scope, profile: Option<&str>, request: Request) -> Response {
    if endpoints.open
        && let Some(origin) = request.headers().get(header::ORIGIN)
        && !is_loopback_origin(origin.to_str().unwrap_or_default())
    {
        return refuse(
            StatusCode::FORBIDDEN,
            "this server has no token, so only pages on this machine (a loopback Origin) may call it",
        );
    }
    let Some(service) = endpoints.tenancy.service(&scope.caller, profile) else {
        let names = todokit::profiles::names().join(", ");
        return refuse(
            StatusCode::NOT_FOUND,
            &format!(
                "no profile is called {:?}; the profiles: {names}",
                profile.unwrap_or_default()
            ),
        );
    };
    let conversation = match conversation_of(request.headers(), request.uri()) {
        Ok(conversation) => conversation,
        Err(message) => return refuse(StatusCode::BAD_REQUEST, &message),
    };
    let Some((mut http, manager)) = endpoints.endpoint(profile) else {
        return StatusCode::INTERNAL_SERVER_ERROR.into_response();
    };
    let session = request
        .headers()
        .get(SESSION_HEADER)
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    if let Some(id) = &session
        && let Err(refused) = check_owner(endpoints, id, &scope.caller).await
    {
        return refused;
    }
    // A plain tool call is answered first: the direct path judges its body
    // itself (as the gate would pass it), so the gate's full reading, a
    // tree of the whole message, is spent only on what rmcp will read.
    let calls = Arc::clone(&endpoints.calls);
    let remote = RemoteScope::new(service, conversation, calls)
        .with_structured_content(endpoints.structured_content)
        .with_metrics(Arc::clone(&endpoints.metrics));
    let in_session = session.as_deref().map(|id| InSession {
        id,
        manager: &manager,
        owners: &endpoints.owners,
    });
    let request = match answer_directly(request, in_session, &remote).await {
        Ok(answered) => return answered,
        Err(request) => request,
    };
    // What the message is comes from its body, whatever the headers say.
    let (mut request, seen) = match inspect(request).await {
        Ok(inspected) => inspected,
        Err(refusal) => return refusal,
    };
    // A stream that lasts (a session's GET stream, a listen) holds a place
    // among the caller's streams while it is open.
    let streaming = match &seen {
        Seen::Listen(id, _) => Some(Some(id.clone())),
        _ if request.method() == Method::GET && session.is_some() => Some(None),
        _ => None,
    };
    let place = match streaming {
        Some(id) => match endpoints.holders.stream(&scope.caller) {
            Ok(place) => Some(place),
            Err(reason) => return reason.answer(id),
        },
        None => None,
    };
    // Read before rmcp acknowledges the listen: what changes after this is
    // announced.
    if let Seen::Listen(_, message) = &seen
        && let Some(start) = ListenStart::read(remote.service(), message).await
    {
        request.extensions_mut().insert(start);
    }
    let opening = match (&session, seen) {
        (None, Seen::Initialize(id)) => match endpoints.place_for_a_session(&scope.caller).await {
            Ok(opening) => Some(opening),
            Err(reason) => return reason.answer(Some(id)),
        },
        _ => None,
    };
    let deleting = request.method() == Method::DELETE;
    request.extensions_mut().insert(remote);
    let Ok(mut response) = super::shared::opened_by(&scope.caller, http.call(request)).await;
    if deleting && response.status() == StatusCode::ACCEPTED {
        // rmcp answers a session's end with 202; the Python SDK takes only
        // 200 or 204 as done (and logs a failure otherwise).
        *response.status_mut() = StatusCode::NO_CONTENT;
    }
    let opened = response
        .headers()
        .get(SESSION_HEADER)
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    match (session, opening) {
        (None, Some(opening)) => opening.opened(opened),
        // A session rmcp opened for a message the edge did not take for an
        // `initialize` still gets its owner, and so counts.
        (None, None) if opened.is_some() => {
            if let Some(opened) = opened {
                endpoints
                    .owners
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .insert(opened, scope.caller);
            }
        }
        (Some(id), _) if deleting && response.status().is_success() => {
            endpoints
                .owners
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .remove(&id);
        }
        _ => {}
    }
    let response = response.map(axum::body::Body::new);
    match place {
        Some(place) => place.hold(response),
        None => response,
    }
}

/// Refuses a session opened by another caller, as rmcp refuses a session it
/// does not know (404). With a database the processes share, every use is
/// looked up there: a session this process has not seen is taken up for
/// its opener, and one ended on another process (its row gone) ends here.
async fn check_owner(endpoints: &Endpoints, id: &str, caller: &Caller) -> Result<(), Response> {
    let not_found = || (StatusCode::NOT_FOUND, "Not Found: Session not found").into_response();
    let known = endpoints
        .owners
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .get(id)
        .cloned();
    if known.as_ref().is_some_and(|owner| owner != caller) {
        return Err(not_found());
    }
    // No shared sessions to look in: a session this process does not know
    // is unknown, whatever rmcp might make of it.
    let Some(shared) = &endpoints.shared else {
        return known.map(|_| ()).ok_or_else(not_found);
    };
    match shared.owner(id).await {
        Ok(Some(owner)) if owner == super::shared::owner_key(caller) => {
            if known.is_some() {
                return Ok(());
            }
            // Restored here: it counts against the quotas like one opened here.
            match endpoints.place_for_a_session(caller).await {
                Ok(opening) => {
                    opening.opened(Some(id.to_owned()));
                    Ok(())
                }
                Err(reason) => Err(reason.answer(None)),
            }
        }
        // Ended (here, elsewhere, or swept as idle): whatever of it this
        // process still holds ends too.
        Ok(None) => {
            if known.is_some() {
                endpoints.end_session(id).await;
            }
            Err(not_found())
        }
        // Another caller's.
        Ok(Some(_)) => Err(not_found()),
        // The database's particulars stay in the server's log.
        Err(error) => Err(super::message::refused(
            StatusCode::SERVICE_UNAVAILABLE,
            None,
            crate::rmcp_gate::INTERNAL_ERROR,
            format!(
                "the session cannot be looked up now; the server's log has it as {}",
                super::tenancy::log_veiled(&error)
            ),
        )),
    }
}

/// The conversation a request names in its header or query (a `_meta` key
/// in the message overrides both), else the default; the error says what
/// is wrong with the one it names, in the words `_meta`'s check uses.
fn conversation_of(headers: &HeaderMap, uri: &axum::http::Uri) -> Result<String, String> {
    if let Some(value) = headers.get(CONVERSATION_HEADER) {
        let decoded = value
            .to_str()
            .ok()
            .and_then(|text| percent_decode_str(text).decode_utf8().ok());
        return remote_conversation(
            &format!("the {CONVERSATION_HEADER} header (percent-encoded)"),
            decoded.as_deref(),
        );
    }
    // Read by hand: a parser that puts U+FFFD where the bytes are not
    // UTF-8 would store the request under another name.
    let named = uri.query().unwrap_or_default().split('&').find_map(|pair| {
        let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
        (key == CONVERSATION_QUERY).then(|| {
            let spaced = value.replace('+', " ");
            percent_decode_str(&spaced)
                .decode_utf8()
                .ok()
                .map(|text| text.into_owned())
        })
    });
    match named {
        Some(named) => remote_conversation(
            &format!("the {CONVERSATION_QUERY} query parameter (percent-encoded)"),
            named.as_deref(),
        ),
        None => Ok(DEFAULT_CONVERSATION.to_owned()),
    }
}

/// Whether `origin` is a page on this machine.
fn is_loopback_origin(origin: &str) -> bool {
    let Some(rest) = origin
        .strip_prefix("http://")
        .or_else(|| origin.strip_prefix("https://"))
    else {
        return false;
    };
    let host = match rest.strip_prefix('[') {
        Some(bracketed) => bracketed.split(']').next().unwrap_or_default(),
        None => rest.split(':').next().unwrap_or_default(),
    };
    host.eq_ignore_ascii_case("localhost")
        || host.parse::<std::net::IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

fn refuse(status: StatusCode, message: &str) -> Response {
    (status, format!("{message}\n")).into_response()
}

#[cfg(test)]
mod tests {
    use pretty_assertions::assert_eq;

    use super::*;

    #[test]
    fn loopback_origins_are_this_machines_pages() {
        let fixture = [
            "http://localhost:5173",
            "http://127.0.0.1",
            "https://[::1]:8443",
            "http://LOCALHOST",
            "https://example.com",
            "http://127.0.0.1.example.com",
            "null",
            "http://[::2]:1",
        ];
        let actual: Vec<bool> = fixture.iter().map(|o| is_loopback_origin(o)).collect();
        let expected = vec![true, true, true, true, false, false, false, false];
        assert_eq!(actual, expected);
    }

    #[test]
    fn a_request_names_its_conversation_by_header_then_query() {
        let uri = |text: &str| text.parse::<axum::http::Uri>().unwrap();
        let mut header = HeaderMap::new();
        header.insert(CONVERSATION_HEADER, "caf%C3%A9%2F1".parse().unwrap());
        let mut bad = HeaderMap::new();
        bad.insert(CONVERSATION_HEADER, "%FF".parse().unwrap());
        let long = format!(
            "/mcp?conversation={}",
            "a".repeat(todokit::domain::MAX_CONVERSATION_ID_BYTES + 1)
        );
        let actual = vec![
            conversation_of(&header, &uri("/mcp?conversation=q")),
            conversation_of(&HeaderMap::new(), &uri("/mcp?conversation=q%20r+s")),
            conversation_of(&HeaderMap::new(), &uri("/mcp?other=1")),
            conversation_of(&bad, &uri("/mcp")),
            conversation_of(&HeaderMap::new(), &uri(&long)),
            conversation_of(&HeaderMap::new(), &uri("/mcp?conversation=%FF")),
            conversation_of(&HeaderMap::new(), &uri("/mcp?conversation=")),
        ];
        let bytes = "bytes of UTF-8 text without U+0001";
        let expected = vec![
            Ok("café/1".to_owned()),
            Ok("q r s".to_owned()),
            Ok("default".to_owned()),
            Err(format!(
                "the todokit-conversation header (percent-encoded) must name a conversation in 1 to 4096 {bytes}; \
                 this one is not UTF-8 text"
            )),
            Err(format!(
                "the conversation query parameter (percent-encoded) must name a conversation in 1 to 4096 {bytes}; \
                 this one is 4097 bytes"
            )),
            Err(format!(
                "the conversation query parameter (percent-encoded) must name a conversation in 1 to 4096 {bytes}; \
                 this one is not UTF-8 text"
            )),
            Err(format!(
                "the conversation query parameter (percent-encoded) must name a conversation in 1 to 4096 {bytes}; \
                 this one is empty"
            )),
        ];
        assert_eq!(actual, expected);
    }
}
