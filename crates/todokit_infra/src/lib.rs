//! The outside world for todokit: stores that implement the app layer's
//! [`todokit_app::ConversationContext`] (in memory, JSON files), the system
//! clock, and the renderers that show a list to a person (markdown, plain
//! text, ANSI terminal), all safe to print whatever the model wrote.

mod clock;
pub mod markdown;
pub mod render;
pub mod store;

pub use clock::SystemClock;
pub use markdown::PiMarkdown;
pub use render::{Format, render};
pub use store::{JsonFileStore, MemoryStore};

#[cfg(test)]
mod test_support;
