//! A store that keeps every list in process memory: for tests, demos and
//! hosts that persist conversations themselves.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use todokit_app::{ConversationContext, StoreError, StoredConversation};
use todokit_domain::{Timestamp, TodoState};

/// Lists in a map behind a mutex, each with the time it last changed;
/// nothing survives the process.
#[derive(Debug, Default)]
pub struct MemoryStore {
    lists: Mutex<HashMap<String, (Arc<TodoState>, Timestamp)>>,
}

impl MemoryStore {
    /// An empty store.
    pub fn new() -> Self {
        Self::default()
    }

    fn lists(&self) -> std::sync::MutexGuard<'_, HashMap<String, (Arc<TodoState>, Timestamp)>> {
        // A panic while holding the lock cannot leave a half-written entry
        // (entries are replaced whole), so a poisoned map is still sound.
        self.lists.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

#[async_trait]
impl ConversationContext for MemoryStore {
    async fn load(&self, conversation: &str) -> Result<TodoState, StoreError> {
        Ok(self
            .lists()
            .get(conversation)
            .map(|(state, _)| TodoState::clone(state))
            .unwrap_or_default())
    }

    async fn load_shared(&self, conversation: &str) -> Result<Arc<TodoState>, StoreError> {
        Ok(self
            .lists()
            .get(conversation)
            .map(|(state, _)| Arc::clone(state))
            .unwrap_or_default())
    }

    async fn save(&self, conversation: &str, expected: u64, state: &TodoState) -> Result<(), StoreError> {
        self.save_owned(conversation, expected, state.clone()).await
    }

    async fn save_owned(
        &self,
        conversation: &str,
        expected: u64,
        state: TodoState,
    ) -> Result<(), StoreError> {
        let mut lists = self.lists();
        let found = lists.get(conversation).map_or(0, |(s, _)| s.version);
        if found != expected {
            return Err(StoreError::Conflict {
                conversation: conversation.to_owned(),
                expected,
                found,
            });
        }
        let changed_at = crate::clock::now_millis();
        match lists.get_mut(conversation) {
            // No new key for a conversation already stored.
            Some(entry) => *entry = (Arc::new(state), changed_at),
            None => {
                lists.insert(conversation.to_owned(), (Arc::new(state), changed_at));
            }
        }
        Ok(())
    }

    fn is_durable(&self) -> bool {
        false
    }

    async fn conversations(&self) -> Result<Vec<StoredConversation>, StoreError> {
        Ok(self
            .lists()
            .iter()
            .map(|(id, (state, changed_at))| StoredConversation {
                id: id.clone(),
                changed_at: Some(*changed_at),
                state: Ok(TodoState::clone(state)),
            })
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;
    use todokit_domain::Todo;

    #[tokio::test]
    async fn save_then_load_and_refuse_a_stale_version() {
        let fixture = MemoryStore::new();
        let state = TodoState::flat(vec![Todo::new("a")]).version(1u64);
        fixture.save("c", 0, &state).await.unwrap();
        let stale = fixture.save("c", 0, &state).await;
        let actual = (
            fixture.load("c").await.unwrap(),
            fixture.load("other").await.unwrap(),
            matches!(
                stale,
                Err(StoreError::Conflict {
                    expected: 0,
                    found: 1,
                    ..
                })
            ),
        );
        let expected = (state, TodoState::new(), true);
        assert_eq!(actual, expected);
    }
}
