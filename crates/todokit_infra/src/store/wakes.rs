//! The store-wide watches of one store ([`ConversationContext::watch_all`]):
//! a set of wake-ups that every change rings, each registered until its
//! guard is dropped.
//!
//! [`ConversationContext::watch_all`]: todokit_app::ConversationContext::watch_all

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, PoisonError, Weak};

use todokit_app::{Wake, WatchGuard};

/// Wake-ups registered with a store, shared by its clones.
#[derive(Default)]
pub struct Wakes {
    registered: Mutex<(u64, BTreeMap<u64, Wake>)>,
}

impl std::fmt::Debug for Wakes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Wakes").field("watching", &self.len()).finish()
    }
}

impl Wakes {
    /// Registers `wake` until the returned guard is dropped.
    pub fn add(self: &Arc<Self>, wake: Wake) -> WatchGuard {
        let id = {
            let mut registered = self.registered.lock().unwrap_or_else(PoisonError::into_inner);
            registered.0 += 1;
            let id = registered.0;
            registered.1.insert(id, wake);
            id
        };
        WatchGuard::new(Unregister {
            wakes: Arc::downgrade(self),
            id,
        })
    }

    /// Calls every registered wake-up (outside the lock, so a wake-up may
    /// register or drop watches).
    pub fn ring(&self) {
        let wakes: Vec<Wake> = self
            .registered
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .1
            .values()
            .cloned()
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
    fn a_ring_reaches_every_live_watch_and_none_that_was_dropped() {
        let wakes = Arc::new(Wakes::default());
        let count = Arc::new(AtomicUsize::new(0));
        let counter = |count: &Arc<AtomicUsize>| -> Wake {
            let count = Arc::clone(count);
            Arc::new(move || {
                count.fetch_add(1, Ordering::SeqCst);
            })
        };
        let kept = wakes.add(counter(&count));
        let dropped = wakes.add(counter(&count));
        wakes.ring();
        drop(dropped);
        wakes.ring();
        let actual = (count.load(Ordering::SeqCst), wakes.len());
        drop(kept);
        let expected = (3, 1);
        assert_eq!((actual, wakes.is_empty()), (expected, true));
    }
}
