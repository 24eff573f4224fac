//! Telling whether a file changed without reading it: a [`Stamp`] of its
//! metadata, trusted only once it is *settled*.
//!
//! File times are coarse (a few milliseconds on Linux's local file
//! systems, one or two seconds on others), so two writes within one tick
//! of the clock can leave a file with the same times, size and (inodes
//! are reused) inode number. A stamp taken while its change time was that
//! recent proves nothing about later writes, so it is never trusted; one
//! taken at least a tick after the change time is: any later write moves
//! the change time past it, and nobody can set a change time by hand. (The
//! same rule as git's "racily clean" index entries.) This assumes the file
//! system's clock is within [`COARSE_MARGIN`] of this machine's.

use std::fs::Metadata;
use std::time::{Duration, SystemTime};

/// How far apart two writes must be to be told apart by their times on a
/// file system whose times have whole seconds (and the most the file
/// system's clock may lag this machine's).
pub const COARSE_MARGIN: Duration = Duration::from_secs(2);

/// The same on a file system whose times have fractions of a second: a few
/// clock ticks.
pub const FINE_MARGIN: Duration = Duration::from_millis(50);

/// What a file's metadata says about its contents: which file it is, its
/// size and its modification and change times.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stamp {
    device: u64,
    inode: u64,
    size: u64,
    modified: Option<SystemTime>,
    changed: Option<SystemTime>,
}

impl Stamp {
    /// The stamp of a file's metadata.
    pub fn of(metadata: &Metadata) -> Self {
        #[cfg(unix)]
        let (device, inode, changed) = {
            use std::os::unix::fs::MetadataExt;
            let changed = u32::try_from(metadata.ctime_nsec()).ok().and_then(|nanos| {
                let secs = u64::try_from(metadata.ctime()).ok()?;
                SystemTime::UNIX_EPOCH.checked_add(Duration::new(secs, nanos))
            });
            (metadata.dev(), metadata.ino(), changed)
        };
        #[cfg(not(unix))]
        let (device, inode, changed) = (0, 0, metadata.modified().ok());
        Self {
            device,
            inode,
            size: metadata.len(),
            modified: metadata.modified().ok(),
            changed,
        }
    }

    /// True when a stamp taken at `observed` can be trusted to change with
    /// the next write (see the module docs): its change time lies far
    /// enough before `observed`.
    pub fn settled_at(&self, observed: SystemTime) -> bool {
        let Some(changed) = self.changed else {
            return false;
        };
        let margin = if whole_seconds(changed) {
            COARSE_MARGIN
        } else {
            FINE_MARGIN
        };
        changed
            .checked_add(margin)
            .is_some_and(|settled| settled <= observed)
    }
}

/// True for a time with no fraction of a second, as file systems with
/// one- or two-second times write them (a fine time lands on a whole
/// second once in a billion).
fn whole_seconds(time: SystemTime) -> bool {
    time.duration_since(SystemTime::UNIX_EPOCH)
        .map_or(true, |since| since.subsec_nanos() == 0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    fn stamp(changed: SystemTime) -> Stamp {
        Stamp {
            device: 1,
            inode: 2,
            size: 3,
            modified: Some(changed),
            changed: Some(changed),
        }
    }

    #[test]
    fn a_stamp_is_trusted_only_a_margin_after_its_change_time() {
        // Half a millisecond past the second: a fraction every system's
        // clock holds (Windows' counts in 100 ns steps).
        let fine = SystemTime::UNIX_EPOCH + Duration::new(1_000, 500_000);
        let coarse = SystemTime::UNIX_EPOCH + Duration::from_secs(1_000);
        let actual = [
            stamp(fine).settled_at(fine + Duration::from_millis(10)),
            stamp(fine).settled_at(fine + FINE_MARGIN),
            stamp(coarse).settled_at(coarse + Duration::from_secs(1)),
            stamp(coarse).settled_at(coarse + COARSE_MARGIN),
            stamp(fine).settled_at(fine - Duration::from_secs(5)),
        ];
        let expected = [false, true, false, true, false];
        assert_eq!(actual, expected);
    }

    #[test]
    fn a_rewrite_shows_in_the_stamp_of_a_real_file() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("f.json");
        std::fs::write(&path, "one").expect("write");
        let first = Stamp::of(&std::fs::metadata(&path).expect("stat"));
        let again = Stamp::of(&std::fs::metadata(&path).expect("stat"));
        std::fs::write(&path, "three").expect("write");
        let second = Stamp::of(&std::fs::metadata(&path).expect("stat"));
        let actual = (first == again, first == second);
        assert_eq!(actual, (true, false));
    }
}
