//! Who may see and change the board and use the MCP endpoint.
//!
//! Without a token (loopback only) the server is open and the board
//! read-only. With one, every request carries a token: `Authorization:
//! Bearer TOKEN` (scripts, MCP clients), or a cookie a browser gets from
//! the one-time sign-in link printed at start or from the sign-in form at
//! `/login`, where a person pastes their own token (each teammate signs in
//! as themselves; the printed link works once). The operator's token
//! (`--token`) sees the whole store; a tenant's (`--token-file`) only its
//! namespace. Edits also need the `X-Todokit-Csrf` header (which a cross-site
//! form cannot send) and, when the browser names one, a same-origin
//! `Origin`.

use std::io::Read;
use std::sync::{Arc, Mutex};

use axum::extract::{Query, Request, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use todokit::{Clock, SystemClock};

use super::sessions::{self, OPERATOR_KID, Session, SignedOut, same};
use super::tenancy::{Scope, Tenancy};
use super::tokens::{Caller, TokenFile};
/// The header that marks a request as the board's own script's.
pub const CSRF_HEADER: &str = "x-todokit-csrf";

/// The board's secrets.
pub struct Auth {
    /// The operator's token.
    token: Option<String>,
    /// The tenants' tokens.
    tenants: Option<TokenFile>,
    /// How long a sign-in lasts.
    session_ttl: std::time::Duration,
    /// The sessions signed out here.
    signed_out: SignedOut,
    /// The sign-in link's code until it is used.
    login_code: Mutex<Option<String>>,
}

impl Auth {
    /// Secrets for a board with the operator's `token` and the `tenants`'
    /// (neither: open and read-only), whose sign-ins last `session_ttl`.
    pub fn new(token: Option<String>, tenants: Option<TokenFile>, session_ttl: std::time::Duration) -> Self {
        let login_code = token.as_ref().map(|_| random_hex());
        Self {
            token,
            tenants,
            session_ttl,
            signed_out: SignedOut::default(),
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
        sessions::cookies(headers).find_map(|given| self.caller_of_cookie(given))
    }

    /// Who the session cookie `given` signs in: the operator (signed with
    /// its token), or a tenant (signed with its token's digest, issued
    /// since the token last came into the file); `None` for a cookie that
    /// is forged, expired or signed out.
    fn caller_of_cookie(&self, given: &str) -> Option<Caller> {
        let session = Session::parse(given)?;
        if session.expires <= SystemClock.now() || self.signed_out.ended(&session) {
            return None;
        }
        if session.kid == OPERATOR_KID {
            let token = self.token.as_deref()?;
            return session.signed_with(token.as_bytes()).then_some(Caller::Operator);
        }
        let (caller, key, since) = self.tenants.as_ref()?.session_key(session.kid)?;
        (session.issued >= since && session.signed_with(&key)).then_some(caller)
    }

    /// A new session cookie for a pasted `token`: the operator's, or a
    /// tenant's; `None` for a token this server does not have.
    fn cookie_for(&self, token: &str) -> Option<String> {
        if let Some(own) = self.token.as_deref()
            && same(token.as_bytes(), own.as_bytes())
        {
            return self.operator_cookie();
        }
        let (kid, key) = self.tenants.as_ref()?.session_key_of(token)?;
        sessions::issue(&key, &kid, SystemClock.now(), self.session_ttl, &random_hex())
    }

    /// A new session cookie for the operator.
    fn operator_cookie(&self) -> Option<String> {
        let token = self.token.as_deref()?;
        sessions::issue(
            token.as_bytes(),
            OPERATOR_KID,
            SystemClock.now(),
            self.session_ttl,
            &random_hex(),
        )
    }
}

/// What the token check needs: the secrets, and the tenancy that gives a
/// caller its service.
#[derive(Clone)]
pub struct Gate {
    /// The server's tokens.
    pub auth: Arc<Auth>,
    /// Each caller's service.
    pub tenancy: Arc<Tenancy>,
}

/// Refuses requests without a token the server knows (when it has any),
/// and gives the others their [`Scope`].
pub async fn require_token(State(gate): State<Gate>, mut request: Request, next: Next) -> Response {
    let Some(caller) = gate.auth.caller(request.headers()) else {
        // Only the operator's token has a sign-in link; every token signs
        // in at /login.
        let how = match gate.auth.has_operator_token() {
            true => {
                "send Authorization: Bearer TOKEN, or sign in with your token at /login (or open the sign-in \
                 link todokit serve printed)"
            }
            false => {
                "send Authorization: Bearer TOKEN with a token of the server's token file, or sign in with it \
                 at /login"
            }
        };
        return (
            StatusCode::UNAUTHORIZED,
            [(header::WWW_AUTHENTICATE, "Bearer")],
            format!("this server needs a token: {how}\n"),
        )
            .into_response();
    };
    if let Some(slot) = request.extensions().get::<super::observe::CallerSlot>() {
        slot.set(caller.kind());
    }
    // The main profile exists, so there is always a service.
    let Some(service) = gate.tenancy.service(&caller, None) else {
        return StatusCode::INTERNAL_SERVER_ERROR.into_response();
    };
    let can_edit = gate.auth.edits_allowed(&caller);
    request.extensions_mut().insert(Scope {
        caller,
        service,
        can_edit,
    });
    next.run(request).await
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
    (!marked || !same_origin(headers)).then(|| {
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

/// The sign-in form's fields.
#[derive(Deserialize)]
pub struct Pasted {
    token: String,
}

/// The sign-in form, in its own words (see `snapshots/`).
const LOGIN_PAGE: &str = include_str!("assets/login.html");

/// The sign-in form's page may post its form to this server (the board's
/// pages may post none).
pub const LOGIN_CONTENT_SECURITY_POLICY: &str =
    "default-src 'none'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

/// The sign-in page, with `notice` above the form (a refusal), answered
/// with `status`.
fn login_page(status: StatusCode, notice: &str) -> Response {
    let notice = match notice {
        "" => String::new(),
        text => format!("<p role=\"alert\">{text}</p>"),
    };
    (
        status,
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::CONTENT_SECURITY_POLICY, LOGIN_CONTENT_SECURITY_POLICY),
        ],
        LOGIN_PAGE.replace("<!-- notice -->", &notice),
    )
        .into_response()
}

/// The answer that signs a browser in with `cookie`: to the board.
fn signed_in(auth: &Auth, cookie: &str, headers: &HeaderMap) -> Response {
    let cookie = sessions::set_cookie(cookie, auth.session_ttl, sessions::over_tls(headers));
    (
        StatusCode::SEE_OTHER,
        [(header::SET_COOKIE, cookie), (header::LOCATION, "/".to_owned())],
    )
        .into_response()
}

/// `POST /logout`: ends the session the browser carries (its cookie is
/// refused from then on, here, until it would have expired) and clears
/// the cookie; to the sign-in form. A post from another site's page is
/// refused.
pub async fn sign_out(State(auth): State<Arc<Auth>>, headers: HeaderMap) -> Response {
    if !same_origin(&headers) {
        return (StatusCode::FORBIDDEN, "sign out from this server's own pages\n").into_response();
    }
    let now = SystemClock.now();
    for given in sessions::cookies(&headers) {
        if let Some(session) = Session::parse(given)
            && auth.caller_of_cookie(given).is_some()
        {
            auth.signed_out.end(&session, now);
        }
    }
    let tls = sessions::over_tls(&headers);
    (
        StatusCode::SEE_OTHER,
        [
            (
                header::SET_COOKIE,
                sessions::set_cookie("", std::time::Duration::ZERO, tls),
            ),
            (header::LOCATION, "/login".to_owned()),
        ],
    )
        .into_response()
}

/// `GET /login?code=…`: the one-time link sets the operator's session
/// cookie. `GET /login` alone: the sign-in form.
pub async fn login(
    State(auth): State<Arc<Auth>>,
    headers: HeaderMap,
    Query(login): Query<Login>,
) -> Response {
    if auth.is_open() {
        return (
            StatusCode::NOT_FOUND,
            "this server has no token, so there is nothing to sign in to\n",
        )
            .into_response();
    }
    let Some(given) = login.code else {
        return login_page(StatusCode::OK, "");
    };
    let mut code = auth.login_code.lock().unwrap_or_else(|p| p.into_inner());
    let matches = code
        .as_deref()
        .is_some_and(|expected| same(given.as_bytes(), expected.as_bytes()));
    if !matches {
        return (
            StatusCode::UNAUTHORIZED,
            "this sign-in link is wrong or was used already; sign in with your token at /login, or restart \
             todokit serve for a new link\n",
        )
            .into_response();
    }
    *code = None;
    drop(code);
    match auth.operator_cookie() {
        Some(cookie) => signed_in(&auth, &cookie, &headers),
        None => StatusCode::INTERNAL_SERVER_ERROR.into_response(),
    }
}

/// `POST /login` (the form): a pasted token of this server signs the
/// browser in as that token's caller. A post from another site's page is
/// refused (it would sign the browser in as someone else).
pub async fn sign_in(
    State(auth): State<Arc<Auth>>,
    headers: HeaderMap,
    form: Result<axum::Form<Pasted>, axum::extract::rejection::FormRejection>,
) -> Response {
    if auth.is_open() {
        return (
            StatusCode::NOT_FOUND,
            "this server has no token, so there is nothing to sign in to\n",
        )
            .into_response();
    }
    if !same_origin(&headers) {
        return (
            StatusCode::FORBIDDEN,
            "sign in from this server's own /login page\n",
        )
            .into_response();
    }
    let Ok(axum::Form(pasted)) = form else {
        return login_page(
            StatusCode::BAD_REQUEST,
            "The form came without a token; paste one.",
        );
    };
    match auth.cookie_for(pasted.token.trim()) {
        Some(cookie) => signed_in(&auth, &cookie, &headers),
        None => login_page(
            StatusCode::UNAUTHORIZED,
            "That token is not one of this server's (a token removed from the token file no longer \
             signs in).",
        ),
    }
}

/// Whether a request's `Origin`, when the browser names one, is the page's
/// own host (`http://` or, behind a TLS proxy, `https://`).
fn same_origin(headers: &HeaderMap) -> bool {
    let host = headers.get(header::HOST).and_then(|v| v.to_str().ok());
    match (headers.get(header::ORIGIN).and_then(|v| v.to_str().ok()), host) {
        (None, _) => true,
        (Some(origin), Some(host)) => {
            origin
                .strip_prefix("http://")
                .or_else(|| origin.strip_prefix("https://"))
                == Some(host)
        }
        (Some(_), None) => false,
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The body of `response`, as text.
    fn text(response: Response) -> String {
        let body =
            futures_util::FutureExt::now_or_never(axum::body::to_bytes(response.into_body(), usize::MAX))
                .and_then(Result::ok)
                .unwrap_or_default();
        String::from_utf8_lossy(&body).into_owned()
    }

    #[test]
    fn the_sign_in_page_and_its_refusal_are_pinned() {
        let actual = [
            text(login_page(StatusCode::OK, "")),
            text(login_page(
                StatusCode::UNAUTHORIZED,
                "That token is not one of this server's.",
            )),
        ]
        .join("\n----\n");
        let mut settings = insta::Settings::clone_current();
        settings.set_snapshot_path(concat!(env!("CARGO_MANIFEST_DIR"), "/../../snapshots"));
        settings.set_omit_expression(true);
        settings.bind(|| insta::assert_snapshot!("serve_sign_in_page", actual));
    }
}
