//! Many open list streams on the board cost no thread each (issue #42):
//! sixty streams on sixty conversations add at most eight threads to the
//! server, on the file store and on PostgreSQL.

use std::path::Path;
use std::time::Duration;

use crate::support::cli::write_todos;
use crate::support::serve::{Events, Server, todo};

/// Streams opened at once.
const STREAMS: usize = 60;

/// The most threads they may add.
const MORE_THREADS: u64 = 8;

/// The server's threads before and with `STREAMS` streams open, each on a
/// conversation of its own.
fn threads_with_streams(store: &Path) -> (u64, u64, usize) {
    for i in 0..STREAMS {
        write_todos(
            store,
            &format!("c{i}"),
            &serde_json::json!([todo("Plan", "in_progress")]),
        );
    }
    // One caller holds them all: room for every one.
    let server = Server::start(store, &["--max-streams-per-token", "64"]);
    let pid = server.pid();
    // One stream first, so the runtime and the store's own watch are up.
    let mut warm = Events::open(&server.address, "/api/conversations/c0/events");
    let _ = warm.next("list", Duration::from_secs(10));
    drop(warm);
    std::thread::sleep(Duration::from_millis(500));
    let before = crate::support::cli::status_kib(pid, "Threads");
    let mut open: Vec<Events> = (0..STREAMS)
        .map(|i| Events::open(&server.address, &format!("/api/conversations/c{i}/events")))
        .collect();
    let listed = open
        .iter_mut()
        .map(|events| events.next("list", Duration::from_secs(10)).is_some())
        .filter(|listed| *listed)
        .count();
    let with = crate::support::cli::status_kib(pid, "Threads");
    (before, with, listed)
}

fn check(store: &Path) {
    let (before, with, listed) = threads_with_streams(store);
    assert!(
        listed == STREAMS && with <= before + MORE_THREADS,
        "{listed} of {STREAMS} streams listed; threads {before} before, {with} with them open"
    );
    println!("threads: {before} before, {with} with {STREAMS} streams open");
}

#[test]
fn sixty_streams_on_the_file_store_add_at_most_eight_threads() {
    let dir = tempfile::tempdir().expect("temp dir");
    check(&dir.path().join("store"));
}

#[test]
fn sixty_streams_on_postgres_add_at_most_eight_threads() {
    let url = std::env::var("TODOKIT_TEST_POSTGRES_URL").expect("make test sets TODOKIT_TEST_POSTGRES_URL");
    check(Path::new(&url));
}
