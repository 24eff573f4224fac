//! A write whose answer never came: what reading the row back says, and
//! the words for it (the store's `settle` does the reading).
//!
//! When the connection drops (or the wait runs out) after the save
//! statement was sent, the server may have committed it or not. Reporting
//! a failure either way would be wrong half the time: an agent told its
//! change failed retries it, and the task is there twice. So the store
//! reads the row back, on a fresh connection, until it can or the
//! connection limit has passed again, and reports what it finds: stored
//! (the save succeeded), not stored (the original error, saying so), or,
//! when the row cannot be read or has moved on past the version written,
//! [`StoreError::OutcomeUnknown`].
//!
//! "Not stored" must stay true: a server that was only stalled may still
//! run the statement it holds once it resumes. So before saying so, the
//! store fences the row: it moves the version the lost statement expects
//! on by one (or, for a first write, stores an empty list at version 1),
//! after which that statement's compare-and-swap can only fail.

use std::time::Duration;

use serde_json::Value;
use todokit_app::StoreError;

/// How long to wait between attempts to read the row back.
pub(super) const RETRY_EVERY: Duration = Duration::from_millis(200);

/// Moves a row still at the version a lost save expects on by one, its
/// list unchanged, so that save can no longer land.
pub(super) const FENCE: &str =
    "UPDATE todokit_conversations SET version = version + 1 WHERE conversation = $1 AND version = $2";

/// The same for a lost first save: an empty list at version 1.
pub(super) const FENCE_FIRST: &str = "INSERT INTO todokit_conversations (conversation, version, state) VALUES ($1, 1, $2::text::jsonb) \
                           ON CONFLICT (conversation) DO NOTHING";

/// What the save statement tried to write.
pub(super) struct Written<'a> {
    /// The conversation.
    pub(super) conversation: &'a str,
    /// The version it replaced (0: none stored).
    pub(super) expected: i64,
    /// The version it wrote.
    pub(super) next: i64,
    /// The state it wrote, as JSON text.
    pub(super) state: &'a str,
}

/// What the row read back says about the write.
#[derive(Debug, PartialEq)]
pub(super) enum Landed {
    Yes,
    No,
    /// Others have written since: whether this write came first is lost.
    CannotTell,
}

/// Whether `written` is what `row` (version and state as JSON text) shows.
/// The two texts are compared as JSON values (the database keeps JSONB in
/// its own key order and spacing); this runs only for a write whose answer
/// was lost.
pub(super) fn judge(written: &Written<'_>, row: Option<&(i64, String)>) -> Landed {
    let same = |stored: &str| {
        let parsed = |text: &str| serde_json::from_str::<Value>(text).ok();
        parsed(stored).is_some_and(|stored| Some(stored) == parsed(written.state))
    };
    match row {
        None => Landed::No,
        Some((version, state)) if *version == written.next => match same(state) {
            true => Landed::Yes,
            // Another writer's list at that version: versions only grow,
            // so this write cannot have landed before it.
            false => Landed::No,
        },
        Some((version, _)) if *version < written.next => Landed::No,
        Some(_) => Landed::CannotTell,
    }
}

/// `error`, saying that the change was read back and is not stored.
pub(super) fn not_stored(error: StoreError) -> StoreError {
    match error {
        StoreError::Io {
            action,
            location,
            error,
        } => StoreError::Io {
            action,
            location,
            error: std::io::Error::new(
                error.kind(),
                format!("{error}; reading the list back showed the change was not stored"),
            ),
        },
        StoreError::Database {
            action,
            location,
            message,
            code,
        } => StoreError::Database {
            action,
            location,
            message: format!("{message}; reading the list back showed the change was not stored"),
            code,
        },
        other => other,
    }
}

/// The error for a write whose outcome cannot be told: `error` was the
/// write's, `reason` why reading back did not tell.
pub(super) fn unknown(location: &str, written: &Written<'_>, error: &StoreError, reason: &str) -> StoreError {
    StoreError::OutcomeUnknown {
        conversation: written.conversation.to_owned(),
        location: location.to_owned(),
        reason: format!("{error}; {reason}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    #[test]
    fn the_row_read_back_tells_stored_not_stored_or_cannot_tell() {
        let ours = r#"{"phases": [{"name": "", "tasks": [{"content": "ours"}]}]}"#;
        let theirs = r#"{"phases":[{"name":"","tasks":[{"content":"theirs"}]}]}"#.to_owned();
        // The database's spacing and key order differ from what was sent.
        let ours_stored = r#"{"phases": [{"tasks": [{"content": "ours"}], "name": ""}]}"#.to_owned();
        let written = Written {
            conversation: "c",
            expected: 3,
            next: 4,
            state: ours,
        };
        let rows = [
            None,
            Some((3, theirs.clone())),
            Some((4, ours_stored.clone())),
            Some((4, theirs.clone())),
            Some((5, ours_stored.clone())),
        ];
        let actual: Vec<Landed> = rows.iter().map(|row| judge(&written, row.as_ref())).collect();
        let expected = vec![
            Landed::No,
            Landed::No,
            Landed::Yes,
            Landed::No,
            Landed::CannotTell,
        ];
        assert_eq!(actual, expected);
    }
}
