//! A store that serves the same list on every load and lets saves go: a
//! workload that changes its list (W2's batch notes, completes and starts
//! tasks) is then measured on the same list every time, through the
//! service exactly as a host calls it.

use std::sync::Arc;

use async_trait::async_trait;
use todokit::TodoState;
use todokit::app::{ConversationContext, StoreError};

/// Every load gives `state`; every save succeeds and is dropped (as the
/// memory store drops the list a save replaces).
pub struct FixedStore {
    state: Arc<TodoState>,
}

impl FixedStore {
    /// A store that always holds `state`.
    pub fn new(state: TodoState) -> Self {
        Self {
            state: Arc::new(state),
        }
    }
}

#[async_trait]
impl ConversationContext for FixedStore {
    async fn load(&self, _conversation: &str) -> Result<TodoState, StoreError> {
        Ok(TodoState::clone(&self.state))
    }

    async fn load_shared(&self, _conversation: &str) -> Result<Arc<TodoState>, StoreError> {
        Ok(Arc::clone(&self.state))
    }

    async fn save(&self, _conversation: &str, _expected: u64, _state: &TodoState) -> Result<(), StoreError> {
        Ok(())
    }

    async fn save_shared(
        &self,
        _conversation: &str,
        _expected: u64,
        state: Arc<TodoState>,
    ) -> Result<(), StoreError> {
        drop(state);
        Ok(())
    }

    fn is_durable(&self) -> bool {
        false
    }
}
