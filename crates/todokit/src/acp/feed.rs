//! [`PlanFeed`]: a conversation's commits as ACP `session/update`s.

use std::pin::Pin;
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll};

use agent_client_protocol::v1::schema::{SessionId, SessionNotification, SessionUpdate};
use futures_core::Stream;
use todokit_app::{ServiceError, Subscription, TodoWriteService};
use todokit_domain::TodoState;

#[cfg(feature = "acp-plan-operations")]
use agent_client_protocol::v1::schema::{PlanId, PlanItems, PlanRemoved, PlanUpdate, PlanUpdateContent};

use super::plan::plan;
#[cfg(feature = "acp-plan-operations")]
use super::plan::{entries, plan_meta};

/// Follows one conversation for one ACP session: the stored list at once,
/// then every new version, each as the `session/update` that shows it.
///
/// It wakes on every commit the store can tell about (the same service's
/// calls and hand edits at once; another process's or machine's through
/// the store's watch), with no thread of its own. The list is shown as the
/// profile that last wrote it shows it: finished tasks that profile clears
/// are gone. It needs no async runtime; `next` (or the [`Stream`]) is
/// polled by the host's own.
///
/// A feed usually runs in a task of its own, so the update for a commit a
/// prompt made may reach the client after the prompt's answer. A host that
/// wants it before keeps a [`PlanCatchUp`] ([`PlanFeed::catch_up`]) and
/// sends what it gives just before answering; the feed then skips what was
/// already sent, so the client gets each version once.
#[derive(Debug)]
pub struct PlanFeed {
    shown: Shown,
    feed: Subscription,
}

/// What a feed and its catch-up handles share: where they send to, and
/// what the client has been sent.
#[derive(Debug, Clone)]
struct Shown {
    service: TodoWriteService,
    conversation: String,
    session: SessionId,
    /// Under the plan operations: the plan's id.
    #[cfg(feature = "acp-plan-operations")]
    plan_id: Option<PlanId>,
    sent: Arc<Mutex<Sent>>,
}

/// What the client has been sent.
#[derive(Debug, Default)]
struct Sent {
    /// The newest version of the list sent (or passed over as nothing to
    /// show).
    version: Option<u64>,
    /// Under the plan operations: whether the client holds a plan (so an
    /// emptied list is removed once).
    #[cfg(feature = "acp-plan-operations")]
    plan_shown: bool,
}

impl Shown {
    /// The notification that shows `stored`, unless the client was sent
    /// this version (or a newer one) already, or has nothing to change (an
    /// empty list it was never shown, under plan operations).
    fn notification_for(&self, stored: &TodoState) -> Option<SessionNotification> {
        let mut sent = self.sent.lock().unwrap_or_else(PoisonError::into_inner);
        if sent.version.is_some_and(|version| version >= stored.version) {
            return None;
        }
        sent.version = Some(stored.version);
        let update = self.update_for(stored, &mut sent)?;
        Some(SessionNotification::new(self.session.clone(), update))
    }

    fn update_for(&self, stored: &TodoState, sent: &mut Sent) -> Option<SessionUpdate> {
        let (_, shown) = self.service.as_written(stored);
        #[cfg(feature = "acp-plan-operations")]
        if let Some(id) = &self.plan_id {
            let entries = entries(&shown);
            if entries.is_empty() {
                let removal =
                    std::mem::replace(&mut sent.plan_shown, false).then(|| PlanRemoved::new(id.clone()));
                return removal.map(SessionUpdate::PlanRemoved);
            }
            sent.plan_shown = true;
            let items = PlanItems::new(id.clone(), entries).meta(plan_meta(&self.conversation, &shown));
            return Some(SessionUpdate::PlanUpdate(PlanUpdate::new(
                PlanUpdateContent::Items(items),
            )));
        }
        #[cfg(not(feature = "acp-plan-operations"))]
        let _ = sent;
        Some(SessionUpdate::Plan(plan(&self.conversation, &shown)))
    }
}

impl PlanFeed {
    /// A feed of `conversation`'s list for the ACP session `session`, in the
    /// stable form: each update a whole `plan`.
    pub fn new(service: &TodoWriteService, conversation: &str, session: impl Into<SessionId>) -> Self {
        Self {
            shown: Shown {
                service: service.clone(),
                conversation: conversation.to_owned(),
                session: session.into(),
                #[cfg(feature = "acp-plan-operations")]
                plan_id: None,
                sent: Arc::default(),
            },
            feed: service.subscribe(conversation),
        }
    }

    /// The same feed sending the unstable plan operations instead: each
    /// update a `plan_update` for the plan `id`, and `plan_removed` when the
    /// list is emptied. Only for a client that declared them
    /// ([`super::supports_plan_operations`]).
    #[cfg(feature = "acp-plan-operations")]
    pub fn with_plan_id(mut self, id: impl Into<PlanId>) -> Self {
        self.shown.plan_id = Some(id.into());
        self
    }

    /// The conversation this feed follows.
    pub fn conversation(&self) -> &str {
        &self.shown.conversation
    }

    /// A handle that gives, on demand, the update for the list as stored
    /// now, if the client has not been sent it: for a host to send before
    /// it answers a prompt. Take it before the feed moves into its task.
    pub fn catch_up(&self) -> PlanCatchUp {
        PlanCatchUp {
            shown: self.shown.clone(),
        }
    }

    /// The next update for the client: `None` only if the feed ended
    /// (it does not while the service lives); an error when the store
    /// could not be read (yielded once, and the feed goes on).
    pub async fn next(&mut self) -> Option<Result<SessionNotification, ServiceError>> {
        std::future::poll_fn(|cx| Pin::new(&mut *self).poll_next(cx)).await
    }
}

/// The update for every commit already made, on demand: see
/// [`PlanFeed::catch_up`]. Cheap to clone; any number may be held.
#[derive(Debug, Clone)]
pub struct PlanCatchUp {
    shown: Shown,
}

impl PlanCatchUp {
    /// The update that shows the list as stored now, when the client has
    /// not been sent that version yet (by this handle or the feed), else
    /// `None`. The feed will not send it again.
    pub async fn update(&self) -> Result<Option<SessionNotification>, ServiceError> {
        let stored = self.shown.service.state(&self.shown.conversation).await?;
        Ok(self.shown.notification_for(&stored))
    }
}

impl Stream for PlanFeed {
    type Item = Result<SessionNotification, ServiceError>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        loop {
            let stored = match Pin::new(&mut self.feed).poll_next(cx) {
                Poll::Ready(Some(Ok(stored))) => stored,
                Poll::Ready(Some(Err(error))) => return Poll::Ready(Some(Err(error))),
                Poll::Ready(None) => return Poll::Ready(None),
                Poll::Pending => return Poll::Pending,
            };
            if let Some(notification) = self.shown.notification_for(&stored) {
                return Poll::Ready(Some(Ok(notification)));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use futures_executor::block_on;
    use pretty_assertions::assert_eq;

    const ONE_TASK: &str =
        r#"{"todos":[{"content":"Run tests","status":"pending","activeForm":"Running tests"}]}"#;

    fn service() -> TodoWriteService {
        crate::Todokit::builder()
            .memory_store()
            .build()
            .unwrap_or_else(|error| panic!("a memory service builds: {error}"))
    }

    /// Each update's kind and entry texts, in the order the client gets them.
    fn shape(update: &SessionNotification) -> (String, Vec<String>) {
        let json = serde_json::to_value(update).unwrap_or_default();
        let kind = json["update"]["sessionUpdate"]
            .as_str()
            .unwrap_or_default()
            .to_owned();
        let entries = json["update"]["entries"]
            .as_array()
            .or_else(|| json["update"]["plan"]["entries"].as_array())
            .map(|entries| entries.iter().map(|e| e["content"].to_string()).collect())
            .unwrap_or_default();
        (kind, entries)
    }

    /// The shape of each update the feed gave, an error or the feed's end
    /// shown as such.
    fn shapes(updates: Vec<Option<Result<SessionNotification, ServiceError>>>) -> Vec<(String, Vec<String>)> {
        let shown = |update: Option<Result<SessionNotification, ServiceError>>| match update {
            Some(Ok(update)) => shape(&update),
            Some(Err(error)) => (format!("error: {error}"), vec![]),
            None => ("ended".to_owned(), vec![]),
        };
        updates.into_iter().map(shown).collect()
    }

    #[test]
    fn the_stable_form_sends_the_whole_plan_for_the_list_and_each_commit() {
        block_on(async {
            let service = service();
            let mut feed = PlanFeed::new(&service, "c1", "session-1");
            let mut actual = vec![feed.next().await];
            service.call("c1", "TodoWrite", ONE_TASK).await.ok();
            actual.push(feed.next().await);
            service.call("c1", "TodoWrite", r#"{"todos":[]}"#).await.ok();
            actual.push(feed.next().await);
            let actual = shapes(actual);
            let expected = vec![
                ("plan".to_owned(), vec![]),
                ("plan".to_owned(), vec!["\"Run tests\"".to_owned()]),
                ("plan".to_owned(), vec![]),
            ];
            assert_eq!(actual, expected);
        });
    }

    #[cfg(feature = "acp-plan-operations")]
    #[test]
    fn plan_operations_skip_an_empty_list_never_shown_and_remove_an_emptied_one_once() {
        block_on(async {
            let service = service();
            let mut feed = PlanFeed::new(&service, "c1", "session-1").with_plan_id("todo-c1");
            // Nothing stored yet: no update until the first commit.
            service.call("c1", "TodoWrite", ONE_TASK).await.ok();
            let mut actual = vec![feed.next().await];
            service.call("c1", "TodoWrite", r#"{"todos":[]}"#).await.ok();
            actual.push(feed.next().await);
            service.call("c1", "TodoWrite", ONE_TASK).await.ok();
            actual.push(feed.next().await);
            let actual = shapes(actual);
            let expected = vec![
                ("plan_update".to_owned(), vec!["\"Run tests\"".to_owned()]),
                ("plan_removed".to_owned(), vec![]),
                ("plan_update".to_owned(), vec!["\"Run tests\"".to_owned()]),
            ];
            assert_eq!(actual, expected);
        });
    }

    #[test]
    fn a_catch_up_sends_a_commit_once_and_the_feed_skips_it() {
        block_on(async {
            let service = service();
            let mut feed = PlanFeed::new(&service, "c1", "session-1");
            let catch_up = feed.catch_up();
            let mut actual = vec![feed.next().await];
            service.call("c1", "TodoWrite", ONE_TASK).await.ok();
            // The host sends the update before it answers the prompt.
            let caught = catch_up.update().await.ok().flatten();
            let again = catch_up.update().await.ok().flatten();
            service.call("c1", "TodoWrite", r#"{"todos":[]}"#).await.ok();
            // The feed's next update is the commit after, not the one sent.
            actual.push(feed.next().await);
            let actual = (shapes(actual), caught.as_ref().map(shape), again.is_none());
            let expected = (
                vec![("plan".to_owned(), vec![]), ("plan".to_owned(), vec![])],
                Some(("plan".to_owned(), vec!["\"Run tests\"".to_owned()])),
                true,
            );
            assert_eq!(actual, expected);
        });
    }
}
