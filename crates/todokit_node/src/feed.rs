//! [`NativeFeed`]: a conversation's [`Subscription`] as Node follows it.
//!
//! The store's watch wakes the feed from its own thread; the wake only
//! queues a call of the JavaScript callback through a thread-safe
//! function, which Node runs on the main thread. That function is weak
//! (unreferenced), so a feed waiting for a change never keeps the event
//! loop alive, and nothing of ours ever runs JavaScript off its thread.

use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError, Weak};
use std::task::{Context, Poll, Waker};

use napi::bindgen_prelude::*;
use napi::threadsafe_function::{ThreadsafeFunction, ThreadsafeFunctionCallMode};
use napi_derive::napi;
use todokit::binding::Handle;
use todokit::{Stream, Subscription};

use crate::errors::{self, json_text};

/// The weak thread-safe function a wake calls.
type WakeFn = ThreadsafeFunction<(), (), (), Status, false, true>;

/// What a feed's waker reaches: shared by the feed, the store's watch
/// (through the waker) and its kit (which closes it).
pub struct Signal {
    wake: Mutex<Option<WakeFn>>,
    closed: AtomicBool,
}

impl Signal {
    fn ring(&self) {
        if let Some(wake) = self.wake.lock().unwrap_or_else(PoisonError::into_inner).as_ref() {
            // Closing (the environment is going away) leaves nobody to tell.
            let _ = wake.call((), ThreadsafeFunctionCallMode::NonBlocking);
        }
    }

    /// Ends the feed: its next poll says so, and a waiting `next()` wakes.
    pub fn close(&self) {
        self.closed.store(true, Ordering::SeqCst);
        self.ring();
    }
}

impl std::task::Wake for Signal {
    fn wake(self: Arc<Self>) {
        self.ring();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        self.ring();
    }
}

/// One open subscription (`Subscription` in the TypeScript layer wraps it).
#[napi]
pub struct NativeFeed {
    subscription: Mutex<Option<Subscription>>,
    handle: Handle,
    signal: Arc<Signal>,
}

impl NativeFeed {
    /// A feed of `conversation`, and the signal its kit keeps to close it.
    pub fn open(handle: Handle, conversation: &str) -> (Self, Weak<Signal>) {
        let signal = Arc::new(Signal {
            wake: Mutex::new(None),
            closed: AtomicBool::new(false),
        });
        let subscription = handle.subscribe(conversation);
        let weak = Arc::downgrade(&signal);
        let feed = Self {
            subscription: Mutex::new(Some(subscription)),
            handle,
            signal,
        };
        (feed, weak)
    }
}

#[napi]
impl NativeFeed {
    /// The function called (on the main thread) whenever the feed may have
    /// something: then call `poll()`.
    #[napi]
    pub fn on_wake(&self, callback: Function<(), ()>) -> Result<()> {
        let wake: WakeFn = callback
            .build_threadsafe_function::<()>()
            .weak::<true>()
            .callee_handled::<false>()
            .build()?;
        *self.signal.wake.lock().unwrap_or_else(PoisonError::into_inner) = Some(wake);
        Ok(())
    }

    /// The next state as JSON text, without waiting: `null` when there is
    /// none yet or the feed ended. A store error is thrown once and the
    /// feed goes on.
    #[napi]
    pub fn poll(&self) -> Result<Option<String>> {
        if self.signal.closed.load(Ordering::SeqCst) {
            self.release();
            return Ok(None);
        }
        let mut slot = self.subscription.lock().unwrap_or_else(PoisonError::into_inner);
        let Some(subscription) = slot.as_mut() else {
            return Ok(None);
        };
        let waker = Waker::from(self.signal.clone());
        let mut cx = Context::from_waker(&waker);
        let _entered = self.handle.enter();
        match Pin::new(subscription).poll_next(&mut cx) {
            Poll::Pending => Ok(None),
            Poll::Ready(None) => {
                self.signal.closed.store(true, Ordering::SeqCst);
                Ok(None)
            }
            Poll::Ready(Some(Ok(state))) => json_text(&state).map(Some),
            Poll::Ready(Some(Err(error))) => Err(errors::service(error)),
        }
    }

    fn release(&self) {
        self.subscription
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
        self.signal
            .wake
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
    }

    /// Ends the feed and lets go of the store's watch.
    #[napi]
    pub fn close(&self) {
        self.signal.close();
        self.release();
    }

    /// Whether the feed ended (closed, or its kit closed).
    #[napi(getter)]
    pub fn closed(&self) -> bool {
        self.signal.closed.load(Ordering::SeqCst)
    }
}
