//! The per-conversation lock file a writer holds while it checks the
//! stored version and replaces the list.
//!
//! Forgetting a conversation removes its lock file too (it leaves nothing
//! behind), and that alone would break the lock: a writer that opened the
//! file before the removal and waits on it would get a lock on a file no
//! longer in the folder, while a later writer makes a new one and locks
//! that, and both would write at once. So a writer that got its lock
//! checks that the name still leads to the file it locked (same device
//! and inode, one `stat`), and tries again when it does not.

use std::fs::{self, File};
use std::io;
use std::path::Path;

use todokit_app::StoreError;

use super::safe_fs;

/// How many times a writer opens the lock file again after finding it
/// replaced under it; each time means a forget removed it meanwhile, so
/// running out means something keeps removing it.
const MAX_REOPENS: usize = 64;

/// The lock on `lock_path`, held until the file is dropped; the folder
/// `root` is made first when `create` and it is missing. `None` when the
/// folder is missing and not to be made (nothing is stored).
pub(super) fn lock(root: &Path, lock_path: &Path, create: bool) -> Result<Option<File>, StoreError> {
    for _ in 0..MAX_REOPENS {
        let file = match safe_fs::open_lock(lock_path) {
            Ok(file) => file,
            // The folder is made on the first write only: one failing
            // `mkdir` per save would cost every later write a syscall.
            Err(StoreError::Io { error, .. }) if error.kind() == io::ErrorKind::NotFound => {
                if !create {
                    return Ok(None);
                }
                fs::create_dir_all(root).map_err(|e| safe_fs::io_error("create", root, e))?;
                safe_fs::open_lock(lock_path)?
            }
            Err(other) => return Err(other),
        };
        file.lock().map_err(|e| safe_fs::io_error("lock", lock_path, e))?;
        if still_named(&file, lock_path)? {
            return Ok(Some(file));
        }
    }
    Err(safe_fs::io_error(
        "lock",
        lock_path,
        io::Error::other(format!(
            "the lock file was removed under this writer {MAX_REOPENS} times in a row"
        )),
    ))
}

/// True when `path` still names the file `locked` is.
#[cfg(unix)]
fn still_named(locked: &File, path: &Path) -> Result<bool, StoreError> {
    use std::os::unix::fs::MetadataExt;
    let held = locked
        .metadata()
        .map_err(|e| safe_fs::io_error("lock", path, e))?;
    match fs::symlink_metadata(path) {
        Ok(named) => Ok(named.dev() == held.dev() && named.ino() == held.ino()),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(false),
        Err(e) => Err(safe_fs::io_error("lock", path, e)),
    }
}

/// Elsewhere an open file cannot be removed (forgetting leaves the lock
/// file there), so the name always leads to the file locked.
#[cfg(not(unix))]
fn still_named(_locked: &File, _path: &Path) -> Result<bool, StoreError> {
    Ok(true)
}

/// Whether forgetting a conversation may remove its lock file (see
/// [`still_named`]).
pub(super) const LOCK_FILES_REMOVABLE: bool = cfg!(unix);

#[cfg(all(test, unix))]
mod tests {
    use std::time::Duration;

    use pretty_assertions::assert_eq;

    use super::*;

    #[test]
    fn a_writer_waiting_on_a_lock_file_that_is_removed_locks_the_one_named_now() {
        let dir = tempfile::tempdir().expect("temp dir");
        let (root, path) = (dir.path().to_owned(), dir.path().join("c.lock"));
        let held = lock(&root, &path, true).expect("locked").expect("made");
        let waiter = {
            let (root, path) = (root.clone(), path.clone());
            std::thread::spawn(move || {
                let got = lock(&root, &path, true).expect("locked").expect("made");
                still_named(&got, &path).expect("looked")
            })
        };
        // Long enough for the waiter to open the file and wait on it.
        std::thread::sleep(Duration::from_millis(200));
        fs::remove_file(&path).expect("removed, as a forget does");
        drop(held);
        let actual = waiter.join().expect("the waiter ran");
        assert_eq!(actual, true);
    }
}
