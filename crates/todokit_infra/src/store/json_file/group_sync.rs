//! Group commit of the folder `fsync`: a rename in the store folder is
//! durable once the folder is synced after it, and one sync makes every
//! rename made before it began durable. So commits of different
//! conversations that finish their renames together share one sync: the
//! first to arrive syncs, the others wait for it, and whoever renamed
//! while it was running waits for the next one, which one of them runs.
//!
//! Every commit is still acknowledged only after a folder sync that began
//! after its rename succeeded; a failed sync fails every commit it was to
//! cover (their outcome unknown, as with a sync of their own).

use std::io;
use std::path::Path;
use std::sync::{Condvar, Mutex, PoisonError};

use todokit_app::StoreError;

/// The folder syncs of one store and its clones.
#[derive(Debug, Default)]
pub(super) struct GroupSync {
    state: Mutex<Progress>,
    done: Condvar,
}

#[derive(Debug, Default)]
struct Progress {
    /// Renames announced so far (each takes the next number).
    renamed: u64,
    /// Every rename numbered up to this is durable.
    synced: u64,
    /// Whether a sync is running now.
    running: bool,
    /// The last failed sync: the renames it was to cover, and why (the
    /// error's kind and words, told to each of them).
    failed: Option<(u64, io::ErrorKind, String)>,
}

impl GroupSync {
    /// Makes a rename just done in `dir` durable, sharing the folder sync
    /// (`sync`) with the commits that renamed at about the same time.
    pub(super) fn after_rename(
        &self,
        dir: &Path,
        sync: impl Fn(&Path) -> io::Result<()>,
    ) -> Result<(), StoreError> {
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        state.renamed += 1;
        let ticket = state.renamed;
        loop {
            if state.synced >= ticket {
                return Ok(());
            }
            if let Some((covered, kind, words)) = &state.failed
                && *covered >= ticket
            {
                return Err(StoreError::Io {
                    action: "sync",
                    location: dir.display().to_string(),
                    error: io::Error::new(*kind, words.clone()),
                });
            }
            if state.running {
                state = self.done.wait(state).unwrap_or_else(PoisonError::into_inner);
                continue;
            }
            // This commit syncs, for itself and every rename before.
            let covers = state.renamed;
            state.running = true;
            drop(state);
            let outcome = sync(dir);
            state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
            state.running = false;
            match outcome {
                Ok(()) => state.synced = state.synced.max(covers),
                Err(error) => state.failed = Some((covers, error.kind(), error.to_string())),
            }
            self.done.notify_all();
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::Duration;

    use pretty_assertions::assert_eq;

    use super::*;

    fn gone() -> io::Error {
        io::Error::other("the disk is gone")
    }

    /// Waits until `count` threads wait on `group`'s running sync.
    fn until_waiting(group: &GroupSync, count: u64) {
        while group.state.lock().unwrap_or_else(PoisonError::into_inner).renamed < count {
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// Three commits: the first syncs alone (the others rename while its
    /// sync runs), the next two share one sync; with `fail`, every sync
    /// fails. What each commit was told, and how many syncs ran.
    fn three_commits(fail: bool) -> (Vec<Result<(), String>>, usize) {
        let group = Arc::new(GroupSync::default());
        let syncs = Arc::new(AtomicUsize::new(0));
        let (release, held) = std::sync::mpsc::channel::<()>();
        let held = Mutex::new(held);
        let sync = {
            let syncs = Arc::clone(&syncs);
            move |_: &Path| {
                // The first sync waits to be released; later ones run at once.
                if syncs.fetch_add(1, Ordering::SeqCst) == 0 {
                    let _ = held.lock().unwrap_or_else(PoisonError::into_inner).recv();
                }
                if fail { Err(gone()) } else { Ok(()) }
            }
        };
        let sync = Arc::new(sync);
        let commit = |group: &Arc<GroupSync>| {
            let (group, sync) = (Arc::clone(group), Arc::clone(&sync));
            std::thread::spawn(move || {
                group
                    .after_rename(Path::new("."), |dir| sync(dir))
                    .map_err(|e| e.to_string())
            })
        };
        let first = commit(&group);
        until_waiting(&group, 1);
        while syncs.load(Ordering::SeqCst) == 0 {
            std::thread::sleep(Duration::from_millis(5));
        }
        let later = [commit(&group), commit(&group)];
        until_waiting(&group, 3);
        let _ = release.send(());
        let mut told = vec![first.join().unwrap_or_else(|_| Err("panicked".to_owned()))];
        told.extend(later.map(|t| t.join().unwrap_or_else(|_| Err("panicked".to_owned()))));
        (told, syncs.load(Ordering::SeqCst))
    }

    #[test]
    fn renames_made_while_a_sync_runs_share_the_next_one() {
        let actual = three_commits(false);
        let expected = (vec![Ok(()), Ok(()), Ok(())], 2);
        assert_eq!(actual, expected);
    }

    #[test]
    fn a_failed_sync_fails_every_commit_it_was_to_cover() {
        let actual = three_commits(true);
        let failed = Err("could not sync .: the disk is gone".to_owned());
        let expected = (vec![failed.clone(), failed.clone(), failed], 2);
        assert_eq!(actual, expected);
    }
}
