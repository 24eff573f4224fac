//! `todokit serve`: a live web board of every conversation in the store.
//!
//! Plain HTML, CSS and JavaScript compiled into the binary (no build step,
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
mod events;
mod host;
mod listen;
mod overview;

use std::net::SocketAddr;
use std::sync::Arc;

use anyhow::{Context, Result, bail};
use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::http::{HeaderValue, header};
use axum::middleware;
use axum::response::IntoResponse;
use axum::routing::{get, post};
use todokit::TodoWriteService;

use auth::Auth;
use board::Board;
pub use board::MAX_EVENT_STREAMS;
use host::Hosts;

/// The address the board listens on unless `--bind` says otherwise.
pub const DEFAULT_BIND: &str = "127.0.0.1:7420";
/// The largest request body the board reads (an edit is a few hundred
/// bytes).
pub const MAX_BODY_BYTES: usize = 64 * 1024;

/// The policy every response carries: scripts and styles from the board's
/// own files only, nothing inline, no frames, no other origin.
const CONTENT_SECURITY_POLICY: &str = "default-src 'none'; script-src 'self'; style-src 'self'; \
     connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const PAGE: &str = include_str!("assets/board.html");
const SCRIPT: &str = include_str!("assets/board.js");
const STYLE: &str = include_str!("assets/board.css");

/// Why `serve` will not start: a usage error (exit 2).
#[derive(Debug)]
pub struct Refused(pub String);

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Refused {}

/// Serves the board for `service`'s store on `bind` until Ctrl-C, also to
/// requests addressed to the `public_hosts` names (a proxy's).
pub async fn run(
    service: TodoWriteService,
    bind: &str,
    token: Option<String>,
    public_hosts: &[String],
) -> Result<()> {
    let address: SocketAddr = bind.parse().map_err(|_| {
        Refused(format!(
            "--bind {bind:?} is not an address and port like {DEFAULT_BIND}"
        ))
    })?;
    let token = token.filter(|t| !t.is_empty());
    if !address.ip().is_loopback() && token.is_none() {
        bail!(Refused(format!(
            "binding {address} would show every list to anyone who can reach this machine; give --token TOKEN \
             (or bind a loopback address such as {DEFAULT_BIND})"
        )));
    }
    let auth = Arc::new(Auth::new(token));
    let listener = tokio::net::TcpListener::bind(address)
        .await
        .with_context(|| format!("cannot listen on {address}"))?;
    let local = listener.local_addr().context("the listening address")?;
    println!("todokit serve: the board is at http://{local}/");
    if let Some(code) = auth.login_code() {
        println!("todokit serve: open http://{local}/login?code={code} once to sign this browser in");
    }
    let board = Board {
        overview: overview::Overview::start(service.clone()).await,
        service,
        auth,
        streams: Arc::new(tokio::sync::Semaphore::new(MAX_EVENT_STREAMS)),
    };
    let app = router(board, Hosts::new(local.port(), public_hosts));
    listen::serve(listener, app).await
}

fn router(board: Board, hosts: Hosts) -> Router {
    let guarded = Router::new()
        .route("/", get(page))
        .route("/c/{id}", get(page))
        .route("/assets/board.js", get(script))
        .route("/assets/board.css", get(style))
        .route("/api/conversations", get(api::conversations))
        .route("/api/conversations/{id}", get(api::conversation))
        .route("/api/conversations/{id}/events", get(events::conversation))
        .route("/api/conversations/{id}/edits", post(api::edit))
        .route("/api/events", get(events::overview))
        .layer(middleware::from_fn_with_state(
            Arc::clone(&board.auth),
            auth::require_token,
        ));
    Router::new()
        .route("/login", get(auth::login))
        .merge(guarded)
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        .layer(middleware::from_fn_with_state(
            Arc::new(hosts),
            host::require_own_host,
        ))
        .layer(middleware::from_fn(security_headers))
        .with_state(board)
}

/// Headers every response carries.
async fn security_headers(
    request: axum::extract::Request,
    next: middleware::Next,
) -> axum::response::Response {
    let mut response = next.run(request).await;
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CONTENT_SECURITY_POLICY),
    );
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

async fn page() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], PAGE)
}

async fn script() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "text/javascript; charset=utf-8")], SCRIPT)
}

async fn style() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "text/css; charset=utf-8")], STYLE)
}
