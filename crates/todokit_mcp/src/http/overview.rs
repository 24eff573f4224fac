//! The overview every open board page follows, kept once per board: one
//! task holds the store-wide watch ([`TodoWriteService::watch_conversations`]),
//! lists the conversations again when it fires (reading summaries, not
//! lists) and sends each open overview only the summaries that changed.
//! An idle board therefore does no work at all for its overviews, and 64
//! of them cost what one does. Pages are cut from the newest first.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError, Weak};
use std::time::Duration;

use serde_json::json;
use todokit::{ConversationSummary, TodoWriteService};
use tokio::sync::{Notify, broadcast};

/// Conversations in a page unless the request asks for fewer or more.
pub const PAGE_SIZE: usize = 100;
/// The most conversations one page holds.
pub const MAX_PAGE_SIZE: usize = 1000;

/// How long the overview waits after a change before listing, so that a
/// burst of commits is listed once.
const SETTLE: Duration = Duration::from_millis(50);
/// How often it lists anyway on a store that cannot say when something
/// changed.
const UNWATCHED_RECHECK: Duration = Duration::from_secs(1);
/// Changes kept for an overview that falls behind; one further behind is
/// sent the first page again.
const BACKLOG: usize = 32;

/// Every conversation as the overview last listed them.
#[derive(Debug, Default)]
pub struct Listing {
    /// Newest change first.
    pub summaries: Vec<ConversationSummary>,
    /// Why the last listing failed, when it did (the summaries are then
    /// the ones listed before).
    pub error: Option<String>,
}

/// The board's overview: the latest listing and the changes since.
#[derive(Debug)]
pub struct Overview {
    listing: Mutex<Arc<Listing>>,
    changes: broadcast::Sender<Arc<str>>,
}

impl Overview {
    /// Lists the store once and starts following it.
    pub async fn start(service: TodoWriteService) -> Arc<Self> {
        let overview = Arc::new(Self {
            listing: Mutex::default(),
            changes: broadcast::channel(BACKLOG).0,
        });
        overview.refresh(&service).await;
        tokio::spawn(follow(Arc::downgrade(&overview), service));
        overview
    }

    /// The latest listing.
    pub fn current(&self) -> Arc<Listing> {
        Arc::clone(&self.listing.lock().unwrap_or_else(PoisonError::into_inner))
    }

    /// Every change from now on, as the data of a `changed` event
    /// (`{"changed": [summaries], "removed": [ids]}`, or `{"error": ...}`).
    pub fn changes(&self) -> broadcast::Receiver<Arc<str>> {
        self.changes.subscribe()
    }

    /// Lists again and sends what changed.
    async fn refresh(&self, service: &TodoWriteService) {
        let before = self.current();
        let (listing, change) = match service.conversations().await {
            Ok(summaries) => {
                let change = difference(&before.summaries, &summaries);
                let listing = Listing {
                    summaries,
                    error: None,
                };
                (listing, change)
            }
            Err(error) => {
                let message = error.to_string();
                let change =
                    (before.error.as_ref() != Some(&message)).then(|| json!({"error": message}).to_string());
                let listing = Listing {
                    summaries: before.summaries.clone(),
                    error: Some(message),
                };
                (listing, change)
            }
        };
        *self.listing.lock().unwrap_or_else(PoisonError::into_inner) = Arc::new(listing);
        if let Some(change) = change {
            // Nobody listening is no error.
            let _ = self.changes.send(Arc::from(change));
        }
    }
}

/// The `changed` event between two listings, if anything changed.
fn difference(before: &[ConversationSummary], after: &[ConversationSummary]) -> Option<String> {
    let old: HashMap<&str, &ConversationSummary> = before.iter().map(|s| (s.id.as_str(), s)).collect();
    let changed: Vec<&ConversationSummary> = after
        .iter()
        .filter(|s| old.get(s.id.as_str()) != Some(s))
        .collect();
    let new: std::collections::HashSet<&str> = after.iter().map(|s| s.id.as_str()).collect();
    let removed: Vec<&str> = before
        .iter()
        .map(|s| s.id.as_str())
        .filter(|id| !new.contains(id))
        .collect();
    if changed.is_empty() && removed.is_empty() {
        return None;
    }
    Some(json!({"changed": changed, "removed": removed}).to_string())
}

/// The overview's task: waits for the store to say something changed
/// (or, on a store that cannot, for a timer), then lists again; ends with
/// the board.
async fn follow(overview: Weak<Overview>, service: TodoWriteService) {
    let notify = Arc::new(Notify::new());
    let woken = Arc::clone(&notify);
    let watch = service.watch_conversations(Arc::new(move || woken.notify_one()));
    loop {
        match &watch {
            Some(_) => notify.notified().await,
            None => tokio::time::sleep(UNWATCHED_RECHECK).await,
        }
        tokio::time::sleep(SETTLE).await;
        let Some(overview) = overview.upgrade() else {
            return;
        };
        overview.refresh(&service).await;
    }
}

/// The page of `summaries` (newest first) that follows the conversation
/// `after` names (`MILLIS:ID`, or `:ID` for one whose time is unknown),
/// at most `limit` long. The position is found by time and id, so a page
/// follows on from the one before even when conversations moved meanwhile.
pub fn page<'a>(
    summaries: &'a [ConversationSummary],
    after: Option<&Cursor>,
    limit: usize,
) -> &'a [ConversationSummary] {
    let start = after.map_or(0, |cursor| {
        summaries.partition_point(|s| {
            // Newest first, then by id: at or before the cursor.
            let key = (std::cmp::Reverse(s.changed_at), s.id.as_str());
            key <= (std::cmp::Reverse(cursor.changed_at), cursor.id.as_str())
        })
    });
    let end = start.saturating_add(limit).min(summaries.len());
    &summaries[start..end]
}

/// Where a page starts: after the conversation with this time and id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cursor {
    changed_at: Option<u64>,
    id: String,
}

impl Cursor {
    /// Reads `MILLIS:ID` (or `:ID`); `None` when it is not that.
    pub fn parse(text: &str) -> Option<Self> {
        let (millis, id) = text.split_once(':')?;
        let changed_at = match millis {
            "" => None,
            digits => Some(digits.parse().ok()?),
        };
        Some(Self {
            changed_at,
            id: id.to_owned(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;
    use todokit::StatusCounts;

    fn summary(id: &str, changed_at: Option<u64>, version: u64) -> ConversationSummary {
        ConversationSummary {
            id: id.to_owned(),
            changed_at,
            version,
            counts: StatusCounts::default(),
            in_progress: None,
            profile: None,
            problem: None,
        }
    }

    fn ids(page: &[ConversationSummary]) -> Vec<&str> {
        page.iter().map(|s| s.id.as_str()).collect()
    }

    #[test]
    fn pages_follow_on_by_time_and_id_and_a_bad_cursor_is_none() {
        let all = vec![
            summary("d", Some(40), 1),
            summary("b", Some(30), 1),
            summary("c", Some(30), 1),
            summary("a", Some(10), 1),
            summary("z", None, 1),
        ];
        let second = Cursor::parse("30:b");
        let actual = (
            ids(page(&all, None, 2)),
            ids(page(&all, second.as_ref(), 2)),
            ids(page(&all, Cursor::parse("10:a").as_ref(), 2)),
            ids(page(&all, Cursor::parse(":z").as_ref(), 2)),
            Cursor::parse("soon:a"),
            Cursor::parse("no colon"),
        );
        let expected = (vec!["d", "b"], vec!["c", "a"], vec!["z"], vec![], None, None);
        assert_eq!(actual, expected);
    }

    #[test]
    fn only_what_changed_or_went_is_sent() {
        let before = vec![
            summary("a", Some(2), 1),
            summary("b", Some(1), 1),
            summary("c", Some(0), 1),
        ];
        let after = vec![
            summary("b", Some(3), 2),
            summary("a", Some(2), 1),
            summary("d", Some(1), 1),
        ];
        let actual: serde_json::Value =
            serde_json::from_str(&difference(&before, &after).unwrap_or_default()).unwrap_or_default();
        let ids = |key: &str| -> Vec<String> {
            actual[key]
                .as_array()
                .into_iter()
                .flatten()
                .map(|v| v.get("id").unwrap_or(v).as_str().unwrap_or_default().to_owned())
                .collect()
        };
        let same = difference(&before, &before);
        assert_eq!(
            (ids("changed"), ids("removed"), same),
            (vec!["b".to_owned(), "d".to_owned()], vec!["c".to_owned()], None)
        );
    }
}
