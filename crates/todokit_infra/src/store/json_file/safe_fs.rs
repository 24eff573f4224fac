//! File operations that never follow a link the store did not make.
//!
//! Anyone who can write to the store's folder could plant a symbolic link
//! where a state, lock or temporary file goes; following it would let the
//! next write replace any file the user can write. So state and lock files
//! are opened with `O_NOFOLLOW` (a link is refused with a clear error), and
//! new contents go to a temporary file with a random name created with
//! `O_EXCL` (the `tempfile` crate) and renamed over the state file, which
//! replaces a link rather than writing through it.
//!
//! Nor does the store wait on what it finds: a FIFO named like a state
//! file would block an ordinary open until a writer came, and a device
//! could be read without end. Files are opened with `O_NONBLOCK` and kept
//! only if they are regular files; anything else is refused by its kind.
//!
//! On Windows the same promises are kept in Windows' terms (see
//! [`super::windows`]): a path is opened as itself when it is a link or a
//! junction, and refused; the rename waits for the disk
//! (`MOVEFILE_WRITE_THROUGH`), as Windows cannot flush a folder.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::Path;
use std::time::{Duration, Instant, SystemTime};

use todokit_app::StoreError;

use super::group_sync::GroupSync;

/// Why a path in the store was refused.
const LINK_REFUSED: &str = "it is a symbolic link, and todokit never follows links inside its store \
                            (remove the link, or point the store at the real folder)";

/// How long a file operation Windows refuses only for a moment is tried
/// again: a file another process holds open without sharing it (an
/// antivirus or an indexer reading it, a reader of ours), or one removed
/// while open and not yet gone, is refused with a sharing violation or
/// "access denied" until that handle closes.
pub const TRANSIENT_RETRY_FOR: Duration = Duration::from_secs(2);

/// Whether `error` is one of Windows' momentary refusals (see
/// [`TRANSIENT_RETRY_FOR`]); never so on other systems, where these
/// numbers mean something else.
fn transient(error: &io::Error) -> bool {
    // ERROR_ACCESS_DENIED, ERROR_SHARING_VIOLATION, ERROR_LOCK_VIOLATION.
    cfg!(windows) && matches!(error.raw_os_error(), Some(5 | 32 | 33))
}

/// Pauses between the attempts of an operation that may succeed a moment
/// later: 1 ms at first, doubling up to 50 ms.
pub(super) struct Backoff {
    pause: Duration,
}

impl Backoff {
    pub(super) fn new() -> Self {
        Self {
            pause: Duration::from_millis(1),
        }
    }

    /// Sleeps for the next pause.
    pub(super) fn wait(&mut self) {
        std::thread::sleep(self.pause);
        self.pause = (self.pause * 2).min(Duration::from_millis(50));
    }
}

/// The waits between the attempts of one operation Windows refuses for a
/// moment: a [`Backoff`], for at most [`TRANSIENT_RETRY_FOR`] in all.
struct Patience {
    deadline: Instant,
    backoff: Backoff,
}

impl Patience {
    fn new() -> Self {
        Self {
            deadline: Instant::now() + TRANSIENT_RETRY_FOR,
            backoff: Backoff::new(),
        }
    }

    /// Whether the operation that failed with `error` is to be made again
    /// (after a pause, taken here); no for a lasting failure or once the
    /// time is up.
    fn again(&mut self, error: &io::Error) -> bool {
        if !transient(error) || Instant::now() >= self.deadline {
            return false;
        }
        self.backoff.wait();
        true
    }
}

/// `attempt`, made again while it fails [`transient`]ly (see
/// [`Patience`]); its last outcome otherwise (a lasting "access denied" is
/// reported after that wait).
fn retried<T>(mut attempt: impl FnMut() -> io::Result<T>) -> io::Result<T> {
    let mut patience = Patience::new();
    loop {
        match attempt() {
            Err(e) if patience.again(&e) => {}
            outcome => return outcome,
        }
    }
}

/// The whole contents of `path`, or `None` when there is no such file.
pub(super) fn read_if_exists(path: &Path) -> Result<Option<Vec<u8>>, StoreError> {
    Ok(read_with_metadata(path)?.map(|(bytes, _)| bytes))
}

/// [`read_if_exists`], with the metadata of the very file read (taken from
/// the open file before reading it, so a later change shows as a change).
pub(super) fn read_with_metadata(path: &Path) -> Result<Option<(Vec<u8>, fs::Metadata)>, StoreError> {
    let mut file = match retried(|| open_no_follow(OpenOptions::new().read(true), path)) {
        Ok(file) => file,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(refusal("read", path, e)),
    };
    let metadata = only_regular("read", path, &file)?;
    let mut bytes = Vec::new();
    io::Read::read_to_end(&mut file, &mut bytes).map_err(|e| io_error("read", path, e))?;
    Ok(Some((bytes, metadata)))
}

/// Opens (creating it if needed) the lock file at `path`.
pub(super) fn open_lock(path: &Path) -> Result<File, StoreError> {
    // Read too: on Windows a writer reads a forget's mark from it.
    let file = retried(|| {
        open_no_follow(
            OpenOptions::new()
                .create(true)
                .truncate(false)
                .read(true)
                .write(true),
            path,
        )
    })
    .map_err(|e| refusal("open", path, e))?;
    only_regular("open", path, &file)?;
    Ok(file)
}

/// Why a listed entry of `kind` is not read at all, if it is not a
/// regular file: the same refusal an open would give, without opening.
pub(super) fn refuse_kind(action: &'static str, path: &Path, kind: fs::FileType) -> Result<(), StoreError> {
    if kind.is_symlink() {
        return Err(io_error(action, path, io::Error::other(LINK_REFUSED)));
    }
    match describe_irregular(kind) {
        Some(what) => Err(not_regular(action, path, what)),
        None => Ok(()),
    }
}

/// Refuses an opened `file` that is not a regular file; its metadata when
/// it is one.
fn only_regular(action: &'static str, path: &Path, file: &File) -> Result<fs::Metadata, StoreError> {
    let metadata = file.metadata().map_err(|e| io_error(action, path, e))?;
    // Only where a link is opened as itself (Windows); elsewhere the open
    // refused it.
    if metadata.file_type().is_symlink() {
        return Err(io_error(action, path, io::Error::other(LINK_REFUSED)));
    }
    match describe_irregular(metadata.file_type()) {
        Some(what) => Err(not_regular(action, path, what)),
        None => Ok(metadata),
    }
}

/// What a file of `kind` is, in words, when it is not a regular file.
fn describe_irregular(kind: fs::FileType) -> Option<&'static str> {
    if kind.is_file() {
        return None;
    }
    if kind.is_dir() {
        return Some("a folder");
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return Some("a FIFO (named pipe)");
        }
        if kind.is_socket() {
            return Some("a socket");
        }
        if kind.is_char_device() || kind.is_block_device() {
            return Some("a device");
        }
    }
    Some("not a regular file")
}

fn not_regular(action: &'static str, path: &Path, what: &str) -> StoreError {
    io_error(
        action,
        path,
        io::Error::other(format!(
            "it is {what}, and todokit keeps only regular files in its store (remove it, or point the store at \
             another folder)"
        )),
    )
}

/// Why [`replace_durably`] did not finish, split at the rename: before it
/// nothing was written; after it the new bytes are live and only their
/// durability is in doubt, so the outcome of the write is unknown, never
/// "nothing was written" (a host would repeat a change already made).
#[derive(Debug)]
pub(super) enum ReplaceError {
    /// Failed before the rename: the target is as it was.
    NotWritten(StoreError),
    /// The rename happened, then making it durable (syncing the folder)
    /// failed: readers see the new bytes, a crash might bring the old back.
    NotSynced(StoreError),
}

/// Writes `bytes` to a new temporary file in `dir` whose name starts with
/// `prefix`, makes it durable, and renames it to `target`, the folder's
/// sync shared through `group` with other commits renaming at the same
/// time. On any failure before the rename the temporary file is removed.
pub(super) fn replace_durably(
    dir: &Path,
    prefix: &str,
    target: &Path,
    bytes: &[u8],
    group: &GroupSync,
) -> Result<(), ReplaceError> {
    replace_then_sync(dir, prefix, target, bytes, |dir| {
        group.after_rename(dir, sync_dir_io)
    })
}

/// [`replace_durably`] with the folder sync given, so a test can make it
/// fail.
fn replace_then_sync(
    dir: &Path,
    prefix: &str,
    target: &Path,
    bytes: &[u8],
    sync: impl FnOnce(&Path) -> Result<(), StoreError>,
) -> Result<(), ReplaceError> {
    let mut temp = tempfile::Builder::new()
        .prefix(prefix)
        .suffix(".tmp")
        .tempfile_in(dir)
        .map_err(|e| ReplaceError::NotWritten(io_error("create a temporary file in", dir, e)))?;
    temp.write_all(bytes)
        .map_err(|e| ReplaceError::NotWritten(io_error("write", temp.path(), e)))?;
    temp.as_file()
        .sync_all()
        .map_err(|e| ReplaceError::NotWritten(io_error("sync", temp.path(), e)))?;
    // Dropping a `TempPath` deletes the file, so every early return above
    // and a failed rename here leave nothing behind; `keep` disarms it once
    // the file is renamed. The file is closed first: Windows renames an
    // open file only when every handle to it allows it. A rename Windows
    // refuses for a moment (the target open elsewhere) is made again.
    let temp = temp.into_temp_path();
    retried(|| rename_over(&temp, target))
        .map_err(|e| ReplaceError::NotWritten(io_error("replace", target, e)))?;
    // Nothing is left to delete: the name is the target's now.
    let _ = temp.keep();
    sync(dir).map_err(ReplaceError::NotSynced)
}

/// How often a store folder is listed for temporary files a killed writer
/// left: a write lists it when no process did for this long (a stamp file
/// in the folder says when one last did).
pub const SWEEP_INTERVAL: Duration = Duration::from_secs(60);

/// A temporary file older than this was left by a killed writer: a live
/// one holds its file only while it writes and syncs one list (a moment;
/// this allows a disk stalled for minutes). A sweep removes such a file of
/// any conversation; one whose lock the sweeper holds goes at any age.
/// Were a writer ever that slow, its rename fails and it reports the list
/// unwritten: nothing is lost unsaid.
pub const ABANDONED_AFTER: Duration = Duration::from_secs(600);

/// The file whose modification time says when the folder was last swept.
const SWEEP_STAMP: &str = ".todokit-swept";

/// Whether `dir` is due a sweep: its stamp is missing or older than
/// [`SWEEP_INTERVAL`] (or in the future: a clock that jumped). When due,
/// the stamp is renewed at once, so the processes writing to one folder
/// list it about once a minute between them, not on every call.
pub(super) fn sweep_due(dir: &Path) -> bool {
    let path = dir.join(SWEEP_STAMP);
    let recent = fs::symlink_metadata(&path)
        .and_then(|meta| meta.modified())
        .is_ok_and(|at| at.elapsed().is_ok_and(|age| age < SWEEP_INTERVAL));
    if recent {
        return false;
    }
    // Best effort: a stamp that cannot be written only means the next
    // write sweeps again.
    let touched = open_no_follow(OpenOptions::new().create(true).write(true).truncate(false), &path)
        .and_then(|file| {
            if file.metadata()?.file_type().is_symlink() {
                return Err(io::Error::other(LINK_REFUSED));
            }
            file.set_modified(SystemTime::now())
        });
    let _ = touched;
    true
}

/// Removes temporary files in `dir` that killed writers left: those of the
/// conversations whose locks the caller holds (`prefixes`: no live writer
/// owns one), and any other's older than [`ABANDONED_AFTER`].
pub(super) fn sweep_temporaries(dir: &Path, prefixes: &[&str]) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        let abandoned = || {
            entry
                .metadata()
                .and_then(|meta| meta.modified())
                .is_ok_and(|at| at.elapsed().is_ok_and(|age| age > ABANDONED_AFTER))
        };
        if is_temporary(&name) && (prefixes.iter().any(|p| name.starts_with(p)) || abandoned()) {
            // Best effort: a leftover that cannot be removed harms nothing.
            let _ = fs::remove_file(entry.path());
        }
    }
}

/// Whether a file name in a store's folder is a writer's temporary file.
pub(super) fn is_temporary(name: &str) -> bool {
    name.starts_with('.') && name.contains(".json.") && name.ends_with(".tmp")
}

/// Makes a rename inside `dir` durable. Only Unix can open a folder for
/// this; on Windows the rename itself waited for the disk (see
/// [`rename_over`]).
pub(super) fn sync_dir(dir: &Path) -> Result<(), StoreError> {
    sync_dir_io(dir).map_err(|e| io_error("sync", dir, e))
}

/// [`sync_dir`]'s work, its error as the system gave it.
fn sync_dir_io(dir: &Path) -> io::Result<()> {
    #[cfg(unix)]
    File::open(dir).and_then(|d| d.sync_all())?;
    #[cfg(not(unix))]
    let _ = dir;
    Ok(())
}

/// Opens `path` with `options`, neither following a link nor waiting for a
/// FIFO's other end: on Unix a link is refused by the open itself; on
/// Windows it is opened as itself, for [`only_regular`] to refuse.
#[cfg(unix)]
fn open_no_follow(options: &mut OpenOptions, path: &Path) -> io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    options
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(path)
}

#[cfg(windows)]
fn open_no_follow(options: &mut OpenOptions, path: &Path) -> io::Result<File> {
    super::windows::open_as_itself(options, path)
}

#[cfg(not(any(unix, windows)))]
fn open_no_follow(options: &mut OpenOptions, path: &Path) -> io::Result<File> {
    options.open(path)
}

/// Renames `from` over `to`: `rename(2)`, which a later folder sync makes
/// durable.
#[cfg(not(windows))]
fn rename_over(from: &Path, to: &Path) -> io::Result<()> {
    fs::rename(from, to)
}

/// Renames `from` over `to`: a move that returns once it is on disk (see
/// [`super::windows::move_replacing`]).
#[cfg(windows)]
fn rename_over(from: &Path, to: &Path) -> io::Result<()> {
    super::windows::move_replacing(from, to)
}

/// An open that failed: a link, and anything else that is not a regular
/// file (a FIFO without a reader, a socket, a folder opened to write), get
/// the store's own explanation.
fn refusal(action: &'static str, path: &Path, error: io::Error) -> StoreError {
    match fs::symlink_metadata(path) {
        Ok(meta) if !meta.file_type().is_file() => match refuse_kind(action, path, meta.file_type()) {
            Err(refused) => refused,
            Ok(()) => io_error(action, path, error),
        },
        _ => io_error(action, path, error),
    }
}

pub(super) fn io_error(action: &'static str, path: &Path, source: io::Error) -> StoreError {
    StoreError::Io {
        action,
        location: path.display().to_string(),
        error: source,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    #[test]
    fn a_failed_replace_leaves_no_temporary_file_and_the_target_as_it_was() {
        let dir = tempfile::tempdir().unwrap();
        // A folder with something in it cannot be renamed over.
        let target = dir.path().join("target");
        fs::create_dir(&target).unwrap();
        fs::write(target.join("inside"), b"kept").unwrap();
        let result = replace_durably(dir.path(), ".t.", &target, b"new", &GroupSync::default());
        let names: Vec<String> = fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        let actual = (
            matches!(result, Err(ReplaceError::NotWritten(_))),
            names,
            fs::read(target.join("inside")).unwrap(),
        );
        let expected = (true, vec!["target".to_owned()], b"kept".to_vec());
        assert_eq!(actual, expected);
    }

    #[test]
    fn a_failed_folder_sync_after_the_rename_is_not_reported_as_nothing_written() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("target");
        fs::write(&target, b"old").unwrap();
        let result = replace_then_sync(dir.path(), ".t.", &target, b"new", |dir| {
            Err(io_error("sync", dir, io::Error::other("the disk went away")))
        });
        let actual = (
            matches!(result, Err(ReplaceError::NotSynced(_))),
            fs::read(&target).unwrap(),
        );
        let expected = (true, b"new".to_vec());
        assert_eq!(actual, expected);
    }
}
