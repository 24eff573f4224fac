//! [`ToolOperation`]: the typed record of what one tool call did, from
//! which a profile formats both the text the model reads and the details a
//! UI shows.

use todokit_domain::{TodoState, Transition};

/// What one call of a tool did, before any text is written: what was
/// asked, the list before and after, what changed, and the profile's own
/// result fields (`F`: a batch's errors, an update's summary, ...).
///
/// Profiles format their result text and details from it, so the two can
/// never disagree and neither needs the other.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ToolOperation<'a, A, F = ()> {
    /// The tool that ran.
    pub tool: &'static str,
    /// The arguments, decoded.
    pub asked: &'a A,
    /// The list as it stood before the call.
    pub before: &'a TodoState,
    /// The list the call leaves (the same as `before` for a read).
    pub after: &'a TodoState,
    /// Every todo whose status changed, was added or was removed.
    pub transitions: &'a [Transition],
    /// How many submitted todos were in progress, before any normalization.
    pub in_progress_count: usize,
    /// True when the list was emptied because every todo was completed.
    pub wiped: bool,
    /// The profile's own result fields.
    pub fields: F,
}

impl<'a, A> ToolOperation<'a, A> {
    /// A call of `tool` with `asked` that took the list from `before` to
    /// `after` with `transitions`; nothing wiped, no fields of its own yet.
    pub fn new(
        tool: &'static str,
        asked: &'a A,
        before: &'a TodoState,
        after: &'a TodoState,
        transitions: &'a [Transition],
    ) -> Self {
        Self {
            tool,
            asked,
            before,
            after,
            transitions,
            in_progress_count: after.counts().in_progress,
            wiped: false,
            fields: (),
        }
    }

    /// The same operation carrying the profile's own result `fields`.
    pub fn with_fields<F>(self, fields: F) -> ToolOperation<'a, A, F> {
        ToolOperation {
            tool: self.tool,
            asked: self.asked,
            before: self.before,
            after: self.after,
            transitions: self.transitions,
            in_progress_count: self.in_progress_count,
            wiped: self.wiped,
            fields,
        }
    }
}
