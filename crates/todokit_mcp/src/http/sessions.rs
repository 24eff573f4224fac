//! The board's sign-in sessions, as a web service keeps them.
//!
//! A session is a cookie signed with its token's key (the operator's token;
//! a tenant's token's SHA-256), so every process started with the same
//! token or token file knows it: `KID.ISSUED.EXPIRES.NONCE.MAC`, the key's
//! id (`op`, or a tenant's), when it was issued and when it ends (ms since
//! the Unix epoch), 128 random bits, and an HMAC-SHA-256 over the rest.
//! It ends at its expiry ([`DEFAULT_SESSION_TTL`], `--session-ttl`), when
//! the browser signs out (`POST /logout`: the process that serves it
//! remembers the nonce until the expiry), and when its token leaves the
//! token file; a token added to the file again signs in afresh, as
//! sessions issued before it came back are refused. Over TLS (a proxy in
//! front saying `X-Forwarded-Proto: https` or `Forwarded: proto=https`)
//! the cookie is `Secure` and named with the `__Host-` prefix, so no
//! plain-HTTP page and no other host can set or read it.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

use axum::http::{HeaderMap, header};

use super::tokens::hmac_hex;

/// How long a sign-in lasts unless `--session-ttl` says otherwise.
pub const DEFAULT_SESSION_TTL: Duration = Duration::from_secs(86_400);

/// The most signed-out sessions a process remembers (each until its
/// expiry); past it the oldest expiry is forgotten first, and that
/// session's cookie, if a browser still holds it, lasts to its expiry.
pub const MAX_SIGNED_OUT_SESSIONS: usize = 65_536;

/// The cookie's name over plain HTTP.
pub const COOKIE: &str = "todokit_session";
/// The cookie's name over TLS.
pub const SECURE_COOKIE: &str = "__Host-todokit_session";
/// The key id of the operator's token.
pub const OPERATOR_KID: &str = "op";

/// One session cookie's fields, as read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Session<'a> {
    /// Whose key signed it.
    pub kid: &'a str,
    /// When it was issued (ms since the Unix epoch).
    pub issued: u64,
    /// When it ends.
    pub expires: u64,
    nonce: &'a str,
    mac: &'a str,
}

impl<'a> Session<'a> {
    /// The fields of a cookie value, when it has their shape.
    pub fn parse(value: &'a str) -> Option<Self> {
        let mut parts = value.split('.');
        let (kid, issued, expires, nonce, mac) = (
            parts.next()?,
            parts.next()?.parse().ok()?,
            parts.next()?.parse().ok()?,
            parts.next()?,
            parts.next()?,
        );
        (parts.next().is_none() && nonce.len() == 32 && mac.len() == 64).then_some(Self {
            kid,
            issued,
            expires,
            nonce,
            mac,
        })
    }

    /// Whether `key` signed it.
    pub fn signed_with(&self, key: &[u8]) -> bool {
        let expected = mac(key, self.kid, self.issued, self.expires, self.nonce);
        expected.is_some_and(|expected| same(self.mac.as_bytes(), expected.as_bytes()))
    }
}

/// A new session's cookie value for the key `key` known as `kid`, issued
/// `now` and lasting `ttl`.
pub fn issue(key: &[u8], kid: &str, now: u64, ttl: Duration, nonce: &str) -> Option<String> {
    let expires = now.saturating_add(u64::try_from(ttl.as_millis()).unwrap_or(u64::MAX));
    let mac = mac(key, kid, now, expires, nonce)?;
    Some(format!("{kid}.{now}.{expires}.{nonce}.{mac}"))
}

fn mac(key: &[u8], kid: &str, issued: u64, expires: u64, nonce: &str) -> Option<String> {
    let label = format!("todokit serve: a board session|{kid}|{issued}|{expires}|{nonce}");
    hmac_hex(key, label.as_bytes())
}

/// Compares secrets in time that does not depend on where they differ.
pub fn same(given: &[u8], expected: &[u8]) -> bool {
    given.len() == expected.len() && given.iter().zip(expected).fold(0u8, |acc, (a, b)| acc | (a ^ b)) == 0
}

/// The sessions signed out in this process, each until its expiry.
#[derive(Debug, Default)]
pub struct SignedOut(Mutex<HashMap<String, u64>>);

impl SignedOut {
    /// Ends `session` (remembered until its expiry).
    pub fn end(&self, session: &Session<'_>, now: u64) {
        let mut ended = self.0.lock().unwrap_or_else(|p| p.into_inner());
        ended.retain(|_, expires| *expires > now);
        if ended.len() >= MAX_SIGNED_OUT_SESSIONS
            && let Some(soonest) = ended.iter().min_by_key(|(_, at)| **at).map(|(n, _)| n.clone())
        {
            ended.remove(&soonest);
        }
        ended.insert(session.nonce.to_owned(), session.expires);
    }

    /// Whether `session` was signed out here.
    pub fn ended(&self, session: &Session<'_>) -> bool {
        self.0
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .contains_key(session.nonce)
    }
}

/// Whether the request came over TLS, as the proxy in front says.
pub fn over_tls(headers: &HeaderMap) -> bool {
    let forwarded_proto = headers
        .get("x-forwarded-proto")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| {
            v.split(',')
                .next()
                .is_some_and(|p| p.trim().eq_ignore_ascii_case("https"))
        });
    let forwarded = headers
        .get(header::FORWARDED)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| {
            v.split([';', ','])
                .any(|pair| pair.trim().eq_ignore_ascii_case("proto=https"))
        });
    forwarded_proto || forwarded
}

/// The `Set-Cookie` value that keeps `value` for `ttl` (0: removes it).
pub fn set_cookie(value: &str, ttl: Duration, tls: bool) -> String {
    let (name, secure) = match tls {
        true => (SECURE_COOKIE, "; Secure"),
        false => (COOKIE, ""),
    };
    format!(
        "{name}={value}; HttpOnly; SameSite=Strict; Path=/; Max-Age={}{secure}",
        ttl.as_secs()
    )
}

/// The session cookies a request carries (either name).
pub fn cookies(headers: &HeaderMap) -> impl Iterator<Item = &str> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| {
            let pair = pair.trim();
            pair.strip_prefix(SECURE_COOKIE)
                .or_else(|| pair.strip_prefix(COOKIE))?
                .strip_prefix('=')
        })
}

#[cfg(test)]
mod tests {
    use pretty_assertions::assert_eq;

    use super::*;

    const NONCE: &str = "0123456789abcdef0123456789abcdef";

    #[test]
    fn a_session_is_signed_ends_and_is_told_from_a_forgery() {
        let value = issue(b"key", "op", 1_000, Duration::from_secs(60), NONCE).unwrap_or_default();
        let session = Session::parse(&value);
        let forged = value.replace(".61000.", ".99999000.");
        let signed_out = SignedOut::default();
        if let Some(session) = &session {
            signed_out.end(session, 2_000);
        }
        let actual = (
            session.as_ref().map(|s| (s.kid, s.issued, s.expires)),
            session.as_ref().is_some_and(|s| s.signed_with(b"key")),
            session.as_ref().is_some_and(|s| s.signed_with(b"other")),
            Session::parse(&forged).is_some_and(|s| s.signed_with(b"key")),
            session.as_ref().is_some_and(|s| signed_out.ended(s)),
            Session::parse("op.1.2.x.y"),
        );
        let expected = (Some(("op", 1_000, 61_000)), true, false, false, true, None);
        assert_eq!(actual, expected);
    }

    #[test]
    fn the_cookie_is_secure_and_host_prefixed_over_tls_only() {
        let mut proxied = HeaderMap::new();
        proxied.insert("x-forwarded-proto", "https".parse().unwrap());
        let mut forwarded = HeaderMap::new();
        forwarded.insert(header::FORWARDED, "for=1.2.3.4;proto=https".parse().unwrap());
        let actual = (
            over_tls(&HeaderMap::new()),
            over_tls(&proxied),
            over_tls(&forwarded),
            set_cookie("v", DEFAULT_SESSION_TTL, true),
            set_cookie("v", DEFAULT_SESSION_TTL, false),
        );
        let expected = (
            false,
            true,
            true,
            "__Host-todokit_session=v; HttpOnly; SameSite=Strict; Path=/; Max-Age=86400; Secure".to_owned(),
            "todokit_session=v; HttpOnly; SameSite=Strict; Path=/; Max-Age=86400".to_owned(),
        );
        assert_eq!(actual, expected);
    }
}
