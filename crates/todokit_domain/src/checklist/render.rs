//! What every rendering of a list shares: the progress line on top, and
//! how a caller treats model-written text ([`Escape`]).

use std::borrow::Cow;
use std::fmt::Write;

use crate::state::TodoState;

/// How model-written text is treated before it is placed in the output.
pub type Escape = fn(&str) -> Cow<'_, str>;

/// Leaves model text as it is.
pub fn verbatim(text: &str) -> Cow<'_, str> {
    Cow::Borrowed(text)
}

/// `Progress: 2/5 completed`, plus the abandoned count when there are any.
pub fn progress_line(state: &TodoState) -> String {
    let counts = state.counts();
    let mut line = format!("Progress: {}/{} completed", counts.completed, counts.total());
    if counts.abandoned > 0 {
        let _ = write!(line, ", {} abandoned", counts.abandoned);
    }
    line
}
