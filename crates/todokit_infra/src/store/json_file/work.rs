//! Where the file store's work runs: off an async executor's threads, and
//! only a few jobs at once.

use std::io;

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
pub(super) async fn blocking<T: Send + 'static>(
    workers: &tokio::sync::Semaphore,
    work: impl FnOnce() -> Result<T, StoreError> + Send + 'static,
) -> Result<T, StoreError> {
    let Ok(runtime) = tokio::runtime::Handle::try_current() else {
        return work();
    };
    // The semaphore is never closed, so a permit always comes.
    let _turn = workers.acquire().await.ok();
    runtime.spawn_blocking(work).await.map_err(|e| StoreError::Io {
        action: "run",
        location: "a store worker thread".to_owned(),
        error: io::Error::other(e.to_string()),
    })?
}
