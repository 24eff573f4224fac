//! A store that keeps every list in process memory: for tests, demos and
//! hosts that persist conversations themselves.
//!
//! The conversations used last stay ready to hand out; the others are kept
//! packed (see `packed`), about a fifth of the memory, and unpacked on their
//! next use. A packed list keeps its summary beside it (made when it is
//! packed, off the path of a call), so listing unpacks nothing;
//! every commit rings the watches of its conversation and of all (`watch`,
//! `watch_all`).

mod packed;

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, MutexGuard};

use async_trait::async_trait;
use todokit_app::{ConversationContext, StoreError, StoredConversation, Wake, WatchGuard};
use todokit_domain::turn::turn_key;
use todokit_domain::{ListSummary, Timestamp, TodoState};

use super::wakes::Wakes;

/// How many conversations a [`MemoryStore`] keeps ready by default; the
/// rest are packed until they are used again.
pub const DEFAULT_READY_CONVERSATIONS: usize = 8;

/// Lists in a map behind a mutex, each with the time it last changed;
/// nothing survives the process.
#[derive(Debug)]
pub struct MemoryStore {
    inner: Mutex<Lists>,
    /// Watches, rung by every commit.
    wakes: Arc<Wakes>,
}

#[derive(Debug, Default)]
struct Lists {
    entries: HashMap<String, Entry>,
    /// The conversations kept ready, least recently used first; at most
    /// `ready_limit` of them.
    ready: VecDeque<String>,
    ready_limit: usize,
}

#[derive(Debug)]
struct Entry {
    list: Kept,
    /// The list's version, for the compare-and-swap.
    version: u64,
    changed_at: Timestamp,
}

#[derive(Debug)]
enum Kept {
    Ready(Arc<TodoState>),
    /// The packed list and its summary, so that listing unpacks nothing.
    Packed(Box<[u8]>, ListSummary),
}

impl Kept {
    /// `state` packed, with its summary.
    fn packed(state: &TodoState) -> Self {
        Self::Packed(packed::pack(state), state.summary())
    }
}

impl Default for MemoryStore {
    fn default() -> Self {
        Self::with_ready_limit(DEFAULT_READY_CONVERSATIONS)
    }
}

impl MemoryStore {
    /// An empty store that keeps the [`DEFAULT_READY_CONVERSATIONS`] used
    /// last ready.
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty store that keeps the `limit` conversations used last ready
    /// and packs the others (0: every list is packed as soon as it is
    /// saved, the least memory and an unpacking on every load).
    pub fn with_ready_limit(limit: usize) -> Self {
        Self {
            inner: Mutex::new(Lists {
                ready_limit: limit,
                ..Lists::default()
            }),
            wakes: Arc::default(),
        }
    }

    fn lists(&self) -> MutexGuard<'_, Lists> {
        // A panic while holding the lock cannot leave a half-written entry
        // (entries are replaced whole), so a poisoned map is still sound.
        self.inner.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

impl Lists {
    /// The stored version of `conversation` (0: none stored).
    fn version_of(&self, conversation: &str) -> u64 {
        self.entries.get(conversation).map_or(0, |entry| entry.version)
    }

    /// Stores `state` for `conversation` when the stored version is still
    /// `expected`.
    fn put(&mut self, conversation: &str, expected: u64, state: Arc<TodoState>) -> Result<(), StoreError> {
        let found = self.version_of(conversation);
        if found != expected {
            return Err(StoreError::Conflict {
                conversation: conversation.to_owned(),
                expected,
                found,
            });
        }
        let entry = Entry {
            version: state.version,
            list: if self.ready_limit == 0 {
                Kept::packed(&state)
            } else {
                Kept::Ready(state)
            },
            changed_at: crate::clock::now_millis(),
        };
        match self.entries.get_mut(conversation) {
            // No new key for a conversation already stored.
            Some(stored) => *stored = entry,
            None => {
                self.entries.insert(conversation.to_owned(), entry);
            }
        }
        if self.ready_limit > 0 {
            self.touch(conversation);
        }
        Ok(())
    }

    /// The stored list of `conversation`, unpacked if it was packed (and
    /// then kept ready); an empty list if none is stored.
    fn get(&mut self, conversation: &str) -> Result<Arc<TodoState>, StoreError> {
        let Some(entry) = self.entries.get_mut(conversation) else {
            return Ok(Arc::default());
        };
        let state = match &entry.list {
            Kept::Ready(state) => {
                let state = Arc::clone(state);
                self.touch(conversation);
                return Ok(state);
            }
            Kept::Packed(bytes, _) => Arc::new(unpack(conversation, bytes)?),
        };
        if self.ready_limit > 0 {
            entry.list = Kept::Ready(Arc::clone(&state));
            self.touch(conversation);
        }
        Ok(state)
    }

    /// Marks `conversation` (whose list is ready) as used last, and packs
    /// the least recently used lists beyond the limit.
    fn touch(&mut self, conversation: &str) {
        match self.ready.iter().position(|name| name == conversation) {
            Some(at) if at + 1 == self.ready.len() => return,
            Some(at) => {
                if let Some(name) = self.ready.remove(at) {
                    self.ready.push_back(name);
                }
            }
            None => self.ready.push_back(conversation.to_owned()),
        }
        while self.ready.len() > self.ready_limit {
            let Some(oldest) = self.ready.pop_front() else {
                break;
            };
            if let Some(entry) = self.entries.get_mut(&oldest)
                && let Kept::Ready(state) = &entry.list
            {
                entry.list = Kept::packed(state);
            }
        }
    }
}

/// Unpacks the list of `conversation`, naming it in the error.
fn unpack(conversation: &str, bytes: &[u8]) -> Result<TodoState, StoreError> {
    packed::unpack(bytes).map_err(|error| StoreError::Corrupt {
        location: format!("memory:{conversation}"),
        reason: error.to_string(),
    })
}

#[async_trait]
impl ConversationContext for MemoryStore {
    async fn load(&self, conversation: &str) -> Result<TodoState, StoreError> {
        let state = self.lists().get(conversation)?;
        Ok(Arc::unwrap_or_clone(state))
    }

    async fn load_shared(&self, conversation: &str) -> Result<Arc<TodoState>, StoreError> {
        self.lists().get(conversation)
    }

    async fn save(&self, conversation: &str, expected: u64, state: &TodoState) -> Result<(), StoreError> {
        self.save_shared(conversation, expected, Arc::new(state.clone()))
            .await
    }

    async fn save_shared(
        &self,
        conversation: &str,
        expected: u64,
        state: Arc<TodoState>,
    ) -> Result<(), StoreError> {
        self.lists().put(conversation, expected, state)?;
        self.wakes.ring(Some(conversation));
        Ok(())
    }

    /// The list's version checked and the record written under one lock.
    async fn save_record(
        &self,
        conversation: &str,
        list_version: u64,
        expected: u64,
        record: Arc<TodoState>,
    ) -> Result<(), StoreError> {
        let key = turn_key(conversation);
        let mut lists = self.lists();
        let found = lists.version_of(conversation);
        if found != list_version {
            return Err(StoreError::Conflict {
                conversation: conversation.to_owned(),
                expected: list_version,
                found,
            });
        }
        lists.put(&key, expected, record)?;
        drop(lists);
        self.wakes.ring(Some(&key));
        Ok(())
    }

    fn is_durable(&self) -> bool {
        false
    }

    async fn conversations(&self) -> Result<Vec<StoredConversation>, StoreError> {
        let lists = self.lists();
        Ok(lists
            .entries
            .iter()
            .map(|(id, entry)| StoredConversation {
                id: id.clone(),
                changed_at: Some(entry.changed_at),
                summary: Ok(match &entry.list {
                    Kept::Ready(state) => state.summary(),
                    Kept::Packed(_, summary) => summary.clone(),
                }),
            })
            .collect())
    }

    async fn forget(
        &self,
        conversation: &str,
        changed_before: Option<Timestamp>,
    ) -> Result<bool, StoreError> {
        let key = turn_key(conversation);
        let mut lists = self.lists();
        // The list's time decides; a record with no list, its own.
        let decides = match lists.entries.get(conversation) {
            Some(entry) => Some(entry),
            None => lists.entries.get(&key),
        };
        let idle = decides.is_some_and(|entry| changed_before.is_none_or(|before| entry.changed_at < before));
        if !idle {
            return Ok(false);
        }
        for id in [conversation, key.as_str()] {
            lists.entries.remove(id);
            lists.ready.retain(|name| name != id);
        }
        drop(lists);
        self.wakes.ring(Some(conversation));
        self.wakes.ring(Some(&key));
        Ok(true)
    }

    /// Woken by the commits of this store (the only writer of its lists).
    fn watch(&self, conversation: &str, wake: Wake) -> Option<WatchGuard> {
        Some(self.wakes.add(Some(conversation), wake))
    }

    fn watch_all(&self, wake: Wake) -> Option<WatchGuard> {
        Some(self.wakes.add(None, wake))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::{
        lifecycle_contract, lifecycle_expected, racing_record, record_contract, record_expected,
    };
    use pretty_assertions::assert_eq;

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn lists_and_their_turn_records_are_forgotten_and_pruned_together() {
        let store = Arc::new(MemoryStore::new());
        let seen = (
            lifecycle_contract(&*store, "m").await,
            record_contract(&*store, "r").await,
            racing_record(Arc::clone(&store) as Arc<dyn ConversationContext>, "raced", 40).await,
        );
        let expected = (lifecycle_expected(), record_expected(), 0);
        assert_eq!(seen, expected);
    }
    use todokit_domain::{Status, Todo};

    fn list(content: &str, version: u64) -> TodoState {
        TodoState::flat(vec![
            Todo::new(content).status(Status::InProgress).created_at(7u64),
        ])
        .version(version)
    }

    /// Which conversations are kept packed, sorted.
    fn packed_ones(store: &MemoryStore) -> Vec<String> {
        let lists = store.lists();
        let mut names: Vec<_> = lists
            .entries
            .iter()
            .filter(|(_, entry)| matches!(entry.list, Kept::Packed(..)))
            .map(|(name, _)| name.clone())
            .collect();
        names.sort();
        names
    }

    #[tokio::test]
    async fn save_then_load_and_refuse_a_stale_version() {
        let fixture = MemoryStore::new();
        let state = list("a", 1);
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

    #[tokio::test]
    async fn lists_beyond_the_ready_limit_are_packed_and_read_back_whole() {
        let fixture = MemoryStore::with_ready_limit(2);
        for (name, content) in [("a", "first"), ("b", "second"), ("c", "third")] {
            fixture.save(name, 0, &list(content, 1)).await.unwrap();
        }
        let after_saves = packed_ones(&fixture);
        // A packed list keeps its version for the compare-and-swap.
        let stale = fixture.save("a", 0, &list("again", 1)).await.is_err();
        let a = fixture.load_shared("a").await.unwrap();
        let after_loading_a = packed_ones(&fixture);
        let mut listed: Vec<_> = fixture
            .conversations()
            .await
            .unwrap()
            .into_iter()
            .map(|conversation| (conversation.id, conversation.summary.unwrap()))
            .collect();
        listed.sort_by(|x, y| x.0.cmp(&y.0));
        let actual = (after_saves, stale, TodoState::clone(&a), after_loading_a, listed);
        let expected = (
            vec!["a".to_owned()],
            true,
            list("first", 1),
            vec!["b".to_owned()],
            vec![
                ("a".to_owned(), list("first", 1).summary()),
                ("b".to_owned(), list("second", 1).summary()),
                ("c".to_owned(), list("third", 1).summary()),
            ],
        );
        assert_eq!(actual, expected);
    }

    #[tokio::test]
    async fn a_limit_of_zero_keeps_every_list_packed() {
        let fixture = MemoryStore::with_ready_limit(0);
        fixture.save("a", 0, &list("first", 1)).await.unwrap();
        let loaded = fixture.load("a").await.unwrap();
        fixture.save("a", 1, &list("second", 2)).await.unwrap();
        let actual = (loaded, fixture.load("a").await.unwrap(), packed_ones(&fixture));
        let expected = (list("first", 1), list("second", 2), vec!["a".to_owned()]);
        assert_eq!(actual, expected);
    }

    #[tokio::test]
    async fn forgotten_and_pruned_lists_go_and_a_racing_writer_keeps_its_list_whole() {
        let store = Arc::new(MemoryStore::with_ready_limit(1));
        let seen = crate::test_support::lifecycle_contract(store.as_ref(), "m").await;
        let (tasks, version) = crate::test_support::racing_forget(store.clone(), "raced").await;
        let actual = (seen, tasks as u64 == version, store.lists().ready.len() <= 1);
        let expected = (crate::test_support::lifecycle_expected(), true, true);
        assert_eq!(actual, expected);
    }
}
