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
//!
//! Windows may keep a removed file's name until its last handle closes,
//! and some of its file systems reuse file indexes, so there a forget also
//! marks the file it removed (it writes [`REMOVED_MARK`] into it, through
//! the handle it holds the lock with, once the name is gone): a writer
//! that gets its lock reads that mark first, then asks whether the file is
//! being removed and compares volume and file index.

use std::fs::{self, File};
use std::io::{self, Seek, SeekFrom, Write};
use std::path::Path;

use todokit_app::StoreError;

use super::safe_fs;

/// How many times a writer opens the lock file again after finding it
/// replaced under it; each time means a forget removed it meanwhile, so
/// running out means something keeps removing it.
const MAX_REOPENS: usize = 64;

/// What a forget writes into a lock file once it removed its name (lock
/// files are otherwise empty): a writer that locks a marked file knows it
/// was removed, whatever the system says of its name.
const REMOVED_MARK: &[u8] = b"removed";

/// The lock on `lock_path`, held until the file is dropped; the folder
/// `root` is made first when `create` and it is missing. `None` when the
/// folder is missing and not to be made (nothing is stored).
pub(super) fn lock(root: &Path, lock_path: &Path, create: bool) -> Result<Option<File>, StoreError> {
    // Windows refuses a removed lock file's name, or gives the removed file
    // again, until every handle to it closes: each reopen waits a little
    // longer.
    let mut backoff = safe_fs::Backoff::new();
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
        drop(file);
        backoff.wait();
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

/// True when `path` still names the file `locked` is: Windows lists a
/// removed file until its last handle closes (an open of the name is
/// refused meanwhile), so a file being removed is not named any more, and
/// a file under the name is compared by its volume and file index.
#[cfg(windows)]
fn still_named(locked: &File, path: &Path) -> Result<bool, StoreError> {
    use super::windows;
    let failed = |e| safe_fs::io_error("lock", path, e);
    let mut mark = [0u8; REMOVED_MARK.len()];
    let read = std::os::windows::fs::FileExt::seek_read(locked, &mut mark, 0).map_err(failed)?;
    if &mark[..read] == REMOVED_MARK || windows::delete_pending(locked).map_err(failed)? {
        return Ok(false);
    }
    let held = windows::identity(locked).map_err(failed)?;
    // Opened to read its attributes only, which no writer's sharing
    // refuses; what refuses it is a removal under way (the file this writer
    // could open a moment ago is going), so that too is "not named".
    let mut attributes = fs::OpenOptions::new();
    std::os::windows::fs::OpenOptionsExt::access_mode(&mut attributes, windows::READ_ATTRIBUTES);
    match windows::open_as_itself(&attributes, path) {
        Ok(named) => Ok(windows::identity(&named).map_err(failed)? == held),
        Err(e) if e.kind() == io::ErrorKind::NotFound || windows::being_removed(&e) => Ok(false),
        Err(e) => Err(failed(e)),
    }
}

/// Elsewhere a writer cannot tell the file it locked from another, so the
/// name is taken to lead to it and forgetting leaves lock files in place
/// (see [`LOCK_FILES_REMOVABLE`]).
#[cfg(not(any(unix, windows)))]
fn still_named(_locked: &File, _path: &Path) -> Result<bool, StoreError> {
    Ok(true)
}

/// Whether forgetting a conversation may remove its lock file (see
/// [`still_named`]).
pub(super) const LOCK_FILES_REMOVABLE: bool = cfg!(any(unix, windows));

/// Removes the lock file at `path`, whose lock `held` is, as a forget does:
/// the name first, then [`REMOVED_MARK`] written into the file, so a
/// marked file is always one no name leads to any more.
pub(super) fn remove_held(held: &File, path: &Path) -> Result<(), StoreError> {
    match fs::remove_file(path) {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::NotFound => {}
        Err(e) => return Err(safe_fs::io_error("remove", path, e)),
    }
    // The name is gone, so the forget is done whatever comes of this: a
    // writer waiting on the file still compares which file it is.
    let mut file = held;
    let _ = file
        .seek(SeekFrom::Start(0))
        .and_then(|_| file.write_all(REMOVED_MARK));
    Ok(())
}

#[cfg(all(test, any(unix, windows)))]
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
        remove_held(&held, &path).expect("removed, as a forget does");
        drop(held);
        let actual = waiter.join().expect("the waiter ran");
        assert_eq!(actual, true);
    }

    #[test]
    fn a_lock_file_removed_while_held_is_no_longer_named_and_its_successor_is() {
        let dir = tempfile::tempdir().expect("temp dir");
        let (root, path) = (dir.path().to_owned(), dir.path().join("c.lock"));
        let held = lock(&root, &path, true).expect("locked").expect("made");
        let before = still_named(&held, &path).expect("looked");
        remove_held(&held, &path).expect("removed, as a forget does");
        let after = still_named(&held, &path).expect("looked");
        drop(held);
        let next = lock(&root, &path, true).expect("locked").expect("made anew");
        let actual = (before, after, still_named(&next, &path).expect("looked"));
        assert_eq!(actual, (true, false, true));
    }
}
