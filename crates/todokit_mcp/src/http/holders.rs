//! What each caller holds that lasts: its live streams (the board's event
//! streams, MCP GET streams, `subscriptions/listen` requests; MCP's legacy
//! subscriptions arrive on the GET stream) counted against
//! `--max-streams-per-token`, and the signal that ends all of them when
//! its token is revoked.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use axum::http::StatusCode;
use axum::response::Response;
use tokio_util::sync::CancellationToken;

use super::message::refused;
use super::tokens::Caller;

/// The most live streams open at once, every caller's together (the
/// board's event streams and MCP's): each holds a connection and a feed
/// (no thread: feeds share the store's one watch). One caller holds at
/// most `--max-streams-per-token` of them, so no caller fills this alone.
pub const MAX_EVENT_STREAMS: usize = 1024;

/// The most live streams one caller holds unless `--max-streams-per-token`
/// says otherwise.
pub const MAX_STREAMS_PER_TOKEN: usize = 16;

/// Per caller: how many streams it holds, and the token that ends them.
#[derive(Default)]
struct Held {
    streams: usize,
    revoked: CancellationToken,
}

/// Every caller's streams.
pub struct Holders {
    per_caller: usize,
    per_process: usize,
    held: Mutex<HashMap<Caller, Held>>,
}

/// Why a stream cannot be opened now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StreamsFull {
    /// The process holds its most streams, every caller's together (503).
    Process(usize),
    /// This caller holds its most (429).
    Caller(usize),
}

/// One live stream of a caller, counted until dropped; `ended` resolves
/// when the caller's token is revoked.
pub struct StreamPlace {
    holders: Arc<Holders>,
    caller: Caller,
    /// Cancelled when the caller's token is revoked.
    pub revoked: CancellationToken,
}

impl StreamsFull {
    /// The refusal's status and words: 503 when the process is full, 429
    /// when this caller is.
    pub fn refusal(self) -> (StatusCode, String) {
        match self {
            StreamsFull::Process(most) => (
                StatusCode::SERVICE_UNAVAILABLE,
                format!("this server already serves {most} live streams; retry later"),
            ),
            StreamsFull::Caller(most) => (
                StatusCode::TOO_MANY_REQUESTS,
                format!("this token already holds {most} live streams; close one and retry"),
            ),
        }
    }

    /// The refusal as a JSON-RPC error answering `id` (the MCP routes).
    pub fn answer(self, id: Option<serde_json::Value>) -> Response {
        let (status, message) = self.refusal();
        refused(status, id, crate::rmcp_gate::INVALID_REQUEST, message)
    }
}

impl StreamPlace {
    /// `response`, its body ending when the caller's token is revoked, and
    /// holding this place among the caller's streams until it ends.
    pub fn hold(self, response: Response) -> Response {
        use futures_util::StreamExt;
        let (parts, body) = response.into_parts();
        let revoked = self.revoked.clone().cancelled_owned();
        let stream = body.into_data_stream().take_until(revoked).map(move |chunk| {
            let _held = &self;
            chunk
        });
        Response::from_parts(parts, axum::body::Body::from_stream(stream))
    }
}

impl Holders {
    /// Holders whose callers may each hold `per_caller` streams, and all
    /// of them together `per_process`.
    pub fn new(per_caller: usize, per_process: usize) -> Self {
        Self {
            per_caller,
            per_process,
            held: Mutex::default(),
        }
    }

    /// The streams held now, by caller kind (operator, tenant).
    pub fn by_kind(&self) -> [(&'static str, usize); 2] {
        let held = self.held.lock().unwrap_or_else(PoisonError::into_inner);
        let of = |kind: &str| {
            held.iter()
                .filter(|(caller, _)| caller.kind() == kind)
                .map(|(_, entry)| entry.streams)
                .sum()
        };
        [("operator", of("operator")), ("tenant", of("tenant"))]
    }

    /// A place for one more stream of `caller`, unless it or the process
    /// holds its most already.
    pub fn stream(self: &Arc<Self>, caller: &Caller) -> Result<StreamPlace, StreamsFull> {
        let mut held = self.held.lock().unwrap_or_else(PoisonError::into_inner);
        let total: usize = held.values().map(|entry| entry.streams).sum();
        if held
            .get(caller)
            .is_some_and(|entry| entry.streams >= self.per_caller)
        {
            return Err(StreamsFull::Caller(self.per_caller));
        }
        if total >= self.per_process {
            return Err(StreamsFull::Process(self.per_process));
        }
        let entry = held.entry(caller.clone()).or_default();
        entry.streams += 1;
        Ok(StreamPlace {
            holders: Arc::clone(self),
            caller: caller.clone(),
            revoked: entry.revoked.clone(),
        })
    }

    // Revocation follows the token file's reload on SIGHUP, which Windows
    // does not have.
    #[cfg_attr(not(unix), allow(dead_code))]
    /// Ends every stream `caller` holds (its token was revoked); streams it
    /// opens later are counted afresh.
    pub fn revoke(&self, caller: &Caller) {
        let mut held = self.held.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(entry) = held.remove(caller) {
            entry.revoked.cancel();
        }
    }

    /// How many streams `caller` holds.
    #[cfg(test)]
    fn streams_of(&self, caller: &Caller) -> usize {
        let held = self.held.lock().unwrap_or_else(PoisonError::into_inner);
        held.get(caller).map_or(0, |entry| entry.streams)
    }
}

impl Drop for StreamPlace {
    fn drop(&mut self) {
        // A revoked caller's entry is gone already (a later one never
        // counted this place); entries are replaced only on revocation,
        // so an entry of a place not revoked is the one it was counted in.
        if self.revoked.is_cancelled() {
            return;
        }
        let mut held = self.holders.held.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(entry) = held.get_mut(&self.caller) {
            entry.streams = entry.streams.saturating_sub(1);
            if entry.streams == 0 {
                held.remove(&self.caller);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use pretty_assertions::assert_eq;

    use super::*;

    #[test]
    fn a_caller_holds_at_most_its_streams_and_revocation_ends_them_all() {
        let holders = Arc::new(Holders::new(2, 3));
        let a = Caller::Operator;
        let b = super::super::tokens::Tokens::parse("t-b b")
            .ok()
            .and_then(|tokens| tokens.caller_of("t-b"))
            .unwrap_or(Caller::Operator);
        let first = holders.stream(&a);
        let second = holders.stream(&a);
        let third = holders.stream(&a).err();
        let other = holders.stream(&b);
        let full = holders.stream(&b).err();
        drop(second);
        let again = holders.stream(&a);
        let counted = holders.streams_of(&a);
        holders.revoke(&a);
        let ended = [&first, &again].map(|place| place.as_ref().is_ok_and(|p| p.revoked.is_cancelled()));
        let fresh = holders.stream(&a).is_ok();
        drop((first, again, other));
        let actual = (
            third,
            full,
            counted,
            ended,
            fresh,
            holders.streams_of(&a),
            holders.streams_of(&b),
        );
        let expected = (
            Some(StreamsFull::Caller(2)),
            Some(StreamsFull::Process(3)),
            2,
            [true, true],
            true,
            0,
            0,
        );
        assert_eq!(actual, expected);
    }
}
