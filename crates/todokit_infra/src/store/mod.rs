//! Conversation stores.

mod json_file;
mod memory;

pub use json_file::{FILE_FORMAT, JsonFileStore, MAX_READABLE_STEM};
pub use memory::MemoryStore;
