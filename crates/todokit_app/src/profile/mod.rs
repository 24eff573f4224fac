//! A profile: one agent's family of todo tools over the shared state, with
//! the rules its lists are held to and the slips it forgives.

mod definition;
mod dispatch;
mod lifecycle;
mod upstream;

pub use definition::{DEFAULT_NAG_AFTER_ROUNDS, DEFAULT_NAG_TEXT, ExampleCall, Profile};
pub use lifecycle::Lifecycle;
pub use upstream::{Checked, Pin, Upstream};
