//! How the JSON-file store says that a conversation changed
//! (`watch`, `watch_all`): one thread per store, alive while anything
//! watches, looks at the folder every [`FOLDER_POLL_INTERVAL`] and at each
//! watched file when the folder moved (every write renames a file into
//! it) and every [`FULL_CHECK_EVERY`] ticks anyway (an editor may write a
//! file in place). However many feeds and overviews watch, that is one
//! thread and one `stat` per tick while nothing changes.
//!
//! A stamp that is not settled yet (see [`super::stamp`]) counts as
//! moved, so two writes within one tick of a coarse clock are not taken
//! for one.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError, Weak};
use std::time::{Duration, SystemTime};

use todokit_app::{Wake, WatchGuard};

use super::stamp::Stamp;
use crate::store::wakes::Wakes;

/// How often the thread looks at the folder.
pub const FOLDER_POLL_INTERVAL: Duration = Duration::from_millis(200);

/// Every this many ticks, each watched file is looked at even when the
/// folder did not move (5 s).
pub const FULL_CHECK_EVERY: u32 = 25;

/// The watches of one store's folder.
#[derive(Debug, Default)]
pub struct Poller {
    watched: Mutex<Watched>,
    /// Store-wide watches, rung whenever the folder moved.
    all: Arc<Wakes>,
}

#[derive(Debug, Default)]
struct Watched {
    files: HashMap<PathBuf, WatchedFile>,
    next_id: u64,
    running: bool,
}

#[derive(Default)]
struct WatchedFile {
    stamp: Option<Stamp>,
    settled: bool,
    wakes: Vec<(u64, Wake)>,
}

impl std::fmt::Debug for WatchedFile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WatchedFile")
            .field("watches", &self.wakes.len())
            .finish_non_exhaustive()
    }
}

impl Poller {
    /// Calls `wake` when the file at `path` may have changed, while the
    /// guard lives.
    pub fn watch_file(self: &Arc<Self>, root: &Path, path: PathBuf, wake: Wake) -> WatchGuard {
        let observed = SystemTime::now();
        let stamp = stat(&path);
        let mut watched = self.lock();
        watched.next_id += 1;
        let id = watched.next_id;
        let file = watched.files.entry(path.clone()).or_insert_with(|| WatchedFile {
            settled: stamp.is_none_or(|s| s.settled_at(observed)),
            stamp,
            wakes: Vec::new(),
        });
        file.wakes.push((id, wake));
        self.start(&mut watched, root);
        WatchGuard::new(Unwatch {
            poller: Arc::downgrade(self),
            path,
            id,
        })
    }

    /// Calls `wake` when any file in the folder may have changed, while the
    /// guard lives.
    pub fn watch_all(self: &Arc<Self>, root: &Path, wake: Wake) -> WatchGuard {
        let guard = self.all.add(None, wake);
        self.start(&mut self.lock(), root);
        guard
    }

    /// Rings the watches of the file at `path` and the store-wide ones at
    /// once: this process just replaced it.
    pub fn committed(&self, path: &Path) {
        let wakes: Vec<Wake> = self
            .lock()
            .files
            .get(path)
            .map(|file| file.wakes.iter().map(|(_, wake)| Arc::clone(wake)).collect())
            .unwrap_or_default();
        for wake in wakes {
            wake();
        }
        self.all.ring(None);
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Watched> {
        self.watched.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Starts the thread unless it runs.
    fn start(self: &Arc<Self>, watched: &mut Watched, root: &Path) {
        if watched.running {
            return;
        }
        let (poller, root) = (Arc::downgrade(self), root.to_owned());
        let spawned = std::thread::Builder::new()
            .name("todokit-folder-watch".to_owned())
            .spawn(move || run(&poller, &root));
        // Without a thread (the system refused one) nothing rings: feeds
        // still see this process's own commits.
        watched.running = spawned.is_ok();
    }

    /// Looks at every watched file; wakes the watches of each that moved
    /// or has not settled.
    fn check_files(&self) {
        let observed = SystemTime::now();
        let mut due = Vec::new();
        {
            let mut watched = self.lock();
            for (path, file) in &mut watched.files {
                let stamp = stat(path);
                if stamp != file.stamp || !file.settled {
                    due.extend(file.wakes.iter().map(|(_, wake)| Arc::clone(wake)));
                }
                file.settled = stamp.is_none_or(|s| s.settled_at(observed));
                file.stamp = stamp;
            }
        }
        for wake in due {
            wake();
        }
    }

    /// True (and the thread marked stopped) when nothing watches any more.
    fn idle(&self) -> bool {
        let mut watched = self.lock();
        if watched.files.is_empty() && self.all.is_empty() {
            watched.running = false;
            return true;
        }
        false
    }
}

/// The thread: a tick every [`FOLDER_POLL_INTERVAL`] until nothing watches or the
/// store is gone.
fn run(poller: &Weak<Poller>, root: &Path) {
    let mut folder = stat(root);
    let mut folder_settled = false;
    let mut tick: u32 = 0;
    loop {
        std::thread::sleep(FOLDER_POLL_INTERVAL);
        let Some(poller) = poller.upgrade() else {
            return;
        };
        if poller.idle() {
            return;
        }
        let observed = SystemTime::now();
        let now = stat(root);
        // Rung while the folder's stamp has not settled, and once more on
        // the tick it settles: a second write in the same clock tick as
        // the first leaves the folder's times as they were.
        let moved = now != folder || !folder_settled;
        folder_settled = now.is_none_or(|s| s.settled_at(observed));
        folder = now;
        tick = tick.wrapping_add(1);
        if moved {
            poller.all.ring(None);
        }
        if moved || tick.is_multiple_of(FULL_CHECK_EVERY) {
            poller.check_files();
        }
    }
}

/// The stamp of `path` without following a link; `None` when there is
/// nothing there (or it cannot be looked at).
fn stat(path: &Path) -> Option<Stamp> {
    std::fs::symlink_metadata(path).ok().map(|m| Stamp::of(&m))
}

/// Ends one file watch when dropped.
struct Unwatch {
    poller: Weak<Poller>,
    path: PathBuf,
    id: u64,
}

impl Drop for Unwatch {
    fn drop(&mut self) {
        let Some(poller) = self.poller.upgrade() else {
            return;
        };
        let mut watched = poller.lock();
        if let Some(file) = watched.files.get_mut(&self.path) {
            file.wakes.retain(|(id, _)| *id != self.id);
            if file.wakes.is_empty() {
                watched.files.remove(&self.path);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::Instant;

    fn counter(count: &Arc<AtomicUsize>) -> Wake {
        let count = Arc::clone(count);
        Arc::new(move || {
            count.fetch_add(1, Ordering::SeqCst);
        })
    }

    /// Waits (at most 5 s) until `count` is at least `at_least`.
    fn reaches(count: &AtomicUsize, at_least: usize) -> bool {
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(5) {
            if count.load(Ordering::SeqCst) >= at_least {
                return true;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        false
    }

    #[test]
    fn one_thread_wakes_the_file_and_folder_watches_of_a_rename_and_ends_when_they_go() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("a.json");
        std::fs::write(&path, "1").expect("write");
        // Let the file's and the folder's stamps settle, so that only the
        // rename below can wake anyone.
        std::thread::sleep(Duration::from_millis(300));
        let poller = Arc::new(Poller::default());
        let (file, folder) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
        let file_guard = poller.watch_file(dir.path(), path.clone(), counter(&file));
        let folder_guard = poller.watch_all(dir.path(), counter(&folder));
        let temp = dir.path().join(".a.json.tmp");
        std::fs::write(&temp, "22").expect("write");
        std::fs::rename(&temp, &path).expect("rename");
        let woken = (reaches(&file, 1), reaches(&folder, 1));
        drop((file_guard, folder_guard));
        std::thread::sleep(FOLDER_POLL_INTERVAL * 3);
        let actual = (woken, poller.lock().running);
        assert_eq!(actual, ((true, true), false));
    }
}
