//! The wake-ups of live feeds: each feed holds an [`Alarm`], and every
//! commit through the service rings the alarms of its conversation.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError, Weak};
use std::task::Waker;

/// A wake-up shared by a feed, its polling thread and the service's
/// commits.
#[derive(Debug, Default)]
pub(super) struct Alarm {
    pub(super) rung: AtomicBool,
    pub(super) stopped: AtomicBool,
    pub(super) waker: Mutex<Option<Waker>>,
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
pub(super) type Alarms = Arc<Mutex<HashMap<String, Vec<Weak<Alarm>>>>>;

/// Rings every feed of `conversation`, dropping the ones that are gone.
pub(super) fn ring_all(alarms: &Alarms, conversation: &str) {
    let mut alarms = alarms.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(feeds) = alarms.get_mut(conversation) {
        feeds.retain(|feed| match feed.upgrade() {
            Some(alarm) => {
                alarm.ring();
                true
            }
            None => false,
        });
        if feeds.is_empty() {
            alarms.remove(conversation);
        }
    }
}

/// Takes `alarm` (a feed being dropped) off `conversation`'s feeds, with any
/// other feed already gone, and the conversation off the map when none is
/// left.
pub(super) fn forget(alarms: &Alarms, conversation: &str, alarm: &Arc<Alarm>) {
    let mut alarms = alarms.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(feeds) = alarms.get_mut(conversation) {
        feeds.retain(|feed| feed.upgrade().is_some_and(|other| !Arc::ptr_eq(&other, alarm)));
        if feeds.is_empty() {
            alarms.remove(conversation);
        }
    }
}
