//! Runs a future to completion on the calling thread, with no runtime.
//!
//! `todokit call` on a folder store needs no reactor: the JSON-file store
//! does its file work inline when no tokio runtime is running. Starting
//! one (and the worker thread its blocking pool spawns) was a large part
//! of a one-call process's time.

use std::future::Future;
use std::pin::pin;
use std::sync::Arc;
use std::task::{Context, Poll, Wake, Waker};
use std::thread::{self, Thread};

/// Wakes the thread that is blocked in [`block_on`].
struct Unpark(Thread);

impl Wake for Unpark {
    fn wake(self: Arc<Self>) {
        self.0.unpark();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        self.0.unpark();
    }
}

/// Polls `future` on this thread until it is ready, parking in between.
pub fn block_on<F: Future>(future: F) -> F::Output {
    let mut future = pin!(future);
    let waker = Waker::from(Arc::new(Unpark(thread::current())));
    let mut cx = Context::from_waker(&waker);
    loop {
        if let Poll::Ready(output) = future.as_mut().poll(&mut cx) {
            return output;
        }
        // A spurious wake-up only costs another poll.
        thread::park();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    #[test]
    fn a_future_woken_from_another_thread_completes() {
        let (sender, receiver) = tokio::sync::oneshot::channel();
        let feeder = thread::spawn(move || {
            thread::sleep(std::time::Duration::from_millis(20));
            sender.send(7).ok();
        });
        let actual = block_on(receiver);
        feeder.join().ok();
        let expected = Ok(7);
        assert_eq!(actual, expected);
    }
}
