//! [`Feed`]: a conversation's [`Subscription`] as Python follows it.
//!
//! Nothing here runs Python from a thread of ours: the store's watch
//! wakes the feed from its own thread, and the wake only sets a flag,
//! signals a condition variable (for a thread blocked in [`Feed::wait`])
//! and writes one byte to a pipe whose read end an asyncio loop watches
//! (`loop.add_reader`). So an async subscription holds no thread while it
//! waits, and an open one never keeps the interpreter from exiting.

use std::io::{PipeReader, PipeWriter, Read, Write};
use std::os::fd::AsRawFd;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, PoisonError, Weak};
use std::task::{Context, Poll, Waker};
use std::time::Duration;

use pyo3::prelude::*;
use todokit::{Stream, Subscription};

use crate::errors::{self, USAGE, native};
use todokit::binding::Handle as Parts;

/// What a feed's waker reaches: shared by the feed, the store's watch
/// (through the waker) and its kit (which closes it).
pub(crate) struct Signal {
    /// Set by a wake, cleared by the next poll.
    woken: Mutex<bool>,
    ready: Condvar,
    /// Whether a byte sits in the pipe: at most one ever does, so a wake
    /// never blocks on a full pipe.
    byte: AtomicBool,
    writer: PipeWriter,
    closed: AtomicBool,
}

impl Signal {
    fn ring(&self) {
        *self.woken.lock().unwrap_or_else(PoisonError::into_inner) = true;
        self.ready.notify_all();
        if !self.byte.swap(true, Ordering::SeqCst) {
            // A failed write (the read end gone) leaves nobody to tell.
            let _ = (&self.writer).write(&[1]);
        }
    }

    /// Ends the feed: its next poll says so, and a waiter wakes.
    pub(crate) fn close(&self) {
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

/// One open subscription (`todokit.Subscription` wraps it).
#[pyclass(frozen, module = "todokit._todokit")]
pub struct Feed {
    subscription: Mutex<Option<Subscription>>,
    parts: Parts,
    signal: Arc<Signal>,
    reader: Mutex<PipeReader>,
    fd: i32,
}

impl Feed {
    /// A feed of `conversation` on `parts`, and the signal its kit keeps
    /// to close it.
    pub(crate) fn open(parts: Parts, conversation: &str) -> PyResult<(Self, Weak<Signal>)> {
        let (reader, writer) = std::io::pipe()
            .map_err(|e| native(errors::STORE, format!("cannot open the feed's pipe: {e}")))?;
        let signal = Arc::new(Signal {
            woken: Mutex::new(true),
            ready: Condvar::new(),
            byte: AtomicBool::new(false),
            writer,
            closed: AtomicBool::new(false),
        });
        let subscription = parts.subscribe(conversation);
        let weak = Arc::downgrade(&signal);
        let fd = reader.as_raw_fd();
        Ok((
            Self {
                subscription: Mutex::new(Some(subscription)),
                parts,
                signal,
                reader: Mutex::new(reader),
                fd,
            },
            weak,
        ))
    }
}

/// What one poll found.
enum Polled {
    State(String),
    Pending,
    Closed,
}

#[pymethods]
impl Feed {
    /// The next state as JSON text, without waiting: `None` when there is
    /// none yet. Raises `StopIteration`-worthy `closed` through
    /// [`Feed::closed`]; a store error is raised once and the feed goes on.
    fn poll(&self, py: Python<'_>) -> PyResult<Option<String>> {
        if self.signal.byte.swap(false, Ordering::SeqCst) {
            let mut byte = [0u8; 1];
            // The byte is written right after the flag is set; this read
            // waits at most for that write.
            let _ = self
                .reader
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .read(&mut byte);
        }
        *self.signal.woken.lock().unwrap_or_else(PoisonError::into_inner) = false;
        let polled = py.detach(|| {
            if self.signal.closed.load(Ordering::SeqCst) {
                return Ok(Polled::Closed);
            }
            let mut slot = self.subscription.lock().unwrap_or_else(PoisonError::into_inner);
            let Some(subscription) = slot.as_mut() else {
                return Ok(Polled::Closed);
            };
            let waker = Waker::from(self.signal.clone());
            let mut cx = Context::from_waker(&waker);
            let _entered = self.parts.enter();
            match Pin::new(subscription).poll_next(&mut cx) {
                Poll::Pending => Ok(Polled::Pending),
                Poll::Ready(None) => Ok(Polled::Closed),
                Poll::Ready(Some(Ok(state))) => serde_json::to_string(&state)
                    .map(Polled::State)
                    .map_err(|e| native(USAGE, format!("cannot write the state as JSON: {e}"))),
                Poll::Ready(Some(Err(error))) => Err(errors::service(error)),
            }
        })?;
        Ok(match polled {
            Polled::State(text) => Some(text),
            Polled::Pending => None,
            Polled::Closed => {
                self.close(py);
                None
            }
        })
    }

    /// Blocks (the GIL released) until the feed is woken or `timeout`
    /// seconds pass; whether it was woken. Short waits let the caller
    /// check for signals such as Ctrl-C in between.
    fn wait(&self, py: Python<'_>, timeout: f64) -> bool {
        let timeout = Duration::try_from_secs_f64(timeout.max(0.0)).unwrap_or(Duration::from_secs(3600));
        py.detach(|| {
            let woken = self.signal.woken.lock().unwrap_or_else(PoisonError::into_inner);
            let (woken, _) = self
                .signal
                .ready
                .wait_timeout_while(woken, timeout, |woken| !*woken)
                .unwrap_or_else(PoisonError::into_inner);
            *woken
        })
    }

    /// The read end of the pipe a wake writes to, for `loop.add_reader`.
    fn fileno(&self) -> i32 {
        self.fd
    }

    /// Ends the feed and lets go of the store's watch.
    fn close(&self, py: Python<'_>) {
        self.signal.close();
        let taken = self
            .subscription
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
        py.detach(move || drop(taken));
    }

    /// Whether the feed ended (closed, or its kit closed).
    #[getter]
    fn closed(&self) -> bool {
        self.signal.closed.load(Ordering::SeqCst)
    }
}
