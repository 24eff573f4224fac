//! The file a store last checked, kept so that a write can see, by
//! comparing bytes, that the file it finds under its lock is the one it
//! loaded (or wrote) and skip parsing it again.
//!
//! A write must re-read the file under the lock: another writer may have
//! committed since the load. Parsing that file whole was a third of a
//! call's CPU on a fast disk, and almost always found the very bytes the
//! load had just checked. Equal bytes are the same file, so what was
//! learned from them (its version, its top-level fields this build does
//! not know, and that it is a file this build reads whole) still holds.
//! Metadata (size, times, inode) would not do: times can be coarse and
//! inodes are reused, so a changed file could look unchanged.
//!
//! A load that finds those bytes again skips parsing too: the slot keeps
//! the list they hold, shared, when the file was parsed into it, or when
//! it was written from a list that reads back from its JSON as an equal
//! list ([`reads_back_equal`]).
//!
//! One slot per store (shared by its clones), whatever the number of
//! conversations: calls that alternate between conversations only miss it
//! and parse, as before.

use std::sync::{Arc, Mutex, PoisonError};

use serde_json::{Map, Value};
use todokit_domain::TodoState;

/// The largest file whose bytes a store keeps between a load and a write.
/// A longer file is parsed again under the lock, so an idle store never
/// holds more than this.
pub const LAST_FILE_MAX_BYTES: usize = 256 * 1024;

/// What a store learned from one file it read whole or wrote.
#[derive(Debug)]
struct Checked {
    conversation: String,
    bytes: Vec<u8>,
    version: u64,
    foreign: Map<String, Value>,
    /// The list the bytes hold, when known to be exactly that.
    state: Option<Arc<TodoState>>,
}

/// True when `state`, written as JSON and read back, is equal to itself,
/// so it may stand for the bytes it was written as. Every field of a list
/// reads back as written but two kinds: fields this build does not know
/// (flattened beside the known ones, where a name that clashes with a known
/// field would be read as that field) and a task's free-form `metadata`
/// (a number in it need not read back to the same float). A list with
/// either is parsed from its bytes on its next load, as before.
pub(super) fn reads_back_equal(state: &TodoState) -> bool {
    state.foreign.is_empty()
        && state.phases.iter().all(|phase| {
            phase.foreign.is_empty()
                && phase
                    .tasks
                    .iter()
                    .all(|task| task.foreign.is_empty() && task.metadata.is_none())
        })
}

/// The slot: the last file checked, if it was short enough to keep.
#[derive(Debug, Default)]
pub(super) struct LastFile(Mutex<Option<Checked>>);

impl LastFile {
    /// Keeps `bytes`, `conversation`'s file as just read whole (or
    /// written), with the version and foreign top-level fields it holds,
    /// and the list it holds when the caller knows it is exactly that.
    pub(super) fn remember(
        &self,
        conversation: &str,
        bytes: Vec<u8>,
        version: u64,
        foreign: &Map<String, Value>,
        state: Option<Arc<TodoState>>,
    ) {
        let mut slot = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        if bytes.len() > LAST_FILE_MAX_BYTES {
            *slot = None;
            return;
        }
        *slot = Some(Checked {
            conversation: conversation.to_owned(),
            bytes,
            version,
            foreign: foreign.clone(),
            state,
        });
    }

    /// The list `conversation`'s file holds when `bytes` are exactly the
    /// ones last remembered for it with their list.
    pub(super) fn recall_state(&self, conversation: &str, bytes: &[u8]) -> Option<Arc<TodoState>> {
        self.matching(conversation, bytes, |checked| checked.state.clone())
    }

    /// The version and foreign top-level fields of `conversation`'s file
    /// when `bytes` are exactly the ones last remembered for it.
    pub(super) fn recall(&self, conversation: &str, bytes: &[u8]) -> Option<(u64, Map<String, Value>)> {
        self.matching(conversation, bytes, |checked| {
            Some((checked.version, checked.foreign.clone()))
        })
    }

    /// What `take` finds in the slot when it holds exactly `bytes` for
    /// `conversation`.
    fn matching<T>(
        &self,
        conversation: &str,
        bytes: &[u8],
        take: impl FnOnce(&Checked) -> Option<T>,
    ) -> Option<T> {
        let slot = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        slot.as_ref()
            .filter(|checked| checked.conversation == conversation && checked.bytes == bytes)
            .and_then(take)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;
    use serde_json::json;

    fn foreign() -> Map<String, Value> {
        let mut map = Map::new();
        map.insert("colour".to_owned(), json!("teal"));
        map
    }

    #[test]
    fn only_the_same_bytes_of_the_same_conversation_are_recalled() {
        let fixture = LastFile::default();
        fixture.remember("c", b"{\"v\":3}".to_vec(), 3, &foreign(), None);
        let actual = [
            fixture.recall("c", b"{\"v\":3}"),
            fixture.recall("c", b"{\"v\":4}"),
            fixture.recall("c", b"{\"v\":3} "),
            fixture.recall("d", b"{\"v\":3}"),
        ];
        let expected = [Some((3, foreign())), None, None, None];
        assert_eq!(actual, expected);
    }

    #[test]
    fn a_later_file_replaces_the_earlier_and_a_long_one_empties_the_slot() {
        let fixture = LastFile::default();
        fixture.remember("c", b"first".to_vec(), 1, &Map::new(), None);
        fixture.remember("d", b"second".to_vec(), 2, &Map::new(), None);
        let after_second = (fixture.recall("c", b"first"), fixture.recall("d", b"second"));
        fixture.remember("d", vec![b' '; LAST_FILE_MAX_BYTES + 1], 3, &Map::new(), None);
        let after_long = (
            fixture.recall("d", b"second"),
            fixture.recall("d", &vec![b' '; LAST_FILE_MAX_BYTES + 1]),
        );
        let actual = (after_second, after_long);
        let expected = ((None, Some((2, Map::new()))), (None, None));
        assert_eq!(actual, expected);
    }
}
