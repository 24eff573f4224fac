//! The embedded default store: one JSON file per conversation in a folder.
//!
//! - A write goes to a new temporary file that is fsynced and then renamed over
//!   the old one (and the folder fsynced, one sync shared by the commits
//!   renaming together: [`group_sync`]), so a crash at any moment leaves
//!   either the old or the new list, whole.
//! - Writers take an advisory lock on a per-conversation lock file, check
//!   the stored version and only then write: compare-and-swap across
//!   threads and processes. Readers need no lock; a rename is atomic. The
//!   file found under the lock is parsed only when its bytes differ from
//!   the ones the store last checked (see [`last_file`]).
//! - Any conversation id maps to a file name inside the folder that no other
//!   id maps to (see [`JsonFileStore::file_stem`]).
//! - A file that cannot be parsed is reported, never overwritten; one in a
//!   newer format or a shape this build does not know is refused, never read
//!   as an empty list; fields this build does not know survive a write.
//! - Listing keeps each file's summary and reads again only the files
//!   that changed (see [`summaries`]); one thread per store tells live
//!   feeds and overviews when a file changed (see [`poller`]).
//! - No link inside the folder is followed (see [`safe_fs`]), and temporary
//!   files are removed on every failure path; one left by a killed writer
//!   goes with a sweep of the folder (those older than [`ABANDONED_AFTER`],
//!   and any of a conversation whose lock the sweeper holds), which a
//!   write makes when the folder was not swept for a minute (a stamp file,
//!   `.todokit-swept`, says when), at most every [`SWEEP_EVERY_SAVES`]th
//!   write of one store, and the store's first listing too. Forgetting a
//!   conversation removes its temporary files under its lock; a prune
//!   sweeps the folder.

mod file_format;
mod group_sync;
mod last_file;
mod lifecycle;
#[cfg(test)]
mod lifecycle_tests;
mod locks;
mod names;
mod poller;
#[cfg(test)]
mod runtime_tests;
mod safe_fs;
mod stamp;
mod summaries;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_shared_load;
#[cfg(windows)]
mod windows;
mod work;

pub use last_file::LAST_FILE_MAX_BYTES;
pub use names::MAX_SLUG_CHARS;
pub use poller::FOLDER_POLL_INTERVAL;
pub use safe_fs::{ABANDONED_AFTER, SWEEP_INTERVAL};

use std::collections::HashSet;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::SystemTime;

use async_trait::async_trait;
use file_format::{StoredFileOut, check_file, corrupt, decode_file};
use group_sync::GroupSync;
use last_file::LastFile;
use poller::Poller;
use safe_fs::ReplaceError;
use serde_json::{Map, Value};
use stamp::Stamp;
use summaries::SummaryCache;
use todokit_app::{ConversationContext, Pruned, StoreError, StoredConversation, Wake, WatchGuard};
use todokit_domain::{Timestamp, TodoState};
pub use work::MAX_FILE_WORKERS;
use work::blocking;

/// The version of the file layout this build writes and reads.
pub const FILE_FORMAT: u32 = 1;

/// How often a long-lived store looks for temporary files a killed writer
/// left (one look at the sweep stamp per this many writes; the first write
/// of every store looks too, and lists the folder only when no process
/// swept it in the last minute). Listing the folder on every write cost
/// each write a few syscalls for files that almost never exist, and each
/// `todokit` call a listing of the whole folder.
pub const SWEEP_EVERY_SAVES: usize = 64;

/// One JSON file per conversation under a root folder.
#[derive(Debug, Clone)]
pub struct JsonFileStore {
    root: PathBuf,
    /// Writes so far by this store and its clones, for the sweep's cadence.
    saves: Arc<AtomicUsize>,
    /// Whether this store or a clone listed the folder yet: the first
    /// listing (a server's start, `todokit ls`) sweeps it when it is due.
    listed: Arc<AtomicBool>,
    /// The file this store and its clones last read whole or wrote.
    last: Arc<LastFile>,
    /// The summaries of the files listed last.
    summaries: Arc<SummaryCache>,
    /// The watches of live feeds and overviews.
    poller: Arc<Poller>,
    /// File work runs on the calling thread even under tokio.
    on_calling_thread: bool,
    /// The folder syncs of this store and its clones, shared by commits
    /// that rename at about the same time.
    folder_syncs: Arc<GroupSync>,
    /// Room for file work on tokio's blocking pool: at most
    /// [`MAX_FILE_WORKERS`] of this store's jobs at once, so many feeds
    /// loading together (sixty streams on the board) queue for a few
    /// threads instead of each taking one.
    workers: Arc<tokio::sync::Semaphore>,
}

impl JsonFileStore {
    /// A store under `root`. The folder is created on the first write.
    pub fn new(root: impl Into<PathBuf>) -> Self {
        Self {
            root: root.into(),
            saves: Arc::default(),
            listed: Arc::default(),
            last: Arc::default(),
            summaries: Arc::default(),
            poller: Arc::default(),
            on_calling_thread: false,
            folder_syncs: Arc::default(),
            workers: Arc::new(tokio::sync::Semaphore::new(MAX_FILE_WORKERS)),
        }
    }

    /// This store, doing its file work on the thread that awaits it even
    /// inside a tokio runtime. By default the work goes to tokio's blocking
    /// pool, two thread switches a trip, which on a busy machine is most of
    /// a call on a fast disk. Here the runtime's thread simply waits for
    /// the disk: for a process that serves one client and has nothing else
    /// to do meanwhile (`todokit mcp`), not for a server with other work on
    /// its runtime.
    pub fn on_calling_thread(mut self) -> Self {
        self.on_calling_thread = true;
        self
    }

    /// The folder it keeps its files in.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The file that holds `conversation`'s list.
    pub fn path_for(&self, conversation: &str) -> PathBuf {
        self.root.join(format!("{}.json", Self::file_stem(conversation)))
    }

    /// The file name (without extension) for a conversation id: the id
    /// itself when it is lower-case ASCII letters, digits, `-` and `_`
    /// (`c-default`), else a readable slug of it and a hash
    /// (`c-ünïcode-space~3f…`). No two ids share a name, even on a
    /// case-insensitive file system; see the `names` module.
    pub fn file_stem(conversation: &str) -> String {
        names::file_stem(conversation)
    }

    fn lock_path(&self, conversation: &str) -> PathBuf {
        self.root.join(format!("{}.lock", Self::file_stem(conversation)))
    }

    /// How this conversation's temporary files start: hidden, then the
    /// stem, then a dot (stems have none, so no other conversation's
    /// temporary files share it).
    fn temp_prefix(conversation: &str) -> String {
        format!(".{}.json.", Self::file_stem(conversation))
    }

    fn load_blocking(&self, conversation: &str) -> Result<TodoState, StoreError> {
        self.load_checked(conversation, false)
            .map(|state| state.map(Arc::unwrap_or_clone).unwrap_or_default())
    }

    fn load_shared_blocking(&self, conversation: &str) -> Result<Arc<TodoState>, StoreError> {
        self.load_checked(conversation, true)
            .map(Option::unwrap_or_default)
    }

    /// The stored list, checked: its format is this build's, its shape is
    /// one this build reads whole, and it holds the conversation asked for.
    /// Bytes this store last checked with their list are not parsed again.
    /// `keep`: the list parsed is kept beside its bytes for the next load
    /// (a caller that shares the list; one that takes it whole would have
    /// to copy it).
    fn load_checked(&self, conversation: &str, keep: bool) -> Result<Option<Arc<TodoState>>, StoreError> {
        let path = self.path_for(conversation);
        let Some(bytes) = self.read_bytes(conversation, &path)? else {
            return Ok(None);
        };
        if let Some(state) = self.last.recall_state(conversation, &bytes) {
            return Ok(Some(state));
        }
        let stored = check_file(conversation, &path, &bytes)?;
        let state = Arc::new(stored.state);
        let kept = keep.then(|| state.clone());
        self.last
            .remember(conversation, bytes, state.version, &stored.foreign, kept);
        Ok(Some(state))
    }

    /// The bytes of the conversation's file (moved first from where an
    /// earlier build named it), or `None` when there is none.
    fn read_bytes(&self, conversation: &str, path: &Path) -> Result<Option<Vec<u8>>, StoreError> {
        match safe_fs::read_if_exists(path)? {
            Some(bytes) => Ok(Some(bytes)),
            None => self.move_legacy_file(conversation, path),
        }
    }

    /// The conversation's file as an earlier build named it, moved to its
    /// name now (one atomic rename; the stale lock file goes too), and its
    /// bytes; `None` when there is none. Another process moving it first
    /// is no error: the file is then read where it went.
    fn move_legacy_file(&self, conversation: &str, path: &Path) -> Result<Option<Vec<u8>>, StoreError> {
        let legacy_stem = names::legacy_file_stem(conversation);
        if legacy_stem == Self::file_stem(conversation) {
            return Ok(None);
        }
        let legacy = self.root.join(format!("{legacy_stem}.json"));
        // Opened without following links, like every file of the store.
        let Some(bytes) = safe_fs::read_if_exists(&legacy)? else {
            return Ok(None);
        };
        match fs::rename(&legacy, path) {
            Ok(()) => {
                let _ = fs::remove_file(self.root.join(format!("{legacy_stem}.lock")));
                Ok(Some(bytes))
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => safe_fs::read_if_exists(path),
            Err(e) => Err(safe_fs::io_error("rename", &legacy, e)),
        }
    }

    /// Every conversation file in the folder with its summary, checked as
    /// a load would (the id inside must be the one its name encodes);
    /// temporary and lock files are skipped. A file whose stamp is the one
    /// its kept summary was read with is not read again (see
    /// [`summaries`]).
    fn list_blocking(&self) -> Result<Vec<StoredConversation>, StoreError> {
        let entries = match fs::read_dir(&self.root) {
            Ok(entries) => entries,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(safe_fs::io_error("list", &self.root, e)),
        };
        if !self.listed.swap(true, Ordering::Relaxed) && safe_fs::sweep_due(&self.root) {
            safe_fs::sweep_temporaries(&self.root, &[]);
        }
        // Taken before any file is looked at: a summary is kept only for a
        // file whose last change lies well before this.
        let observed = SystemTime::now();
        let mut found = Vec::new();
        let mut listed = HashSet::new();
        for entry in entries {
            let entry = entry.map_err(|e| safe_fs::io_error("list", &self.root, e))?;
            let name = entry.file_name();
            let Some(stem) = name.to_str().and_then(|n| n.strip_suffix(".json")) else {
                continue;
            };
            if stem.starts_with('.') {
                continue;
            }
            listed.insert(stem.to_owned());
            found.push(self.list_entry(&entry, stem, observed));
        }
        self.summaries.keep_only(&listed);
        Ok(found)
    }

    /// One listed file: its kept summary when its stamp has not moved, else
    /// the file read and summarised. What is not a regular file is listed
    /// with its problem and never opened (a FIFO would block the open).
    fn list_entry(&self, entry: &fs::DirEntry, stem: &str, observed: SystemTime) -> StoredConversation {
        let path = entry.path();
        let metadata = entry
            .file_type()
            .map_err(|e| safe_fs::io_error("read", &path, e))
            .and_then(|kind| safe_fs::refuse_kind("read", &path, kind))
            .and_then(|()| entry.metadata().map_err(|e| safe_fs::io_error("read", &path, e)));
        let changed_at = |metadata: &fs::Metadata| metadata.modified().ok().map(crate::clock::millis_of);
        if let Ok(metadata) = &metadata
            && let Some((id, summary)) = self.summaries.get(stem, &Stamp::of(metadata))
        {
            return StoredConversation {
                id,
                changed_at: changed_at(metadata),
                summary: Ok(summary),
            };
        }
        let read = metadata.and_then(|_| {
            let (bytes, metadata) = safe_fs::read_with_metadata(&path)?
                .ok_or_else(|| corrupt(&path, "it vanished while listed".to_owned()))?;
            let stored = decode_file(&path, &bytes)?;
            // A file an earlier build named is listed where it is; the
            // next load or save moves it.
            let id = &stored.conversation;
            if Self::file_stem(id) != stem && names::legacy_file_stem(id) != stem {
                return Err(corrupt(
                    &path,
                    format!(
                        "it holds conversation {:?}, which is not the one its name says",
                        todokit_domain::clip(id)
                    ),
                ));
            }
            Ok((stored, metadata))
        });
        match read {
            Ok((stored, metadata)) => {
                let summary = stored.state.summary();
                let stamp = Stamp::of(&metadata);
                self.summaries
                    .put(stem, stamp, observed, &stored.conversation, &summary);
                StoredConversation {
                    id: stored.conversation,
                    changed_at: changed_at(&metadata),
                    summary: Ok(summary),
                }
            }
            Err(error) => StoredConversation {
                id: names::plain_id(stem).unwrap_or(stem).to_owned(),
                changed_at: entry.metadata().ok().as_ref().and_then(changed_at),
                summary: Err(error),
            },
        }
    }

    /// The version stored for `conversation` at `path` (0: none) and the
    /// file's fields this build does not know, for a writer holding the
    /// conversation's lock.
    fn stored_version(
        &self,
        conversation: &str,
        path: &Path,
    ) -> Result<(u64, Map<String, Value>), StoreError> {
        Ok(match self.read_bytes(conversation, path)? {
            None => (0, Map::new()),
            // The file this store loaded or wrote last, byte for byte: it
            // was checked whole then.
            Some(bytes) => match self.last.recall(conversation, &bytes) {
                Some(known) => known,
                None => {
                    let file = check_file(conversation, path, &bytes)?;
                    (file.state.version, file.foreign)
                }
            },
        })
    }

    /// Writes `state`; `shared` is the same list when the caller shares it,
    /// kept beside the written bytes for the next load when it reads back
    /// equal.
    fn save_blocking(
        &self,
        conversation: &str,
        expected: u64,
        state: &TodoState,
        shared: Option<&Arc<TodoState>>,
    ) -> Result<(), StoreError> {
        let lock_path = self.lock_path(conversation);
        // Made when missing, so a lock always comes.
        let lock = locks::lock(&self.root, &lock_path, true)?;
        // The lock is released when `lock` is dropped, on every path out.
        let path = self.path_for(conversation);
        let (found, foreign) = self.stored_version(conversation, &path)?;
        if found != expected {
            return Err(StoreError::Conflict {
                conversation: conversation.to_owned(),
                expected,
                found,
            });
        }
        let body = StoredFileOut {
            format: FILE_FORMAT,
            conversation,
            state,
            foreign: &foreign,
        };
        let bytes = serde_json::to_vec_pretty(&body)
            .map_err(|e| safe_fs::io_error("encode", &path, io::Error::other(e)))?;
        let prefix = Self::temp_prefix(conversation);
        // Holding the lock, no live writer of this conversation owns a
        // temporary file: any found now was left by a killed one.
        if self
            .saves
            .fetch_add(1, Ordering::Relaxed)
            .is_multiple_of(SWEEP_EVERY_SAVES)
            && safe_fs::sweep_due(&self.root)
        {
            safe_fs::sweep_temporaries(&self.root, &[&prefix]);
        }
        let unsynced = match safe_fs::replace_durably(&self.root, &prefix, &path, &bytes, &self.folder_syncs)
        {
            Ok(()) => None,
            Err(ReplaceError::NotWritten(error)) => return Err(error),
            // The new list is live: readers and watchers see it, and the
            // caller learns the write may not survive a crash.
            Err(ReplaceError::NotSynced(error)) => Some(error),
        };
        let kept = shared.filter(|state| last_file::reads_back_equal(state)).cloned();
        self.last
            .remember(conversation, bytes, state.version, &foreign, kept);
        drop(lock);
        self.poller.committed(&path);
        match unsynced {
            None => Ok(()),
            Some(error) => Err(StoreError::OutcomeUnknown {
                conversation: conversation.to_owned(),
                location: path.display().to_string(),
                reason: format!(
                    "the new list replaced the file, but making that durable failed ({error}); it is what \
                     readers see now, and a crash before the disk catches up could bring back the list before it"
                ),
            }),
        }
    }
}

#[async_trait]
impl ConversationContext for JsonFileStore {
    async fn load(&self, conversation: &str) -> Result<TodoState, StoreError> {
        if self.on_calling_thread {
            return self.load_blocking(conversation);
        }
        let (store, conversation) = (self.clone(), conversation.to_owned());
        blocking(&self.workers, move || store.load_blocking(&conversation)).await
    }

    async fn load_shared(&self, conversation: &str) -> Result<Arc<TodoState>, StoreError> {
        if self.on_calling_thread {
            return self.load_shared_blocking(conversation);
        }
        let (store, conversation) = (self.clone(), conversation.to_owned());
        blocking(&self.workers, move || store.load_shared_blocking(&conversation)).await
    }

    async fn save(&self, conversation: &str, expected: u64, state: &TodoState) -> Result<(), StoreError> {
        if self.on_calling_thread {
            return self.save_blocking(conversation, expected, state, None);
        }
        self.save_shared(conversation, expected, Arc::new(state.clone()))
            .await
    }

    async fn save_shared(
        &self,
        conversation: &str,
        expected: u64,
        state: Arc<TodoState>,
    ) -> Result<(), StoreError> {
        if self.on_calling_thread {
            return self.save_blocking(conversation, expected, &state, Some(&state));
        }
        let (store, conversation) = (self.clone(), conversation.to_owned());
        blocking(&self.workers, move || {
            store.save_blocking(&conversation, expected, &state, Some(&state))
        })
        .await
    }

    fn is_durable(&self) -> bool {
        true
    }

    async fn conversations(&self) -> Result<Vec<StoredConversation>, StoreError> {
        if self.on_calling_thread {
            return self.list_blocking();
        }
        let store = self.clone();
        blocking(&self.workers, move || store.list_blocking()).await
    }

    async fn forget(
        &self,
        conversation: &str,
        changed_before: Option<Timestamp>,
    ) -> Result<bool, StoreError> {
        if self.on_calling_thread {
            return self.forget_blocking(conversation, changed_before, None);
        }
        let (store, conversation) = (self.clone(), conversation.to_owned());
        blocking(&self.workers, move || {
            store.forget_blocking(&conversation, changed_before, None)
        })
        .await
    }

    async fn save_record(
        &self,
        conversation: &str,
        list_version: u64,
        expected: u64,
        record: Arc<TodoState>,
    ) -> Result<(), StoreError> {
        if self.on_calling_thread {
            return self.save_record_blocking(conversation, list_version, expected, &record);
        }
        let (store, conversation) = (self.clone(), conversation.to_owned());
        blocking(&self.workers, move || {
            store.save_record_blocking(&conversation, list_version, expected, &record)
        })
        .await
    }

    async fn prune(
        &self,
        prefix: &str,
        changed_before: Timestamp,
        dry_run: bool,
    ) -> Result<Pruned, StoreError> {
        if self.on_calling_thread {
            return self.prune_blocking(prefix, changed_before, dry_run);
        }
        let (store, prefix) = (self.clone(), prefix.to_owned());
        blocking(&self.workers, move || {
            store.prune_blocking(&prefix, changed_before, dry_run)
        })
        .await
    }

    /// Woken by the store's folder watch (see [`FOLDER_POLL_INTERVAL`]).
    fn watch(&self, conversation: &str, wake: Wake) -> Option<WatchGuard> {
        Some(
            self.poller
                .watch_file(&self.root, self.path_for(conversation), wake),
        )
    }

    fn watch_all(&self, wake: Wake) -> Option<WatchGuard> {
        Some(self.poller.watch_all(&self.root, wake))
    }
}
