//! Conversations that come to an end: [`TodoWriteService::forget`] removes
//! one whole (its list and its turn record), [`TodoWriteService::prune`]
//! those left idle. What the store removes, it removes for good; a feed of
//! a forgotten conversation reads the empty list at version 0 next, and
//! the store-wide watches (overviews) see it gone from the listing.

use std::time::Duration;

use todokit_domain::turn::{is_turn_key, turn_key};

use super::error::ServiceError;
use super::todo_write_service::TodoWriteService;
use crate::context::Pruned;

impl TodoWriteService {
    /// Removes `conversation`: its list and the turn record kept beside it
    /// (see [`crate::turn_driver`]), in one step of the store's
    /// ([`crate::context::ConversationContext::forget`]). True when anything was stored. A
    /// writer racing it either committed before (its list is removed
    /// whole) or commits after, onto the empty list (and its list is kept
    /// whole); the store's compare-and-swap never lets it write half, and
    /// a turn hook that read the list before cannot bring its record back.
    pub async fn forget(&self, conversation: &str) -> Result<bool, ServiceError> {
        let forgot = self.store.forget(conversation, None).await;
        // Rung whatever came back: a failure may have removed something.
        self.alarms.ring(&turn_key(conversation));
        self.alarms.ring(conversation);
        Ok(forgot?)
    }

    /// Removes every conversation whose id starts with `prefix` and that
    /// has not changed for `idle` (by the service's clock), each with its
    /// turn record; with `dry_run`, only names them. The ids removed and
    /// those that could not be, each sorted: one that fails is reported
    /// and the prune goes on. One written while the prune runs is kept. A
    /// turn record whose list is gone goes when it is idle itself.
    pub async fn prune(&self, prefix: &str, idle: Duration, dry_run: bool) -> Result<Pruned, ServiceError> {
        let idle_ms = u64::try_from(idle.as_millis()).unwrap_or(u64::MAX);
        let before = self.clock.now().saturating_sub(idle_ms);
        let mut pruned = self.store.prune(prefix, before, dry_run).await?;
        pruned.forgotten.retain(|id| !is_turn_key(id));
        if !dry_run {
            for id in &pruned.forgotten {
                self.alarms.ring(&turn_key(id));
                self.alarms.ring(id);
            }
        }
        pruned.forgotten.sort();
        pruned.failed.sort_by(|a, b| a.0.cmp(&b.0));
        Ok(pruned)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use pretty_assertions::assert_eq;
    use todokit_domain::TodoState;

    use super::*;
    use crate::clock::ManualClock;
    use crate::context::ConversationContext;
    use crate::test_support::{MapStore, service_over};

    #[tokio::test]
    async fn a_forgotten_conversation_goes_with_its_turn_record_and_a_pruned_one_too() {
        let store = Arc::new(MapStore::default());
        let clock = Arc::new(ManualClock::new(1_000_000));
        let service = service_over(
            Arc::clone(&store) as Arc<dyn ConversationContext>,
            Arc::clone(&clock),
        );
        for id in ["a", "b", "team/c"] {
            store.put(id, TodoState::new().version(1u64), 1_000_000);
            store.put(&turn_key(id), TodoState::new().version(1u64), 1_000_000);
        }
        clock.set(1_000_000 + 60_000);
        store.put("fresh", TodoState::new().version(1u64), 1_000_000 + 60_000);

        let forgot = (service.forget("a").await.ok(), service.forget("a").await.ok());
        let would = service
            .prune("", Duration::from_secs(30), true)
            .await
            .ok()
            .map(|p| p.forgotten);
        let still = store.ids();
        let pruned = service
            .prune("team/", Duration::from_secs(30), false)
            .await
            .ok()
            .map(|p| p.forgotten);
        let actual = (forgot, would, still, pruned, store.ids());
        let expected = (
            (Some(true), Some(false)),
            Some(vec!["b".to_owned(), "team/c".to_owned()]),
            vec![
                "b".to_owned(),
                turn_key("b"),
                "fresh".to_owned(),
                "team/c".to_owned(),
                turn_key("team/c"),
            ],
            Some(vec!["team/c".to_owned()]),
            vec!["b".to_owned(), turn_key("b"), "fresh".to_owned()],
        );
        assert_eq!(actual, expected);
    }
}
