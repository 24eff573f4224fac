//! How cost grows with what is idle: listing conversations at 100, 1,000
//! and 10,000 of them (the JSON-file store cold and warm, PostgreSQL), and
//! live feeds at 10, 100 and 1,000 on one store (threads, idle CPU, and how
//! long a commit made through another store takes to reach them all).

use std::time::{Duration, Instant};

use super::bench_support::{cpu_time, fill, threads};
use todokit::{ConversationContext, JsonFileStore, Subscription, TodoWriteService};

/// The sizes of each curve.
pub const SIZES: [usize; 3] = [100, 1_000, 10_000];
/// Feed counts.
pub const FEEDS: [usize; 3] = [10, 100, 1_000];
/// How long idle CPU is measured.
const IDLE: Duration = Duration::from_secs(4);

/// The median of `runs` timings of `conversations()`, in milliseconds, and
/// the number listed.
async fn listing(store: &dyn ConversationContext, runs: usize) -> (f64, usize) {
    let mut samples = Vec::new();
    let mut listed = 0;
    for _ in 0..runs {
        let start = Instant::now();
        listed = store.conversations().await.expect("the store lists").len();
        samples.push(start.elapsed().as_secs_f64() * 1e3);
    }
    samples.sort_by(f64::total_cmp);
    (samples[samples.len() / 2], listed)
}

/// The listing curve on the JSON-file store: cold (a store that has listed
/// nothing yet) and warm (the same store listing again).
pub fn files(runtime: &tokio::runtime::Runtime, say: &mut dyn FnMut(String)) {
    let folder = tempfile::tempdir().expect("a temp folder");
    let store = JsonFileStore::new(folder.path()).on_calling_thread();
    let mut had = 0;
    for size in SIZES {
        runtime.block_on(fill(&store, "c", had, size));
        had = size;
        // Older than the store's margin for coarse file times, so their
        // summaries are kept.
        std::thread::sleep(Duration::from_millis(100));
        let fresh = JsonFileStore::new(folder.path()).on_calling_thread();
        let (cold, listed) = runtime.block_on(listing(&fresh, 1));
        let (warm, _) = runtime.block_on(listing(&fresh, 9));
        say(format!(
            "conversations() on the JSON-file store, {listed} conversations: {warm:.1} ms listing again \
             (goal ≤ 50 ms at 10,000); {cold:.1} ms the first time a store lists them (reads every file)"
        ));
    }
}

/// The listing curve on PostgreSQL (the throwaway database of `make bench`).
#[cfg(feature = "postgres")]
pub fn database(url: &str, say: &mut dyn FnMut(String)) {
    use std::sync::Arc;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime");
    let store = Arc::new(
        runtime
            .block_on(todokit::infra::store::PostgresStore::connect(url, 8))
            .expect("the bench database is reachable"),
    );
    let prefix = format!("scale-{}", std::process::id());
    let mut had = 0;
    for size in SIZES {
        // Eight writers at once: the database's fsyncs are the cost.
        runtime.block_on(super::bench_support::fill_concurrently(
            store.clone(),
            &prefix,
            had,
            size,
        ));
        had = size;
        let (took, listed) = runtime.block_on(listing(store.as_ref(), 9));
        say(format!(
            "conversations() on PostgreSQL, {listed} conversations in the table: {took:.1} ms (goal ≤ 50 ms at 10,000)"
        ));
    }
}

/// Live feeds on one JSON-file store: the threads they add, the CPU the
/// process uses while nothing changes, and how long a commit made through
/// another store on the same folder takes to reach every feed of its
/// conversation (all feeds follow one of ten conversations).
pub fn feeds(service: impl Fn(JsonFileStore) -> TodoWriteService, say: &mut dyn FnMut(String)) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    for count in FEEDS {
        let folder = tempfile::tempdir().expect("a temp folder");
        // File work on the calling thread: tokio's blocking pool would add
        // threads of its own for the first loads, whoever asked for them.
        let here = service(JsonFileStore::new(folder.path()).on_calling_thread());
        let elsewhere = service(JsonFileStore::new(folder.path()).on_calling_thread());
        let before = threads();
        let mut feeds: Vec<(usize, Subscription)> = (0..count)
            .map(|i| (i % 10, here.subscribe(&format!("c{}", i % 10))))
            .collect();
        runtime.block_on(async {
            for (_, feed) in &mut feeds {
                next(feed).await;
            }
        });
        let added = threads().saturating_sub(before);
        let cpu_before = cpu_time("self");
        std::thread::sleep(IDLE);
        let idle = (cpu_time("self") - cpu_before).as_secs_f64() / IDLE.as_secs_f64() * 100.0;
        let args = r#"{"todos":[{"content":"a","status":"in_progress","activeForm":"Doing a"}]}"#;
        let started = Instant::now();
        runtime
            .block_on(elsewhere.call("c3", "TodoWrite", args))
            .expect("the commit runs");
        let (heard, last) = runtime.block_on(async {
            let mut heard = 0;
            for (conversation, feed) in &mut feeds {
                if *conversation == 3 && next(feed).await == Some(1) {
                    heard += 1;
                }
            }
            (heard, started.elapsed())
        });
        say(format!(
            "{count} feeds on one JSON-file store: {added} thread(s) added (goal ≤ 4 at 1,000); idle CPU {idle:.2} % of a core \
             over {} s (goal ≤ 1 %); a commit through another store reached all {heard} feeds of its conversation in {:.0} ms \
             (goal ≤ 1 s)",
            IDLE.as_secs(),
            last.as_secs_f64() * 1e3
        ));
    }
}

/// The next version a feed yields (at most 10 s).
async fn next(feed: &mut Subscription) -> Option<u64> {
    let item = tokio::time::timeout(Duration::from_secs(10), feed.changed()).await;
    Some(item.ok()??.ok()?.version)
}
