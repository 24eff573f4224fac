//! PostgreSQL's `LISTEN/NOTIFY` for live feeds: every save that commits
//! sends a notification on [`CHANNEL`] (in the same statement, so it goes
//! out with the commit and only then), and one listening connection per
//! store wakes the feeds watching that conversation, whichever machine
//! wrote it.
//!
//! The payload is the SHA-256 of the conversation id in hex: ids may be
//! longer than a notification may carry (8000 bytes), a hash never is.
//! The listener starts with the first watch, on the tokio runtime the
//! store runs on (again on the next watch if that runtime shut down), asks
//! its connection a trivial query every [`HEARTBEAT`], reconnects after a
//! lost or silent connection, wakes every feed after each `LISTEN` (the
//! notifications sent meanwhile were heard by nobody), and ends when the
//! store is gone.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError, Weak};
use std::time::Duration;

use sha2::{Digest, Sha256};
use todokit_app::{Wake, WatchGuard};

use crate::store::wakes::Wakes;
use tokio_postgres::AsyncMessage;

use super::tls::Target;

/// The channel saves notify and the listener listens on.
pub const CHANNEL: &str = "todokit_changes";

/// How long the listener waits before connecting again.
const RECONNECT_AFTER: Duration = Duration::from_secs(1);

/// How often the listening connection is asked a trivial query, and how
/// long its answer may take: a connection that died without a word (a
/// network that drops packets, a server frozen) is found out and replaced
/// within two of these, instead of leaving every feed deaf.
pub const HEARTBEAT: Duration = Duration::from_secs(30);

/// The longest a listening connection may take to open.
const CONNECT_LIMIT: Duration = Duration::from_secs(10);

/// Tells listeners apart in `pg_stat_activity` (their `application_name`).
static LISTENERS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// The feeds watching each conversation (by the hash of its id).
type Watchers = HashMap<String, Vec<(u64, Wake)>>;

/// The watches of one store and its listening connection.
pub struct Listener {
    watchers: Mutex<Watchers>,
    next_watch: Mutex<u64>,
    /// Whether a listening task runs; cleared when it ends, also when the
    /// runtime it ran on shuts down, so the next watch starts another.
    started: Mutex<bool>,
    /// Store-wide watches, rung by every notification.
    all: Arc<Wakes>,
    /// See [`HEARTBEAT`].
    heartbeat: Duration,
    /// The listening connection's `application_name`.
    name: String,
}

impl Default for Listener {
    fn default() -> Self {
        let n = LISTENERS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        Self {
            watchers: Mutex::default(),
            next_watch: Mutex::default(),
            started: Mutex::default(),
            all: Arc::default(),
            heartbeat: HEARTBEAT,
            name: format!("todokit-listen-{}-{n}", std::process::id()),
        }
    }
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
    pub fn watch(self: &Arc<Self>, config: &Target, conversation: &str, wake: Wake) -> Option<WatchGuard> {
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
    pub fn watch_all(self: &Arc<Self>, config: &Target, wake: Wake) -> Option<WatchGuard> {
        let runtime = tokio::runtime::Handle::try_current().ok()?;
        let guard = self.all.add(None, wake);
        self.start(&runtime, config);
        Some(guard)
    }

    /// Starts the listening connection unless it runs.
    fn start(self: &Arc<Self>, runtime: &tokio::runtime::Handle, config: &Target) {
        let mut started = self.started.lock().unwrap_or_else(PoisonError::into_inner);
        if !*started {
            *started = true;
            let mut config = config.clone();
            config.config.application_name(&self.name);
            runtime.spawn(listen(Arc::downgrade(self), config, self.heartbeat));
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

/// Clears the listener's `started` flag when the listening task ends or is
/// dropped with its runtime.
struct Running(Weak<Listener>);

impl Drop for Running {
    fn drop(&mut self) {
        if let Some(listener) = self.0.upgrade() {
            *listener.started.lock().unwrap_or_else(PoisonError::into_inner) = false;
        }
    }
}

/// The listening connection: connect, `LISTEN`, dispatch, and again after
/// a failure or a missed heartbeat, until the store (and so the listener)
/// is dropped. After every `LISTEN`, the first included, every feed is
/// woken: commits made before it took were heard by nobody.
async fn listen(listener: Weak<Listener>, config: Target, heartbeat: Duration) {
    let _running = Running(listener.clone());
    loop {
        if listener.strong_count() == 0 {
            return;
        }
        if let Ok(Ok((client, mut connection))) =
            tokio::time::timeout(CONNECT_LIMIT, config.config.connect(config.tls.clone())).await
        {
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
            let listening = tokio::time::timeout(heartbeat, client.batch_execute(&statement));
            tokio::select! {
                () = &mut messages => {}
                result = listening => {
                    if matches!(result, Ok(Ok(()))) {
                        if let Some(listener) = listener.upgrade() {
                            listener.wake_all();
                        }
                        // `client` stays alive while the connection runs.
                        keep_alive(&client, messages.as_mut(), heartbeat).await;
                    }
                }
            }
            drop(client);
        }
        tokio::time::sleep(RECONNECT_AFTER).await;
    }
}

/// Polls the listening connection's `messages` until they end or the
/// connection misses a heartbeat: no answer to `SELECT 1` within
/// `heartbeat`, asked every `heartbeat`.
async fn keep_alive(
    client: &tokio_postgres::Client,
    mut messages: std::pin::Pin<&mut impl std::future::Future<Output = ()>>,
    heartbeat: Duration,
) {
    loop {
        tokio::select! {
            () = messages.as_mut() => return,
            () = tokio::time::sleep(heartbeat) => {}
        }
        let ping = tokio::time::timeout(heartbeat, client.simple_query("SELECT 1"));
        tokio::select! {
            () = messages.as_mut() => return,
            answered = ping => {
                if !matches!(answered, Ok(Ok(_))) {
                    return;
                }
            }
        }
    }
}

#[cfg(test)]
#[path = "notify_tests.rs"]
mod tests;
