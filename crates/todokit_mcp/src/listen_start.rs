//! Where a `subscriptions/listen` request starts from.
//!
//! rmcp acknowledges a listen (with the filter the server accepts) before
//! the server's handler runs, so a version the handler read then could
//! already be newer than what the client knew when the acknowledgement
//! reached it: a commit landing in between would be taken as the starting
//! point and never announced. So the lists a listen follows, and the
//! store's conversation ids when it asks for list changes, are read when
//! the request arrives, before rmcp sees it (by the stdio session's reader
//! and the HTTP endpoint), and handed to the handler; whatever differs from
//! them when the listen starts is announced at once.

use std::collections::{BTreeSet, HashMap, VecDeque};
use std::sync::{Mutex, PoisonError};

use rmcp::model::SubscriptionFilter;
use serde::Deserialize;
use serde_json::Value;
use todokit::{TodoState, TodoWriteService};

use super::limits::{MAX_FOLLOWED_CONVERSATIONS, MAX_IN_FLIGHT, MAX_LISTENS};
use super::resources::conversation_of_uri;

/// What a listen's client knew when it was acknowledged: each requested
/// conversation's list (by URI) and, when it asked for list changes, the
/// store's conversation ids, all read before rmcp saw the request.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct ListenStart {
    lists: HashMap<String, TodoState>,
    ids: Option<BTreeSet<String>>,
}

impl ListenStart {
    /// Reads the start of the listen request `message` (its bytes, as the
    /// client sent them) from `service`; `None` when its filter cannot be
    /// read (rmcp then refuses the request itself). A list that cannot be
    /// read is left out: the listen then starts from the list it reads.
    pub(crate) async fn read(service: &TodoWriteService, message: &[u8]) -> Option<Self> {
        let filter = requested_filter(message)?;
        let mut lists = HashMap::new();
        for uri in distinct_conversation_uris(&filter)
            .into_iter()
            .take(MAX_FOLLOWED_CONVERSATIONS)
        {
            let Ok(conversation) = conversation_of_uri(&uri) else {
                continue;
            };
            if let Ok(list) = service.state(&conversation).await {
                lists.insert(uri, list);
            }
        }
        let ids = match filter.resources_list_changed {
            Some(true) => conversation_ids(service).await.ok(),
            _ => None,
        };
        Some(Self { lists, ids })
    }

    /// The list the client knew for `uri`, when it was read.
    pub(crate) fn list(&self, uri: &str) -> Option<&TodoState> {
        self.lists.get(uri)
    }

    /// The conversation ids the client knew, when they were read.
    pub(crate) fn ids(&self) -> Option<&BTreeSet<String>> {
        self.ids.as_ref()
    }
}

/// The filter of the listen request `message` (`params.notifications`).
fn requested_filter(message: &[u8]) -> Option<SubscriptionFilter> {
    #[derive(Deserialize)]
    struct Listen {
        params: Params,
    }
    #[derive(Deserialize)]
    struct Params {
        notifications: SubscriptionFilter,
    }
    serde_json::from_slice::<Listen>(message)
        .ok()
        .map(|listen| listen.params.notifications)
}

/// The filter's well-formed conversation URIs, each once, in order.
pub(crate) fn distinct_conversation_uris(filter: &SubscriptionFilter) -> Vec<String> {
    let mut seen = BTreeSet::new();
    filter
        .resource_subscriptions
        .iter()
        .flatten()
        .filter(|uri| conversation_of_uri(uri).is_ok() && seen.insert(uri.as_str()))
        .cloned()
        .collect()
}

/// The ids of the store's conversations.
pub(crate) async fn conversation_ids(
    service: &TodoWriteService,
) -> Result<BTreeSet<String>, todokit::app::ServiceError> {
    Ok(service
        .conversations()
        .await?
        .into_iter()
        .map(|summary| summary.id)
        .collect())
}

/// The most starts a stdio session keeps for listen requests rmcp has not
/// handed to the handler yet: a request rmcp refuses never takes its own,
/// so the oldest goes past this (that listen, should it still start,
/// reads its lists then, as it would without one).
const KEPT_STARTS: usize = MAX_LISTENS + MAX_IN_FLIGHT;

/// The starts a stdio session's reader read, by request id, until the
/// handler of that request takes its own.
#[derive(Debug, Default)]
pub(crate) struct ListenStarts(Mutex<VecDeque<(String, ListenStart)>>);

impl ListenStarts {
    /// Keeps `start` for the listen request `id`.
    pub(crate) fn keep(&self, id: &Value, start: ListenStart) {
        let mut starts = self.starts();
        let key = id.to_string();
        starts.retain(|(kept, _)| *kept != key);
        if starts.len() >= KEPT_STARTS {
            starts.pop_front();
        }
        starts.push_back((key, start));
    }

    /// The start kept for the listen request `id`, taken.
    pub(crate) fn take(&self, id: &Value) -> Option<ListenStart> {
        let mut starts = self.starts();
        let key = id.to_string();
        let at = starts.iter().position(|(kept, _)| *kept == key)?;
        starts.remove(at).map(|(_, start)| start)
    }

    fn starts(&self) -> std::sync::MutexGuard<'_, VecDeque<(String, ListenStart)>> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }
}
