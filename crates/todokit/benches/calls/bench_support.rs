//! What both benchmarks share (`benches/process` of the binary includes
//! this file): where the payloads are, what `/proc` says about a process
//! (Linux), and the small lists the curves fill their stores with.

use std::path::{Path, PathBuf};
use std::time::Duration;

use todokit::{ConversationContext, Status, Todo, TodoState};

/// The folder of generated payloads: the first argument that is not a
/// flag (`cargo bench` passes its own), else `target/bench-payloads`.
pub fn payload_dir() -> PathBuf {
    std::env::args()
        .skip(1)
        .find(|a| !a.starts_with('-'))
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("target/bench-payloads"))
}

/// The payload `name` of `dir`; a missing one says how to make it.
pub fn read_payload(dir: &Path, name: &str) -> String {
    let path = dir.join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e} (run `make bench`)", path.display()))
}

/// CPU time (user and system) the process `pid` has used (`"self"` for
/// this one); the kernel counts in 10 ms ticks.
pub fn cpu_time(pid: &str) -> Duration {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    // The fields after the command name, which may hold spaces and is
    // closed by the last parenthesis.
    let fields: Vec<&str> = stat
        .rsplit_once(')')
        .map(|(_, rest)| rest.split_whitespace().collect())
        .unwrap_or_default();
    let ticks = |i: usize| fields.get(i).and_then(|f| f.parse::<u64>().ok()).unwrap_or(0);
    // utime and stime, fields 14 and 15 of the line: the 12th and 13th
    // after the command name.
    Duration::from_millis((ticks(11) + ticks(12)) * 10)
}

/// The threads this process runs.
#[allow(dead_code)] // The process benchmark reads another process's figures.
pub fn threads() -> usize {
    std::fs::read_dir("/proc/self/task").map_or(0, Iterator::count)
}

/// A list of five tasks, as each conversation of the curves holds: some
/// done, one or two in progress, the rest pending.
pub fn small_list(i: usize) -> TodoState {
    let tasks = (0..5)
        .map(|t| {
            let status = match (i + t) % 3 {
                0 => Status::Completed,
                1 => Status::InProgress,
                _ => Status::Pending,
            };
            Todo::new(format!("task {t} of conversation {i}"))
                .active_form(format!("Doing task {t}"))
                .status(status)
        })
        .collect();
    TodoState::flat(tasks).version(1u64)
}

/// Fills `store` with the conversations `prefix-N` for N in `from..count`.
pub async fn fill(store: &dyn ConversationContext, prefix: &str, from: usize, count: usize) {
    for i in from..count {
        store
            .save(&format!("{prefix}-{i:05}"), 0, &small_list(i))
            .await
            .expect("the store saves");
    }
}

/// [`fill`] with eight writers at once, for a database, whose fsyncs are
/// the cost and overlap across connections. Needs a tokio runtime.
// Only the database figures use it, which builds without `postgres` leave out.
#[cfg_attr(not(feature = "postgres"), allow(dead_code))]
pub async fn fill_concurrently(
    store: std::sync::Arc<dyn ConversationContext>,
    prefix: &str,
    from: usize,
    count: usize,
) {
    let writers: Vec<_> = (0..8)
        .map(|w| {
            let (store, prefix) = (std::sync::Arc::clone(&store), prefix.to_owned());
            tokio::spawn(async move {
                for i in (from..count).filter(|i| i % 8 == w) {
                    store
                        .save(&format!("{prefix}-{i:05}"), 0, &small_list(i))
                        .await
                        .expect("the store saves");
                }
            })
        })
        .collect();
    for writer in writers {
        writer.await.expect("a writer finished");
    }
}
