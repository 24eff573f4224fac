//! [`ToolOperation`]: the typed record of what one tool call did, from
//! which a profile formats both the text the model reads and the details a
//! UI shows.

use todokit_domain::{TodoState, Transition};

/// What one call of a tool did, before any text is written: what was
/// asked, the list before and after, and what changed.
///
/// Profiles format their result text and details from it, so the two can
/// never disagree and neither needs the other.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ToolOperation<'a, A> {
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
}

impl<'a, A> ToolOperation<'a, A> {
    /// A call of `tool` with `asked` that read `state` and changed nothing.
    pub fn read(tool: &'static str, asked: &'a A, state: &'a TodoState) -> Self {
        Self {
            tool,
            asked,
            before: state,
            after: state,
            transitions: &[],
            in_progress_count: state.counts().in_progress,
            wiped: false,
        }
    }
}
