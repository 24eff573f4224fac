//! A live feed of one conversation's list: [`TodoWriteService::subscribe`].
//!
//! The feed yields the stored list at once, then every new version (told
//! apart by its contents too, as versions repeat after a forget). It
//! wakes on a commit made through the same service (or a clone) at once;
//! for commits made elsewhere (another process, another machine on a
//! shared database) it wakes when the store says so
//! ([`crate::context::ConversationContext::watch`]: the JSON-file store's folder
//! watch, PostgreSQL's `LISTEN/NOTIFY`), which costs no thread per feed.
//! On a store that cannot say, the service's one timer thread rings every
//! such feed every [`SUBSCRIBE_POLL_INTERVAL`]. The feed needs no async
//! runtime: any executor can poll it.

use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::Ordering;
use std::sync::{Arc, PoisonError};
use std::task::{Context, Poll};
use std::time::Duration;

use futures_core::Stream;
use todokit_domain::TodoState;

use super::alarms::Alarm;
use super::error::ServiceError;
use super::todo_write_service::TodoWriteService;

/// How often a feed checks the store for commits made outside this
/// service, when the store cannot say (see [`crate::context::ConversationContext::watch`]).
pub const SUBSCRIBE_POLL_INTERVAL: Duration = Duration::from_millis(200);

type Loading = Pin<Box<dyn Future<Output = Result<TodoState, ServiceError>> + Send>>;

/// The stream [`TodoWriteService::subscribe`] returns: the current list,
/// then each new version of it. A store error is yielded once (until a
/// different one, or a list, comes); the feed goes on after it.
pub struct Subscription {
    service: TodoWriteService,
    conversation: String,
    alarm: Arc<Alarm>,
    loading: Option<Loading>,
    /// The list sent last. A version alone can repeat (a forget, then a
    /// rewrite from another process inside one poll, comes back to the
    /// same version), so a read is new when its version or its contents
    /// differ from this.
    last_sent: Option<TodoState>,
    last_error: Option<String>,
    /// The store's watch of the conversation, while it has one.
    _watch: Option<crate::context::WatchGuard>,
}

impl std::fmt::Debug for Subscription {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Subscription")
            .field("conversation", &self.conversation)
            .field("last_version", &self.last_sent.as_ref().map(|s| s.version))
            .finish_non_exhaustive()
    }
}

impl TodoWriteService {
    /// A live feed of `conversation`'s stored list: the list as it stands,
    /// then every committed version, whoever committed it (see the module
    /// docs for how each kind of commit is noticed).
    pub fn subscribe(&self, conversation: &str) -> Subscription {
        let alarm = Arc::new(Alarm::default());
        alarm.rung.store(true, Ordering::SeqCst);
        self.alarms.add(conversation, &alarm);
        // A store that says when a conversation changed rings the feed
        // itself; else the service's timer does.
        let woken = Arc::downgrade(&alarm);
        let watch = self.store().watch(
            conversation,
            Arc::new(move || {
                if let Some(alarm) = woken.upgrade() {
                    alarm.ring();
                }
            }),
        );
        if watch.is_none() {
            alarm.polled.store(true, Ordering::SeqCst);
            self.alarms.start_ticking(SUBSCRIBE_POLL_INTERVAL);
        }
        Subscription {
            service: self.clone(),
            conversation: conversation.to_owned(),
            alarm,
            loading: None,
            last_sent: None,
            last_error: None,
            _watch: watch,
        }
    }
}

impl Subscription {
    /// This feed, starting after `seen`: the list a caller read before it
    /// subscribed. Its first item is then the list only when it has changed
    /// since, so a commit that landed between that read and the first poll
    /// is still an item, not taken as where the feed starts.
    pub fn after(mut self, seen: TodoState) -> Self {
        self.last_sent = Some(seen);
        self
    }

    /// The next item of the feed (the list now, first): what polling it as
    /// a [`Stream`] gives, for a host with no stream helper crate at hand.
    pub async fn changed(&mut self) -> Option<Result<TodoState, ServiceError>> {
        std::future::poll_fn(|cx| Pin::new(&mut *self).poll_next(cx)).await
    }
}

impl Stream for Subscription {
    type Item = Result<TodoState, ServiceError>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        loop {
            if let Some(loading) = self.loading.as_mut() {
                let Poll::Ready(loaded) = loading.as_mut().poll(cx) else {
                    return Poll::Pending;
                };
                self.loading = None;
                match loaded {
                    Ok(state) if self.last_sent.as_ref() != Some(&state) => {
                        self.last_sent = Some(state.clone());
                        self.last_error = None;
                        return Poll::Ready(Some(Ok(state)));
                    }
                    Ok(_) => {}
                    Err(error) => {
                        let text = error.to_string();
                        if self.last_error.as_deref() != Some(text.as_str()) {
                            self.last_error = Some(text);
                            return Poll::Ready(Some(Err(error)));
                        }
                    }
                }
            }
            if self.alarm.rung.swap(false, Ordering::SeqCst) {
                let (service, conversation) = (self.service.clone(), self.conversation.clone());
                self.loading = Some(Box::pin(async move { service.state(&conversation).await }));
                continue;
            }
            *self.alarm.waker.lock().unwrap_or_else(PoisonError::into_inner) = Some(cx.waker().clone());
            // A ring between the check above and storing the waker would
            // otherwise be missed.
            if !self.alarm.rung.load(Ordering::SeqCst) {
                return Poll::Pending;
            }
        }
    }
}

impl Drop for Subscription {
    fn drop(&mut self) {
        // The service keeps nothing for a conversation nobody follows: a
        // feed on a new id each time must not grow the map for good.
        self.service.alarms.forget(&self.conversation, &self.alarm);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::bare_service;
    use pretty_assertions::assert_eq;

    #[tokio::test]
    async fn a_feed_after_a_list_read_before_it_yields_only_what_is_newer() {
        let service = bare_service();
        let read_before = service.state("c").await.expect("an empty list");
        // A commit lands between the read and the feed's first poll.
        let committed = TodoState::flat(vec![todokit_domain::Todo::new("a")]).version(1u64);
        service.store().save("c", 0, &committed).await.expect("saved");
        let mut behind = service.subscribe("c").after(read_before);
        let first = behind
            .changed()
            .await
            .and_then(Result::ok)
            .map(|state| state.version);
        // A feed after the list as it stands has nothing to give yet.
        let current = service.state("c").await.expect("the list");
        let mut level = service.subscribe("c").after(current);
        let mut context = Context::from_waker(std::task::Waker::noop());
        let waiting = Pin::new(&mut level).poll_next(&mut context).is_pending();
        let actual = (first, waiting);
        let expected = (Some(1), true);
        assert_eq!(actual, expected);
    }

    #[test]
    fn a_dropped_feed_leaves_no_trace_of_its_conversation() {
        let service = bare_service();
        let kept = service.subscribe("kept");
        let feeds: Vec<Subscription> = (0..50).map(|i| service.subscribe(&format!("c{i}"))).collect();
        let twice = service.subscribe("kept");
        drop(feeds);
        drop(twice);
        let followed = |service: &TodoWriteService| {
            let alarms = service
                .alarms
                .feeds
                .lock()
                .unwrap_or_else(PoisonError::into_inner);
            let mut ids: Vec<(String, usize)> = alarms
                .iter()
                .map(|(id, feeds)| (id.clone(), feeds.len()))
                .collect();
            ids.sort();
            ids
        };
        let while_kept = followed(&service);
        drop(kept);
        let actual = (while_kept, followed(&service));
        let expected = (vec![("kept".to_owned(), 1)], vec![]);
        assert_eq!(actual, expected);
    }
}
