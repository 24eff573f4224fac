//! How finished tasks leave a profile's lists.

use derive_setters::Setters;

/// How finished tasks leave a profile's lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Setters)]
#[setters(strip_option)]
pub struct Lifecycle {
    /// Completed and abandoned tasks leave the list this many milliseconds
    /// after their last status change (0: at once; negative: never).
    /// `None`: they stay until a call removes them.
    pub clear_finished_after_ms: Option<i64>,
    /// Resuming a stored conversation drops completed and abandoned tasks.
    pub drop_finished_on_resume: bool,
}
