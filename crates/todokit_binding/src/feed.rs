//! [`Feed`]: a conversation's [`Subscription`] as a binding follows it,
//! polled by hand from the host's own thread.
//!
//! The store's watch wakes the feed from a thread of its own; the wake
//! only calls the binding's `wake` function, which must not run the host's
//! code there (Python sets a flag and writes a byte to a pipe its loop
//! watches; Node queues a call through a thread-safe function). The host
//! then calls [`Feed::poll`] on its own thread. Closing a feed (or its
//! kit, through a [`FeedCloser`]) wakes it once more so a waiter sees the
//! end.

use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError, Weak};
use std::task::{Context, Poll, Waker};

use crate::Handle;
use futures_core::Stream;
use todokit::app::{ServiceError, Subscription};
use todokit::domain::TodoState;

/// What a feed's waker reaches: the binding's wake and whether the feed
/// ended. Shared by the feed, the store's watch (through the waker) and
/// the kit (through a [`FeedCloser`]).
struct Signal {
    wake: Box<dyn Fn() + Send + Sync>,
    closed: AtomicBool,
}

impl Signal {
    fn close(&self) {
        self.closed.store(true, Ordering::SeqCst);
        (self.wake)();
    }
}

impl std::task::Wake for Signal {
    fn wake(self: Arc<Self>) {
        (self.wake)();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        (self.wake)();
    }
}

/// What one [`Feed::poll`] found.
#[derive(Debug, Clone, PartialEq)]
pub enum Polled {
    /// A state to hand over (as `todokit show --format json` writes it).
    State(Box<TodoState>),
    /// Nothing yet: the feed's wake will be called when there may be.
    Pending,
    /// The feed ended (closed, its kit closed, or the store's watch over).
    Closed,
}

/// One open subscription, polled by hand.
pub struct Feed {
    subscription: Mutex<Option<Subscription>>,
    handle: Handle,
    signal: Arc<Signal>,
}

impl std::fmt::Debug for Feed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Feed")
            .field("closed", &self.is_closed())
            .finish_non_exhaustive()
    }
}

/// Closes a feed from elsewhere (its kit's `close()`), without keeping it
/// alive.
#[derive(Clone)]
pub struct FeedCloser(Weak<Signal>);

impl std::fmt::Debug for FeedCloser {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("FeedCloser").finish_non_exhaustive()
    }
}

impl FeedCloser {
    /// Ends the feed, if it is still there: its next poll is
    /// [`Polled::Closed`], and its wake is called once more.
    pub fn close(&self) {
        if let Some(signal) = self.0.upgrade() {
            signal.close();
        }
    }

    /// Whether the feed is gone (dropped), so its kit may forget it.
    pub fn is_gone(&self) -> bool {
        self.0.strong_count() == 0
    }
}

impl Feed {
    /// A feed of `conversation` on `handle`'s store; `wake` is called from
    /// the store's threads whenever the feed may have something.
    pub fn open(handle: Handle, conversation: &str, wake: impl Fn() + Send + Sync + 'static) -> Self {
        let subscription = handle.subscribe(conversation);
        Self {
            subscription: Mutex::new(Some(subscription)),
            handle,
            signal: Arc::new(Signal {
                wake: Box::new(wake),
                closed: AtomicBool::new(false),
            }),
        }
    }

    /// What closes this feed from its kit.
    pub fn closer(&self) -> FeedCloser {
        FeedCloser(Arc::downgrade(&self.signal))
    }

    /// The next state, without waiting. A store error is returned once and
    /// the feed goes on; once it ended, every poll is [`Polled::Closed`]
    /// and the store's watch is let go.
    pub fn poll(&self) -> Result<Polled, ServiceError> {
        if self.is_closed() {
            self.release();
            return Ok(Polled::Closed);
        }
        let mut slot = self.subscription.lock().unwrap_or_else(PoisonError::into_inner);
        let Some(subscription) = slot.as_mut() else {
            return Ok(Polled::Closed);
        };
        let waker = Waker::from(self.signal.clone());
        let mut cx = Context::from_waker(&waker);
        let _entered = self.handle.enter();
        match Pin::new(subscription).poll_next(&mut cx) {
            Poll::Pending => Ok(Polled::Pending),
            Poll::Ready(None) => {
                self.signal.closed.store(true, Ordering::SeqCst);
                drop(slot);
                self.release();
                Ok(Polled::Closed)
            }
            Poll::Ready(Some(Ok(state))) => Ok(Polled::State(Box::new(state))),
            Poll::Ready(Some(Err(error))) => Err(error),
        }
    }

    /// Ends the feed and lets go of the store's watch.
    pub fn close(&self) {
        self.signal.close();
        self.release();
    }

    /// Whether the feed ended (closed, or its kit closed).
    pub fn is_closed(&self) -> bool {
        self.signal.closed.load(Ordering::SeqCst)
    }

    fn release(&self) {
        let taken = self
            .subscription
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
        drop(taken);
    }
}
