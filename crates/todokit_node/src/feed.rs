//! [`NativeFeed`]: a conversation's feed (`todokit_binding::Feed`) as
//! Node follows it.
//!
//! The store's watch wakes the feed from its own thread; the wake only
//! queues a call of the JavaScript callback through a thread-safe
//! function, which Node runs on the main thread. That function is weak
//! (unreferenced), so a feed waiting for a change never keeps the event
//! loop alive, and nothing of ours ever runs JavaScript off its thread.

use std::sync::{Arc, Mutex, PoisonError};

use napi::bindgen_prelude::*;
use napi::threadsafe_function::{ThreadsafeFunction, ThreadsafeFunctionCallMode};
use napi_derive::napi;
use todokit_binding::{Feed, FeedCloser, Handle, Polled};

use crate::errors;
use crate::jobs::document;

/// The weak thread-safe function a wake calls.
type WakeFn = ThreadsafeFunction<(), (), (), Status, false, true>;

/// One open subscription (`Subscription` in the TypeScript layer wraps it).
#[napi]
pub struct NativeFeed {
    feed: Feed,
    wake: Arc<Mutex<Option<WakeFn>>>,
}

impl NativeFeed {
    /// A feed of `conversation`, and what its kit keeps to close it.
    pub fn open(handle: Handle, conversation: &str) -> (Self, FeedCloser) {
        let wake: Arc<Mutex<Option<WakeFn>>> = Arc::new(Mutex::new(None));
        let rung = wake.clone();
        let feed = Feed::open(handle, conversation, move || {
            if let Some(wake) = rung.lock().unwrap_or_else(PoisonError::into_inner).as_ref() {
                // Closing (the environment is going away) leaves nobody to tell.
                let _ = wake.call((), ThreadsafeFunctionCallMode::NonBlocking);
            }
        });
        let closer = feed.closer();
        (Self { feed, wake }, closer)
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
        *self.wake.lock().unwrap_or_else(PoisonError::into_inner) = Some(wake);
        Ok(())
    }

    /// The next state, without waiting: `null` when there is none yet or
    /// the feed ended. A store error is thrown once and the feed goes on.
    #[napi(ts_return_type = "unknown")]
    pub fn poll(&self) -> Result<Option<serde_json::Value>> {
        match self.feed.poll().map_err(errors::service)? {
            Polled::State(state) => document(&state).map(|json| Some(json.0)),
            Polled::Pending => Ok(None),
            Polled::Closed => {
                self.wake.lock().unwrap_or_else(PoisonError::into_inner).take();
                Ok(None)
            }
        }
    }

    /// Ends the feed and lets go of the store's watch.
    #[napi]
    pub fn close(&self) {
        self.feed.close();
        self.wake.lock().unwrap_or_else(PoisonError::into_inner).take();
    }

    /// Whether the feed ended (closed, or its kit closed).
    #[napi(getter)]
    pub fn closed(&self) -> bool {
        self.feed.is_closed()
    }
}
