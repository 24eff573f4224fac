//! Who may see and change the board and use the MCP endpoint.
//!
//! Without a token (loopback only) the server is open and the board
//! read-only. With one, every request carries a token: `Authorization:
//! Bearer TOKEN` (scripts, MCP clients), or a cookie a browser gets from
//! the one-time sign-in link printed at start. The operator's token
//! (`--token`) sees the whole store; a tenant's (`--token-file`) only its
//! namespace. Edits also need the `X-Todokit-Csrf` header (which a cross-site
//! form cannot send) and, when the browser names one, a same-origin
//! `Origin`.

use std::io::Read;
use std::sync::{Arc, Mutex};

use axum::extract::{Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;

use super::tenancy::Scope;
use super::tenants::{Caller, TokenFile};

/// The cookie a signed-in browser carries.
const COOKIE: &str = "todokit_session";
/// The header that marks a request as the board's own script's.
pub const CSRF_HEADER: &str = "x-todokit-csrf";

/// The board's secrets.
pub struct Auth {
    /// The operator's token.
    token: Option<String>,
    /// The tenants' tokens.
    tenants: Option<TokenFile>,
    /// What the sign-in cookie holds: derived from the token (an HMAC),
    /// never the token itself, and the same in every process that has the
    /// token, so a browser signed in on one is signed in on all.
    session: String,
    /// The sign-in link's code until it is used.
    login_code: Mutex<Option<String>>,
}

impl Auth {
    /// Secrets for a board with the operator's `token` and the `tenants`'
    /// (neither: open and read-only).
    pub fn new(token: Option<String>, tenants: Option<TokenFile>) -> Self {
        let login_code = token.as_ref().map(|_| random_hex());
        let session = token.as_deref().and_then(session_of).unwrap_or_else(random_hex);
        Self {
            token,
            tenants,
            session,
            login_code: Mutex::new(login_code),
        }
    }

    /// Whether the operator has a token (and so a sign-in link).
    pub fn has_operator_token(&self) -> bool {
        self.token.is_some()
    }

    /// Whether a request needs no token at all (no token of any kind was
    /// given, so the server is on loopback).
    pub fn is_open(&self) -> bool {
        self.token.is_none() && self.tenants.is_none()
    }

    /// The tenants' token file, when there is one.
    pub fn tenants(&self) -> Option<&TokenFile> {
        self.tenants.as_ref()
    }

    /// Whether `caller` may edit from the board: anyone who holds a token.
    pub fn edits_allowed(&self, caller: &Caller) -> bool {
        match caller {
            Caller::Operator => self.token.is_some(),
            Caller::Tenant { .. } => true,
        }
    }

    /// The one-time sign-in code, while unused.
    pub fn login_code(&self) -> Option<String> {
        self.login_code.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }

    /// Who `headers` make a request: the operator (its token, the sign-in
    /// cookie, or anyone on an open server), a tenant (a token of the token
    /// file), or nobody (`None`).
    pub fn caller(&self, headers: &HeaderMap) -> Option<Caller> {
        if self.is_open() {
            return Some(Caller::Operator);
        }
        let bearer = headers
            .get(header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(bearer_credentials);
        if let Some(given) = bearer {
            if let Some(token) = self.token.as_deref()
                && same(given.as_bytes(), token.as_bytes())
            {
                return Some(Caller::Operator);
            }
            if let Some(tenant) = self.tenants.as_ref().and_then(|t| t.caller_of(given)) {
                return Some(tenant);
            }
        }
        let signed_in = self.token.is_some()
            && headers
                .get_all(header::COOKIE)
                .iter()
                .filter_map(|v| v.to_str().ok())
                .flat_map(|v| v.split(';'))
                .filter_map(|pair| pair.trim().strip_prefix(COOKIE)?.strip_prefix('='))
                .any(|given| same(given.as_bytes(), self.session.as_bytes()));
        signed_in.then_some(Caller::Operator)
    }
}

/// The credentials of an `Authorization` value in the Bearer scheme,
/// whose name is case-insensitive (RFC 9110, section 11.1).
fn bearer_credentials(value: &str) -> Option<&str> {
    let (scheme, credentials) = value.split_once(' ')?;
    scheme
        .eq_ignore_ascii_case("bearer")
        .then(|| credentials.trim_start_matches(' '))
}

/// Why an edit request is refused before it is read, if it is.
pub fn refuse_edit(scope: &Scope, headers: &HeaderMap) -> Option<Response> {
    if !scope.can_edit {
        return Some(
            (
                StatusCode::FORBIDDEN,
                "this board is read-only: start todokit serve with --token to edit from it\n",
            )
                .into_response(),
        );
    }
    let marked = headers.get(CSRF_HEADER).is_some_and(|v| v == "1");
    let host = headers.get(header::HOST).and_then(|v| v.to_str().ok());
    let same_origin = match (headers.get(header::ORIGIN).and_then(|v| v.to_str().ok()), host) {
        (None, _) => true,
        // Behind a TLS-terminating proxy the page's origin is https.
        (Some(origin), Some(host)) => {
            origin
                .strip_prefix("http://")
                .or_else(|| origin.strip_prefix("https://"))
                == Some(host)
        }
        (Some(_), None) => false,
    };
    (!marked || !same_origin).then(|| {
        (
            StatusCode::FORBIDDEN,
            "edits come from the board's own page only (X-Todokit-Csrf: 1, same origin)\n",
        )
            .into_response()
    })
}

/// The sign-in link's query.
#[derive(Deserialize)]
pub struct Login {
    code: Option<String>,
}

/// `GET /login?code=…`: the one-time link sets the session cookie.
pub async fn login(State(auth): State<Arc<Auth>>, Query(login): Query<Login>) -> Response {
    let mut code = auth.login_code.lock().unwrap_or_else(|p| p.into_inner());
    let matches = match (code.as_deref(), login.code.as_deref()) {
        (Some(expected), Some(given)) => same(given.as_bytes(), expected.as_bytes()),
        _ => false,
    };
    if !matches {
        return (
            StatusCode::UNAUTHORIZED,
            "this sign-in link is wrong or was used already; restart todokit serve for a new one\n",
        )
            .into_response();
    }
    *code = None;
    let cookie = format!("{COOKIE}={}; HttpOnly; SameSite=Strict; Path=/", auth.session);
    (
        StatusCode::SEE_OTHER,
        [(header::SET_COOKIE, cookie), (header::LOCATION, "/".to_owned())],
    )
        .into_response()
}

/// Compares secrets in time that does not depend on where they differ.
fn same(given: &[u8], expected: &[u8]) -> bool {
    given.len() == expected.len() && given.iter().zip(expected).fold(0u8, |acc, (a, b)| acc | (a ^ b)) == 0
}

/// The sign-in cookie's value for `token`: HMAC-SHA-256 keyed with the token
/// over a fixed label, as hex.
fn session_of(token: &str) -> Option<String> {
    use hmac::{KeyInit, Mac};
    let mut mac = hmac::Hmac::<sha2::Sha256>::new_from_slice(token.as_bytes()).ok()?;
    mac.update(b"todokit serve: the board's sign-in cookie");
    Some(
        mac.finalize()
            .into_bytes()
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect(),
    )
}

/// 128 random bits as hex, from the system's generator.
fn random_hex() -> String {
    let mut bytes = [0u8; 16];
    let filled = std::fs::File::open("/dev/urandom").and_then(|mut f| f.read_exact(&mut bytes));
    if filled.is_err() {
        // No /dev/urandom: std's per-process random hash keys instead.
        use std::hash::{BuildHasher, Hasher};
        for chunk in bytes.chunks_mut(8) {
            let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
            hasher.write_u64(std::process::id().into());
            chunk.copy_from_slice(&hasher.finish().to_le_bytes()[..chunk.len()]);
        }
    }
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
