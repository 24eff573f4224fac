//! Conversation stores.

mod json_file;
mod location;
mod memory;
mod namespaced;
#[cfg(feature = "postgres")]
mod postgres;
mod wakes;

pub use json_file::{
    ABANDONED_AFTER, FILE_FORMAT, FOLDER_POLL_INTERVAL, JsonFileStore, LAST_FILE_MAX_BYTES, MAX_FILE_WORKERS,
    MAX_SLUG_CHARS, SWEEP_EVERY_SAVES, SWEEP_INTERVAL,
};
pub use location::{OpenError, OpenOptions, STORE_ENV, StoreLocation, default_store_dir, open_store};
pub use memory::{DEFAULT_READY_CONVERSATIONS, MemoryStore};
pub use namespaced::{MAX_NAMESPACE_BYTES, NAMESPACE_SEPARATOR, NamespacedStore, Veil, is_namespace};
#[cfg(feature = "postgres")]
pub use postgres::{
    DEFAULT_CONNECT_TIMEOUT, DEFAULT_POOL_SIZE, DEFAULT_STATEMENT_TIMEOUT, PRUNE_BATCH, PostgresStore,
    SCHEMA_VERSION, tokio_postgres,
};
#[cfg(feature = "postgres")]
pub use postgres::{LISTEN_HEARTBEAT, MIGRATION_TIMEOUT, NOTIFY_CHANNEL};
