//! Where the file store's work runs: off an async executor's threads, and
//! only a few jobs at once.

use std::io;
use std::sync::Arc;

use todokit_app::StoreError;

/// The most file jobs (loads, saves, listings) one store and its clones
/// run at once on tokio's blocking pool; the others wait their turn.
pub const MAX_FILE_WORKERS: usize = 4;

/// Runs file work so that it does not hold up an async executor's other
/// tasks: inside a tokio runtime, on its blocking pool, at most as many
/// jobs at once as `workers` has permits; under any other
/// executor (or `block_on` with none), on the calling thread, so the store
/// needs no reactor. The work is short: one read, or a locked write with
/// two fsyncs.
///
/// Not `block_in_place`, though it would save two thread switches on a
/// multi-thread runtime: it panics when the thread is not one of that
/// runtime's workers yet has it entered (a host that enters a multi-thread
/// runtime's handle inside a current-thread runtime, as language bindings
/// nesting runtimes do), and no public tokio call tells the cases apart.
/// A host that wants the work in place says so ([`super::JsonFileStore::on_calling_thread`]).
///
/// The job holds its permit until it ends, not the caller's future: a
/// caller that stops waiting (a cancelled request, a dropped feed) leaves
/// its job running, and that job still counts.
pub(super) async fn blocking<T: Send + 'static>(
    workers: &Arc<tokio::sync::Semaphore>,
    work: impl FnOnce() -> Result<T, StoreError> + Send + 'static,
) -> Result<T, StoreError> {
    let Ok(runtime) = tokio::runtime::Handle::try_current() else {
        return work();
    };
    // The semaphore is never closed, so a permit always comes.
    let turn = Arc::clone(workers).acquire_owned().await.ok();
    let job = move || {
        let _turn = turn;
        work()
    };
    runtime.spawn_blocking(job).await.map_err(|e| StoreError::Io {
        action: "run",
        location: "a store worker thread".to_owned(),
        error: io::Error::other(e.to_string()),
    })?
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::Duration;

    use pretty_assertions::assert_eq;

    use super::*;

    #[test]
    fn jobs_whose_callers_stopped_waiting_still_hold_their_places() {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_time()
            .build()
            .expect("a runtime");
        let workers = Arc::new(tokio::sync::Semaphore::new(MAX_FILE_WORKERS));
        let running = Arc::new(AtomicUsize::new(0));
        let most = Arc::new(AtomicUsize::new(0));
        let jobs = 3 * MAX_FILE_WORKERS;
        runtime.block_on(async {
            let mut waits = Vec::new();
            for _ in 0..jobs {
                let (running, most) = (Arc::clone(&running), Arc::clone(&most));
                let workers = Arc::clone(&workers);
                // Every caller gives up long before its job ends.
                waits.push(tokio::spawn(async move {
                    let job = blocking(&workers, move || {
                        let now = running.fetch_add(1, Ordering::SeqCst) + 1;
                        most.fetch_max(now, Ordering::SeqCst);
                        std::thread::sleep(Duration::from_millis(60));
                        running.fetch_sub(1, Ordering::SeqCst);
                        Ok(())
                    });
                    tokio::time::timeout(Duration::from_millis(5), job).await
                }));
            }
            for wait in waits {
                let _ = wait.await;
            }
            // The jobs of callers that gave up before their turn never ran;
            // wait for the ones that did (bounded).
            for _ in 0..100 {
                if running.load(Ordering::SeqCst) == 0 && workers.available_permits() == MAX_FILE_WORKERS {
                    break;
                }
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        });
        let actual = most.load(Ordering::SeqCst) <= MAX_FILE_WORKERS;
        assert_eq!(actual, true, "{} jobs ran at once", most.load(Ordering::SeqCst));
    }
}
