//! [`PlanFeed`]: a conversation's commits as ACP `session/update`s.

use std::pin::Pin;
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
#[derive(Debug)]
pub struct PlanFeed {
    service: TodoWriteService,
    conversation: String,
    session: SessionId,
    feed: Subscription,
    /// Under the plan operations: the plan's id, and whether the client
    /// has been sent one under it (so an emptied list is removed once).
    #[cfg(feature = "acp-plan-operations")]
    operations: Option<(PlanId, bool)>,
}

impl PlanFeed {
    /// A feed of `conversation`'s list for the ACP session `session`, in the
    /// stable form: each update a whole `plan`.
    pub fn new(service: &TodoWriteService, conversation: &str, session: impl Into<SessionId>) -> Self {
        Self {
            service: service.clone(),
            conversation: conversation.to_owned(),
            session: session.into(),
            feed: service.subscribe(conversation),
            #[cfg(feature = "acp-plan-operations")]
            operations: None,
        }
    }

    /// The same feed sending the unstable plan operations instead: each
    /// update a `plan_update` for the plan `id`, and `plan_removed` when the
    /// list is emptied. Only for a client that declared them
    /// ([`super::supports_plan_operations`]).
    #[cfg(feature = "acp-plan-operations")]
    pub fn with_plan_id(mut self, id: impl Into<PlanId>) -> Self {
        self.operations = Some((id.into(), false));
        self
    }

    /// The conversation this feed follows.
    pub fn conversation(&self) -> &str {
        &self.conversation
    }

    /// The next update for the client: `None` only if the feed ended
    /// (it does not while the service lives); an error when the store
    /// could not be read (yielded once, and the feed goes on).
    pub async fn next(&mut self) -> Option<Result<SessionNotification, ServiceError>> {
        std::future::poll_fn(|cx| Pin::new(&mut *self).poll_next(cx)).await
    }

    /// The update that shows `stored`, or none when the client has nothing
    /// to change (an empty list it was never shown, under plan operations).
    fn update_for(&mut self, stored: &TodoState) -> Option<SessionUpdate> {
        let (_, shown) = self.service.as_written(stored);
        #[cfg(feature = "acp-plan-operations")]
        if let Some((id, sent)) = self.operations.as_mut() {
            let entries = entries(&shown);
            if entries.is_empty() {
                let removal = std::mem::replace(sent, false).then(|| PlanRemoved::new(id.clone()));
                return removal.map(SessionUpdate::PlanRemoved);
            }
            *sent = true;
            let items = PlanItems::new(id.clone(), entries).meta(plan_meta(&self.conversation, &shown));
            return Some(SessionUpdate::PlanUpdate(PlanUpdate::new(
                PlanUpdateContent::Items(items),
            )));
        }
        Some(SessionUpdate::Plan(plan(&self.conversation, &shown)))
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
            if let Some(update) = self.update_for(&stored) {
                let session = self.session.clone();
                return Poll::Ready(Some(Ok(SessionNotification::new(session, update))));
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
}
