//! The wake-ups of live feeds: each feed holds an [`Alarm`], every commit
//! through the service rings the alarms of its conversation, and the store
//! rings them for commits made elsewhere. A feed on a store that cannot
//! say when a conversation changed is rung by one timer thread per service
//! (not one per feed), alive while such feeds exist.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError, Weak};
use std::task::Waker;
use std::time::Duration;

/// A wake-up shared by a feed, the service's commits and the store's watch
/// (or the service's timer).
#[derive(Debug, Default)]
pub(super) struct Alarm {
    pub(super) rung: AtomicBool,
    pub(super) waker: Mutex<Option<Waker>>,
    /// Rung by the timer: the store cannot say when its conversation changed.
    pub(super) polled: AtomicBool,
}

impl Alarm {
    /// Marks the feed due for a check and wakes whoever polls it.
    pub(super) fn ring(&self) {
        self.rung.store(true, Ordering::SeqCst);
        let waker = self.waker.lock().unwrap_or_else(PoisonError::into_inner).take();
        if let Some(waker) = waker {
            waker.wake();
        }
    }
}

/// The feeds of each conversation, so a commit can ring them.
#[derive(Debug, Default)]
pub(super) struct Alarms {
    pub(super) feeds: Mutex<HashMap<String, Vec<Weak<Alarm>>>>,
    /// True while the timer thread runs.
    ticking: Mutex<bool>,
}

impl Alarms {
    fn feeds(&self) -> std::sync::MutexGuard<'_, HashMap<String, Vec<Weak<Alarm>>>> {
        self.feeds.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Registers `alarm` as a feed of `conversation`.
    pub(super) fn add(&self, conversation: &str, alarm: &Arc<Alarm>) {
        self.feeds()
            .entry(conversation.to_owned())
            .or_default()
            .push(Arc::downgrade(alarm));
    }

    /// Rings every feed of `conversation`, dropping the ones that are gone.
    pub(super) fn ring(&self, conversation: &str) {
        let mut feeds = self.feeds();
        if let Some(alarms) = feeds.get_mut(conversation) {
            alarms.retain(|feed| match feed.upgrade() {
                Some(alarm) => {
                    alarm.ring();
                    true
                }
                None => false,
            });
            if alarms.is_empty() {
                feeds.remove(conversation);
            }
        }
    }

    /// Takes `alarm` (a feed being dropped) off `conversation`'s feeds,
    /// with any other feed already gone, and the conversation off the map
    /// when none is left.
    pub(super) fn forget(&self, conversation: &str, alarm: &Arc<Alarm>) {
        let mut feeds = self.feeds();
        if let Some(alarms) = feeds.get_mut(conversation) {
            alarms.retain(|feed| feed.upgrade().is_some_and(|other| !Arc::ptr_eq(&other, alarm)));
            if alarms.is_empty() {
                feeds.remove(conversation);
            }
        }
    }

    /// Starts the timer thread, rung every `interval`, unless it runs. It
    /// holds only a weak handle and ends when no polled feed is left.
    pub(super) fn start_ticking(self: &Arc<Self>, interval: Duration) {
        let mut ticking = self.ticking.lock().unwrap_or_else(PoisonError::into_inner);
        if *ticking {
            return;
        }
        let alarms = Arc::downgrade(self);
        let spawned = std::thread::Builder::new()
            .name("todokit-subscribe".to_owned())
            .spawn(move || {
                loop {
                    std::thread::sleep(interval);
                    match alarms.upgrade() {
                        Some(alarms) if alarms.tick() => {}
                        _ => break,
                    }
                }
            });
        *ticking = spawned.is_ok();
    }

    /// Rings every polled feed; false (and the timer marked stopped) when
    /// there is none.
    fn tick(&self) -> bool {
        // The timer's flag is taken first, as `start_ticking` takes it, so
        // a feed added meanwhile either is seen here or starts a new timer.
        let mut ticking = self.ticking.lock().unwrap_or_else(PoisonError::into_inner);
        let polled: Vec<Arc<Alarm>> = self
            .feeds()
            .values()
            .flatten()
            .filter_map(Weak::upgrade)
            .filter(|alarm| alarm.polled.load(Ordering::SeqCst))
            .collect();
        if polled.is_empty() {
            *ticking = false;
            return false;
        }
        drop(ticking);
        for alarm in polled {
            alarm.ring();
        }
        true
    }
}
