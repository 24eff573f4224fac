//! [`PyFeed`]: a conversation's feed (`todokit_binding::Feed`) as Python
//! follows it.
//!
//! Nothing here runs Python from a thread of ours: the store's watch
//! wakes the feed from its own thread, and the wake only rings a
//! [`Bell`]: it sets a flag, signals a condition variable (for a thread
//! blocked in [`PyFeed::wait`]) and writes one byte to a pipe whose read
//! end an asyncio loop watches (`loop.add_reader`). So an async
//! subscription holds no thread while it waits, and an open one never
//! keeps the interpreter from exiting. Where a loop cannot watch a pipe
//! (Windows, whose Proactor loop has no `add_reader`), `fileno` is `None`
//! and an async wait is a short [`PyFeed::wait`] on a worker thread.

use std::io::{PipeReader, PipeWriter, Read, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::time::Duration;

use pyo3::prelude::*;
use todokit_binding::{ErrorCode, Feed, FeedCloser, Handle, Polled};

use crate::errors;
use crate::native_error::native;
use crate::objects::object;

/// What a wake rings: the flag a blocked `wait` watches and the pipe an
/// event loop watches.
struct Bell {
    /// Set by a wake, cleared by the next poll.
    woken: Mutex<bool>,
    ready: Condvar,
    /// Whether a byte sits in the pipe: at most one ever does, so a wake
    /// never blocks on a full pipe.
    byte: AtomicBool,
    writer: PipeWriter,
}

impl Bell {
    fn ring(&self) {
        *self.woken.lock().unwrap_or_else(PoisonError::into_inner) = true;
        self.ready.notify_all();
        if !self.byte.swap(true, Ordering::SeqCst) {
            // A failed write (the read end gone) leaves nobody to tell.
            let _ = (&self.writer).write(&[1]);
        }
    }
}

/// One open subscription (`todokit.Subscription` wraps it).
#[pyclass(frozen, name = "Feed", module = "todokit._todokit")]
pub struct PyFeed {
    feed: Feed,
    bell: Arc<Bell>,
    reader: Mutex<PipeReader>,
    /// The pipe's read end as a file descriptor, where there are such.
    fd: Option<i32>,
}

impl PyFeed {
    /// A feed of `conversation` on `handle`, and what its kit keeps to
    /// close it.
    pub(crate) fn open(handle: Handle, conversation: &str) -> PyResult<(Self, FeedCloser)> {
        let (reader, writer) = std::io::pipe()
            .map_err(|e| native(ErrorCode::Store, format!("cannot open the feed's pipe: {e}")))?;
        let bell = Arc::new(Bell {
            // The first poll gives the list as it stands.
            woken: Mutex::new(true),
            ready: Condvar::new(),
            byte: AtomicBool::new(false),
            writer,
        });
        let rung = bell.clone();
        let feed = Feed::open(handle, conversation, move || rung.ring());
        let closer = feed.closer();
        #[cfg(unix)]
        let fd = Some(std::os::fd::AsRawFd::as_raw_fd(&reader));
        #[cfg(not(unix))]
        let fd = None;
        Ok((
            Self {
                feed,
                bell,
                reader: Mutex::new(reader),
                fd,
            },
            closer,
        ))
    }
}

#[pymethods]
impl PyFeed {
    /// The next state, without waiting: `None` when there is
    /// none yet or the feed ended (see `closed`); a store error is raised
    /// once and the feed goes on.
    fn poll<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        if self.bell.byte.swap(false, Ordering::SeqCst) {
            let mut byte = [0u8; 1];
            // The byte is written right after the flag is set; this read
            // waits at most for that write.
            let _ = self
                .reader
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .read(&mut byte);
        }
        *self.bell.woken.lock().unwrap_or_else(PoisonError::into_inner) = false;
        // Polling may drop the store's watch (joining nothing of Python's),
        // so the GIL is let go meanwhile.
        match py.detach(|| self.feed.poll()).map_err(errors::service)? {
            Polled::State(state) => object(py, &state).map(Some),
            Polled::Pending | Polled::Closed => Ok(None),
        }
    }

    /// Blocks (the GIL released) until the feed is woken or `timeout`
    /// seconds pass; whether it was woken. Short waits let the caller
    /// check for signals such as Ctrl-C in between.
    fn wait(&self, py: Python<'_>, timeout: f64) -> bool {
        let timeout = Duration::try_from_secs_f64(timeout.max(0.0)).unwrap_or(Duration::from_secs(3600));
        py.detach(|| {
            let woken = self.bell.woken.lock().unwrap_or_else(PoisonError::into_inner);
            let (woken, _) = self
                .bell
                .ready
                .wait_timeout_while(woken, timeout, |woken| !*woken)
                .unwrap_or_else(PoisonError::into_inner);
            *woken
        })
    }

    /// The read end of the pipe a wake writes to, for `loop.add_reader`;
    /// `None` where a pipe is no file descriptor (Windows).
    fn fileno(&self) -> Option<i32> {
        self.fd
    }

    /// Ends the feed and lets go of the store's watch.
    fn close(&self, py: Python<'_>) {
        py.detach(|| self.feed.close());
    }

    /// Whether the feed ended (closed, or its kit closed).
    #[getter]
    fn closed(&self) -> bool {
        self.feed.is_closed()
    }
}
