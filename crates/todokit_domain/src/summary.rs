//! What a list of conversations shows of each one, without the list:
//! [`ListSummary`]. Stores keep it beside the list when they commit, so
//! listing thousands of conversations reads summaries, not lists.

use derive_setters::Setters;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::state::{StatusCounts, TodoState};
use crate::status::Status;

/// How far along one stored list is: its version, how many tasks are in
/// each status, what the task in progress shows and which profile wrote it.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema, Setters)]
#[setters(strip_option, into)]
pub struct ListSummary {
    /// The list's version.
    pub version: u64,
    /// How many tasks are in each status.
    pub counts: StatusCounts,
    /// What the first task in progress shows (its active form, else its
    /// text), when one is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub in_progress: Option<String>,
    /// The profile whose tools last changed the list, where it was recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub profile: Option<String>,
}

impl ListSummary {
    /// An empty summary (version 0, no tasks).
    pub fn new() -> Self {
        Self::default()
    }

    /// The summary of `state`.
    pub fn of(state: &TodoState) -> Self {
        Self {
            version: state.version,
            counts: state.counts(),
            in_progress: state
                .tasks()
                .find(|task| task.status == Status::InProgress)
                .map(|task| task.display_text().to_owned()),
            profile: state.profile.clone(),
        }
    }
}

impl TodoState {
    /// This list's [`ListSummary`].
    pub fn summary(&self) -> ListSummary {
        ListSummary::of(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::Phase;
    use crate::todo::Todo;
    use pretty_assertions::assert_eq;

    #[test]
    fn a_summary_counts_every_phase_and_shows_the_first_task_in_progress() {
        let state = TodoState::new()
            .phases(vec![
                Phase::new("Plan").tasks(vec![Todo::new("Read").status(Status::Completed)]),
                Phase::new("Build").tasks(vec![
                    Todo::new("Write tests")
                        .active_form("Writing tests")
                        .status(Status::InProgress),
                    Todo::new("Ship").status(Status::InProgress),
                    Todo::new("Tell").status(Status::Pending),
                ]),
            ])
            .version(7u64)
            .profile("claude-code");
        let actual = state.summary();
        let expected = ListSummary::new()
            .version(7u64)
            .counts(StatusCounts {
                pending: 1,
                in_progress: 2,
                completed: 1,
                ..StatusCounts::default()
            })
            .in_progress("Writing tests")
            .profile("claude-code");
        assert_eq!(actual, expected);
    }
}
