//! The store against a database that stalls or drops connections, through
//! a relay in front of the real test cluster: the waits are bounded, and a
//! save whose answer is lost is reported as what happened.

use std::io::{Read, Write};
use std::os::unix::net::{UnixListener, UnixStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicU8, Ordering};
use std::time::{Duration, Instant};

use pretty_assertions::assert_eq;
use todokit_app::{ConversationContext, StoreError};
use todokit_domain::{Todo, TodoState};

use super::PostgresStore;

/// What the relay does.
pub(super) const PASS: u8 = 0;
/// Holds every byte either way until set back to `PASS` (a stopped server).
const STALL: u8 = 1;
/// Drops the connection before the next save statement reaches the server.
const CUT_BEFORE_SAVE: u8 = 2;
/// Lets the next save statement through, then drops the connection before
/// its answer reaches the client (committed, answer lost).
const CUT_AFTER_SAVE: u8 = 3;
/// Drops every byte either way and keeps the connection open: a network
/// that lost the other side without a word.
pub(super) const BLACKHOLE: u8 = 4;

/// A Unix-socket relay in front of the test cluster.
pub(super) struct Relay {
    _dir: tempfile::TempDir,
    pub(super) url: String,
    mode: Arc<AtomicU8>,
}

impl Relay {
    /// A relay for the cluster `TODOKIT_TEST_POSTGRES_URL` names (a Unix
    /// socket folder as the host).
    pub(super) fn start() -> Relay {
        let url = super::tests::url();
        let (head, rest) = url.split_once('@').expect("a URL with a user");
        let (host, rest) = rest.split_once(':').expect("a URL with a port");
        let port = rest.split('/').next().unwrap_or_default();
        let folder = host.replace("%2F", "/");
        let server = format!("{folder}/.s.PGSQL.{port}");
        let dir = tempfile::tempdir().expect("temp dir");
        let listener = UnixListener::bind(dir.path().join(format!(".s.PGSQL.{port}"))).expect("a socket");
        let mode = Arc::new(AtomicU8::new(PASS));
        let shared = Arc::clone(&mode);
        std::thread::spawn(move || {
            for client in listener.incoming().flatten() {
                let Ok(upstream) = UnixStream::connect(&server) else {
                    continue;
                };
                relay(client, upstream, Arc::clone(&shared));
            }
        });
        let encoded = dir.path().display().to_string().replace('/', "%2F");
        let url = format!("{head}@{encoded}:{rest}");
        Relay { _dir: dir, url, mode }
    }

    pub(super) fn set(&self, mode: u8) {
        self.mode.store(mode, Ordering::SeqCst);
    }
}

/// Pumps bytes both ways between `client` and `upstream`, as `mode` says.
fn relay(client: UnixStream, upstream: UnixStream, mode: Arc<AtomicU8>) {
    // Set once the save statement went through in CUT_AFTER_SAVE: the
    // next bytes from the server end the connection instead.
    let cut_reply = Arc::new(AtomicU8::new(0));
    let (client_in, server_out) = (
        client.try_clone().expect("a socket"),
        upstream.try_clone().expect("a socket"),
    );
    let ends = Arc::new((
        client.try_clone().expect("a socket"),
        upstream.try_clone().expect("a socket"),
    ));
    let closer = |ends: Arc<(UnixStream, UnixStream)>| {
        move || {
            let _ = ends.0.shutdown(std::net::Shutdown::Both);
            let _ = ends.1.shutdown(std::net::Shutdown::Both);
        }
    };
    let (close, close_too) = (closer(Arc::clone(&ends)), closer(ends));
    let (mode_up, cut_up) = (Arc::clone(&mode), Arc::clone(&cut_reply));
    std::thread::spawn(move || {
        let mut messages = Messages::default();
        pump(client_in, server_out, &mode_up, |chunk| {
            if !messages.feed(chunk) {
                return true;
            }
            match mode_up.load(Ordering::SeqCst) {
                CUT_BEFORE_SAVE => {
                    mode_up.store(PASS, Ordering::SeqCst);
                    close_too();
                    false
                }
                CUT_AFTER_SAVE => {
                    mode_up.store(PASS, Ordering::SeqCst);
                    cut_up.store(1, Ordering::SeqCst);
                    true
                }
                _ => true,
            }
        });
    });
    std::thread::spawn(move || {
        pump(upstream, client, &mode, |_| {
            if cut_reply.load(Ordering::SeqCst) == 1 {
                close();
                return false;
            }
            true
        });
    });
}

/// Copies `from` to `to`, holding bytes while the mode is `STALL`; `pass`
/// says whether a chunk goes on (`false`: the connection was closed).
fn pump(mut from: UnixStream, mut to: UnixStream, mode: &AtomicU8, mut pass: impl FnMut(&[u8]) -> bool) {
    let mut buffer = vec![0u8; 64 * 1024];
    while let Ok(read) = from.read(&mut buffer) {
        if read == 0 {
            break;
        }
        while mode.load(Ordering::SeqCst) == STALL {
            std::thread::sleep(Duration::from_millis(20));
        }
        if mode.load(Ordering::SeqCst) == BLACKHOLE {
            continue;
        }
        if !pass(&buffer[..read]) || to.write_all(&buffer[..read]).is_err() {
            break;
        }
    }
    let _ = to.shutdown(std::net::Shutdown::Write);
}

/// The client's side of the protocol, read as messages: whether a chunk
/// carries the `Execute` of the save statement (the one that notifies).
#[derive(Default)]
struct Messages {
    buffered: Vec<u8>,
    started: bool,
    /// The save statement was parsed; its `Execute` is due.
    save_parsed: bool,
}

impl Messages {
    /// Takes `chunk`; `true` when it completes the save's `Execute`.
    fn feed(&mut self, chunk: &[u8]) -> bool {
        self.buffered.extend_from_slice(chunk);
        let mut executes = false;
        loop {
            // The start-up message has no type byte; every later one has.
            let head = usize::from(self.started);
            let Some(length) = self.buffered.get(head..head + 4) else {
                break;
            };
            let length = u32::from_be_bytes([length[0], length[1], length[2], length[3]]) as usize;
            let whole = head + length;
            if self.buffered.len() < whole {
                break;
            }
            let message: Vec<u8> = self.buffered.drain(..whole).collect();
            if !self.started {
                self.started = true;
                continue;
            }
            match message[0] {
                b'P' => {
                    let text = String::from_utf8_lossy(&message);
                    self.save_parsed = text.contains("pg_notify('todokit_changes'");
                }
                b'E' if self.save_parsed => {
                    self.save_parsed = false;
                    executes = true;
                }
                _ => {}
            }
        }
        executes
    }
}

fn list(content: &str, version: u64) -> TodoState {
    TodoState::flat(vec![Todo::new(content)]).version(version)
}

fn first_task(state: &TodoState) -> String {
    state
        .phases
        .first()
        .and_then(|p| p.tasks.first())
        .map(|t| t.content.clone())
        .unwrap_or_default()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_save_whose_answer_is_lost_is_reported_as_what_happened() {
    let relay = Relay::start();
    let store = PostgresStore::connect(&relay.url, 2)
        .await
        .expect("the relay reaches the database");
    let conversation = super::tests::unique("lost-answer");
    store
        .save(&conversation, 0, &list("first", 1))
        .await
        .expect("a plain save");

    // Committed, then the connection dropped before the answer came.
    relay.set(CUT_AFTER_SAVE);
    let landed = store.save(&conversation, 1, &list("second", 2)).await;
    let after_landed = store.load(&conversation).await.expect("a load");

    // Dropped before the statement reached the server.
    relay.set(CUT_BEFORE_SAVE);
    let lost = store.save(&conversation, 2, &list("third", 3)).await;
    let after_lost = store.load(&conversation).await.expect("a load");
    // The next writer, from the version it reads, still gets through.
    let next = store
        .save(
            &conversation,
            after_lost.version,
            &list("fourth", after_lost.version + 1),
        )
        .await;

    let said = |result: &Result<(), StoreError>| match result {
        Ok(()) => "stored".to_owned(),
        Err(error) if error.to_string().contains("the change was not stored") => "not stored".to_owned(),
        Err(error) => format!("other: {error}"),
    };
    let actual = (
        said(&landed),
        (after_landed.version, first_task(&after_landed)),
        said(&lost),
        (after_lost.version, first_task(&after_lost)),
        next.is_ok(),
    );
    // The fence moved the version the lost save expected on by one.
    let expected = (
        "stored".to_owned(),
        (2, "second".to_owned()),
        "not stored".to_owned(),
        (3, "second".to_owned()),
        true,
    );
    assert_eq!(actual, expected);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stalled_database_gives_a_clear_error_within_the_timeout_and_no_false_failure() {
    let relay = Relay::start();
    let url = format!(
        "{}?options=-c%20statement_timeout%3D1000&connect_timeout=1",
        relay.url
    );
    let store = PostgresStore::connect(&url, 2)
        .await
        .expect("the relay reaches the database");
    let conversation = super::tests::unique("stalled");
    store
        .save(&conversation, 0, &list("first", 1))
        .await
        .expect("a plain save");

    relay.set(STALL);
    let started = Instant::now();
    let load = store.load(&conversation).await;
    let load_took = started.elapsed();
    let started = Instant::now();
    let save = tokio::spawn({
        let store = store.clone();
        let conversation = conversation.clone();
        async move { store.save(&conversation, 1, &list("second", 2)).await }
    });
    // The server comes back after a 12 s stall, as in a SIGSTOP.
    tokio::time::sleep(Duration::from_secs(12).saturating_sub(load_took)).await;
    relay.set(PASS);
    let save = save.await.expect("the save ends");
    let save_took = started.elapsed();
    let stored = store.load(&conversation).await.expect("a load after the stall");

    let timed_out = load
        .as_ref()
        .err()
        .is_some_and(|e| e.to_string().contains("gave no answer within 2 s"));
    // Whatever the save says, it says what the table holds.
    let honest = match &save {
        Ok(()) => first_task(&stored) == "second",
        Err(StoreError::OutcomeUnknown { .. }) => true,
        Err(_) => first_task(&stored) == "first",
    };
    assert!(
        timed_out && load_took < Duration::from_secs(5) && honest,
        "load after {load_took:?}: {load:?}; save after {save_took:?}: {save:?}; stored: {}",
        first_task(&stored)
    );
}
