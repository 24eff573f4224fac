//! Forgetting conversations: a conversation's file, its turn record's
//! file, their temporary files and lock files removed under both locks
//! (the list's, then the record's: the order every writer that takes both
//! follows), and the folder synced, so a forget survives a crash like a
//! write; a turn record written only while the list's lock is held and
//! its version is the one the record was made from
//! ([`JsonFileStore::save_record_blocking`]); pruning by the files'
//! modification times, read from the folder's listing (a file is opened
//! only when its name does not say which conversation it holds and no
//! listing has said so before), going on past a conversation that cannot
//! be removed.

use std::fs;
use std::io;
use std::path::Path;
use std::sync::Arc;
use std::time::SystemTime;

use todokit_app::{Pruned, StoreError};
use todokit_domain::turn::{record_owner, turn_key};
use todokit_domain::{Timestamp, TodoState};

use super::{JsonFileStore, locks, names, safe_fs};

impl JsonFileStore {
    /// Removes `conversation`'s file and its turn record's, with their
    /// temporary and lock files (see
    /// [`todokit_app::ConversationContext::forget`]). `temporaries`: the
    /// folder's temporary files as a prune listed them, else the folder is
    /// listed for them.
    pub(super) fn forget_blocking(
        &self,
        conversation: &str,
        changed_before: Option<Timestamp>,
        temporaries: Option<&[String]>,
    ) -> Result<bool, StoreError> {
        let record = turn_key(conversation);
        let (lock_path, record_lock_path) = (self.lock_path(conversation), self.lock_path(&record));
        let Some(lock) = locks::lock(&self.root, &lock_path, false)? else {
            return Ok(false);
        };
        let Some(record_lock) = locks::lock(&self.root, &record_lock_path, false)? else {
            return Ok(false);
        };
        let (path, record_path) = (self.path_for(conversation), self.path_for(&record));
        let list = self.stat_moving_legacy(conversation, &path)?;
        let kept_record = self.stat_moving_legacy(&record, &record_path)?;
        // The list's time decides; a record with no list, its own.
        let Some(decides) = list.as_ref().or(kept_record.as_ref()) else {
            self.remove_leftovers(
                &[conversation, &record],
                temporaries,
                &[(&lock, &lock_path), (&record_lock, &record_lock_path)],
            )?;
            return Ok(false);
        };
        let idle = changed_before.is_none_or(|before| {
            decides
                .modified()
                .is_ok_and(|at| crate::clock::millis_of(at) < before)
        });
        if !idle {
            // Taking the record's lock made its lock file; a record that
            // is not there needs none.
            if kept_record.is_none() && locks::LOCK_FILES_REMOVABLE {
                locks::remove_held(&record_lock, &record_lock_path)?;
            }
            return Ok(false);
        }
        for (found, at) in [(&list, &path), (&kept_record, &record_path)] {
            if found.is_some() {
                remove(at)?;
            }
        }
        self.remove_leftovers(
            &[conversation, &record],
            temporaries,
            &[(&lock, &lock_path), (&record_lock, &record_lock_path)],
        )?;
        let synced = safe_fs::sync_dir(&self.root);
        drop((record_lock, lock));
        self.poller.committed(&path);
        self.poller.committed(&record_path);
        match synced {
            Ok(()) => Ok(true),
            Err(error) => Err(StoreError::OutcomeUnknown {
                conversation: conversation.to_owned(),
                location: path.display().to_string(),
                reason: format!(
                    "the files were removed, but making that durable failed ({error}); readers no longer see them, \
                     and a crash before the disk catches up could bring them back"
                ),
            }),
        }
    }

    /// The metadata of `conversation`'s file at `path` (moved there first
    /// from where an earlier build named it); `None` when there is none.
    fn stat_moving_legacy(
        &self,
        conversation: &str,
        path: &Path,
    ) -> Result<Option<fs::Metadata>, StoreError> {
        match fs::symlink_metadata(path) {
            Ok(metadata) => Ok(Some(metadata)),
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                self.move_legacy_file(conversation, path)?;
                Ok(fs::symlink_metadata(path).ok())
            }
            Err(e) => Err(safe_fs::io_error("read", path, e)),
        }
    }

    /// Removes the temporary files of `conversations` (their locks held:
    /// no live writer owns one) and the lock files, each with the lock held
    /// on it.
    fn remove_leftovers(
        &self,
        conversations: &[&str],
        temporaries: Option<&[String]>,
        locks_held: &[(&fs::File, &Path)],
    ) -> Result<(), StoreError> {
        let prefixes: Vec<String> = conversations.iter().map(|c| Self::temp_prefix(c)).collect();
        let prefixes: Vec<&str> = prefixes.iter().map(String::as_str).collect();
        match temporaries {
            Some(names) => {
                for name in names.iter().filter(|n| prefixes.iter().any(|p| n.starts_with(p))) {
                    remove(&self.root.join(name))?;
                }
            }
            None => safe_fs::sweep_temporaries(&self.root, &prefixes),
        }
        if locks::LOCK_FILES_REMOVABLE {
            for (held, lock_path) in locks_held {
                locks::remove_held(held, lock_path)?;
            }
        }
        Ok(())
    }

    /// Writes `record` as `conversation`'s turn record (see
    /// [`todokit_app::ConversationContext::save_record`]): the list's lock
    /// held while its version is checked and the record written, so a
    /// forget (which takes the same lock first) comes wholly before or
    /// wholly after.
    pub(super) fn save_record_blocking(
        &self,
        conversation: &str,
        list_version: u64,
        expected: u64,
        record: &Arc<TodoState>,
    ) -> Result<(), StoreError> {
        let lock = locks::lock(&self.root, &self.lock_path(conversation), true)?;
        let (found, _) = self.stored_version(conversation, &self.path_for(conversation))?;
        if found != list_version {
            return Err(StoreError::Conflict {
                conversation: conversation.to_owned(),
                expected: list_version,
                found,
            });
        }
        let saved = self.save_blocking(&turn_key(conversation), expected, record, Some(record));
        drop(lock);
        saved
    }

    /// The conversations under `prefix` whose files last changed before
    /// `changed_before`, forgotten one by one unless `dry_run`; one that
    /// fails is reported and the rest still go. Temporary files older than
    /// [`safe_fs::ABANDONED_AFTER`] go too.
    pub(super) fn prune_blocking(
        &self,
        prefix: &str,
        changed_before: Timestamp,
        dry_run: bool,
    ) -> Result<Pruned, StoreError> {
        let entries = match fs::read_dir(&self.root) {
            Ok(entries) => entries,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Pruned::default()),
            Err(e) => return Err(safe_fs::io_error("list", &self.root, e)),
        };
        let entries = entries
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| safe_fs::io_error("list", &self.root, e))?;
        let temporaries: Vec<String> = entries
            .iter()
            .filter_map(|entry| entry.file_name().to_str().map(str::to_owned))
            .filter(|name| safe_fs::is_temporary(name))
            .collect();
        if !dry_run {
            safe_fs::sweep_temporaries(&self.root, &[]);
        }
        let before = SystemTime::UNIX_EPOCH + std::time::Duration::from_millis(changed_before);
        let mut pruned = Pruned::default();
        for entry in &entries {
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
                .is_ok_and(|at| at < before);
            let Some(id) = idle.then(|| self.id_in(stem)).flatten() else {
                continue;
            };
            let owner = record_owner(&id);
            let record = owner.is_some();
            // A record goes with its list while it has one.
            let list_kept = owner.is_some_and(|list| self.path_for(list).exists());
            if !id.starts_with(prefix) || list_kept {
                continue;
            }
            if dry_run {
                if !record {
                    pruned.forgotten.push(id);
                }
                continue;
            }
            match self.forget_blocking(&id, Some(changed_before), Some(&temporaries)) {
                Ok(true) if !record => pruned.forgotten.push(id),
                Ok(_) => {}
                Err(error) => pruned.failed.push((id, error)),
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
        let stored = super::file_format::decode_file(&path, &bytes).ok()?;
        (Self::file_stem(&stored.conversation) == stem).then_some(stored.conversation)
    }
}

/// Removes the file at `path`; one already gone is no error.
fn remove(path: &Path) -> Result<(), StoreError> {
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
        let pruned_hashed = store.prune("F ", later, false).await.expect("pruned").forgotten;
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
        let nothing_yet = store.forget_blocking("a", None, None).ok();
        fs::create_dir_all(store.root()).expect("folder");
        fs::write(store.root().join("not json.json"), "{").expect("written");
        fs::create_dir(store.root().join("folder.json")).expect("folder");
        #[cfg(unix)]
        std::os::unix::fs::symlink("/etc/hostname", store.root().join("link.json")).expect("link");
        let later = crate::clock::now_millis() + 1;
        let pruned = store.prune_blocking("", later, false).ok().map(|p| p.forgotten);
        let forgot = store.forget_blocking("a", None, None).ok();
        let mut expected_names = vec!["folder.json".to_owned(), "not json.json".to_owned()];
        if cfg!(unix) {
            expected_names.insert(1, "link.json".to_owned());
        }
        let actual = (nothing_yet, pruned, forgot, names_in(&store));
        let expected = (Some(false), Some(vec![]), Some(false), expected_names);
        assert_eq!(actual, expected);
    }
}
