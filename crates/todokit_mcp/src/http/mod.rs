//! The HTTP server ([`run`]; what `todokit serve` runs): a live web board
//! of every conversation in the store, and the MCP server over Streamable
//! HTTP (`/mcp`, `/mcp/<profile>`; see `remote`), on one listener.
//!
//! Plain HTML, CSS and JavaScript compiled into the crate (no build step,
//! no CDN), a JSON API and Server-Sent Events fed by the library's
//! `subscribe`. Model text is data: the page only ever puts it into the
//! document as text, and a strict Content-Security-Policy forbids inline
//! script. Binding beyond loopback needs a token; with one, every request
//! must carry it, and hand edits (which need it) are also guarded against
//! cross-site requests. Whatever the token, a request addressed to a name
//! the board does not serve is refused (see `host`).

mod api;
mod auth;
mod board;
mod body;
mod conversation_path;
mod direct;
mod error;
mod events;
mod holders;
mod host;
mod listen;
mod message;
mod observe;
mod overview;
mod owners;
mod remote;
mod retention;
mod scrape;
mod session_rows;
#[cfg(feature = "postgres")]
mod session_table;
mod sessions;
mod shared;
mod shares;
mod tenancy;
mod tokens;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

use axum::Router;
use axum::extract::{DefaultBodyLimit, State};
use axum::http::{HeaderValue, header};
use axum::middleware;
use axum::response::IntoResponse;
use axum::routing::{any, get, post};
use todokit::TodoWriteService;
use tokio_util::sync::CancellationToken;

use auth::Auth;
use board::Board;
pub use body::MAX_BODY_BYTES;
pub use error::ServeError;
pub use holders::MAX_EVENT_STREAMS;
pub use holders::MAX_STREAMS_PER_TOKEN;
use host::Hosts;
pub use listen::MAX_CONNECTIONS;
use tenancy::Tenancy;
// Every limit is public: `docs/limits.md`'s table is generated from them.
pub use body::{BODY_DEADLINE, LINGER_BYTES};
pub use message::MAX_INITIALIZE_PARAMS_BYTES;
pub use remote::{MAX_SESSIONS, MAX_SESSIONS_PER_TOKEN};
pub use retention::{RETAIN_SWEEP_DIVISOR, RETAIN_SWEEP_MAX, RETAIN_SWEEP_MIN, sweep_interval};
pub use session_rows::{SESSION_TOUCH_INTERVAL, SessionRows};
pub use sessions::{DEFAULT_SESSION_TTL, MAX_SIGNED_OUT_SESSIONS};
pub use shared::SharedSessions;
pub use shares::BODY_SHARE_DIVISOR;
use tokens::TokenFile;

/// The address the board listens on unless `--bind` says otherwise.
pub const DEFAULT_BIND: &str = "127.0.0.1:7420";

/// The policy every response carries: scripts and styles from the board's
/// own files only, nothing inline, no frames, no other origin.
const CONTENT_SECURITY_POLICY: &str = "default-src 'none'; script-src 'self'; style-src 'self'; \
     connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

const PAGE: &str = include_str!("assets/board.html");
const SCRIPT: &str = include_str!("assets/board.js");
const STYLE: &str = include_str!("assets/board.css");

/// How `serve` is started.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Where to listen.
    pub bind: String,
    /// The operator's token: every namespace, and edits.
    pub token: Option<String>,
    /// The tenants' token file (`TOKEN NAMESPACE` lines).
    pub token_file: Option<PathBuf>,
    /// Names a proxy in front addresses the server by.
    pub public_hosts: Vec<String>,
    /// The MCP sessions every process on the store shares
    /// ([`SharedSessions::at`]).
    pub shared: Option<SharedSessions>,
    /// How many MCP sessions the process holds, every caller's together
    /// (`--max-sessions`; [`MAX_SESSIONS`] when `None`).
    pub max_sessions: Option<usize>,
    /// How many MCP sessions one token holds (`--max-sessions-per-token`;
    /// [`MAX_SESSIONS_PER_TOKEN`] when `None`).
    pub max_sessions_per_token: Option<usize>,
    /// How many live streams one token holds (`--max-streams-per-token`;
    /// [`MAX_STREAMS_PER_TOKEN`] when `None`).
    pub max_streams_per_token: Option<usize>,
    /// How many connections the process holds (`--max-connections`;
    /// [`MAX_CONNECTIONS`] when `None`).
    pub max_connections: Option<usize>,
    /// Conversations unchanged for this long are forgotten (`--retain`;
    /// kept for ever when `None`); see [`sweep_interval`].
    pub retain: Option<std::time::Duration>,
    /// How long a board sign-in lasts (`--session-ttl`;
    /// [`DEFAULT_SESSION_TTL`] when `None`).
    pub session_ttl: Option<std::time::Duration>,
    /// Whether MCP tool results carry the call's details as
    /// `structuredContent` (`--structured-content`; off by default).
    pub structured_content: bool,
}

/// Serves the board and the MCP endpoint for `service`'s store until
/// Ctrl-C or SIGTERM.
pub async fn run(service: TodoWriteService, options: Options) -> Result<(), ServeError> {
    let bind = options.bind.as_str();
    let address: SocketAddr = bind.parse().map_err(|_| {
        ServeError::Refused(format!(
            "--bind {bind:?} is not an address and port like {DEFAULT_BIND}"
        ))
    })?;
    let token = options.token.filter(|t| !t.is_empty());
    let tenants = match &options.token_file {
        Some(path) => Some(TokenFile::open(path).map_err(ServeError::Refused)?),
        None => None,
    };
    if !address.ip().is_loopback() && token.is_none() && tenants.is_none() {
        return Err(ServeError::Refused(format!(
            "binding {address} would show every list to anyone who can reach this machine; give --token TOKEN \
             or --token-file FILE (or bind a loopback address such as {DEFAULT_BIND})"
        )));
    }
    // Behind a proxy every caller arrives from loopback: with no token, each
    // would be served as the operator.
    if !options.public_hosts.is_empty() && token.is_none() && tenants.is_none() {
        return Err(ServeError::Refused(
            "--public-host serves callers who reach this server through a proxy, and with no token each of \
             them would see and change every list; give --token TOKEN or --token-file FILE"
                .to_owned(),
        ));
    }
    // Taken over before the first line is printed: a supervisor may signal
    // as soon as it reads one.
    let signals = listen::StopSignals::install()?;
    // Nothing to hold where there is no SIGHUP (Windows).
    #[cfg_attr(not(unix), allow(clippy::let_unit_value))]
    let hangups = hangups()?;
    let auth = Arc::new(Auth::new(
        token,
        tenants,
        options.session_ttl.unwrap_or(sessions::DEFAULT_SESSION_TTL),
    ));
    let listener = tokio::net::TcpListener::bind(address)
        .await
        .map_err(|source| ServeError::Listen { address, source })?;
    let local = listener
        .local_addr()
        .map_err(|source| ServeError::Listen { address, source })?;
    say(&format!("todokit serve: the board is at http://{local}/"));
    if let Some(code) = auth.login_code() {
        say(&format!(
            "todokit serve: open http://{local}/login?code={code} once to sign this browser in"
        ));
    }
    say(&format!(
        "todokit serve: MCP over Streamable HTTP at http://{local}/mcp (and /mcp/PROFILE)"
    ));
    // Every commit of every caller goes through one store, counted.
    let metrics = Arc::new(crate::metrics::Metrics::new());
    let counters = metrics.store_counters();
    let service = service.with_store(Arc::new(crate::metrics::MeteredStore::new(
        Arc::clone(service.store()),
        counters,
    )));
    let sweeping = options
        .retain
        .map(|retain| tokio::spawn(retention::sweep(service.clone(), retain)));
    let tenancy = Arc::new(Tenancy::new(service));
    // Each overview (one per namespace) starts with the first stream or
    // page that needs it: a server that only answers MCP calls does not
    // list the store again after every commit.
    let stopping = CancellationToken::new();
    // Its own token: the sessions end only after the calls in flight.
    let quotas = owners::SessionQuotas {
        per_process: options.max_sessions.unwrap_or(MAX_SESSIONS),
        per_caller: options.max_sessions_per_token.unwrap_or(MAX_SESSIONS_PER_TOKEN),
    };
    let holders = Arc::new(holders::Holders::new(
        options.max_streams_per_token.unwrap_or(MAX_STREAMS_PER_TOKEN),
        MAX_EVENT_STREAMS,
    ));
    let mut endpoints = remote::Endpoints::new(
        Arc::clone(&tenancy),
        CancellationToken::new(),
        auth.is_open(),
        quotas,
        Arc::clone(&holders),
        Arc::clone(&metrics),
    )
    .structured_content(options.structured_content);
    if let Some(shared) = options.shared {
        endpoints = endpoints.shared(shared);
    }
    let mcp = Arc::new(endpoints);
    let board = Board {
        mcp: Arc::clone(&mcp),
        tenancy,
        auth: Arc::clone(&auth),
        holders: Arc::clone(&holders),
        stopping: stopping.clone(),
        metrics,
    };
    let revoke = Revoke {
        holders,
        mcp: Arc::clone(&mcp),
    };
    let reloads = tokio::spawn(reload_on_hangup(auth, hangups, revoke));
    let max_connections = options.max_connections.unwrap_or(MAX_CONNECTIONS);
    let shares = Arc::new(shares::BodyShares::new(max_connections));
    let app = router(board, Hosts::new(local.port(), &options.public_hosts), shares);
    let drain = async {
        // The board's live streams end now; running tool calls finish.
        stopping.cancel();
        mcp.drain(DRAIN_LIMIT).await;
    };
    let served = listen::serve(listener, app, signals, max_connections, drain).await;
    reloads.abort();
    if let Some(sweeping) = sweeping {
        sweeping.abort();
    }
    served
}

/// How long a stopping server waits for the tool calls in flight.
pub const DRAIN_LIMIT: std::time::Duration = std::time::Duration::from_secs(10);

/// Prints a line on standard output, flushed; a reader that went away
/// (a supervisor that kept only the first line) does not stop the server.
fn say(line: &str) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{line}").and_then(|()| out.flush());
}

/// SIGHUP, taken over from the system's default (which ends the process).
#[cfg(unix)]
type Hangups = tokio::signal::unix::Signal;
#[cfg(not(unix))]
type Hangups = ();

fn hangups() -> Result<Hangups, ServeError> {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        signal(SignalKind::hangup()).map_err(|source| ServeError::Signal {
            signal: "SIGHUP",
            source,
        })
    }
    #[cfg(not(unix))]
    Ok(())
}

/// What a revoked token loses: its streams and its MCP sessions.
// Read only on SIGHUP, which Windows does not have.
#[cfg_attr(not(unix), allow(dead_code))]
struct Revoke {
    holders: Arc<holders::Holders>,
    mcp: Arc<remote::Endpoints>,
}

/// Reads the token file again on each SIGHUP; a file that cannot be read
/// leaves the tokens as they were. A token removed (or moved to another
/// namespace) loses every stream at once and its sessions are closed.
async fn reload_on_hangup(auth: Arc<Auth>, hangups: Hangups, revoke: Revoke) {
    #[cfg(unix)]
    {
        let mut hangups = hangups;
        while hangups.recv().await.is_some() {
            let Some(tenants) = auth.tenants() else {
                continue;
            };
            match tenants.reload() {
                Ok((count, revoked)) => {
                    for caller in &revoked {
                        revoke.holders.revoke(caller);
                        revoke.mcp.end_sessions_of(caller).await;
                    }
                    tracing::info!(
                        target: "todokit::serve",
                        tokens = count,
                        revoked = revoked.len(),
                        "read the token file again"
                    );
                }
                Err(error) => tracing::warn!(
                    target: "todokit::serve",
                    error = %error,
                    "the token file could not be read again; the tokens stay as they were"
                ),
            }
        }
    }
    #[cfg(not(unix))]
    let _ = (auth, hangups, revoke);
}

fn router(board: Board, hosts: Hosts, shares: Arc<shares::BodyShares>) -> Router {
    // Outermost last: the token is checked from the request's head, then
    // the caller's share of bodies taken, then the body read.
    let guarded = Router::new()
        .route("/", get(page))
        .route("/c/{id}", get(page))
        .route("/assets/board.js", get(script))
        .route("/assets/board.css", get(style))
        .route("/api/conversations", get(api::conversations))
        .route(
            "/api/conversations/{id}",
            get(api::conversation).delete(api::forget),
        )
        .route("/api/conversations/{id}/events", get(events::conversation))
        .route("/api/conversations/{id}/edits", post(api::edit))
        .route("/api/events", get(events::overview))
        .route("/metrics", get(scrape::route))
        .route("/mcp", any(remote::main_endpoint))
        .route("/mcp/{profile}", any(remote::profile_endpoint))
        .layer(middleware::from_fn(body::read_whole))
        .layer(middleware::from_fn_with_state(shares, shares::admit_body))
        .layer(middleware::from_fn_with_state(board.clone(), auth::require_token));
    Router::new()
        .route("/login", get(auth::login).post(auth::sign_in))
        .route("/logout", post(auth::sign_out))
        .route("/healthz", get(healthz))
        .layer(middleware::from_fn(body::read_whole))
        .merge(guarded)
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        .layer(middleware::from_fn_with_state(
            Arc::new(hosts),
            host::require_own_host,
        ))
        .layer(middleware::from_fn(security_headers))
        .layer(middleware::from_fn_with_state(
            Arc::clone(&board.metrics),
            observe::observe,
        ))
        .with_state(board)
}

/// Headers every response carries.
async fn security_headers(
    request: axum::extract::Request,
    next: middleware::Next,
) -> axum::response::Response {
    let mut response = next.run(request).await;
    let headers = response.headers_mut();
    // A page may bring its own (the sign-in form posts; no other page does).
    headers
        .entry(header::CONTENT_SECURITY_POLICY)
        .or_insert(HeaderValue::from_static(CONTENT_SECURITY_POLICY));
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    headers
        .entry(header::CACHE_CONTROL)
        .or_insert(HeaderValue::from_static("no-store"));
    response
}

/// `GET /healthz`: 200 while the process serves (for a load balancer; it
/// needs no token and says nothing about the store).
async fn healthz() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], "ok\n")
}

/// The board's page; with a token of any kind, with its sign-out button.
async fn page(State(auth): State<Arc<Auth>>) -> impl IntoResponse {
    let sign_out = match auth.is_open() {
        true => "",
        false => SIGN_OUT_FORM,
    };
    (
        [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
        PAGE.replace("<!-- sign-out -->", sign_out),
    )
}

/// The board's sign-out button: a form that posts to `/logout`.
const SIGN_OUT_FORM: &str = "<form method=\"post\" action=\"/logout\" class=\"sign-out\"><button type=\"submit\">Sign out</button></form>";

async fn script() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "text/javascript; charset=utf-8")], SCRIPT)
}

async fn style() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "text/css; charset=utf-8")], STYLE)
}
