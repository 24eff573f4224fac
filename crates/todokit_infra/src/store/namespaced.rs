//! One tenant's part of a shared store: conversation `ID` is kept as
//! `NAMESPACE/ID` in the store underneath, and the prefix is taken off
//! again on everything that comes back (listings, errors), so two tenants
//! may name a conversation alike without meeting, and neither can name the
//! other's: every id it gives is put under its own prefix.

use std::sync::Arc;

use async_trait::async_trait;
use todokit_app::{ConversationContext, StoreError, StoredConversation, Wake, WatchGuard};
use todokit_domain::TodoState;

/// The character between a namespace and a conversation id.
pub const NAMESPACE_SEPARATOR: char = '/';

/// A store that shows one namespace of another store.
#[derive(Clone)]
pub struct NamespacedStore {
    inner: Arc<dyn ConversationContext>,
    /// `NAMESPACE/`.
    prefix: String,
}

impl NamespacedStore {
    /// The `namespace` part of `inner`. The namespace is taken as given:
    /// the caller checks its form (the server admits `[a-z0-9_-]{1,32}`).
    pub fn new(inner: Arc<dyn ConversationContext>, namespace: &str) -> Self {
        Self {
            inner,
            prefix: format!("{namespace}{NAMESPACE_SEPARATOR}"),
        }
    }

    /// The id `conversation` has in the store underneath.
    pub fn stored_id(&self, conversation: &str) -> String {
        format!("{}{conversation}", self.prefix)
    }

    /// The tenant's id of a stored one, when it is in this namespace.
    fn local<'a>(&self, stored: &'a str) -> Option<&'a str> {
        stored.strip_prefix(&self.prefix)
    }

    /// `error` as the tenant should read it: ids without the prefix.
    fn local_error(&self, error: StoreError) -> StoreError {
        match error {
            StoreError::Conflict {
                conversation,
                expected,
                found,
            } => StoreError::Conflict {
                conversation: self.strip(conversation),
                expected,
                found,
            },
            StoreError::OutcomeUnknown {
                conversation,
                location,
                reason,
            } => StoreError::OutcomeUnknown {
                conversation: self.strip(conversation),
                location,
                reason,
            },
            other => other,
        }
    }

    fn strip(&self, conversation: String) -> String {
        match self.local(&conversation) {
            Some(local) => local.to_owned(),
            None => conversation,
        }
    }
}

impl std::fmt::Debug for NamespacedStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NamespacedStore")
            .field("prefix", &self.prefix)
            .finish_non_exhaustive()
    }
}

#[async_trait]
impl ConversationContext for NamespacedStore {
    async fn load(&self, conversation: &str) -> Result<TodoState, StoreError> {
        let stored = self.stored_id(conversation);
        self.inner.load(&stored).await.map_err(|e| self.local_error(e))
    }

    async fn save(&self, conversation: &str, expected: u64, state: &TodoState) -> Result<(), StoreError> {
        let stored = self.stored_id(conversation);
        self.inner
            .save(&stored, expected, state)
            .await
            .map_err(|e| self.local_error(e))
    }

    async fn load_shared(&self, conversation: &str) -> Result<Arc<TodoState>, StoreError> {
        let stored = self.stored_id(conversation);
        self.inner
            .load_shared(&stored)
            .await
            .map_err(|e| self.local_error(e))
    }

    async fn save_shared(
        &self,
        conversation: &str,
        expected: u64,
        state: Arc<TodoState>,
    ) -> Result<(), StoreError> {
        let stored = self.stored_id(conversation);
        self.inner
            .save_shared(&stored, expected, state)
            .await
            .map_err(|e| self.local_error(e))
    }

    fn is_durable(&self) -> bool {
        self.inner.is_durable()
    }

    async fn conversations(&self) -> Result<Vec<StoredConversation>, StoreError> {
        let listed = self.inner.conversations_under(&self.prefix).await?;
        Ok(listed
            .into_iter()
            .filter_map(|mut conversation| {
                conversation.id = self.local(&conversation.id)?.to_owned();
                conversation.summary = conversation.summary.map_err(|e| self.local_error(e));
                Some(conversation)
            })
            .collect())
    }

    async fn conversations_under(&self, prefix: &str) -> Result<Vec<StoredConversation>, StoreError> {
        let mut listed = self.conversations().await?;
        listed.retain(|conversation| conversation.id.starts_with(prefix));
        Ok(listed)
    }

    fn watch(&self, conversation: &str, wake: Wake) -> Option<WatchGuard> {
        self.inner.watch(&self.stored_id(conversation), wake)
    }

    /// Wakes on a commit in any namespace of the store underneath: a wake
    /// may be spurious, and the listener reads only this namespace.
    fn watch_all(&self, wake: Wake) -> Option<WatchGuard> {
        self.inner.watch_all(wake)
    }
}

#[cfg(test)]
mod tests {
    use pretty_assertions::assert_eq;
    use todokit_domain::Todo;

    use super::*;
    use crate::store::MemoryStore;

    fn listed_ids(listed: Vec<StoredConversation>) -> Vec<String> {
        let mut ids: Vec<String> = listed.into_iter().map(|c| c.id).collect();
        ids.sort();
        ids
    }

    /// A list of one task at version 1 (what a first save stores).
    fn one_todo(content: &str) -> TodoState {
        let mut state = TodoState::flat(vec![Todo::new(content)]);
        state.version = 1;
        state
    }

    #[tokio::test]
    async fn two_namespaces_share_names_without_meeting() {
        let shared: Arc<dyn ConversationContext> = Arc::new(MemoryStore::new());
        let acme = NamespacedStore::new(Arc::clone(&shared), "acme");
        let initech = NamespacedStore::new(Arc::clone(&shared), "initech");
        acme.save("default", 0, &one_todo("acme's")).await.unwrap();
        initech.save("default", 0, &one_todo("initech's")).await.unwrap();
        shared
            .save("plain", 0, &one_todo("the operator's"))
            .await
            .unwrap();

        let actual = (
            acme.load("default")
                .await
                .unwrap()
                .tasks()
                .map(|t| t.content.clone())
                .collect::<String>(),
            initech
                .load("default")
                .await
                .unwrap()
                .tasks()
                .map(|t| t.content.clone())
                .collect::<String>(),
            listed_ids(acme.conversations().await.unwrap()),
            listed_ids(shared.conversations().await.unwrap()),
        );
        let expected = (
            "acme's".to_owned(),
            "initech's".to_owned(),
            vec!["default".to_owned()],
            vec![
                "acme/default".to_owned(),
                "initech/default".to_owned(),
                "plain".to_owned(),
            ],
        );
        assert_eq!(actual, expected);
    }

    #[tokio::test]
    async fn a_tenant_cannot_climb_out_of_its_namespace() {
        let shared: Arc<dyn ConversationContext> = Arc::new(MemoryStore::new());
        let acme = NamespacedStore::new(Arc::clone(&shared), "acme");
        let initech = NamespacedStore::new(Arc::clone(&shared), "initech");
        initech.save("secret", 0, &one_todo("initech's")).await.unwrap();

        // Naming the other's stored id, or a path up, stays inside acme.
        let actual = (
            acme.load("initech/secret").await.unwrap().version,
            acme.load("../initech/secret").await.unwrap().version,
            listed_ids(shared.conversations_under("acme/").await.unwrap()),
        );
        let expected = (0, 0, Vec::<String>::new());
        assert_eq!(actual, expected);
    }

    #[tokio::test]
    async fn a_conflict_names_the_tenants_own_id() {
        let shared: Arc<dyn ConversationContext> = Arc::new(MemoryStore::new());
        let acme = NamespacedStore::new(shared, "acme");
        acme.save("default", 0, &one_todo("first")).await.unwrap();

        let actual = acme
            .save("default", 0, &one_todo("second"))
            .await
            .map_err(|e| e.to_string());
        let expected = Err(
            "conversation \"default\" changed while this call ran (expected version 0, found 1)".to_owned(),
        );
        assert_eq!(actual, expected);
    }
}
