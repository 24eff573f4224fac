//! What group commit could buy the JSON-file store under concurrent
//! writers: 8 threads, each on its own conversation in one folder, through
//! the service and its store, beside two floors measured the same way:
//! each write made durable on its own (write, fsync, rename, fsync the
//! folder), and the best group commit could do (the 8 writers of a round
//! share one folder fsync).

use std::io::Write;
use std::path::Path;
use std::sync::{Arc, Barrier};
use std::time::Instant;

use todokit::{JsonFileStore, TodoWriteService};

const WRITERS: usize = 8;
const ROUNDS: usize = 60;

/// Writes per second when `WRITERS` threads each run `work(writer, round)`
/// `ROUNDS` times.
fn per_second(work: impl Fn(usize, usize) + Sync) -> f64 {
    let start = Instant::now();
    std::thread::scope(|scope| {
        for writer in 0..WRITERS {
            let work = &work;
            scope.spawn(move || (0..ROUNDS).for_each(|round| work(writer, round)));
        }
    });
    (WRITERS * ROUNDS) as f64 / start.elapsed().as_secs_f64()
}

fn write_durably(folder: &Path, writer: usize, bytes: &[u8]) {
    let temp = folder.join(format!("w{writer}.json.tmp"));
    let mut file = std::fs::File::create(&temp).expect("create");
    file.write_all(bytes).expect("write");
    file.sync_all().expect("sync");
    std::fs::rename(&temp, folder.join(format!("w{writer}.json"))).expect("rename");
}

fn sync_folder(folder: &Path) {
    std::fs::File::open(folder)
        .and_then(|d| d.sync_all())
        .expect("sync the folder");
}

/// Measures and reports; `service` makes a service over a store.
pub fn report(
    w1: &str,
    stored_bytes: &[u8],
    service: impl Fn(Arc<JsonFileStore>) -> TodoWriteService,
    say: &mut dyn FnMut(String),
) {
    let files = tempfile::tempdir().expect("a temp folder");
    let store = Arc::new(JsonFileStore::new(files.path().join("store")));
    let service = service(store);
    thread_local! {
        // One runtime per writer thread; with none running, the store does
        // its file work on the writer's own thread.
        static RUNTIME: tokio::runtime::Runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .expect("a runtime");
    }
    let through_store = per_second(|writer, _| {
        RUNTIME.with(|runtime| {
            runtime
                .block_on(service.call(&format!("g{writer}"), "TodoWrite", w1))
                .expect("W1 runs")
        });
    });
    let floor = files.path().join("floor");
    std::fs::create_dir_all(&floor).expect("a folder");
    let each_alone = per_second(|writer, _| {
        write_durably(&floor, writer, stored_bytes);
        sync_folder(&floor);
    });
    let round_done = Barrier::new(WRITERS);
    let grouped = per_second(|writer, _| {
        write_durably(&floor, writer, stored_bytes);
        if round_done.wait().is_leader() {
            sync_folder(&floor);
        }
        // Nobody's write counts as durable before the shared fsync.
        round_done.wait();
    });
    say(format!(
        "JSON-file store, {WRITERS} writers on {WRITERS} conversations in one folder: {through_store:.0} calls/s; \
         floor, each write durable on its own: {each_alone:.0} writes/s; one folder fsync per round of {WRITERS} \
         (the most group commit could do): {grouped:.0} writes/s, {:.2}x",
        grouped / each_alone
    ));
}
