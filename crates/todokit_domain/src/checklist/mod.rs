//! Markdown checklists: one line per todo, `[m] text`, where the marker
//! `m` says the status. Several agents speak a dialect of it; a
//! [`MarkerTable`] says which markers a dialect writes and reads, and one
//! parser and one writer serve them all.

mod markers;
mod phased;
mod render;
mod shown;

pub use markers::{Bullet, LineError, Mark, MarkerTable, Spacing};
pub use phased::PHASED;
pub use render::{Escape, progress_line, verbatim};
pub use shown::{Checklist, SHOWN};
