//! Helpers shared by this crate's tests. The tests that need a dialect
//! live with the dialects (`todokit_dialects`), which this crate cannot
//! name.

use std::path::Path;

/// insta settings that write snapshots to the workspace's `snapshots/`.
pub fn snapshot_settings() -> insta::Settings {
    let mut settings = insta::Settings::clone_current();
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(2)
        .expect("crates live two levels below the workspace root");
    settings.set_snapshot_path(workspace.join("snapshots"));
    settings.set_omit_expression(true);
    settings
}

/// The time a tool test runs at.
pub const NOW: u64 = 1_700_000_000_000;

/// The message of every problem an error result reports.
pub fn problem_messages(outcome: &crate::tool::Outcome) -> Vec<String> {
    outcome.result.details.value()["error"]["problems"]
        .as_array()
        .map(|ps| {
            ps.iter()
                .map(|p| p["message"].as_str().unwrap_or_default().to_owned())
                .collect()
        })
        .unwrap_or_default()
}

/// A store that keeps lists in a map, each with the time it last changed
/// when a test said (`None` for a list the service saved), for the
/// service's own tests (the real stores live in the infra crate, which
/// depends on this one).
#[derive(Default)]
pub struct MapStore(
    std::sync::Mutex<std::collections::HashMap<String, (todokit_domain::TodoState, Option<u64>)>>,
);

impl MapStore {
    fn lists(
        &self,
    ) -> std::sync::MutexGuard<'_, std::collections::HashMap<String, (todokit_domain::TodoState, Option<u64>)>>
    {
        self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Stores `state` for `conversation` as last changed `at`.
    pub fn put(&self, conversation: &str, state: todokit_domain::TodoState, at: u64) {
        self.lists().insert(conversation.to_owned(), (state, Some(at)));
    }

    /// The stored ids, sorted.
    pub fn ids(&self) -> Vec<String> {
        let mut ids: Vec<String> = self.lists().keys().cloned().collect();
        ids.sort();
        ids
    }
}

#[async_trait::async_trait]
impl crate::context::ConversationContext for MapStore {
    async fn load(
        &self,
        conversation: &str,
    ) -> Result<todokit_domain::TodoState, crate::context::StoreError> {
        Ok(self
            .lists()
            .get(conversation)
            .map(|(state, _)| state.clone())
            .unwrap_or_default())
    }

    async fn save(
        &self,
        conversation: &str,
        expected: u64,
        state: &todokit_domain::TodoState,
    ) -> Result<(), crate::context::StoreError> {
        let mut lists = self.lists();
        let found = lists.get(conversation).map_or(0, |(s, _)| s.version);
        if found != expected {
            return Err(crate::context::StoreError::Conflict {
                conversation: conversation.to_owned(),
                expected,
                found,
            });
        }
        lists.insert(conversation.to_owned(), (state.clone(), None));
        Ok(())
    }

    fn is_durable(&self) -> bool {
        false
    }

    async fn conversations(
        &self,
    ) -> Result<Vec<crate::context::StoredConversation>, crate::context::StoreError> {
        Ok(self
            .lists()
            .iter()
            .map(|(id, (state, at))| crate::context::StoredConversation {
                id: id.clone(),
                changed_at: *at,
                summary: Ok(state.summary()),
            })
            .collect())
    }

    async fn forget(
        &self,
        conversation: &str,
        changed_before: Option<u64>,
    ) -> Result<bool, crate::context::StoreError> {
        let mut lists = self.lists();
        let idle = |at: &Option<u64>| changed_before.is_none_or(|before| at.is_some_and(|at| at < before));
        let record = todokit_domain::turn::turn_key(conversation);
        let go = match lists.get(conversation) {
            Some((_, at)) => idle(at),
            None => lists.get(&record).is_some_and(|(_, at)| idle(at)),
        };
        if !go {
            return Ok(false);
        }
        let list = lists.remove(conversation).is_some();
        Ok(lists.remove(&record).is_some() || list)
    }

    async fn save_record(
        &self,
        conversation: &str,
        list_version: u64,
        expected: u64,
        record: std::sync::Arc<todokit_domain::TodoState>,
    ) -> Result<(), crate::context::StoreError> {
        let mut lists = self.lists();
        let key = todokit_domain::turn::turn_key(conversation);
        for (id, want) in [(conversation, list_version), (key.as_str(), expected)] {
            let found = lists.get(id).map_or(0, |(s, _)| s.version);
            if found != want {
                return Err(crate::context::StoreError::Conflict {
                    conversation: id.to_owned(),
                    expected: want,
                    found,
                });
            }
        }
        lists.insert(key, ((*record).clone(), None));
        Ok(())
    }
}

/// A service for a profile with no tools over `store`, on `clock`.
pub fn service_over(
    store: std::sync::Arc<dyn crate::context::ConversationContext>,
    clock: std::sync::Arc<crate::clock::ManualClock>,
) -> crate::service::TodoWriteService {
    crate::service::TodoWriteService::new(
        crate::profile::Profile::new(
            "bare",
            "a profile with no tools",
            todokit_domain::ListRules::default(),
        ),
        store,
        clock,
    )
}

/// A service for a profile with no tools over a [`MapStore`]: for tests of
/// the service's own machinery, which this crate tests without a dialect.
pub fn bare_service() -> crate::service::TodoWriteService {
    service_over(
        std::sync::Arc::new(MapStore::default()),
        std::sync::Arc::new(crate::clock::ManualClock::new(0)),
    )
}
