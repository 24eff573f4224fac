//! The store as a server counts it: [`MeteredStore`] passes every call
//! to the store underneath and counts how each commit ended.

use std::sync::Arc;

use async_trait::async_trait;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::registry::Registry;
use todokit::domain::Timestamp;
use todokit::{
    ConnectionUse, ConversationContext, Pruned, StoreError, StoredConversation, TodoState, Wake, WatchGuard,
};

/// How the server's commits ended.
#[derive(Default, Clone)]
pub(crate) struct StoreCounters {
    commits: Counter,
    conflicts: Counter,
    unknown: Counter,
    failed: Counter,
    forgotten: Counter,
    not_forgotten: Counter,
}

impl StoreCounters {
    /// The counters, registered in `registry`.
    pub(super) fn register(registry: &mut Registry) -> Self {
        let counters = Self::default();
        for (name, help, counter) in [
            ("store_commits", "Lists committed to the store", &counters.commits),
            (
                "store_conflicts",
                "Commits refused because another writer committed first; the service retries each one (up to \
                 its attempt limit), so this is also the number of retries",
                &counters.conflicts,
            ),
            (
                "store_unknown_outcomes",
                "Commits whose answer was lost and whose outcome reading back could not tell",
                &counters.unknown,
            ),
            (
                "store_failures",
                "Commits the store refused or failed otherwise",
                &counters.failed,
            ),
            (
                "store_forgotten",
                "Conversations forgotten (forget, prune, --retain)",
                &counters.forgotten,
            ),
            (
                "store_prune_failures",
                "Conversations a prune or a --retain sweep could not forget (each is logged; the sweep went on \
                 past it)",
                &counters.not_forgotten,
            ),
        ] {
            registry.register(name, help, counter.clone());
        }
        counters
    }

    fn count(&self, saved: &Result<(), StoreError>) {
        match saved {
            Ok(()) => self.commits.inc(),
            Err(StoreError::Conflict { .. }) => self.conflicts.inc(),
            Err(StoreError::OutcomeUnknown { .. }) => self.unknown.inc(),
            Err(_) => self.failed.inc(),
        };
    }
}

/// A store that counts its commits in its server's metrics and is
/// otherwise the store underneath.
pub struct MeteredStore {
    inner: Arc<dyn ConversationContext>,
    counters: StoreCounters,
}

impl MeteredStore {
    /// `inner`, counted in `counters` (its server's,
    /// [`super::Metrics::store_counters`]).
    pub(crate) fn new(inner: Arc<dyn ConversationContext>, counters: StoreCounters) -> Self {
        Self { inner, counters }
    }
}

#[async_trait]
impl ConversationContext for MeteredStore {
    async fn load(&self, conversation: &str) -> Result<TodoState, StoreError> {
        self.inner.load(conversation).await
    }

    async fn save(&self, conversation: &str, expected: u64, state: &TodoState) -> Result<(), StoreError> {
        let saved = self.inner.save(conversation, expected, state).await;
        self.counters.count(&saved);
        saved
    }

    async fn load_shared(&self, conversation: &str) -> Result<Arc<TodoState>, StoreError> {
        self.inner.load_shared(conversation).await
    }

    async fn save_shared(
        &self,
        conversation: &str,
        expected: u64,
        state: Arc<TodoState>,
    ) -> Result<(), StoreError> {
        let saved = self.inner.save_shared(conversation, expected, state).await;
        self.counters.count(&saved);
        saved
    }

    fn is_durable(&self) -> bool {
        self.inner.is_durable()
    }

    async fn ready(&self) -> Result<(), StoreError> {
        self.inner.ready().await
    }

    async fn conversations(&self) -> Result<Vec<StoredConversation>, StoreError> {
        self.inner.conversations().await
    }

    async fn conversations_under(&self, prefix: &str) -> Result<Vec<StoredConversation>, StoreError> {
        self.inner.conversations_under(prefix).await
    }

    async fn forget(
        &self,
        conversation: &str,
        changed_before: Option<Timestamp>,
    ) -> Result<bool, StoreError> {
        let forgot = self.inner.forget(conversation, changed_before).await;
        if matches!(forgot, Ok(true)) {
            self.counters.forgotten.inc();
        }
        forgot
    }

    async fn prune(
        &self,
        prefix: &str,
        changed_before: Timestamp,
        dry_run: bool,
    ) -> Result<Pruned, StoreError> {
        let pruned = self.inner.prune(prefix, changed_before, dry_run).await;
        if let (Ok(pruned), false) = (&pruned, dry_run) {
            self.counters.forgotten.inc_by(pruned.forgotten.len() as u64);
            self.counters.not_forgotten.inc_by(pruned.failed.len() as u64);
        }
        pruned
    }

    async fn save_record(
        &self,
        conversation: &str,
        list_version: u64,
        expected: u64,
        record: Arc<TodoState>,
    ) -> Result<(), StoreError> {
        let saved = self
            .inner
            .save_record(conversation, list_version, expected, record)
            .await;
        self.counters.count(&saved);
        saved
    }

    fn connections(&self) -> Option<ConnectionUse> {
        self.inner.connections()
    }

    fn watch(&self, conversation: &str, wake: Wake) -> Option<WatchGuard> {
        self.inner.watch(conversation, wake)
    }

    fn watch_all(&self, wake: Wake) -> Option<WatchGuard> {
        self.inner.watch_all(wake)
    }
}
