//! A live feed in this process sees a commit made by another `todokit`
//! process on the same JSON-file store within a second.

use std::future::poll_fn;
use std::pin::Pin;
use std::time::{Duration, Instant};

use pretty_assertions::assert_eq;
use todokit::Todokit;
use todokit::app::Subscription;

async fn next(feed: &mut Subscription) -> Option<u64> {
    let item = poll_fn(|cx| futures_core::Stream::poll_next(Pin::new(&mut *feed), cx)).await;
    item.map(|state| state.map(|s| s.version).unwrap_or(u64::MAX))
}

#[tokio::test]
async fn a_commit_by_another_process_reaches_the_feed_within_a_second() {
    let dir = tempfile::tempdir().unwrap();
    let service = Todokit::builder()
        .profile("claude-code")
        .unwrap()
        .store_dir(dir.path())
        .build()
        .unwrap();
    let mut feed = service.subscribe("shared");
    let first = next(&mut feed).await;
    let mut delays = Vec::new();
    let mut versions = Vec::new();
    for round in 1..=3 {
        let args =
            format!(r#"{{"todos":[{{"content":"round {round}","status":"in_progress","activeForm":"r"}}]}}"#);
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_todokit"))
            .arg("--store")
            .arg(dir.path())
            .args(["--conversation", "shared", "call", "TodoWrite", &args])
            .env_remove("TODOKIT_PROFILE")
            .output()
            .expect("todokit call runs");
        assert!(out.status.success());
        let committed = Instant::now();
        let seen = tokio::time::timeout(Duration::from_secs(5), next(&mut feed))
            .await
            .ok()
            .flatten();
        delays.push(committed.elapsed());
        versions.push(seen);
    }
    let actual = (
        first,
        versions,
        delays.iter().all(|d| *d < Duration::from_secs(1)),
    );
    let expected = (Some(0), vec![Some(1), Some(2), Some(3)], true);
    assert_eq!(actual, expected, "delays: {delays:?}");
}
