//! W1 on the JSON-file store against writing the same bytes durably. The
//! store and its floors are timed in turn, call by call, and each figure
//! is the median of its own samples: on a shared virtual disk, an fsync
//! costs more in some minutes than in others, and measuring one figure
//! after the other let that drift into the ratio.

use std::hint::black_box;
use std::io::Write;
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use todokit::{ConversationContext, JsonFileStore, TodoWriteService};

/// Rounds of one floor, one durable floor and one call of each store.
const ROUNDS: usize = 400;

/// The median of `samples`, in microseconds.
fn median(mut samples: Vec<f64>) -> f64 {
    samples.sort_by(f64::total_cmp);
    samples[samples.len() / 2]
}

/// Microseconds `f` takes once.
fn timed(f: impl FnOnce()) -> f64 {
    let start = Instant::now();
    f();
    start.elapsed().as_secs_f64() * 1e6
}

/// What a writer must do at least to replace a file with `bytes`: write a
/// temporary file, fsync it, rename it over the old one; with `durable`,
/// also fsync the folder, as the store does (without it a crash can lose
/// the new name).
fn replace_file(folder: &Path, bytes: &[u8], durable: bool) {
    let temp = folder.join("x.json.tmp");
    let mut file = std::fs::File::create(&temp).expect("create");
    file.write_all(bytes).expect("write");
    file.sync_all().expect("sync");
    std::fs::rename(&temp, folder.join("x.json")).expect("rename");
    if durable {
        std::fs::File::open(folder)
            .and_then(|d| d.sync_all())
            .expect("sync the folder");
    }
}

/// Measures W1 (`args`) on a JSON-file store in `folder` three ways
/// against the two floors, and reports through `say`: from a task of a
/// multi-thread runtime (a `#[tokio::main]` host: the store works in
/// place), from a current-thread runtime (its file work on tokio's
/// blocking pool), and on the calling thread (as `todokit mcp` and
/// `todokit call` run it). Returns the bytes the store writes.
pub fn report(
    folder: &Path,
    args: &str,
    service: impl Fn(Arc<dyn ConversationContext>) -> TodoWriteService,
    say: &mut impl FnMut(String),
) -> Vec<u8> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let multi = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime");
    let on_workers = Arc::new(service(Arc::new(JsonFileStore::new(folder.join("workers")))));
    let on_pool = service(Arc::new(JsonFileStore::new(folder.join("pool"))));
    let on_thread = service(Arc::new(
        JsonFileStore::new(folder.join("thread")).on_calling_thread(),
    ));
    let call = |service: &TodoWriteService| {
        let result = runtime
            .block_on(service.call("w1", "TodoWrite", black_box(args)))
            .expect("W1 runs");
        black_box(result.content);
    };
    // Timed inside the task, so the trip from this thread to a worker and
    // back, which a host's own task does not make, is not counted.
    let call_in_task = || {
        let (service, args) = (on_workers.clone(), args.to_owned());
        multi
            .block_on(multi.spawn(async move {
                let start = Instant::now();
                let result = service
                    .call("w1", "TodoWrite", black_box(&args))
                    .await
                    .expect("W1 runs");
                black_box(result.content);
                start.elapsed().as_secs_f64() * 1e6
            }))
            .expect("the task ran")
    };
    call_in_task();
    call(&on_pool);
    call(&on_thread);
    let bytes = std::fs::read(JsonFileStore::new(folder.join("pool")).path_for("w1")).expect("stored");
    let floor = folder.join("floor");
    std::fs::create_dir_all(&floor).expect("a folder");
    let mut samples: [Vec<f64>; 5] = Default::default();
    for _ in 0..ROUNDS {
        samples[0].push(call_in_task());
        samples[1].push(timed(|| call(&on_pool)));
        samples[2].push(timed(|| call(&on_thread)));
        samples[3].push(timed(|| replace_file(&floor, &bytes, false)));
        samples[4].push(timed(|| replace_file(&floor, &bytes, true)));
    }
    let [workers, pool, thread, bare, durable] = samples.map(median);
    say(format!(
        "W1 on the JSON-file store: {workers:.0} µs (a task of a multi-thread runtime, the default for a #[tokio::main] host), \
         {pool:.0} µs (a current-thread runtime: file work on the blocking pool), {thread:.0} µs (on the calling thread); \
         durable floor (write, fsync, rename the same {} bytes, fsync the folder) {durable:.0} µs: ratios {:.2}x, {:.2}x and {:.2}x \
         (goal ≤ 1.3x on the default path); without the folder fsync {bare:.0} µs: {:.2}x, {:.2}x and {:.2}x \
         (medians of {ROUNDS} rounds, taken in turn)",
        bytes.len(),
        workers / durable,
        pool / durable,
        thread / durable,
        workers / bare,
        pool / bare,
        thread / bare,
    ));
    bytes
}
