//! `make bench`: each call from the argument string to the result string,
//! on the payloads `scripts/bench-payloads.py` writes, with the floors
//! they are compared against measured in the same run.
//!
//! Usage: `cargo bench -p todokit --all-features --bench calls -- DIR`,
//! where DIR holds the generated payloads (`make bench` does all of it,
//! with a throwaway PostgreSQL for the database figures).

// The only unsafe code in the workspace: a counting allocator that wraps the
// system one, to measure memory per stored conversation.
#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::hint::black_box;
use std::io::Write;
use std::sync::Arc;
use std::sync::atomic::{AtomicIsize, Ordering};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use todokit::app::CallContext;

mod bench_support;
mod doubling;
mod file_store;
mod fixed_store;
mod group_commit;
mod omp;
mod scale;
use fixed_store::FixedStore;
use todokit::{
    ConversationContext, JsonFileStore, ManualClock, MemoryStore, TodoState, TodoWriteService, profiles,
};

/// Counts the bytes the process holds, for the memory figure.
struct Counting;

static HELD: AtomicIsize = AtomicIsize::new(0);

// SAFETY: forwards every call to the system allocator unchanged and only
// counts sizes.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        HELD.fetch_add(layout.size() as isize, Ordering::Relaxed);
        // SAFETY: the caller's contract is passed on as it is.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        HELD.fetch_sub(layout.size() as isize, Ordering::Relaxed);
        // SAFETY: the caller's contract is passed on as it is.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// The plain structs of the floor for W1.
#[derive(Serialize, Deserialize)]
struct PlainItem {
    content: String,
    status: String,
    #[serde(rename = "activeForm")]
    active_form: String,
}

#[derive(Serialize, Deserialize)]
struct PlainInput {
    todos: Vec<PlainItem>,
}

#[derive(Serialize)]
struct PlainPair<'a> {
    old_todos: &'a [PlainItem],
    new_todos: &'a [PlainItem],
}

/// The plain structs of the floor for W3.
#[derive(Deserialize)]
struct PlainLearnItem {
    id: String,
    text: String,
    status: String,
}

#[derive(Deserialize)]
struct PlainLearn {
    items: Vec<PlainLearnItem>,
}

/// learn's text for `input`, written the plainest way: one line per item
/// and the count of completed ones.
fn learn_text(input: &PlainLearn) -> String {
    use std::fmt::Write as _;
    let mut text = String::with_capacity(64 * input.items.len());
    let mut done = 0;
    for item in &input.items {
        let mark = match item.status.as_str() {
            "completed" => {
                done += 1;
                "[x]"
            }
            "in_progress" => "[>]",
            _ => "[ ]",
        };
        let _ = writeln!(text, "{mark} #{}: {}", item.id, item.text);
    }
    let _ = write!(text, "\n({done}/{} completed)", input.items.len());
    text
}

/// Nanoseconds per run of `f`: the median of several timed batches, each
/// long enough to swamp the clock's resolution.
fn measure(mut f: impl FnMut()) -> f64 {
    let warm = Instant::now();
    let mut per_batch = 1u32;
    while warm.elapsed() < Duration::from_millis(50) {
        for _ in 0..per_batch {
            f();
        }
        per_batch = per_batch.saturating_mul(2);
    }
    let batch = (per_batch / 4).max(1);
    let mut samples: Vec<f64> = (0..15)
        .map(|_| {
            let start = Instant::now();
            for _ in 0..batch {
                f();
            }
            start.elapsed().as_nanos() as f64 / f64::from(batch)
        })
        .collect();
    samples.sort_by(f64::total_cmp);
    samples[samples.len() / 2]
}

/// One tool call as a host pays for it: reading only the text the model
/// reads, then also reading the details (written on first read).
fn measure_call(
    runtime: &tokio::runtime::Runtime,
    service: &TodoWriteService,
    conversation: &str,
    tool: &str,
    args: &str,
) -> (f64, f64) {
    let call = || {
        runtime
            .block_on(service.call(conversation, tool, black_box(args)))
            .expect("the workload runs")
    };
    let text_only = measure(|| {
        black_box(call().content);
    });
    let with_details = measure(|| {
        let result = call();
        black_box((result.content.len(), result.details.as_str().len()));
    });
    (text_only, with_details)
}

fn sha256(text: &str) -> String {
    Sha256::digest(text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn service(profile: &str, store: Arc<dyn ConversationContext>) -> TodoWriteService {
    TodoWriteService::new(
        profiles::by_name(profile).expect("registered"),
        store,
        Arc::new(ManualClock::new(1_700_000_000_000)),
    )
}

fn main() {
    let dir = bench_support::payload_dir();
    let w1 = bench_support::read_payload(&dir, "w1_full_replace_50.json");
    let w2_init = bench_support::read_payload(&dir, "w2_init.json");
    let w2_ops = bench_support::read_payload(&dir, "w2_ops_batch.json");
    let w3 = bench_support::read_payload(&dir, "w3_learn_20.json");
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let mut out = std::io::stdout().lock();
    let mut say = |line: String| {
        let _ = writeln!(out, "{line}");
    };
    say(format!("payloads in {}", dir.display()));
    for (name, text) in [
        ("w1_full_replace_50", &w1),
        ("w2_init", &w2_init),
        ("w2_ops_batch", &w2_ops),
        ("w3_learn_20", &w3),
    ] {
        say(format!(
            "  {name}.json  bytes={}  sha256={}",
            text.len(),
            sha256(text)
        ));
    }

    // W1: TodoWrite, 50 items, in memory, steady state (the list is replaced by itself).
    let memory = service("claude-code", Arc::new(MemoryStore::new()));
    runtime
        .block_on(memory.call("w1", "TodoWrite", &w1))
        .expect("W1 runs");
    let (w1_call, w1_details) = measure_call(&runtime, &memory, "w1", "TodoWrite", &w1);
    let old: PlainInput = serde_json::from_str(&w1).expect("W1 is JSON");
    let w1_floor = measure(|| {
        let input: PlainInput = serde_json::from_str(black_box(&w1)).expect("W1 is JSON");
        let pair = PlainPair {
            old_todos: &old.todos,
            new_todos: &input.todos,
        };
        black_box(serde_json::to_string(&pair).expect("encodes"));
    });
    say(format!(
        "W1 claude-code TodoWrite 50 items, memory: {:.1} µs; floor (serde decode + encode old/new) {:.1} µs; ratio {:.2}x (goal ≤ 1.5x)",
        w1_call / 1e3,
        w1_floor / 1e3,
        w1_call / w1_floor
    ));
    say(format!(
        "W1 with the details read too: {:.1} µs; ratio {:.2}x",
        w1_details / 1e3,
        w1_details / w1_floor
    ));

    // W2: the pi batch on the 5 × 10 init, through the service, on a store
    // that serves the init every time (the batch changes what it loads).
    let pi = profiles::by_name("pi").expect("registered");
    let init_state = {
        let empty = TodoState::new();
        let ctx = CallContext::new(&empty, 0, pi.rules());
        pi.run_text("todo_write", &w2_init, &ctx)
            .and_then(|o| o.commit)
            .expect("the init applies")
    };
    let w2_service = service("pi", Arc::new(FixedStore::new(init_state)));
    let (w2_call, w2_details) = measure_call(&runtime, &w2_service, "w2", "todo_write", &w2_ops);
    say(format!(
        "W2 pi batch (done, start, note) on 5 x 10, with the summary, through the service: {:.2} µs (goal ≤ 7 µs); with the details read too: {:.2} µs",
        w2_call / 1e3,
        w2_details / 1e3
    ));
    let w2_text = runtime
        .block_on(w2_service.call("w2", "todo_write", &w2_ops))
        .expect("W2 runs")
        .content;
    omp::report(
        &dir,
        &w2_text,
        || {
            measure(|| {
                let result = runtime
                    .block_on(w2_service.call("w2", "todo_write", black_box(&w2_ops)))
                    .expect("W2 runs");
                black_box(result.content);
            })
        },
        &mut say,
    );

    // W3: learn, full replace of 20 items with its rendering, in memory,
    // steady state (the list is replaced by itself).
    let w3_service = service("learn", Arc::new(MemoryStore::new()));
    runtime
        .block_on(w3_service.call("w3", "todo", &w3))
        .expect("W3 runs");
    let (w3_call, w3_details) = measure_call(&runtime, &w3_service, "w3", "todo", &w3);
    let w3_floor = measure(|| {
        let input: PlainLearn = serde_json::from_str(black_box(&w3)).expect("W3 is JSON");
        black_box(learn_text(&input));
    });
    say(format!(
        "W3 learn todo, 20 items with rendering, memory: {:.2} µs; floor (serde decode into plain structs + write learn's text) \
         {:.2} µs; ratio {:.2}x (goal ≤ 1.5x); with the details read too: {:.2} µs",
        w3_call / 1e3,
        w3_floor / 1e3,
        w3_call / w3_floor,
        w3_details / 1e3
    ));

    // W1 on the JSON-file store against writing the same bytes durably.
    let files = tempfile::tempdir().expect("a temp folder");
    let stored_bytes = file_store::report(files.path(), &w1, |store| service("claude-code", store), &mut say);

    group_commit::report(
        &w1,
        &stored_bytes,
        |store| service("claude-code", store),
        &mut say,
    );

    // Memory per stored conversation of 50 items, in the memory store: as
    // a host holds many (most packed, the few used last ready), and with
    // every list kept ready, against the bytes of the tasks' text.
    let text_bytes: usize = old
        .todos
        .iter()
        .map(|item| item.content.len() + item.active_form.len())
        .sum();
    let conversations = 1_000;
    for (label, store) in [
        (
            "default store (the 8 used last ready, the rest packed)",
            MemoryStore::new(),
        ),
        ("every list ready", MemoryStore::with_ready_limit(usize::MAX)),
    ] {
        let held_before = HELD.load(Ordering::Relaxed);
        let many = service("claude-code", Arc::new(store));
        for i in 0..conversations {
            runtime
                .block_on(many.call(&format!("c{i:04}"), "TodoWrite", &w1))
                .expect("W1 runs");
        }
        let held = (HELD.load(Ordering::Relaxed) - held_before) as f64 / f64::from(conversations);
        say(format!(
            "memory per stored conversation (50 items, memory store, {conversations} conversations, {label}): \
             {:.1} KiB held; {text_bytes} bytes of text; ratio {:.2}x (goal ≤ 1.5x); {} bytes as stored JSON",
            held / 1024.0,
            held / text_bytes as f64,
            stored_bytes.len()
        ));
        drop(many);
    }
    // The JSON-file store keeps nothing per conversation: what it holds
    // after W1 on many more conversations, against after the first.
    let folder = tempfile::tempdir().expect("a temp folder");
    let on_disk = service(
        "claude-code",
        Arc::new(JsonFileStore::new(folder.path()).on_calling_thread()),
    );
    let held_after = |names: std::ops::Range<u32>| {
        for i in names {
            runtime
                .block_on(on_disk.call(&format!("f{i:04}"), "TodoWrite", &w1))
                .expect("W1 runs");
        }
        HELD.load(Ordering::Relaxed)
    };
    let first = held_after(0..1);
    let grown = held_after(1..conversations + 1) - first;
    say(format!(
        "memory held by the JSON-file store after W1 on {conversations} conversations, beyond what it held after the first: \
         {grown} bytes, {:.1} per conversation (goal: nothing per idle conversation; it keeps the one file it last read or wrote)",
        grown as f64 / f64::from(conversations)
    ));
    drop(on_disk);

    // What a packed list costs its next call: W1 on a store that keeps
    // nothing ready (unpack, call, pack again), beside W1 in memory above.
    let cold = service("claude-code", Arc::new(MemoryStore::with_ready_limit(0)));
    runtime
        .block_on(cold.call("w1", "TodoWrite", &w1))
        .expect("W1 runs");
    let w1_cold = measure(|| {
        runtime
            .block_on(cold.call("w1", "TodoWrite", black_box(&w1)))
            .expect("W1 runs");
    });
    say(format!(
        "W1 on a packed list (memory store keeping none ready): {:.1} µs, {:.2}x W1 on a ready one",
        w1_cold / 1e3,
        w1_cold / w1_call
    ));

    postgres(&runtime, &w1, &mut say);

    // How cost grows with what is idle.
    doubling::report(&|f: &mut dyn FnMut()| measure(f), &mut say);
    scale::files(&runtime, &mut say);
    #[cfg(feature = "postgres")]
    if let Ok(url) = std::env::var("TODOKIT_TEST_POSTGRES_URL") {
        scale::database(&url, &mut say);
    }
    scale::feeds(|store| service("claude-code", Arc::new(store)), &mut say);
}

#[cfg(feature = "postgres")]
fn postgres(runtime: &tokio::runtime::Runtime, w1: &str, say: &mut dyn FnMut(String)) {
    let Ok(url) = std::env::var("TODOKIT_TEST_POSTGRES_URL") else {
        say("postgres: no TODOKIT_TEST_POSTGRES_URL (make bench starts a database)".to_owned());
        return;
    };
    let multi = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime");
    let _ = runtime;
    let store = multi
        .block_on(todokit::infra::store::PostgresStore::connect(&url, 8))
        .expect("the bench database is reachable");
    let service = Arc::new(service("claude-code", Arc::new(store)));
    const CONVERSATIONS: usize = 8;
    const CALLS: usize = 200;
    let run_id = std::process::id();
    let started = Instant::now();
    multi.block_on(async {
        let tasks: Vec<_> = (0..CONVERSATIONS)
            .map(|c| {
                let service = service.clone();
                let w1 = w1.to_owned();
                tokio::spawn(async move {
                    for _ in 0..CALLS {
                        service
                            .call(&format!("bench-{run_id}-{c}"), "TodoWrite", &w1)
                            .await
                            .expect("W1 runs");
                    }
                })
            })
            .collect();
        for task in tasks {
            task.await.expect("a writer finished");
        }
    });
    let elapsed = started.elapsed().as_secs_f64();
    say(format!(
        "postgres: {:.0} calls/s with {CONVERSATIONS} concurrent conversations (W1 payload, {} calls)",
        (CONVERSATIONS * CALLS) as f64 / elapsed,
        CONVERSATIONS * CALLS
    ));
}

#[cfg(not(feature = "postgres"))]
fn postgres(_runtime: &tokio::runtime::Runtime, _w1: &str, say: &mut dyn FnMut(String)) {
    say("postgres: this build has no postgres feature (make bench enables it)".to_owned());
}
