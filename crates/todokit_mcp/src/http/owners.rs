//! Which caller opened each MCP session this process knows, and the
//! session quotas: at most `--max-sessions` in the process and at most
//! `--max-sessions-per-token` for one caller, sessions being opened
//! counted too, so two `initialize`s racing cannot both take the last
//! place.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use axum::http::StatusCode;
use axum::response::Response;

use super::message::refused;
use super::tokens::Caller;

/// The session quotas of one server.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SessionQuotas {
    /// Sessions open in the process, every caller's together.
    pub per_process: usize,
    /// Sessions one caller may hold.
    pub per_caller: usize,
}

/// Why a session cannot be opened now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Full {
    /// The process holds its most sessions (503: retry later).
    Process(usize),
    /// This caller holds its most (429: close one first).
    Caller(usize),
}

impl Full {
    /// The refusal as a JSON-RPC error answering `id`: 503 when the process
    /// is full (every caller waits), 429 when this caller is (it ends one).
    pub fn answer(self, id: Option<serde_json::Value>) -> Response {
        let (status, message) = match self {
            Full::Process(most) => (
                StatusCode::SERVICE_UNAVAILABLE,
                format!("this server already holds {most} MCP sessions; retry later"),
            ),
            Full::Caller(most) => (
                StatusCode::TOO_MANY_REQUESTS,
                format!(
                    "this token already holds {most} MCP sessions; end one (DELETE) before opening another"
                ),
            ),
        };
        refused(status, id, crate::rmcp_gate::INVALID_REQUEST, message)
    }
}

/// What is kept of one session this process knows.
#[derive(Debug)]
struct Held {
    /// Who opened it.
    owner: Caller,
    /// The count of entries made before it, so that a pruning pass can
    /// tell an owner added after it looked at rmcp's sessions (and keep it).
    order: u64,
    /// When a call rmcp did not see last told rmcp the session is in use.
    touched: Option<Instant>,
}

/// The owners of the sessions this process knows.
#[derive(Debug, Default)]
pub struct Owners {
    /// Each session's entry.
    by_session: HashMap<String, Held>,
    added: u64,
    /// Sessions being opened now, per caller.
    opening: HashMap<Caller, usize>,
}

impl Owners {
    /// The caller that opened session `id`.
    pub fn get(&self, id: &str) -> Option<&Caller> {
        self.by_session.get(id).map(|held| &held.owner)
    }

    /// Records that `caller` opened session `id`.
    pub fn insert(&mut self, id: String, caller: Caller) {
        self.by_session.insert(
            id,
            Held {
                owner: caller,
                order: self.added,
                touched: None,
            },
        );
        self.added += 1;
    }

    /// Forgets session `id`.
    pub fn remove(&mut self, id: &str) {
        self.by_session.remove(id);
    }

    /// Sessions held or being opened, in the process.
    pub fn total(&self) -> usize {
        self.by_session.len() + self.opening.values().sum::<usize>()
    }

    /// Sessions held or being opened, by caller kind (operator, tenant),
    /// as the quotas count them.
    pub fn by_kind(&self) -> [(&'static str, usize); 2] {
        let of = |kind: &str| {
            let held = self
                .by_session
                .values()
                .filter(|held| held.owner.kind() == kind)
                .count();
            let opening: usize = self
                .opening
                .iter()
                .filter(|(caller, _)| caller.kind() == kind)
                .map(|(_, count)| count)
                .sum();
            held + opening
        };
        [("operator", of("operator")), ("tenant", of("tenant"))]
    }

    /// Sessions `caller` holds or is opening.
    pub fn of(&self, caller: &Caller) -> usize {
        let held = self
            .by_session
            .values()
            .filter(|held| held.owner == *caller)
            .count();
        held + self.opening.get(caller).copied().unwrap_or(0)
    }

    /// Whether session `id` should tell rmcp now that it is in use (its
    /// last telling is `every` or more before `now`, or there was none);
    /// when it should, `now` becomes its last. A session with no owner
    /// here is told every time.
    pub fn touch_due(&mut self, id: &str, now: Instant, every: Duration) -> bool {
        let Some(held) = self.by_session.get_mut(id) else {
            return true;
        };
        let due = held
            .touched
            .is_none_or(|last| now.saturating_duration_since(last) >= every);
        if due {
            held.touched = Some(now);
        }
        due
    }

    /// A mark to prune against: entries added from now on are kept.
    pub fn mark(&self) -> u64 {
        self.added
    }

    /// Forgets the owners of sessions not in `live`, except those added
    /// since `mark` (their sessions may be younger than `live`).
    pub fn prune(&mut self, live: &HashSet<String>, mark: u64) {
        self.by_session
            .retain(|id, held| held.order >= mark || live.contains(id));
    }

    // Revocation follows the token file's reload on SIGHUP, which Windows
    // does not have.
    #[cfg_attr(not(unix), allow(dead_code))]
    /// The session ids `caller` holds.
    pub fn sessions_of(&self, caller: &Caller) -> Vec<String> {
        self.by_session
            .iter()
            .filter(|(_, held)| held.owner == *caller)
            .map(|(id, _)| id.clone())
            .collect()
    }
}

/// A place for one session being opened by `caller`, taken from the
/// quotas until [`Opening::opened`] turns it into an owner (or it is
/// dropped: the `initialize` failed, or its client went away).
pub struct Opening {
    owners: Arc<Mutex<Owners>>,
    caller: Caller,
}

impl Opening {
    /// Takes a place for `caller` when the quotas leave one.
    pub fn take(owners: &Arc<Mutex<Owners>>, caller: &Caller, quotas: SessionQuotas) -> Result<Self, Full> {
        let mut locked = owners.lock().unwrap_or_else(PoisonError::into_inner);
        if locked.of(caller) >= quotas.per_caller {
            return Err(Full::Caller(quotas.per_caller));
        }
        if locked.total() >= quotas.per_process {
            return Err(Full::Process(quotas.per_process));
        }
        *locked.opening.entry(caller.clone()).or_default() += 1;
        Ok(Self {
            owners: Arc::clone(owners),
            caller: caller.clone(),
        })
    }

    /// The session opened as `id` (or none was): the place becomes its
    /// owner entry.
    pub fn opened(self, id: Option<String>) {
        if let Some(id) = id {
            let mut owners = self.owners.lock().unwrap_or_else(PoisonError::into_inner);
            owners.insert(id, self.caller.clone());
        }
        // Drop gives the opening place back.
    }
}

impl Drop for Opening {
    fn drop(&mut self) {
        let mut owners = self.owners.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(count) = owners.opening.get_mut(&self.caller) {
            *count = count.saturating_sub(1);
            if *count == 0 {
                owners.opening.remove(&self.caller);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use pretty_assertions::assert_eq;

    use super::*;

    #[test]
    fn pruning_keeps_live_sessions_and_owners_added_after_the_look() {
        let mut owners = Owners::default();
        owners.insert("gone".to_owned(), Caller::Operator);
        owners.insert("live".to_owned(), Caller::Operator);
        let mark = owners.mark();
        // Opened while the pass was reading rmcp's sessions: not among them.
        owners.insert("new".to_owned(), Caller::test_tenant("a"));
        let live = ["live".to_owned()].into_iter().collect();
        owners.prune(&live, mark);
        let actual = ["gone", "live", "new"].map(|id| owners.get(id).cloned());
        let expected = [None, Some(Caller::Operator), Some(Caller::test_tenant("a"))];
        assert_eq!(actual, expected);
    }

    #[test]
    fn sessions_being_opened_count_against_both_quotas_until_they_settle() {
        let owners = Arc::new(Mutex::new(Owners::default()));
        let quotas = SessionQuotas {
            per_process: 3,
            per_caller: 2,
        };
        let (a, b) = (Caller::test_tenant("a"), Caller::test_tenant("b"));
        let first = Opening::take(&owners, &a, quotas);
        let second = Opening::take(&owners, &a, quotas);
        let third = Opening::take(&owners, &a, quotas).err();
        let other = Opening::take(&owners, &b, quotas);
        let full = Opening::take(&owners, &b, quotas).err();
        // One `initialize` fails: its place comes back.
        drop(second);
        first.map(|o| o.opened(Some("s1".to_owned()))).ok();
        let again = Opening::take(&owners, &a, quotas).map(|o| o.opened(Some("s2".to_owned())));
        let locked = owners.lock().unwrap_or_else(PoisonError::into_inner);
        let actual = (
            third,
            full,
            other.is_ok(),
            again.is_ok(),
            locked.of(&a),
            locked.total(),
        );
        let expected = (Some(Full::Caller(2)), Some(Full::Process(3)), true, true, 2, 3);
        assert_eq!(actual, expected);
    }

    #[test]
    fn a_session_is_touched_at_most_once_every_interval() {
        let mut owners = Owners::default();
        owners.insert("s".to_owned(), Caller::Operator);
        let every = Duration::from_secs(5);
        let start = Instant::now();
        let at = |seconds: u64| start + Duration::from_secs(seconds);
        let actual = [
            owners.touch_due("s", at(0), every),
            owners.touch_due("s", at(4), every),
            owners.touch_due("s", at(5), every),
            owners.touch_due("s", at(9), every),
            owners.touch_due("unknown", at(9), every),
            owners.touch_due("unknown", at(9), every),
        ];
        let expected = [true, false, true, false, true, true];
        assert_eq!(actual, expected);
    }
}
