//! The phased checklist: the markdown a list is exported to and imported
//! from (`# phase` headings, `- [m] task` lines), in the markers oh-my-pi's
//! `todo_write` writes, so the `pi` profile and the markdown codec read and
//! write one notation.

use super::markers::{Bullet, Mark, MarkerTable, Spacing};
use crate::status::Status;

/// `- [ ]`, `- [/]` in progress, `- [x]`, `- [-]` abandoned, `- [!]`
/// blocked; `>`, `~` and `X` read too.
pub const PHASED: MarkerTable = MarkerTable {
    written: [
        Mark::plain(' '),
        Mark::plain('/'),
        Mark::plain('!'),
        Mark::plain('x'),
        Mark::plain('-'),
    ],
    also_read: &[
        ('>', Status::InProgress),
        ('~', Status::Abandoned),
        ('X', Status::Completed),
    ],
    bullet: Bullet::Required,
    spacing: Spacing::Exact,
};
