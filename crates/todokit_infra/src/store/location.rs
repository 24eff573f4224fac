//! Where a store is, read from one text, and the store it names opened:
//! the one place every front end (the facade's builder, the command, both
//! language packages and the MCP server) turns a location into a store, so
//! a new kind of store is a module of its own and one arm of
//! [`open_store`].

use std::path::{Path, PathBuf};
use std::sync::Arc;

use thiserror::Error;
use todokit_app::{ConversationContext, StoreError};

use super::{JsonFileStore, MemoryStore};

/// The environment variable that names the store: a folder, a PostgreSQL
/// URL or [`StoreLocation::MEMORY`] (read by [`StoreLocation::parse`]).
pub const STORE_ENV: &str = "TODOKIT_STORE";

/// Where a store is, as `--store` and [`STORE_ENV`] name it: read the same
/// way by the command, the facade's default and both language packages.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum StoreLocation {
    /// This process's memory: lists are gone when it exits.
    Memory,
    /// A folder of JSON files.
    Folder(PathBuf),
    /// A PostgreSQL database, by its URL.
    Database(String),
}

impl StoreLocation {
    /// The text that names [`StoreLocation::Memory`]. A folder of that name
    /// is still reachable as `./memory:`.
    pub const MEMORY: &'static str = "memory:";

    /// What `text` names: a `postgres://` or `postgresql://` URL is a
    /// database, [`Self::MEMORY`] this process's memory, anything else a
    /// folder of JSON files.
    pub fn parse(text: impl Into<PathBuf>) -> Self {
        let path = text.into();
        match path.to_str() {
            Some(url) if url.starts_with("postgres://") || url.starts_with("postgresql://") => {
                StoreLocation::Database(url.to_owned())
            }
            Some(Self::MEMORY) => StoreLocation::Memory,
            _ => StoreLocation::Folder(path),
        }
    }

    /// What [`STORE_ENV`] names, when it is set and not empty.
    pub fn from_env() -> Option<Self> {
        std::env::var_os(STORE_ENV)
            .filter(|value| !value.is_empty())
            .map(Self::parse)
    }

    /// The location used when none is named: what [`STORE_ENV`] names, else
    /// the platform's data folder ([`default_store_dir`]).
    pub fn or_default(location: Option<Self>) -> Result<Self, OpenError> {
        match location.or_else(Self::from_env) {
            Some(location) => Ok(location),
            None => platform_store_dir()
                .map(StoreLocation::Folder)
                .ok_or(OpenError::NoStoreDir),
        }
    }

    /// The folder this names, for a store kept in files.
    pub fn folder(&self) -> Option<&Path> {
        match self {
            StoreLocation::Folder(dir) => Some(dir),
            StoreLocation::Memory | StoreLocation::Database(_) => None,
        }
    }

    /// Whether the store is a database server's: its calls need a tokio
    /// runtime, and other processes may share it.
    pub fn is_database(&self) -> bool {
        matches!(self, StoreLocation::Database(_))
    }
}

/// The folder the default store uses: what [`STORE_ENV`] names when it is a
/// folder, else the platform's data folder plus `todokit`
/// (`$XDG_DATA_HOME/todokit` or `~/.local/share/todokit` on Linux,
/// `~/Library/Application Support/todokit` on macOS, `%APPDATA%\todokit` on
/// Windows).
pub fn default_store_dir() -> Option<PathBuf> {
    match StoreLocation::from_env() {
        Some(StoreLocation::Folder(dir)) => Some(dir),
        // A database or memory is not a folder: the platform's folder then.
        _ => platform_store_dir(),
    }
}

/// The platform's data folder plus `todokit`.
fn platform_store_dir() -> Option<PathBuf> {
    let non_empty = |name: &str| {
        std::env::var_os(name)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    let data = if cfg!(windows) {
        non_empty("APPDATA")
    } else if cfg!(target_os = "macos") {
        non_empty("HOME").map(|h| h.join("Library").join("Application Support"))
    } else {
        non_empty("XDG_DATA_HOME").or_else(|| non_empty("HOME").map(|h| h.join(".local").join("share")))
    };
    data.map(|d| d.join("todokit"))
}

/// How [`open_store`] opens a store; every setting has a default.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpenOptions {
    files_on_calling_thread: bool,
    pool_size: usize,
}

impl OpenOptions {
    /// A folder store's file work runs on the thread that awaits it
    /// ([`JsonFileStore::on_calling_thread`]): for one call with no runtime.
    pub fn files_on_calling_thread(mut self, on: bool) -> Self {
        self.files_on_calling_thread = on;
        self
    }

    /// A database store's pool holds at most `size` connections.
    pub fn pool_size(mut self, size: usize) -> Self {
        self.pool_size = size;
        self
    }
}

impl Default for OpenOptions {
    fn default() -> Self {
        Self {
            files_on_calling_thread: false,
            pool_size: DEFAULT_DATABASE_POOL,
        }
    }
}

/// The pool a database store opens with unless told otherwise.
#[cfg(feature = "postgres")]
const DEFAULT_DATABASE_POOL: usize = super::DEFAULT_POOL_SIZE;
/// Without a database store the pool is never used.
#[cfg(not(feature = "postgres"))]
const DEFAULT_DATABASE_POOL: usize = 16;

/// Why a store could not be opened.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum OpenError {
    /// No store was named and no default folder could be found.
    #[error(
        "no store folder: set {STORE_ENV} or pass one explicitly \
         (the platform's data folder could not be found: HOME is not set)"
    )]
    NoStoreDir,
    /// A database is named, and this build has no database store (the URL
    /// is not repeated: it may hold a password).
    #[error(
        "the store named is a PostgreSQL database, but this build of todokit has no PostgreSQL store (the \
         `postgres` feature)"
    )]
    NoDatabaseSupport,
    /// The store could not be set up (a database URL that cannot be read).
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// The store at `location`. Nothing is read or written yet: a folder is
/// made by the first save, and a database is connected (and migrated) by
/// the first call, so this needs no runtime.
pub fn open_store(
    location: &StoreLocation,
    options: &OpenOptions,
) -> Result<Arc<dyn ConversationContext>, OpenError> {
    Ok(match location {
        StoreLocation::Memory => Arc::new(MemoryStore::new()),
        StoreLocation::Folder(dir) if options.files_on_calling_thread => {
            Arc::new(JsonFileStore::new(dir).on_calling_thread())
        }
        StoreLocation::Folder(dir) => Arc::new(JsonFileStore::new(dir)),
        StoreLocation::Database(url) => open_database(url, options)?,
    })
}

/// The PostgreSQL store at `url`, connected on first use.
#[cfg(feature = "postgres")]
fn open_database(url: &str, options: &OpenOptions) -> Result<Arc<dyn ConversationContext>, OpenError> {
    Ok(Arc::new(super::PostgresStore::lazy(url, options.pool_size)?))
}

/// Without the PostgreSQL store, a database cannot be opened.
#[cfg(not(feature = "postgres"))]
fn open_database(_url: &str, _options: &OpenOptions) -> Result<Arc<dyn ConversationContext>, OpenError> {
    Err(OpenError::NoDatabaseSupport)
}

#[cfg(test)]
mod tests {
    use pretty_assertions::assert_eq;

    use super::*;

    #[test]
    fn a_location_is_read_from_its_text_alone() {
        let fixture = [
            "postgres://u@h/db",
            "postgresql://u@h/db?sslmode=verify-full",
            "memory:",
            "./memory:",
            "memory",
            "postgres:",
            "./postgres://x",
            "/var/lib/todokit",
        ];
        let actual: Vec<StoreLocation> = fixture.into_iter().map(StoreLocation::parse).collect();
        let expected = vec![
            StoreLocation::Database("postgres://u@h/db".to_owned()),
            StoreLocation::Database("postgresql://u@h/db?sslmode=verify-full".to_owned()),
            StoreLocation::Memory,
            StoreLocation::Folder("./memory:".into()),
            StoreLocation::Folder("memory".into()),
            StoreLocation::Folder("postgres:".into()),
            StoreLocation::Folder("./postgres://x".into()),
            StoreLocation::Folder("/var/lib/todokit".into()),
        ];
        assert_eq!(actual, expected);
    }

    #[test]
    fn only_a_folder_has_a_folder() {
        let fixture = ["memory:", "postgres://h/db", "lists"].map(StoreLocation::parse);
        let actual: Vec<(Option<&Path>, bool)> = fixture
            .iter()
            .map(|location| (location.folder(), location.is_database()))
            .collect();
        let expected = vec![(None, false), (None, true), (Some(Path::new("lists")), false)];
        assert_eq!(actual, expected);
    }

    #[tokio::test]
    async fn each_location_opens_its_own_kind_of_store() {
        let folder = tempfile::tempdir().expect("a temporary folder");
        let dir = folder.path().join("lists");
        let fixture = [StoreLocation::Memory, StoreLocation::Folder(dir.clone())];
        let mut actual = Vec::new();
        for location in &fixture {
            let store = open_store(location, &OpenOptions::default()).expect("opens");
            store
                .save("c", 0, &todokit_domain::TodoState::default())
                .await
                .expect("saved");
            actual.push(std::fs::read_dir(&dir).is_ok_and(|mut files| files.next().is_some()));
        }
        // Memory writes no file; the folder store writes the list there.
        let expected = vec![false, true];
        assert_eq!(actual, expected);
    }

    #[test]
    fn the_refusals_say_what_to_do_and_name_no_database() {
        let actual = [OpenError::NoStoreDir, OpenError::NoDatabaseSupport]
            .map(|refusal| refusal.to_string())
            .join("\n");
        crate::test_support::snapshot_settings()
            .bind(|| insta::assert_snapshot!("store_open_refusals", actual));
    }

    #[cfg(not(feature = "postgres"))]
    #[test]
    fn a_database_without_the_feature_is_refused_without_its_url() {
        let url = "postgres://user:secret@h/db";
        let error = open_store(&StoreLocation::parse(url), &OpenOptions::default()).err();
        let actual = error.map(|e| e.to_string());
        let expected = Some(
            "the store named is a PostgreSQL database, but this build of todokit has no PostgreSQL store (the \
             `postgres` feature)"
                .to_owned(),
        );
        assert_eq!(actual, expected);
    }
}
