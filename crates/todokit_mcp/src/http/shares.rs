//! Each caller's share of the request bodies being read.
//!
//! The server reads at most one body per connection (HTTP/1.1), so no more
//! than `--max-connections` at once; but one caller sending slow bodies on
//! many connections could hold every place while the bodies trickle in
//! (each may take up to the body deadline). A caller may have at most
//! [`BODY_SHARE_DIVISOR`]th of the connections' places reading its bodies
//! at once; past that it is answered 429 before any of the body is read.
//! The caller is known from the request's head (its token), so a request
//! without a token is refused before its body is read at all.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use axum::extract::{Request, State};
use axum::http::StatusCode;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::message::refused;
use super::tenancy::Scope;
use super::tokens::Caller;

/// One caller reads at most `--max-connections` divided by this many
/// bodies at once (64 at the default 1,024 connections).
pub const BODY_SHARE_DIVISOR: usize = 16;

/// Bodies being read, per caller.
pub struct BodyShares {
    per_caller: usize,
    reading: Mutex<HashMap<Caller, usize>>,
}

/// A caller's place among the bodies being read, given back when dropped
/// (once the body is read, whole or not).
pub struct BodyPlace {
    shares: Arc<BodyShares>,
    caller: Caller,
}

impl BodyShares {
    /// Shares of `max_connections` places: each caller gets
    /// [`BODY_SHARE_DIVISOR`]th of them, at least one.
    pub fn new(max_connections: usize) -> Self {
        Self {
            per_caller: (max_connections / BODY_SHARE_DIVISOR).max(1),
            reading: Mutex::default(),
        }
    }

    /// The most bodies one caller may have read at once.
    pub fn per_caller(&self) -> usize {
        self.per_caller
    }

    /// A place for one more body of `caller`, unless it has its share.
    pub fn admit(self: &Arc<Self>, caller: &Caller) -> Option<BodyPlace> {
        let mut reading = self.reading.lock().unwrap_or_else(PoisonError::into_inner);
        let count = reading.entry(caller.clone()).or_default();
        if *count >= self.per_caller {
            return None;
        }
        *count += 1;
        Some(BodyPlace {
            shares: Arc::clone(self),
            caller: caller.clone(),
        })
    }
}

impl Drop for BodyPlace {
    fn drop(&mut self) {
        let mut reading = self.shares.reading.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(count) = reading.get_mut(&self.caller) {
            *count = count.saturating_sub(1);
            if *count == 0 {
                reading.remove(&self.caller);
            }
        }
    }
}

/// Takes a place for the request's body among its caller's (after the
/// token check put the caller's [`Scope`] on the request), or answers 429;
/// the body reader gives the place back once the body is read.
pub async fn admit_body(State(shares): State<Arc<BodyShares>>, mut request: Request, next: Next) -> Response {
    let Some(caller) = request
        .extensions()
        .get::<Scope>()
        .map(|scope| scope.caller.clone())
    else {
        return next.run(request).await;
    };
    let Some(place) = shares.admit(&caller) else {
        let message = format!(
            "this token already has {} request bodies arriving; let one finish and retry",
            shares.per_caller()
        );
        let path = request.uri().path();
        return match path == "/mcp" || path.starts_with("/mcp/") {
            true => refused(
                StatusCode::TOO_MANY_REQUESTS,
                None,
                crate::rmcp_gate::INVALID_REQUEST,
                message,
            ),
            false => (StatusCode::TOO_MANY_REQUESTS, format!("{message}\n")).into_response(),
        };
    };
    request.extensions_mut().insert(Arc::new(place));
    next.run(request).await
}

#[cfg(test)]
mod tests {
    use pretty_assertions::assert_eq;

    use super::*;

    #[test]
    fn a_caller_at_its_share_is_refused_while_others_are_not_and_a_place_comes_back() {
        let shares = Arc::new(BodyShares::new(32));
        let (acme, initech) = (Caller::test_tenant("acme"), Caller::test_tenant("initech"));
        let held: Vec<BodyPlace> = (0..2).filter_map(|_| shares.admit(&acme)).collect();
        let third = shares.admit(&acme).is_some();
        let other = shares.admit(&initech).is_some();
        let taken = held.len();
        drop(held);
        let after = shares.admit(&acme).is_some();
        let left = shares.reading.lock().map(|m| m.len()).ok();
        let actual = (shares.per_caller(), taken, third, other, after, left);
        let expected = (2, 2, false, true, true, Some(0));
        assert_eq!(actual, expected);
    }
}
