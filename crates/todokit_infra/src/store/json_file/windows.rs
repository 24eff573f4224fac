//! The file store's side of Windows' own file API, for what `std` does not
//! offer there:
//!
//! - a rename over the old file that is durable when it returns
//!   (`MoveFileExW` with `MOVEFILE_WRITE_THROUGH`: Windows cannot open a
//!   folder to flush it as Unix can, so the rename itself is made to wait
//!   for the disk);
//! - which file an open handle is (volume serial and file index), and
//!   whether it is being removed, so a writer can tell the lock file it
//!   locked from a new one under the same name;
//! - opening a path as itself when it is a reparse point (a symbolic link
//!   or a junction), so a link is seen and refused, never followed.
//!
//! The workspace forbids unsafe code; this module is the exception, for
//! three calls that read into a structure of ours or take strings we made
//! (each says why it is sound).
#![allow(unsafe_code)]

use std::ffi::OsString;
use std::fs::{File, OpenOptions};
use std::io;
use std::os::windows::ffi::{OsStrExt, OsStringExt};
use std::os::windows::fs::{MetadataExt, OpenOptionsExt};
use std::os::windows::io::AsRawHandle;
use std::path::{Path, PathBuf};

use windows_sys::Win32::Storage::FileSystem::{
    BY_HANDLE_FILE_INFORMATION, FILE_ATTRIBUTE_REPARSE_POINT, FILE_FLAG_OPEN_REPARSE_POINT,
    FILE_READ_ATTRIBUTES, FILE_STANDARD_INFO, FileStandardInfo, GetFileInformationByHandle,
    GetFileInformationByHandleEx, MOVEFILE_REPLACE_EXISTING, MOVEFILE_WRITE_THROUGH, MoveFileExW,
};

/// The access that reads a file's attributes and nothing else: an open
/// with it is refused by no other handle's sharing.
pub(super) const READ_ATTRIBUTES: u32 = FILE_READ_ATTRIBUTES;

/// Whether an open failed because its file was removed and is still open
/// elsewhere ("access denied" is what Windows answers then).
pub(super) fn being_removed(error: &io::Error) -> bool {
    // ERROR_ACCESS_DENIED.
    error.raw_os_error() == Some(5)
}

/// Renames `from` to `to`, replacing `to` when it exists (a link there is
/// replaced, not written through), and returns once the rename is on disk.
pub(super) fn move_replacing(from: &Path, to: &Path) -> io::Result<()> {
    let (from, to) = (wide(&verbatim(from)?), wide(&verbatim(to)?));
    // SAFETY: both are NUL-terminated UTF-16 strings that outlive the call.
    let moved = unsafe {
        MoveFileExW(
            from.as_ptr(),
            to.as_ptr(),
            MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH,
        )
    };
    if moved == 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// Which file `file` is: its volume's serial number and its index there,
/// the same for every handle to one file and different for another file
/// made later under the same name.
pub(super) fn identity(file: &File) -> io::Result<(u32, u64)> {
    let mut info = BY_HANDLE_FILE_INFORMATION::default();
    // SAFETY: the handle is open for as long as `file` is borrowed, and
    // `info` is the structure this call fills.
    if unsafe { GetFileInformationByHandle(file.as_raw_handle(), &mut info) } == 0 {
        return Err(io::Error::last_os_error());
    }
    let index = (u64::from(info.nFileIndexHigh) << 32) | u64::from(info.nFileIndexLow);
    Ok((info.dwVolumeSerialNumber, index))
}

/// Whether the file `file` is open on has been removed and goes when its
/// last handle closes (its name may still be listed until then, and an
/// open of that name is refused).
pub(super) fn delete_pending(file: &File) -> io::Result<bool> {
    let mut info = FILE_STANDARD_INFO::default();
    let size = u32::try_from(std::mem::size_of::<FILE_STANDARD_INFO>()).expect("a small structure");
    // SAFETY: as in `identity`; `size` is the size of `info`.
    let got = unsafe {
        GetFileInformationByHandleEx(
            file.as_raw_handle(),
            FileStandardInfo,
            (&mut info as *mut FILE_STANDARD_INFO).cast(),
            size,
        )
    };
    if got == 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(info.DeletePending)
}

/// Opens `path` with `options` without following a symbolic link or a
/// junction: such a path comes back open as the link itself (its metadata
/// says `is_symlink`, which the caller refuses). Any other reparse point (a
/// cloud file's placeholder, a deduplicated file) is opened as its data,
/// and only when that is the very file the name holds.
pub(super) fn open_as_itself(options: &OpenOptions, path: &Path) -> io::Result<File> {
    let file = options
        .clone()
        .custom_flags(FILE_FLAG_OPEN_REPARSE_POINT)
        .open(path)?;
    let metadata = file.metadata()?;
    if metadata.file_type().is_symlink() || metadata.file_attributes() & FILE_ATTRIBUTE_REPARSE_POINT == 0 {
        return Ok(file);
    }
    let data = options.open(path)?;
    if identity(&data)? != identity(&file)? {
        // The name changed between the two opens, to a link that was
        // followed: the link is what the caller is given, to refuse.
        return Ok(file);
    }
    Ok(data)
}

/// `path` made absolute in the `\\?\` form, which Windows takes at any
/// length (past the 260 characters of an ordinary path) and as it is.
pub(super) fn verbatim(path: &Path) -> io::Result<PathBuf> {
    let absolute = std::path::absolute(path)?;
    let wide: Vec<u16> = absolute.as_os_str().encode_wide().collect();
    let backslash = u16::from(b'\\');
    let prefixed = match wide.as_slice() {
        [a, b, c, d, ..]
            if [*a, *b, *d] == [backslash; 3] && (*c == u16::from(b'?') || *c == u16::from(b'.')) =>
        {
            return Ok(absolute);
        }
        // A share, `\\server\share\…`, is `\\?\UNC\server\share\…`.
        [a, b, rest @ ..] if [*a, *b] == [backslash; 2] => {
            let mut prefixed: Vec<u16> = r"\\?\UNC\".encode_utf16().collect();
            prefixed.extend_from_slice(rest);
            prefixed
        }
        _ => {
            let mut prefixed: Vec<u16> = r"\\?\".encode_utf16().collect();
            prefixed.extend_from_slice(&wide);
            prefixed
        }
    };
    Ok(PathBuf::from(OsString::from_wide(&prefixed)))
}

/// `path` as the NUL-terminated UTF-16 string Windows' calls take.
fn wide(path: &Path) -> Vec<u16> {
    path.as_os_str().encode_wide().chain(std::iter::once(0)).collect()
}

#[cfg(test)]
mod tests {
    use pretty_assertions::assert_eq;

    use super::*;

    #[test]
    fn a_path_is_made_verbatim_once_and_a_share_keeps_its_server() {
        let actual = [r"C:\store\c-a.json", r"\\?\C:\store", r"\\server\share\store"]
            .map(|p| verbatim(Path::new(p)).expect("absolute").display().to_string());
        let expected = [
            r"\\?\C:\store\c-a.json",
            r"\\?\C:\store",
            r"\\?\UNC\server\share\store",
        ]
        .map(String::from);
        assert_eq!(actual, expected);
    }

    #[test]
    fn two_handles_to_one_file_are_one_identity_and_another_file_another() {
        let dir = tempfile::tempdir().expect("temp dir");
        let make = |name: &str| {
            let path = dir.path().join(name);
            let made = OpenOptions::new()
                .create(true)
                .write(true)
                .truncate(false)
                .open(&path);
            (made.expect("made"), File::open(&path).expect("opened"))
        };
        let ((first, again), (other, _)) = (make("c.lock"), make("d.lock"));
        let id = |file: &File| identity(file).expect("id");
        let actual = (
            id(&first) == id(&again),
            id(&first) == id(&other),
            delete_pending(&first).expect("asked"),
        );
        assert_eq!(actual, (true, false, false));
    }

    #[test]
    fn a_rename_replaces_the_target_at_a_path_longer_than_260_characters() {
        let dir = tempfile::tempdir().expect("temp dir");
        let deep = (0..6).fold(dir.path().to_owned(), |p, i| {
            p.join(format!("{i}{}", "f".repeat(60)))
        });
        // `std` makes a long path verbatim itself; only the rename is ours.
        std::fs::create_dir_all(&deep).expect("made");
        let (from, to) = (deep.join("new.tmp"), deep.join("c-a.json"));
        for (path, bytes) in [(&from, "new"), (&to, "old")] {
            std::fs::write(path, bytes).expect("written");
        }
        move_replacing(&from, &to).expect("moved");
        let actual = (
            deep.as_os_str().len() > 260,
            std::fs::read_to_string(&to).expect("read"),
            from.exists(),
        );
        assert_eq!(actual, (true, "new".to_owned(), false));
    }
}
