//! The change listener against the real PostgreSQL `make test` starts:
//! feeds hear other machines' commits, and go on hearing them after the
//! listening connection is killed, goes silent, or loses its runtime.

use super::*;
use crate::store::PostgresStore;
use pretty_assertions::assert_eq;
use std::time::Instant;
use todokit_app::{ManualClock, TodoWriteService};
use tokio_postgres::NoTls;

fn service(store: PostgresStore) -> TodoWriteService {
    TodoWriteService::new(
        crate::test_support::dialect::profile(),
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
    let url = std::env::var("TODOKIT_TEST_POSTGRES_URL").expect("make test sets TODOKIT_TEST_POSTGRES_URL");
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
    // The wake every `LISTEN` brings (commits before it were not heard).
    while rx.try_recv().is_ok() {}
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
    let url = std::env::var("TODOKIT_TEST_POSTGRES_URL").expect("make test sets TODOKIT_TEST_POSTGRES_URL");
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

/// A watch on `store` for `conversation` that sends on a channel; the
/// guard, and the channel with the first wakes (the `LISTEN`'s) drained.
async fn watched(
    store: &PostgresStore,
    conversation: &str,
) -> (WatchGuard, tokio::sync::mpsc::UnboundedReceiver<()>) {
    use todokit_app::ConversationContext;
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
    let guard = store
        .watch(
            conversation,
            Arc::new(move || {
                let _ = tx.send(());
            }),
        )
        .expect("inside a runtime");
    tokio::time::sleep(Duration::from_millis(500)).await;
    while rx.try_recv().is_ok() {}
    (guard, rx)
}

fn url() -> String {
    std::env::var("TODOKIT_TEST_POSTGRES_URL").expect("make test sets TODOKIT_TEST_POSTGRES_URL")
}

const WRITE: &str = r#"{"todos":[{"content":"a","status":"pending","activeForm":"A"}]}"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_listening_connection_is_replaced_and_its_feeds_woken() {
    let here = PostgresStore::connect(&url(), 2).await.expect("database");
    let there = service(PostgresStore::connect(&url(), 2).await.expect("database"));
    let (admin, connection) = tokio_postgres::connect(&url(), NoTls).await.expect("database");
    tokio::spawn(connection);
    let conversation = format!("killed-{}", std::process::id());
    let (_guard, mut rx) = watched(&here, &conversation).await;
    let killed: i64 = admin
        .query_one(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE application_name = $1",
            &[&here.listener.name],
        )
        .await
        .expect("the listener's backend")
        .get(0);
    // Committed while no listening connection is there to hear it.
    there.call(&conversation, "TodoWrite", WRITE).await.expect("call");
    let woken = tokio::time::timeout(Duration::from_secs(10), rx.recv())
        .await
        .is_ok();
    assert_eq!((killed, woken), (1, true));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_listening_connection_gone_silent_is_found_by_the_heartbeat() {
    use super::super::fault_tests::{BLACKHOLE, PASS, Relay};
    let relay = Relay::start();
    let mut here = PostgresStore::connect(&relay.url, 2).await.expect("the relay");
    here.listener = Arc::new(Listener {
        heartbeat: Duration::from_millis(300),
        ..Listener::default()
    });
    let there = service(PostgresStore::connect(&url(), 2).await.expect("database"));
    let conversation = format!("silent-{}", std::process::id());
    let (_guard, mut rx) = watched(&here, &conversation).await;
    // The network drops everything, without closing anything: the
    // notification of this commit never arrives on that connection.
    relay.set(BLACKHOLE);
    there.call(&conversation, "TodoWrite", WRITE).await.expect("call");
    // Back before the listener, having missed a heartbeat, connects again.
    tokio::time::sleep(Duration::from_millis(1_000)).await;
    relay.set(PASS);
    // Only a new connection's wake can come: the old one hears nothing.
    let woken = tokio::time::timeout(Duration::from_secs(20), rx.recv())
        .await
        .is_ok();
    assert!(woken, "no wake after the connection went silent");
}

#[test]
fn a_listener_whose_runtime_shut_down_starts_again_on_the_next_watch() {
    let runtime = || {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .expect("a runtime")
    };
    let first = runtime();
    let here = PostgresStore::lazy(&url(), 2).expect("a URL");
    first.block_on(async {
        let (_guard, _rx) = watched(&here, "runtime-gone").await;
    });
    // The host's runtime ends, and the listening task with it.
    drop(first);
    let second = runtime();
    let woken = second.block_on(async {
        let there = service(PostgresStore::connect(&url(), 2).await.expect("database"));
        let conversation = format!("runtime-{}", std::process::id());
        let (_guard, mut rx) = watched(&here, &conversation).await;
        there.call(&conversation, "TodoWrite", WRITE).await.expect("call");
        tokio::time::timeout(Duration::from_secs(10), rx.recv())
            .await
            .is_ok()
    });
    assert!(woken, "the second runtime's watch was never woken");
}
