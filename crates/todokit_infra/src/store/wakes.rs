//! The watches of one store: wake-ups for one conversation
//! ([`ConversationContext::watch`]) or for all of them
//! ([`ConversationContext::watch_all`]), each registered until its guard is
//! dropped.
//!
//! [`ConversationContext::watch`]: todokit_app::ConversationContext::watch
//! [`ConversationContext::watch_all`]: todokit_app::ConversationContext::watch_all

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, PoisonError, Weak};

use todokit_app::{Wake, WatchGuard};

/// Each watch by id, with the conversation it watches (`None`: all).
type Registered = BTreeMap<u64, (Option<String>, Wake)>;

/// Wake-ups registered with a store, shared by its clones.
#[derive(Default)]
pub struct Wakes {
    /// The last id handed out, and each watch by id with the conversation
    /// it watches (`None`: all of them).
    registered: Mutex<(u64, Registered)>,
}

impl std::fmt::Debug for Wakes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Wakes").field("watching", &self.len()).finish()
    }
}

impl Wakes {
    /// Registers `wake` for `conversation` (`None`: every conversation)
    /// until the returned guard is dropped.
    pub fn add(self: &Arc<Self>, conversation: Option<&str>, wake: Wake) -> WatchGuard {
        let id = {
            let mut registered = self.registered.lock().unwrap_or_else(PoisonError::into_inner);
            registered.0 += 1;
            let id = registered.0;
            registered.1.insert(id, (conversation.map(str::to_owned), wake));
            id
        };
        WatchGuard::new(Unregister {
            wakes: Arc::downgrade(self),
            id,
        })
    }

    /// Calls the wake-ups of `conversation` and those of every
    /// conversation (`None`: all of them), outside the lock, so a wake-up
    /// may register or drop watches.
    pub fn ring(&self, conversation: Option<&str>) {
        let wakes: Vec<Wake> = self
            .registered
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .1
            .values()
            .filter(|(watched, _)| {
                watched.is_none() || conversation.is_none() || watched.as_deref() == conversation
            })
            .map(|(_, wake)| Arc::clone(wake))
            .collect();
        for wake in wakes {
            wake();
        }
    }

    /// How many watches are registered.
    pub fn len(&self) -> usize {
        self.registered
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .1
            .len()
    }

    /// True when no watch is registered.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Takes one wake-up off its set when dropped.
struct Unregister {
    wakes: Weak<Wakes>,
    id: u64,
}

impl Drop for Unregister {
    fn drop(&mut self) {
        if let Some(wakes) = self.wakes.upgrade() {
            wakes
                .registered
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .1
                .remove(&self.id);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn a_ring_reaches_the_watches_of_its_conversation_and_of_all_and_none_that_was_dropped() {
        let wakes = Arc::new(Wakes::default());
        let counter = |count: &Arc<AtomicUsize>| -> Wake {
            let count = Arc::clone(count);
            Arc::new(move || {
                count.fetch_add(1, Ordering::SeqCst);
            })
        };
        let (a, b, all) = (Arc::default(), Arc::default(), Arc::default());
        let _a = wakes.add(Some("a"), counter(&a));
        let b_guard = wakes.add(Some("b"), counter(&b));
        let _all = wakes.add(None, counter(&all));
        wakes.ring(Some("a"));
        drop(b_guard);
        wakes.ring(Some("b"));
        wakes.ring(None);
        let load = |c: &Arc<AtomicUsize>| c.load(Ordering::SeqCst);
        let actual = (load(&a), load(&b), load(&all), wakes.len());
        assert_eq!(actual, (2, 0, 3, 2));
    }
}
