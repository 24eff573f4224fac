//! PostgreSQL's `LISTEN/NOTIFY` for live feeds: every save that commits
//! sends a notification on [`CHANNEL`] (in the same statement, so it goes
//! out with the commit and only then), and one listening connection per
//! store wakes the feeds watching that conversation, whichever machine
//! wrote it.
//!
//! The payload is the SHA-256 of the conversation id in hex: ids may be
//! longer than a notification may carry (8000 bytes), a hash never is.
//! The listener starts with the first watch, on the tokio runtime the
//! store runs on, reconnects after a lost connection (waking every feed,
//! since notifications may have been missed meanwhile), and ends when the
//! store is gone.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError, Weak};
use std::time::Duration;

use sha2::{Digest, Sha256};
use todokit_app::{Wake, WatchGuard};

use crate::store::wakes::Wakes;
use tokio_postgres::{AsyncMessage, NoTls};

/// The channel saves notify and the listener listens on.
pub const CHANNEL: &str = "todokit_changes";

/// How long the listener waits before connecting again.
const RECONNECT_AFTER: Duration = Duration::from_secs(1);

/// The feeds watching each conversation (by the hash of its id).
type Watchers = HashMap<String, Vec<(u64, Wake)>>;

/// The watches of one store and its listening connection.
#[derive(Default)]
pub struct Listener {
    watchers: Mutex<Watchers>,
    next_watch: Mutex<u64>,
    started: Mutex<bool>,
    /// Store-wide watches, rung by every notification.
    all: Arc<Wakes>,
}

/// The notification payload for `conversation`, as the save statement
/// computes it (`encode(sha256(convert_to($1, 'UTF8')), 'hex')`).
pub fn payload(conversation: &str) -> String {
    Sha256::digest(conversation.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

impl Listener {
    /// Registers `wake` for `conversation` and starts the listening
    /// connection if it is not running; `None` outside a tokio runtime
    /// (the feed then polls).
    pub fn watch(
        self: &Arc<Self>,
        config: &tokio_postgres::Config,
        conversation: &str,
        wake: Wake,
    ) -> Option<WatchGuard> {
        let runtime = tokio::runtime::Handle::try_current().ok()?;
        let key = payload(conversation);
        let id = {
            let mut next = self.next_watch.lock().unwrap_or_else(PoisonError::into_inner);
            *next += 1;
            *next
        };
        self.watchers
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .entry(key.clone())
            .or_default()
            .push((id, wake));
        self.start(&runtime, config);
        Some(WatchGuard::new(Unwatch {
            listener: Arc::downgrade(self),
            key,
            id,
        }))
    }

    /// Registers `wake` for every conversation (see [`Listener::watch`]).
    pub fn watch_all(self: &Arc<Self>, config: &tokio_postgres::Config, wake: Wake) -> Option<WatchGuard> {
        let runtime = tokio::runtime::Handle::try_current().ok()?;
        let guard = self.all.add(None, wake);
        self.start(&runtime, config);
        Some(guard)
    }

    /// Starts the listening connection unless it runs.
    fn start(self: &Arc<Self>, runtime: &tokio::runtime::Handle, config: &tokio_postgres::Config) {
        let mut started = self.started.lock().unwrap_or_else(PoisonError::into_inner);
        if !*started {
            *started = true;
            runtime.spawn(listen(Arc::downgrade(self), config.clone()));
        }
    }

    /// Wakes the feeds of the conversation whose hash is `key`.
    fn wake(&self, key: &str) {
        let wakes: Vec<Wake> = self
            .watchers
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(key)
            .map(|list| list.iter().map(|(_, wake)| Arc::clone(wake)).collect())
            .unwrap_or_default();
        for wake in wakes {
            wake();
        }
        self.all.ring(None);
    }

    /// Wakes every feed (after a reconnect: notifications may be lost).
    fn wake_all(&self) {
        let wakes: Vec<Wake> = self
            .watchers
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .values()
            .flat_map(|list| list.iter().map(|(_, wake)| Arc::clone(wake)))
            .collect();
        for wake in wakes {
            wake();
        }
        self.all.ring(None);
    }
}

/// Ends one watch when dropped.
struct Unwatch {
    listener: Weak<Listener>,
    key: String,
    id: u64,
}

impl Drop for Unwatch {
    fn drop(&mut self) {
        let Some(listener) = self.listener.upgrade() else {
            return;
        };
        let mut watchers = listener.watchers.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(list) = watchers.get_mut(&self.key) {
            list.retain(|(id, _)| *id != self.id);
            if list.is_empty() {
                watchers.remove(&self.key);
            }
        }
    }
}

/// The listening connection: connect, `LISTEN`, dispatch, and again after
/// a failure, until the store (and so the listener) is dropped.
async fn listen(listener: Weak<Listener>, config: tokio_postgres::Config) {
    let mut reconnecting = false;
    loop {
        if listener.strong_count() == 0 {
            return;
        }
        if let Ok((client, mut connection)) = config.connect(NoTls).await {
            // The connection carries the replies and the notifications; it
            // is polled here while `LISTEN` runs and for as long as it lives.
            let dispatch_to = listener.clone();
            let mut messages = std::pin::pin!(async move {
                loop {
                    let message = std::future::poll_fn(|cx| connection.poll_message(cx)).await;
                    let Some(listener) = dispatch_to.upgrade() else {
                        return;
                    };
                    match message {
                        Some(Ok(AsyncMessage::Notification(note))) => listener.wake(note.payload()),
                        Some(Ok(_)) => {}
                        Some(Err(_)) | None => return,
                    }
                }
            });
            let statement = format!("LISTEN {CHANNEL}");
            let listening = client.batch_execute(&statement);
            tokio::select! {
                () = &mut messages => {}
                result = listening => {
                    if result.is_ok() {
                        // Commits while the connection was down sent
                        // notifications nobody heard.
                        if let Some(listener) = listener.upgrade().filter(|_| reconnecting) {
                            listener.wake_all();
                        }
                        // `client` stays alive while the connection runs.
                        messages.await;
                    }
                }
            }
            drop(client);
        }
        reconnecting = true;
        tokio::time::sleep(RECONNECT_AFTER).await;
    }
}

#[cfg(test)]
mod tests {
    //! Against the real PostgreSQL `make test` starts.
    use super::*;
    use crate::store::PostgresStore;
    use pretty_assertions::assert_eq;
    use std::time::Instant;
    use todokit_app::{ManualClock, TodoWriteService, profiles};

    fn service(store: PostgresStore) -> TodoWriteService {
        TodoWriteService::new(
            profiles::by_name("claude-code").expect("profile"),
            Arc::new(store),
            Arc::new(ManualClock::new(0)),
        )
    }

    async fn next(feed: &mut todokit_app::Subscription) -> Option<u64> {
        let item = tokio::time::timeout(Duration::from_secs(10), feed.changed()).await;
        Some(item.ok()??.ok()?.version)
    }

    #[test]
    fn the_payload_is_the_hex_sha256_of_the_id_whatever_its_length() {
        let long = "🦀".repeat(5_000);
        let actual = (payload("default"), payload(&long).len());
        let expected = (
            "37a8eec1ce19687d132fe29051dca629d164e2c4958ba141d5f4133a33f0688f".to_owned(),
            64,
        );
        assert_eq!(actual, expected);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_watch_is_woken_by_another_machines_commit_and_ends_with_its_guard() {
        use todokit_app::ConversationContext;
        let url =
            std::env::var("TODOKIT_TEST_POSTGRES_URL").expect("make test sets TODOKIT_TEST_POSTGRES_URL");
        let here = PostgresStore::connect(&url, 2).await.expect("database");
        let there = service(PostgresStore::connect(&url, 2).await.expect("database"));
        let conversation = format!("watch-{}", std::process::id());
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
        let guard = here.watch(
            &conversation,
            Arc::new(move || {
                let _ = tx.send(());
            }),
        );
        tokio::time::sleep(Duration::from_millis(300)).await;
        let args = r#"{"todos":[{"content":"a","status":"pending","activeForm":"A"}]}"#;
        there.call(&conversation, "TodoWrite", args).await.expect("call");
        let woken = tokio::time::timeout(Duration::from_secs(5), rx.recv())
            .await
            .is_ok();
        // Another conversation's commit does not wake it; after the guard
        // is gone, nothing does.
        there
            .call(&format!("{conversation}-other"), "TodoWrite", args)
            .await
            .expect("call");
        drop(guard);
        there
            .call(
                &conversation,
                "TodoWrite",
                args.replace("pending", "in_progress").as_str(),
            )
            .await
            .expect("call");
        tokio::time::sleep(Duration::from_millis(500)).await;
        let later = rx.try_recv().is_ok();
        assert_eq!((woken, later), (true, false));
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_feed_hears_another_machines_commit_within_a_second() {
        let url =
            std::env::var("TODOKIT_TEST_POSTGRES_URL").expect("make test sets TODOKIT_TEST_POSTGRES_URL");
        // Two stores with pools of their own: two machines on one database.
        let here = service(PostgresStore::connect(&url, 2).await.expect("database"));
        let there = service(PostgresStore::connect(&url, 2).await.expect("database"));
        // An id longer than a notification may carry.
        let conversation = format!("notify-{}-{}", std::process::id(), "x".repeat(9_000));
        let mut feed = here.subscribe(&conversation);
        let first = next(&mut feed).await;
        // Let the listening connection say LISTEN before the commit.
        tokio::time::sleep(Duration::from_millis(300)).await;
        let args = r#"{"todos":[{"content":"a","status":"pending","activeForm":"A"}]}"#;
        let started = Instant::now();
        there.call(&conversation, "TodoWrite", args).await.expect("call");
        let second = next(&mut feed).await;
        let heard = started.elapsed();
        let actual = (first, second, heard < Duration::from_secs(1));
        assert_eq!(actual, (Some(0), Some(1), true), "heard after {heard:?}");
    }
}
