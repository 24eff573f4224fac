//! `todokit_app`'s service subscription with the dialects todokit ships (moved here with
//! the dialects: a mechanism's crate cannot name one).

use crate::test_support::{block_on, memory_service};
use futures_core::Stream;
use pretty_assertions::assert_eq;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::task::{Context, Poll, Wake, Waker};
use todokit_app::Subscription;

/// A waker that counts its wake-ups.
#[derive(Default)]
struct Count(std::sync::atomic::AtomicUsize);

impl Wake for Count {
    fn wake(self: Arc<Self>) {
        self.0.fetch_add(1, Ordering::SeqCst);
    }
}

fn poll(feed: &mut Subscription, waker: &Waker) -> Poll<Option<u64>> {
    Pin::new(feed)
        .poll_next(&mut Context::from_waker(waker))
        .map(|item| item.map(|state| state.map(|s| s.version).unwrap_or(u64::MAX)))
}

#[test]
fn a_feed_yields_the_current_list_then_wakes_on_a_commit_through_the_service() {
    let service = memory_service("claude-code");
    let count = Arc::new(Count::default());
    let waker = Waker::from(count.clone());
    let mut feed = service.subscribe("c");
    let first = poll(&mut feed, &waker);
    let idle = poll(&mut feed, &waker);
    let args = r#"{"todos":[{"content":"a","status":"pending","activeForm":"A"}]}"#;
    let committed = block_on(service.call("c", "TodoWrite", args)).map(|r| r.is_error);
    let woken = count.0.load(Ordering::SeqCst) >= 1;
    let next = poll(&mut feed, &waker);
    let actual = (first, idle, committed.ok(), woken, next);
    let expected = (
        Poll::Ready(Some(0)),
        Poll::Pending,
        Some(false),
        true,
        Poll::Ready(Some(1)),
    );
    assert_eq!(actual, expected);
}
