//! Live conversation resources: who follows which conversation in one MCP
//! session, and the tasks that tell the client when it changed.
//!
//! Both ways MCP has to follow resources are served:
//!
//! - sessions opened by `initialize` (protocol versions before
//!   2026-07-28) use `resources/subscribe` and `resources/unsubscribe`, and
//!   get `notifications/resources/list_changed` unasked once they have
//!   listed the resources;
//! - `subscriptions/listen` (2026-07-28) names its resources and whether it
//!   wants list changes up front, and lasts until the client cancels it.
//!
//! Whether a conversation appeared is followed once per store for every
//! session of the process (`list_watch`). Each followed conversation is one
//! [`TodoWriteService::subscribe`] feed
//! on the session's runtime: it wakes on the store's own change signal
//! (the folder watch, PostgreSQL's `LISTEN/NOTIFY`), so a commit by
//! another process or machine reaches the client, and it costs no thread.
//! One session follows at most [`MAX_FOLLOWED_CONVERSATIONS`]
//! conversations and holds at most [`MAX_LISTENS`] listen requests open.

use std::collections::{BTreeSet, HashMap};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use rmcp::model::{ResourceUpdatedNotificationParam, SubscriptionFilter};
use rmcp::service::{Peer, SubscriptionContext, SubscriptionSink};
use rmcp::{ErrorData, RoleServer};
use todokit::TodoWriteService;
use todokit::app::Subscription;
use tokio::task::{AbortHandle, JoinSet};

use super::limits::{MAX_FOLLOWED_CONVERSATIONS, MAX_LISTENS};
use super::listen_start::{ListenStart, ListenStarts, conversation_ids, distinct_conversation_uris};
use super::resources::conversation_of_uri;

/// Where a session's change notices go.
#[derive(Clone)]
enum Notifier {
    /// Straight to the client, in a session opened by `initialize`.
    Session(Peer<RoleServer>),
    /// On one open `subscriptions/listen` request.
    Listen(SubscriptionSink),
}

impl Notifier {
    /// Says `uri` changed; false once nobody can hear it any more.
    async fn updated(&self, uri: &str) -> bool {
        match self {
            Self::Session(peer) => peer
                .notify_resource_updated(ResourceUpdatedNotificationParam::new(uri))
                .await
                .is_ok(),
            Self::Listen(sink) => sink.notify_resource_updated(uri).await.is_ok(),
        }
    }

    /// Says the set of resources changed; false once nobody can hear it.
    async fn list_changed(&self) -> bool {
        match self {
            Self::Session(peer) => peer.notify_resource_list_changed().await.is_ok(),
            Self::Listen(sink) => sink.notify_resource_list_changed().await.is_ok(),
        }
    }
}

/// One session's followed conversations.
#[derive(Debug, Default)]
pub(super) struct Live {
    state: Mutex<Following>,
    /// What each listen request the reader saw starts from, until its
    /// handler takes it (stdio: HTTP hands it over in the request).
    pub(super) starts: ListenStarts,
}

#[derive(Debug, Default)]
struct Following {
    /// `resources/subscribe`d URIs, each with its feed's task.
    subscribed: HashMap<String, AbortHandle>,
    /// Conversations followed by open listen requests.
    listened: usize,
    /// Open listen requests.
    listens: usize,
    /// The task that announces new conversations to an `initialize`d
    /// session, once it has listed them.
    list_watch: Option<AbortHandle>,
    /// The session is over: nothing new starts.
    closed: bool,
}

impl Following {
    fn followed(&self) -> usize {
        self.subscribed.len() + self.listened
    }
}

impl Live {
    fn following(&self) -> MutexGuard<'_, Following> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// `resources/subscribe`: follows the conversation `uri` names. The
    /// feed is in place before this returns, so any commit after the
    /// client's next read is announced. Subscribing twice is one
    /// subscription.
    pub(super) async fn subscribe(
        &self,
        service: &TodoWriteService,
        peer: Peer<RoleServer>,
        uri: String,
    ) -> Result<(), ErrorData> {
        let conversation = conversation_of_uri(&uri)?;
        if self.following().subscribed.contains_key(&uri) {
            return Ok(());
        }
        self.refuse_if_full()?;
        let mut feed = service.subscribe(&conversation);
        // The first item is the list as it stands, which the client reads
        // itself; every later one is a commit to announce.
        let _ = feed.changed().await;
        let mut following = self.following();
        if following.subscribed.contains_key(&uri) {
            return Ok(());
        }
        // Checked again: another subscription may have taken the room
        // while this one loaded.
        if following.closed || following.followed() >= MAX_FOLLOWED_CONVERSATIONS {
            drop(following);
            return self.refuse_if_full();
        }
        let task = tokio::spawn(announce_commits(feed, uri.clone(), Notifier::Session(peer)));
        following.subscribed.insert(uri, task.abort_handle());
        Ok(())
    }

    /// The error for a subscription past the cap (or after the session
    /// ended), `Ok` while there is room.
    fn refuse_if_full(&self) -> Result<(), ErrorData> {
        let following = self.following();
        if following.closed {
            return Err(ErrorData::internal_error("The session is ending", None));
        }
        if following.followed() >= MAX_FOLLOWED_CONVERSATIONS {
            return Err(ErrorData::invalid_request(
                format!(
                    "This session already follows {MAX_FOLLOWED_CONVERSATIONS} conversations, the most it may; \
                     unsubscribe from one first"
                ),
                None,
            ));
        }
        Ok(())
    }

    /// `resources/unsubscribe`: stops following `uri` (nothing to do when
    /// it was not followed).
    pub(super) fn unsubscribe(&self, uri: &str) {
        if let Some(task) = self.following().subscribed.remove(uri) {
            task.abort();
        }
    }

    /// After an `initialize`d session's `resources/list`: announce every
    /// change to the set of conversations from now on, `known` being the
    /// set the client was just given.
    pub(super) fn announce_list_changes(
        &self,
        service: &TodoWriteService,
        peer: Peer<RoleServer>,
        known: BTreeSet<String>,
    ) {
        let mut following = self.following();
        if following.list_watch.is_some() || following.closed {
            return;
        }
        let task = tokio::spawn(announce_list_changes(
            service.clone(),
            Notifier::Session(peer),
            known,
            false,
        ));
        following.list_watch = Some(task.abort_handle());
    }

    /// What of a `subscriptions/listen` request's filter this session
    /// takes on: list changes when asked for, and the well-formed
    /// conversation URIs that fit under the cap. The room is reserved here
    /// (rmcp acknowledges this filter before [`Self::listen`] runs) and
    /// given back when the listen ends.
    pub(super) fn accept(&self, requested: &SubscriptionFilter) -> SubscriptionFilter {
        let mut accepted = SubscriptionFilter::new();
        let mut following = self.following();
        if following.closed || following.listens >= MAX_LISTENS {
            return accepted;
        }
        let room = MAX_FOLLOWED_CONVERSATIONS.saturating_sub(following.followed());
        let uris: Vec<String> = distinct_conversation_uris(requested)
            .into_iter()
            .take(room)
            .collect();
        following.listens += 1;
        following.listened += uris.len();
        accepted.resources_list_changed = requested.resources_list_changed.filter(|&wanted| wanted);
        accepted.resource_subscriptions = (!uris.is_empty()).then_some(uris);
        accepted
    }

    /// Runs one acknowledged listen request until the client cancels it
    /// (or the session ends). `start` is what the client knew when the
    /// request arrived ([`ListenStart`]): a list or a set of conversations
    /// that differs from it now is announced at once. Without one, the
    /// listen starts from what it reads now.
    pub(super) async fn listen(
        &self,
        service: &TodoWriteService,
        context: SubscriptionContext,
        start: Option<ListenStart>,
    ) {
        let accepted = context.accepted().clone();
        let uris = distinct_conversation_uris(&accepted);
        let _release = Release {
            live: self,
            uris: uris.len(),
        };
        let notifier = Notifier::Listen(context.sink().clone());
        let mut tasks = JoinSet::new();
        for uri in uris {
            let Ok(conversation) = conversation_of_uri(&uri) else {
                continue;
            };
            let feed = service.subscribe(&conversation);
            let known = start.as_ref().and_then(|start| start.list(&uri)).cloned();
            let notifier = notifier.clone();
            tasks.spawn(async move {
                let feed = match known {
                    Some(known) => feed.after(known),
                    None => {
                        let mut feed = feed;
                        let _ = feed.changed().await;
                        feed
                    }
                };
                announce_commits(feed, uri, notifier).await;
            });
        }
        if accepted.resources_list_changed == Some(true) {
            let (known, changed_since) = match start.as_ref().and_then(ListenStart::ids) {
                Some(ids) => (ids.clone(), true),
                None => (conversation_ids(service).await.unwrap_or_default(), false),
            };
            tasks.spawn(announce_list_changes(
                service.clone(),
                notifier,
                known,
                changed_since,
            ));
        }
        context.cancelled().await;
        // Dropping the set aborts every task of this listen.
    }

    /// The session ended: every task stops and nothing new starts.
    pub(super) fn close(&self) {
        let mut following = self.following();
        following.closed = true;
        for (_, task) in following.subscribed.drain() {
            task.abort();
        }
        if let Some(task) = following.list_watch.take() {
            task.abort();
        }
    }
}

/// Gives a listen's room back when it ends, however it ends.
struct Release<'a> {
    live: &'a Live,
    uris: usize,
}

impl Drop for Release<'_> {
    fn drop(&mut self) {
        let mut following = self.live.following();
        following.listens = following.listens.saturating_sub(1);
        following.listened = following.listened.saturating_sub(self.uris);
    }
}

/// Announces every new version of `feed`'s conversation as a change to
/// `uri`, until nobody listens. A list that became unreadable changed too:
/// the client's read then says why.
async fn announce_commits(mut feed: Subscription, uri: String, notifier: Notifier) {
    while feed.changed().await.is_some() {
        if !notifier.updated(&uri).await {
            break;
        }
    }
}

/// Announces every change to the set of the store's conversations (one
/// appeared or went away), `known` being the set the client has. With
/// `changed_since`, `known` was read before the listen started, so the
/// set as the watch holds it now is compared with it first.
async fn announce_list_changes(
    service: TodoWriteService,
    notifier: Notifier,
    mut known: BTreeSet<String>,
    changed_since: bool,
) {
    // The process's one watch of this store, shared with every session.
    let watch = super::list_watch::list_watch(&service, &known);
    let mut ids = watch.ids();
    if changed_since {
        ids.mark_changed();
    }
    while ids.changed().await.is_ok() {
        let now = Arc::clone(&ids.borrow_and_update());
        if *now != known {
            known = (*now).clone();
            if !notifier.list_changed().await {
                break;
            }
        }
    }
}
