//! Forgetting conversations: a conversation's file and lock file removed
//! under its lock, and the folder synced, so a forget survives a crash
//! like a write; pruning by the files' modification times, read from the
//! folder's listing (a file is opened only when its name does not say
//! which conversation it holds and no listing has said so before).

use std::fs;
use std::io;
use std::time::SystemTime;

use todokit_app::StoreError;
use todokit_domain::Timestamp;

use super::{JsonFileStore, locks, names, safe_fs};

impl JsonFileStore {
    /// Removes `conversation`'s file and lock file (see
    /// [`todokit_app::ConversationContext::forget`]).
    pub(super) fn forget_blocking(
        &self,
        conversation: &str,
        changed_before: Option<Timestamp>,
    ) -> Result<bool, StoreError> {
        let lock_path = self.lock_path(conversation);
        let Some(lock) = locks::lock(&self.root, &lock_path, false)? else {
            return Ok(false);
        };
        let path = self.path_for(conversation);
        let metadata = match fs::symlink_metadata(&path) {
            Ok(metadata) => Some(metadata),
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                // Still under the name an earlier build gave it: moved to
                // its name now, then removed there.
                self.move_legacy_file(conversation, &path)?;
                fs::symlink_metadata(&path).ok()
            }
            Err(e) => return Err(safe_fs::io_error("read", &path, e)),
        };
        let stored = metadata.is_some();
        let idle = metadata.is_some_and(|metadata| {
            changed_before.is_none_or(|before| {
                metadata
                    .modified()
                    .is_ok_and(|at| crate::clock::millis_of(at) < before)
            })
        });
        if stored && !idle {
            return Ok(false);
        }
        if stored {
            remove(&path)?;
        }
        if locks::LOCK_FILES_REMOVABLE {
            remove(&lock_path)?;
        }
        let synced = safe_fs::sync_dir(&self.root);
        drop(lock);
        if !stored {
            return Ok(false);
        }
        self.poller.committed(&path);
        match synced {
            Ok(()) => Ok(true),
            Err(error) => Err(StoreError::OutcomeUnknown {
                conversation: conversation.to_owned(),
                location: path.display().to_string(),
                reason: format!(
                    "the file was removed, but making that durable failed ({error}); readers no longer see it, \
                     and a crash before the disk catches up could bring it back"
                ),
            }),
        }
    }

    /// The conversations under `prefix` whose files last changed before
    /// `changed_before`, forgotten one by one unless `dry_run`.
    pub(super) fn prune_blocking(
        &self,
        prefix: &str,
        changed_before: Timestamp,
        dry_run: bool,
    ) -> Result<Vec<String>, StoreError> {
        let entries = match fs::read_dir(&self.root) {
            Ok(entries) => entries,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(safe_fs::io_error("list", &self.root, e)),
        };
        let mut pruned = Vec::new();
        for entry in entries {
            let entry = entry.map_err(|e| safe_fs::io_error("list", &self.root, e))?;
            let name = entry.file_name();
            let Some(stem) = name.to_str().and_then(|n| n.strip_suffix(".json")) else {
                continue;
            };
            // Temporary files, and anything not a regular file (never
            // opened, never removed by a prune).
            let regular = entry.file_type().is_ok_and(|kind| kind.is_file());
            if stem.starts_with('.') || !regular {
                continue;
            }
            let idle = entry
                .metadata()
                .and_then(|metadata| metadata.modified())
                .is_ok_and(|at| {
                    at < SystemTime::UNIX_EPOCH + std::time::Duration::from_millis(changed_before)
                });
            let Some(id) = idle.then(|| self.id_in(stem)).flatten() else {
                continue;
            };
            if !id.starts_with(prefix) {
                continue;
            }
            if dry_run || self.forget_blocking(&id, Some(changed_before))? {
                pruned.push(id);
            }
        }
        Ok(pruned)
    }

    /// The conversation the file named `stem` holds: its name's, when the
    /// name is the id itself; else the id the last listing read from it;
    /// else the file's own. `None` for a file that cannot be read or whose
    /// name is not its conversation's (a listing reports those).
    fn id_in(&self, stem: &str) -> Option<String> {
        if let Some(id) = names::plain_id(stem) {
            return Some(id.to_owned());
        }
        if let Some(id) = self.summaries.id_of(stem) {
            return Some(id);
        }
        let path = self.root.join(format!("{stem}.json"));
        let bytes = safe_fs::read_if_exists(&path).ok().flatten()?;
        let stored = super::decode_file(&path, &bytes).ok()?;
        (Self::file_stem(&stored.conversation) == stem).then_some(stored.conversation)
    }
}

/// Removes the file at `path`; one already gone is no error.
fn remove(path: &std::path::Path) -> Result<(), StoreError> {
    match fs::remove_file(path) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(safe_fs::io_error("remove", path, e)),
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use pretty_assertions::assert_eq;
    use todokit_app::ConversationContext;

    use super::*;
    use crate::test_support::{lifecycle_contract, lifecycle_expected, racing_forget};

    /// The names in the store's folder, sorted.
    fn names_in(store: &JsonFileStore) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(store.root())
            .map(|entries| {
                entries
                    .filter_map(Result::ok)
                    .map(|e| e.file_name().to_string_lossy().into_owned())
                    .collect()
            })
            .unwrap_or_default();
        names.sort();
        names
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn forgotten_and_pruned_files_go_whole_and_racing_writers_keep_theirs_whole() {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = JsonFileStore::new(dir.path().join("store"));
        let seen = lifecycle_contract(&store, "f").await;
        // An id whose file name is hashed, pruned by the id inside its file.
        let hashed = "F Ünïcode";
        store
            .save(hashed, 0, &todokit_domain::TodoState::new().version(1u64))
            .await
            .expect("saved");
        let later = crate::clock::now_millis() + 1;
        let pruned_hashed = store.prune("F ", later, false).await.expect("pruned");
        let shared: Arc<dyn ConversationContext> = Arc::new(store.clone());
        let (tasks, version) = racing_forget(Arc::clone(&shared), "raced").await;
        store.forget("raced", None).await.expect("forgot");
        let actual = (seen, pruned_hashed, tasks as u64 == version, names_in(&store));
        let expected = (
            lifecycle_expected(),
            vec![hashed.to_owned()],
            true,
            vec![
                ".todokit-swept".to_owned(),
                "c-fbusy.json".to_owned(),
                "c-fbusy.lock".to_owned(),
                "c-fnew.json".to_owned(),
                "c-fnew.lock".to_owned(),
            ],
        );
        assert_eq!(actual, expected);
    }

    #[test]
    fn a_prune_opens_no_odd_file_and_forgetting_nothing_leaves_nothing() {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = JsonFileStore::new(dir.path().join("store"));
        let nothing_yet = store.forget_blocking("a", None).ok();
        fs::create_dir_all(store.root()).expect("folder");
        fs::write(store.root().join("not json.json"), "{").expect("written");
        fs::create_dir(store.root().join("folder.json")).expect("folder");
        #[cfg(unix)]
        std::os::unix::fs::symlink("/etc/hostname", store.root().join("link.json")).expect("link");
        let later = crate::clock::now_millis() + 1;
        let pruned = store.prune_blocking("", later, false).ok();
        let forgot = store.forget_blocking("a", None).ok();
        let mut expected_names = vec!["folder.json".to_owned(), "not json.json".to_owned()];
        if cfg!(unix) {
            expected_names.insert(1, "link.json".to_owned());
        }
        let actual = (nothing_yet, pruned, forgot, names_in(&store));
        let expected = (Some(false), Some(vec![]), Some(false), expected_names);
        assert_eq!(actual, expected);
    }
}
