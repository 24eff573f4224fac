//! Todo statuses and priorities, in the spelling todokit stores.
//!
//! Profiles accept their own spellings (`done`, `cancelled`, ...) and map them
//! onto these; the stored state only ever holds the canonical ones.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Where a task stands.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Not started yet.
    #[default]
    Pending,
    /// Being worked on now.
    InProgress,
    /// Waiting on something else before it can go on.
    Blocked,
    /// Finished.
    Completed,
    /// Given up on; it will not be done.
    Abandoned,
}

impl Status {
    /// Every status, in the order a list moves through them.
    pub const ALL: [Status; 5] = [
        Status::Pending,
        Status::InProgress,
        Status::Blocked,
        Status::Completed,
        Status::Abandoned,
    ];

    /// The stored spelling, as in the JSON state (`in_progress`, ...).
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Pending => "pending",
            Status::InProgress => "in_progress",
            Status::Blocked => "blocked",
            Status::Completed => "completed",
            Status::Abandoned => "abandoned",
        }
    }

    /// True while the task still asks for work: pending or in progress.
    ///
    /// Blocked tasks are not open in this sense: nothing can be done about
    /// them until their blocker moves, so an end-of-turn check must not
    /// insist on them.
    pub fn is_open(self) -> bool {
        matches!(self, Status::Pending | Status::InProgress)
    }

    /// True once the task has left the list's working set: completed or
    /// abandoned.
    pub fn is_finished(self) -> bool {
        matches!(self, Status::Completed | Status::Abandoned)
    }

    /// The status a dialect that lacks this one shows it as: a blocked task
    /// is still to be done (pending), an abandoned one needs no more work
    /// (completed). `None` for the three statuses every dialect has.
    pub const fn nearest_common(self) -> Option<Status> {
        match self {
            Status::Blocked => Some(Status::Pending),
            Status::Abandoned => Some(Status::Completed),
            Status::Pending | Status::InProgress | Status::Completed => None,
        }
    }
}

impl std::fmt::Display for Status {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// How urgent a task is, where a profile tracks it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Priority {
    /// Can wait.
    Low,
    /// The usual.
    Medium,
    /// Do first.
    High,
}

impl Priority {
    /// The stored spelling (`low`, `medium`, `high`).
    pub fn as_str(self) -> &'static str {
        match self {
            Priority::Low => "low",
            Priority::Medium => "medium",
            Priority::High => "high",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    #[test]
    fn stored_spellings_match_serde() {
        let fixture = Status::ALL;
        let actual: Vec<String> = fixture
            .iter()
            .map(|s| serde_json::to_value(s).unwrap().as_str().unwrap().to_owned())
            .collect();
        let expected: Vec<String> = fixture.iter().map(|s| s.as_str().to_owned()).collect();
        assert_eq!(actual, expected);
    }

    #[test]
    fn open_and_finished_partition_the_statuses() {
        let fixture = Status::ALL;
        let actual: Vec<(Status, bool, bool)> = fixture
            .iter()
            .map(|s| (*s, s.is_open(), s.is_finished()))
            .collect();
        let expected = vec![
            (Status::Pending, true, false),
            (Status::InProgress, true, false),
            (Status::Blocked, false, false),
            (Status::Completed, false, true),
            (Status::Abandoned, false, true),
        ];
        assert_eq!(actual, expected);
    }

    #[test]
    fn a_status_outside_the_common_three_falls_back_to_the_nearest_of_them() {
        let fixture = Status::ALL;
        let actual: Vec<(Status, Option<Status>)> =
            fixture.iter().map(|s| (*s, s.nearest_common())).collect();
        let expected = vec![
            (Status::Pending, None),
            (Status::InProgress, None),
            (Status::Blocked, Some(Status::Pending)),
            (Status::Completed, None),
            (Status::Abandoned, Some(Status::Completed)),
        ];
        assert_eq!(actual, expected);
    }
}
