//! Many live feeds cost no thread each: 1,000 `subscribe` feeds on one
//! store share its one watch (the JSON-file store's folder thread, the
//! memory store's commits), or the service's one timer thread on a store
//! that cannot say when a conversation changed; and a commit made through
//! another store on the same folder still reaches every feed of its
//! conversation. The measurement runs in a process of its own (this test
//! binary again, running this one test), so the thread count is this
//! test's alone and not that of the tests running beside it.

use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use pretty_assertions::assert_eq;
use todokit::{
    ConversationContext, JsonFileStore, MemoryStore, StoreError, Subscription, TodoState, TodoWriteService,
    Todokit,
};

const FEEDS: usize = 1_000;
const CONVERSATIONS: usize = 10;

/// The threads this process runs now.
fn threads() -> usize {
    std::fs::read_dir("/proc/self/task").map_or(0, Iterator::count)
}

/// The next version a feed yields, waiting at most 10 s.
async fn next(feed: &mut Subscription) -> Option<u64> {
    let item = tokio::time::timeout(Duration::from_secs(10), feed.changed()).await;
    Some(item.ok()??.ok()?.version)
}

fn service(store: impl ConversationContext + 'static) -> TodoWriteService {
    Todokit::builder()
        .profile("claude-code")
        .expect("registered")
        .store(store)
        .build()
        .expect("wired")
}

const ARGS: &str = r#"{"todos":[{"content":"a","status":"in_progress","activeForm":"Doing a"}]}"#;

/// `FEEDS` feeds over `CONVERSATIONS` conversations of `feeds_on`, then a
/// commit to conversation c3 through `writer`: the threads the feeds added,
/// and how many of c3's feeds yielded the new version.
async fn feeds_and_a_commit(feeds_on: &TodoWriteService, writer: &TodoWriteService) -> (usize, usize) {
    let before = threads();
    let mut feeds: Vec<(usize, Subscription)> = (0..FEEDS)
        .map(|i| {
            (
                i % CONVERSATIONS,
                feeds_on.subscribe(&format!("c{}", i % CONVERSATIONS)),
            )
        })
        .collect();
    for (_, feed) in &mut feeds {
        next(feed).await;
    }
    let added = threads().saturating_sub(before);
    let committed = writer.call("c3", "TodoWrite", ARGS).await.expect("committed");
    assert!(!committed.is_error, "{}", committed.content);
    let mut heard = 0;
    for (conversation, feed) in &mut feeds {
        if *conversation == 3 && next(feed).await == Some(1) {
            heard += 1;
        }
    }
    (added, heard)
}

/// A store of a host's own that cannot say when a list changed.
struct Unwatched(MemoryStore);

#[async_trait]
impl ConversationContext for Unwatched {
    async fn load(&self, conversation: &str) -> Result<TodoState, StoreError> {
        self.0.load(conversation).await
    }

    async fn save(&self, conversation: &str, expected: u64, state: &TodoState) -> Result<(), StoreError> {
        self.0.save(conversation, expected, state).await
    }

    fn is_durable(&self) -> bool {
        false
    }
}

/// Set in the process that measures: there this test runs alone.
const ALONE: &str = "TODOKIT_TEST_FEEDS_ALONE";

#[test]
fn a_thousand_feeds_share_one_thread_and_each_hears_a_commit_made_elsewhere() {
    if std::env::var_os(ALONE).is_some() {
        measure();
        return;
    }
    // This module's path within the test binary, without the binary's name.
    let this = module_path!()
        .split_once("::")
        .map_or(module_path!(), |(_, module)| module);
    let name = format!("{this}::a_thousand_feeds_share_one_thread_and_each_hears_a_commit_made_elsewhere");
    let binary = std::env::current_exe().expect("the test binary's path");
    let out = std::process::Command::new(binary)
        .args(["--exact", &name, "--test-threads=1"])
        .env(ALONE, "1")
        .output()
        .expect("the test binary runs");
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && report.contains("1 passed"),
        "{report}{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The measurement, on a current-thread runtime (one that adds no thread).
#[tokio::main(flavor = "current_thread")]
async fn measure() {
    let dir = tempfile::tempdir().expect("temp dir");
    // File work on this thread, so tokio's blocking pool adds none.
    let files = service(JsonFileStore::new(dir.path()).on_calling_thread());
    let elsewhere = service(JsonFileStore::new(dir.path()).on_calling_thread());
    let on_files = feeds_and_a_commit(&files, &elsewhere).await;

    let memory = service(MemoryStore::new());
    let on_memory = feeds_and_a_commit(&memory, &memory).await;

    let shared = Arc::new(Unwatched(MemoryStore::new()));
    let unwatched = TodoWriteService::new(
        memory.profile().clone(),
        shared.clone(),
        Arc::new(todokit::SystemClock),
    );
    let on_unwatched = feeds_and_a_commit(&unwatched, &unwatched).await;

    let per_conversation = FEEDS / CONVERSATIONS;
    let actual = (on_files, on_memory, on_unwatched);
    let expected = (
        (1, per_conversation),
        (0, per_conversation),
        (1, per_conversation),
    );
    assert_eq!(actual, expected);
}
