//! Group commit of the folder `fsync`: a rename in the store folder is
//! durable once the folder is synced after it, and one sync makes every
//! rename made before it began durable. So commits of different
//! conversations that finish their renames together share one sync: the
//! first to arrive syncs, the others wait for it, and whoever renamed
//! while it was running waits for the next one, which one of them runs.
//!
//! Every commit is still acknowledged only after a folder sync that began
//! after its rename succeeded; a failed sync fails every commit it was to
//! cover (their outcome unknown, as with a sync of their own), even one
//! that reads the outcome only after a later sync succeeded: a sync that
//! follows a failed one says nothing of the renames the failed one lost.
//!
//! The syncs are numbered rounds ([`Rounds`]): a commit joins the round
//! that will start next and reads that round's own outcome, kept until
//! each of its commits has read it.

use std::collections::BTreeMap;
use std::io;
use std::path::Path;
use std::sync::{Condvar, Mutex, PoisonError};

use todokit_app::StoreError;

/// The folder syncs of one store and its clones.
#[derive(Debug, Default)]
pub(super) struct GroupSync {
    rounds: Mutex<Rounds>,
    done: Condvar,
}

/// How a round's sync ended: the error's kind and words when it failed,
/// told to each of its commits.
type Outcome = Result<(), (io::ErrorKind, String)>;

/// The bookkeeping of the rounds, apart from the threads that run them.
#[derive(Debug, Default)]
struct Rounds {
    /// The round whose sync runs now.
    running: Option<u64>,
    /// The number the next round to start takes.
    next: u64,
    /// Each round with commits that have not read its outcome yet.
    open: BTreeMap<u64, Round>,
}

#[derive(Debug, Default)]
struct Round {
    /// Its commits that have not read its outcome yet.
    waiting: usize,
    /// Its sync's outcome, once it ran.
    outcome: Option<Outcome>,
}

impl Rounds {
    /// A commit whose rename just happened joins the round that starts
    /// next: the one after the running sync, which began before the
    /// rename and so cannot cover it.
    fn join(&mut self) -> u64 {
        let round = match self.running {
            Some(running) => running + 1,
            None => self.next,
        };
        self.open.entry(round).or_default().waiting += 1;
        round
    }

    /// The outcome of `round` for one of its commits once its sync ran (the
    /// last of them to read it closes the round), else `None`.
    fn read(&mut self, round: u64) -> Option<Outcome> {
        let entry = self.open.get_mut(&round)?;
        let outcome = entry.outcome.clone()?;
        entry.waiting -= 1;
        if entry.waiting == 0 {
            self.open.remove(&round);
        }
        Some(outcome)
    }

    /// Starts the sync of `round` when no sync runs (`round` is then the
    /// next round: every earlier one has run): whether the caller is to
    /// run it.
    fn start(&mut self, round: u64) -> bool {
        if self.running.is_some() {
            return false;
        }
        self.running = Some(round);
        self.next = self.next.max(round + 1);
        true
    }

    /// Records how the running sync of `round` ended.
    fn finish(&mut self, round: u64, outcome: Outcome) {
        self.running = None;
        if let Some(entry) = self.open.get_mut(&round) {
            entry.outcome = Some(outcome);
        }
    }
}

impl GroupSync {
    /// Makes a rename just done in `dir` durable, sharing the folder sync
    /// (`sync`) with the commits that renamed at about the same time.
    pub(super) fn after_rename(
        &self,
        dir: &Path,
        sync: impl Fn(&Path) -> io::Result<()>,
    ) -> Result<(), StoreError> {
        let mut rounds = self.rounds.lock().unwrap_or_else(PoisonError::into_inner);
        let round = rounds.join();
        loop {
            if let Some(outcome) = rounds.read(round) {
                return outcome.map_err(|(kind, words)| StoreError::Io {
                    action: "sync",
                    location: dir.display().to_string(),
                    error: io::Error::new(kind, words),
                });
            }
            if !rounds.start(round) {
                rounds = self.done.wait(rounds).unwrap_or_else(PoisonError::into_inner);
                continue;
            }
            // This commit syncs, for every commit of its round.
            drop(rounds);
            let outcome = sync(dir).map_err(|error| (error.kind(), error.to_string()));
            rounds = self.rounds.lock().unwrap_or_else(PoisonError::into_inner);
            rounds.finish(round, outcome);
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

    /// Waits until `count` commits have joined `round` of `group`.
    fn until_joined(group: &GroupSync, round: u64, count: usize) {
        let joined = || {
            let rounds = group.rounds.lock().unwrap_or_else(PoisonError::into_inner);
            rounds.open.get(&round).map_or(0, |r| r.waiting)
        };
        while joined() < count {
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
        while syncs.load(Ordering::SeqCst) == 0 {
            std::thread::sleep(Duration::from_millis(5));
        }
        let later = [commit(&group), commit(&group)];
        until_joined(&group, 1, 2);
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

    #[test]
    fn a_commit_of_a_failed_sync_is_told_so_even_after_a_later_sync_succeeded() {
        // The order threads may take: the third commit reads its round's
        // outcome only after the round after it synced.
        let mut rounds = Rounds::default();
        let first = rounds.join();
        let started_first = rounds.start(first);
        let (second, third) = (rounds.join(), rounds.join());
        let before_its_sync = rounds.read(second);
        rounds.finish(first, Ok(()));
        let first_told = rounds.read(first);
        let started_second = rounds.start(second);
        let fourth = rounds.join();
        rounds.finish(second, Err((io::ErrorKind::Other, "the disk is gone".to_owned())));
        let second_told = rounds.read(second);
        let started_fourth = rounds.start(fourth);
        rounds.finish(fourth, Ok(()));
        let fourth_told = rounds.read(fourth);
        let third_told = rounds.read(third);
        let actual = (
            [first, second, third, fourth],
            [started_first, started_second, started_fourth],
            before_its_sync,
            [first_told, second_told, third_told, fourth_told],
            rounds.open.len(),
        );
        let failed = Some(Err((io::ErrorKind::Other, "the disk is gone".to_owned())));
        let expected = (
            [0, 1, 1, 2],
            [true, true, true],
            None,
            [Some(Ok(())), failed.clone(), failed, Some(Ok(()))],
            0,
        );
        assert_eq!(actual, expected);
    }
}
