//! Conversation stores.

mod json_file;
mod memory;
#[cfg(feature = "postgres")]
mod postgres;
mod wakes;

pub use json_file::{
    FILE_FORMAT, FOLDER_POLL_INTERVAL, JsonFileStore, LAST_FILE_MAX_BYTES, MAX_SLUG_CHARS, SWEEP_EVERY_SAVES,
};
pub use memory::{DEFAULT_READY_CONVERSATIONS, MemoryStore};
#[cfg(feature = "postgres")]
pub use postgres::NOTIFY_CHANNEL;
#[cfg(feature = "postgres")]
pub use postgres::{
    DEFAULT_CONNECT_TIMEOUT, DEFAULT_POOL_SIZE, DEFAULT_STATEMENT_TIMEOUT, PostgresStore, SCHEMA_VERSION,
};
