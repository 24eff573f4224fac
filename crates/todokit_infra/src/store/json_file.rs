//! The embedded default store: one JSON file per conversation in a folder.
//!
//! - A write goes to a temporary file that is fsynced and then renamed over
//!   the old one (and the folder fsynced), so a crash at any moment leaves
//!   either the old or the new list, whole.
//! - Writers take an advisory lock on a per-conversation lock file, check
//!   the stored version and only then write: compare-and-swap across
//!   threads and processes. Readers need no lock; a rename is atomic.
//! - Any conversation id maps to a file name inside the folder that no other
//!   id maps to (see [`JsonFileStore::file_stem`]).
//! - A file that cannot be parsed is reported, never overwritten.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use async_trait::async_trait;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use todokit_app::{ConversationContext, StoreError};
use todokit_domain::TodoState;

/// The version of the file layout this build writes and reads.
pub const FILE_FORMAT: u32 = 1;

/// The longest encoded id used as a file name as it is; longer ones are
/// named by their SHA-256 instead (file systems cap names at 255 bytes).
pub const MAX_READABLE_STEM: usize = 160;

/// What one file holds. The id is kept inside so that a hashed file name can
/// be checked against the conversation that asked for it.
#[derive(Debug, Serialize, Deserialize)]
struct StoredFile {
    format: u32,
    conversation: String,
    state: TodoState,
}

/// One JSON file per conversation under a root folder.
#[derive(Debug, Clone)]
pub struct JsonFileStore {
    root: PathBuf,
}

impl JsonFileStore {
    /// A store under `root`. The folder is created on the first write.
    pub fn new(root: impl Into<PathBuf>) -> Self {
        Self { root: root.into() }
    }

    /// The folder it keeps its files in.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The file that holds `conversation`'s list.
    pub fn path_for(&self, conversation: &str) -> PathBuf {
        self.root.join(format!("{}.json", Self::file_stem(conversation)))
    }

    /// The file name (without extension) for a conversation id.
    ///
    /// Lower-case ASCII letters, digits, `-` and `_` stand for themselves and
    /// every other byte becomes `%XX` (upper-case hex), so the name can hold
    /// no separator, no dot and no reserved device name, and two ids that
    /// differ (even only in case) never share a name, even on a
    /// case-insensitive file system. The `c-` prefix keeps `CON` and the like
    /// harmless on Windows. An encoding longer than [`MAX_READABLE_STEM`] is
    /// replaced by `h-` and the SHA-256 of the id.
    pub fn file_stem(conversation: &str) -> String {
        let mut encoded = String::with_capacity(conversation.len() + 2);
        encoded.push_str("c-");
        for byte in conversation.bytes() {
            if byte.is_ascii_lowercase() || byte.is_ascii_digit() || byte == b'-' || byte == b'_' {
                encoded.push(char::from(byte));
            } else {
                encoded.push_str(&format!("%{byte:02X}"));
            }
            if encoded.len() > MAX_READABLE_STEM {
                return format!("h-{}", hex(&Sha256::digest(conversation.as_bytes())));
            }
        }
        encoded
    }

    fn lock_path(&self, conversation: &str) -> PathBuf {
        self.root.join(format!("{}.lock", Self::file_stem(conversation)))
    }

    fn temp_path(&self, conversation: &str) -> PathBuf {
        self.root
            .join(format!("{}.json.tmp", Self::file_stem(conversation)))
    }

    fn load_blocking(&self, conversation: &str) -> Result<TodoState, StoreError> {
        let path = self.path_for(conversation);
        let bytes = match fs::read(&path) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(TodoState::new()),
            Err(e) => return Err(io_error("read", &path, e)),
        };
        let corrupt = |reason: String| StoreError::Corrupt {
            location: path.display().to_string(),
            reason,
        };
        let stored: StoredFile =
            serde_json::from_slice(&bytes).map_err(|e| corrupt(format!("not a todokit list: {e}")))?;
        if stored.format != FILE_FORMAT {
            return Err(corrupt(format!(
                "file format {} is not the format {FILE_FORMAT} this todokit reads",
                stored.format
            )));
        }
        if stored.conversation != conversation {
            return Err(corrupt(format!(
                "it holds conversation {:?}, not the one asked for",
                todokit_domain::clip(&stored.conversation)
            )));
        }
        Ok(stored.state)
    }

    fn save_blocking(&self, conversation: &str, expected: u64, state: &TodoState) -> Result<(), StoreError> {
        fs::create_dir_all(&self.root).map_err(|e| io_error("create", &self.root, e))?;
        let lock_path = self.lock_path(conversation);
        let lock = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&lock_path)
            .map_err(|e| io_error("open", &lock_path, e))?;
        lock.lock().map_err(|e| io_error("lock", &lock_path, e))?;
        // The lock is released when `lock` is dropped, on every path out.
        let found = self.load_blocking(conversation)?.version;
        if found != expected {
            return Err(StoreError::Conflict {
                conversation: conversation.to_owned(),
                expected,
                found,
            });
        }
        let body = StoredFile {
            format: FILE_FORMAT,
            conversation: conversation.to_owned(),
            state: state.clone(),
        };
        let bytes = serde_json::to_vec_pretty(&body)
            .map_err(|e| io_error("encode", &self.path_for(conversation), io::Error::other(e)))?;
        let temp = self.temp_path(conversation);
        write_durably(&temp, &bytes)?;
        let path = self.path_for(conversation);
        fs::rename(&temp, &path).map_err(|e| io_error("replace", &path, e))?;
        sync_dir(&self.root)?;
        drop(lock);
        Ok(())
    }
}

#[async_trait]
impl ConversationContext for JsonFileStore {
    async fn load(&self, conversation: &str) -> Result<TodoState, StoreError> {
        let (store, conversation) = (self.clone(), conversation.to_owned());
        blocking(move || store.load_blocking(&conversation)).await
    }

    async fn save(&self, conversation: &str, expected: u64, state: &TodoState) -> Result<(), StoreError> {
        let (store, conversation, state) = (self.clone(), conversation.to_owned(), state.clone());
        blocking(move || store.save_blocking(&conversation, expected, &state)).await
    }

    fn is_durable(&self) -> bool {
        true
    }
}

/// Runs file work off the async executor's threads.
async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, StoreError> + Send + 'static,
) -> Result<T, StoreError> {
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|e| StoreError::Io {
            action: "run",
            location: "a store worker thread".to_owned(),
            error: io::Error::other(e.to_string()),
        })?
}

fn write_durably(path: &Path, bytes: &[u8]) -> Result<(), StoreError> {
    let mut file = File::create(path).map_err(|e| io_error("create", path, e))?;
    file.write_all(bytes).map_err(|e| io_error("write", path, e))?;
    file.sync_all().map_err(|e| io_error("sync", path, e))
}

/// Makes a rename inside `dir` durable. Only Unix can open a folder for
/// this; elsewhere the rename is as durable as the platform makes it.
fn sync_dir(dir: &Path) -> Result<(), StoreError> {
    #[cfg(unix)]
    {
        File::open(dir)
            .and_then(|d| d.sync_all())
            .map_err(|e| io_error("sync", dir, e))?;
    }
    #[cfg(not(unix))]
    let _ = dir;
    Ok(())
}

fn io_error(action: &'static str, path: &Path, source: io::Error) -> StoreError {
    StoreError::Io {
        action,
        location: path.display().to_string(),
        error: source,
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;
    use std::collections::BTreeSet;
    use std::sync::Arc;
    use todokit_app::{ManualClock, TodoWriteService, profiles};
    use todokit_domain::Todo;

    fn state(content: &str, version: u64) -> TodoState {
        TodoState::flat(vec![Todo::new(content)]).version(version)
    }

    #[tokio::test]
    async fn a_missing_conversation_is_an_empty_list() {
        let dir = tempfile::tempdir().unwrap();
        let fixture = JsonFileStore::new(dir.path().join("not-yet"));
        let actual = fixture.load("x").await.unwrap();
        let expected = TodoState::new();
        assert_eq!(actual, expected);
    }

    #[tokio::test]
    async fn save_then_load_round_trips_and_leaves_no_temp_file() {
        let dir = tempfile::tempdir().unwrap();
        let fixture = JsonFileStore::new(dir.path());
        fixture.save("conv", 0, &state("a", 1)).await.unwrap();
        let files: BTreeSet<String> = fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        let actual = (fixture.load("conv").await.unwrap(), files);
        let expected = (
            state("a", 1),
            BTreeSet::from(["c-conv.json".to_owned(), "c-conv.lock".to_owned()]),
        );
        assert_eq!(actual, expected);
    }

    #[tokio::test]
    async fn a_stale_version_is_a_conflict_and_writes_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let fixture = JsonFileStore::new(dir.path());
        fixture.save("c", 0, &state("first", 1)).await.unwrap();
        let result = fixture.save("c", 0, &state("second", 1)).await;
        let actual = (
            matches!(
                result,
                Err(StoreError::Conflict {
                    expected: 0,
                    found: 1,
                    ..
                })
            ),
            fixture.load("c").await.unwrap(),
        );
        let expected = (true, state("first", 1));
        assert_eq!(actual, expected);
    }

    #[tokio::test]
    async fn a_corrupt_file_is_reported_and_never_overwritten() {
        let dir = tempfile::tempdir().unwrap();
        let fixture = JsonFileStore::new(dir.path());
        let path = fixture.path_for("c");
        fs::write(&path, b"{\"format\":1,\"conv").unwrap();
        let load = fixture.load("c").await;
        let save = fixture.save("c", 0, &state("x", 1)).await;
        let actual = (
            matches!(load, Err(StoreError::Corrupt { .. })),
            matches!(save, Err(StoreError::Corrupt { .. })),
            fs::read(&path).unwrap(),
        );
        let expected = (true, true, b"{\"format\":1,\"conv".to_vec());
        assert_eq!(actual, expected);
    }

    #[tokio::test]
    async fn a_file_from_a_newer_format_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let fixture = JsonFileStore::new(dir.path());
        fs::write(
            fixture.path_for("c"),
            br#"{"format":2,"conversation":"c","state":{}}"#,
        )
        .unwrap();
        let actual = fixture.load("c").await.map_err(|e| e.to_string());
        let expected = Err(format!(
            "the stored list at {} cannot be read (file format 2 is not the format 1 this todokit reads); \
             it was left untouched: repair or remove it",
            fixture.path_for("c").display()
        ));
        assert_eq!(actual, expected);
    }

    #[test]
    fn file_stems_are_plain_for_simple_ids_and_encoded_otherwise() {
        let fixture = ["default", "../../etc/x", "a/b", "CON", "", "Ab", "ab", "%41", "é"];
        let actual: Vec<String> = fixture.iter().map(|id| JsonFileStore::file_stem(id)).collect();
        let expected = vec![
            "c-default",
            "c-%2E%2E%2F%2E%2E%2Fetc%2Fx",
            "c-a%2Fb",
            "c-%43%4F%4E",
            "c-",
            "c-%41b",
            "c-ab",
            "c-%2541",
            "c-%C3%A9",
        ];
        assert_eq!(actual, expected);
    }

    #[tokio::test]
    async fn hostile_ids_stay_inside_the_folder_and_never_share_a_file() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("store");
        let fixture = JsonFileStore::new(&root);
        let ids = vec![
            "../../etc/x".to_owned(),
            "a/b".to_owned(),
            "a\\b".to_owned(),
            "CON".to_owned(),
            "con".to_owned(),
            "".to_owned(),
            ".".to_owned(),
            "x\0y".to_owned(),
            "🦀".repeat(2_500),
            format!("{}!", "🦀".repeat(2_500)),
        ];
        for (i, id) in ids.iter().enumerate() {
            fixture.save(id, 0, &state(&i.to_string(), 1)).await.unwrap();
        }
        let mut loaded = Vec::new();
        for id in &ids {
            loaded.push(fixture.load(id).await.unwrap());
        }
        let entries = fs::read_dir(&root).unwrap().count();
        let outside = fs::read_dir(dir.path()).unwrap().count();
        let actual = (loaded, entries, outside);
        let expected = (
            (0..ids.len())
                .map(|i| state(&i.to_string(), 1))
                .collect::<Vec<_>>(),
            ids.len() * 2,
            1,
        );
        assert_eq!(actual, expected);
    }

    #[tokio::test]
    async fn a_hashed_file_is_checked_against_the_id_that_asks_for_it() {
        let dir = tempfile::tempdir().unwrap();
        let fixture = JsonFileStore::new(dir.path());
        let long = "x".repeat(MAX_READABLE_STEM + 1);
        fixture.save(&long, 0, &state("a", 1)).await.unwrap();
        // Pretend another id hashed to the same name by copying the file.
        let other = "y".repeat(MAX_READABLE_STEM + 1);
        fs::copy(fixture.path_for(&long), fixture.path_for(&other)).unwrap();
        let actual = matches!(fixture.load(&other).await, Err(StoreError::Corrupt { .. }));
        let expected = true;
        assert_eq!(actual, expected);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn concurrent_writers_lose_no_update() {
        const WRITERS: u64 = 8;
        const CALLS: u64 = 10;
        let dir = tempfile::tempdir().unwrap();
        let profile = profiles::by_name("claude-code").unwrap();
        let service = TodoWriteService::new(
            profile,
            Arc::new(JsonFileStore::new(dir.path())),
            Arc::new(ManualClock::new(0)),
        );
        let mut handles = Vec::new();
        for writer in 0..WRITERS {
            let service = service.clone();
            handles.push(tokio::spawn(async move {
                for call in 0..CALLS {
                    let args = format!(
                        r#"{{"todos":[{{"content":"w{writer} c{call}","status":"pending","activeForm":"x"}}]}}"#
                    );
                    let result = service.call("shared", "TodoWrite", &args).await.unwrap();
                    assert!(!result.is_error, "{}", result.content);
                }
            }));
        }
        for handle in handles {
            handle.await.unwrap();
        }
        let actual = service.state("shared").await.unwrap().version;
        let expected = WRITERS * CALLS;
        assert_eq!(actual, expected);
    }
}
