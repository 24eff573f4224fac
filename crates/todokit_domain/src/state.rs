//! The stored shape of one conversation's list: phases of tasks and a
//! version that every committed change bumps.

use derive_setters::Setters;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::status::Status;
use crate::time::Timestamp;
use crate::todo::Todo;
use crate::turn::TurnRecord;

/// A named group of tasks. Flat profiles keep all their tasks in one phase
/// whose name is [`Phase::IMPLICIT`], which renderers never show.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema, Setters)]
#[setters(strip_option, into)]
pub struct Phase {
    /// The phase's name; [`Phase::IMPLICIT`] for a flat list.
    pub name: String,
    /// Its tasks, in order. Required when read: a stored phase without
    /// them is a shape this version does not know, not an empty phase.
    pub tasks: Vec<Todo>,
    /// Stored fields this version does not know, kept through writes.
    #[serde(flatten, serialize_with = "crate::foreign::phase")]
    pub foreign: Map<String, Value>,
}

impl Phase {
    /// The name of the single phase that holds a flat list. No profile that
    /// names phases accepts an empty name, so it never clashes with one.
    pub const IMPLICIT: &'static str = "";

    /// A phase with the given name and no tasks.
    pub fn new(name: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            tasks: Vec::new(),
            foreign: Map::new(),
        }
    }

    /// True for the unnamed phase of a flat list.
    pub fn is_implicit(&self) -> bool {
        self.name == Self::IMPLICIT
    }
}

/// How many tasks are in each status.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
pub struct StatusCounts {
    /// Pending tasks.
    pub pending: usize,
    /// In-progress tasks.
    pub in_progress: usize,
    /// Blocked tasks.
    pub blocked: usize,
    /// Completed tasks.
    pub completed: usize,
    /// Abandoned tasks.
    pub abandoned: usize,
}

impl StatusCounts {
    /// Counts the statuses of `tasks`.
    pub fn of<'a>(tasks: impl IntoIterator<Item = &'a Todo>) -> Self {
        let mut counts = Self::default();
        for task in tasks {
            *counts.slot(task.status) += 1;
        }
        counts
    }

    fn slot(&mut self, status: Status) -> &mut usize {
        match status {
            Status::Pending => &mut self.pending,
            Status::InProgress => &mut self.in_progress,
            Status::Blocked => &mut self.blocked,
            Status::Completed => &mut self.completed,
            Status::Abandoned => &mut self.abandoned,
        }
    }

    /// All tasks counted.
    pub fn total(&self) -> usize {
        self.pending + self.in_progress + self.blocked + self.completed + self.abandoned
    }

    /// Tasks that still ask for work (pending or in progress).
    pub fn open(&self) -> usize {
        self.pending + self.in_progress
    }
}

/// One conversation's list as it is stored.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema, Setters)]
#[setters(strip_option, into)]
pub struct TodoState {
    /// Bumped by one on every committed change; stores compare-and-swap on it.
    #[serde(default)]
    pub version: u64,
    /// The phases, in order. Empty when the list is empty. Required when
    /// read: a stored state without them is a shape this version does not
    /// know, and reading it as an empty list would lose it.
    pub phases: Vec<Phase>,
    /// The next id [`TodoState::allocate_id`] hands out (0: none handed out
    /// yet), so ids are never reused.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub next_id: u64,
    /// Reminders waiting to be shown to the model (a user's hand edits),
    /// oldest first; a host takes them when it builds the next request.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notices: Vec<Notice>,
    /// The profile whose tools last changed the list, so a viewer shows it
    /// the way that agent does (and clears what that profile clears).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub profile: Option<String>,
    /// Why the plan last changed, in the model's words (Codex's
    /// `update_plan` explanation), for a viewer to show above the list.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub explanation: Option<String>,
    /// The list as one text, as the model last wrote it, for a profile
    /// whose tool takes the list so (a free-text todo with checklist lines
    /// in it): its tasks are those lines, and the text keeps what else it
    /// holds (notes, headings). Any other write leaves it behind, so a
    /// reader checks that it still matches the tasks before using it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub document: Option<String>,
    /// What an agent loop keeps of a conversation between its hooks
    /// (counters, reminders waiting for the next request): set only in the
    /// state stored under the conversation's [`crate::turn::turn_key`], by
    /// the turn driver; `None` in a list.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn: Option<Box<TurnRecord>>,
    /// Stored fields this version does not know (written by a newer
    /// todokit or another tool), kept as they are through every write.
    #[serde(flatten, serialize_with = "crate::foreign::state")]
    pub foreign: Map<String, Value>,
}

/// Something the model should be told on its next turn.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, Setters)]
#[setters(strip_option, into)]
pub struct Notice {
    /// What happened.
    pub kind: NoticeKind,
    /// When.
    pub at: Timestamp,
    /// The reminder text for the model.
    pub text: String,
    /// For a hand edit: what the user did, in words. Edits the model has
    /// not yet been told about coalesce into one notice, so their actions
    /// are kept apart from the text they are quoted in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub action: Option<String>,
}

/// The kinds of [`Notice`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum NoticeKind {
    /// The user changed the list by hand.
    UserEdit,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

impl TodoState {
    /// An empty list at version 0.
    pub fn new() -> Self {
        Self::default()
    }

    /// A flat list: all `tasks` in the implicit phase (no phase when empty).
    pub fn flat(tasks: Vec<Todo>) -> Self {
        Self::default().with_flat_tasks(tasks)
    }

    /// This state with its phases replaced by one implicit phase holding
    /// `tasks`; the version is kept.
    /// What the implicit phase stored beyond its tasks stays with it.
    pub fn with_flat_tasks(mut self, tasks: Vec<Todo>) -> Self {
        let foreign = self
            .phases
            .iter()
            .find(|phase| phase.is_implicit())
            .map(|phase| phase.foreign.clone())
            .unwrap_or_default();
        self.phases = if tasks.is_empty() {
            Vec::new()
        } else {
            vec![Phase::new(Phase::IMPLICIT).tasks(tasks).foreign(foreign)]
        };
        self
    }

    /// Every task, phase by phase.
    pub fn tasks(&self) -> impl Iterator<Item = &Todo> {
        self.phases.iter().flat_map(|p| p.tasks.iter())
    }

    /// Every task, phase by phase, to change in place (a status, a note):
    /// what [`TodoState::tasks`] is for reading.
    pub fn tasks_mut(&mut self) -> impl Iterator<Item = &mut Todo> {
        self.phases.iter_mut().flat_map(|p| p.tasks.iter_mut())
    }

    /// Every task, phase by phase, cloned into one flat list.
    pub fn flat_tasks(&self) -> Vec<Todo> {
        self.tasks().cloned().collect()
    }

    /// True when there is no task at all (empty phases do not count).
    pub fn is_empty(&self) -> bool {
        self.tasks().next().is_none()
    }

    /// How many tasks are in each status.
    pub fn counts(&self) -> StatusCounts {
        StatusCounts::of(self.tasks())
    }

    /// The tasks that still ask for work, with the name of their phase.
    pub fn open_tasks(&self) -> Vec<(&Phase, &Todo)> {
        self.phases
            .iter()
            .flat_map(|p| p.tasks.iter().map(move |t| (p, t)))
            .filter(|(_, t)| t.status.is_open())
            .collect()
    }

    /// True when the list has tasks and every one of them is completed.
    pub fn all_completed(&self) -> bool {
        !self.is_empty() && self.tasks().all(|t| t.status == Status::Completed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    #[test]
    fn flat_list_of_nothing_has_no_phase() {
        let fixture: Vec<Todo> = Vec::new();
        let actual = TodoState::flat(fixture);
        let expected = TodoState::new();
        assert_eq!(actual, expected);
    }

    #[test]
    fn counts_cover_every_status() {
        let fixture = TodoState::flat(vec![
            Todo::new("a"),
            Todo::new("b").status(Status::InProgress),
            Todo::new("c").status(Status::Blocked),
            Todo::new("d").status(Status::Completed),
            Todo::new("e").status(Status::Completed),
            Todo::new("f").status(Status::Abandoned),
        ]);
        let actual = fixture.counts();
        let expected = StatusCounts {
            pending: 1,
            in_progress: 1,
            blocked: 1,
            completed: 2,
            abandoned: 1,
        };
        assert_eq!(actual, expected);
    }

    #[test]
    fn display_text_uses_active_form_only_while_in_progress() {
        let fixture = [
            Todo::new("Run tests").active_form("Running tests"),
            Todo::new("Run tests")
                .active_form("Running tests")
                .status(Status::InProgress),
            Todo::new("Run tests")
                .active_form("  ")
                .status(Status::InProgress),
        ];
        let actual: Vec<&str> = fixture.iter().map(Todo::display_text).collect();
        let expected = vec!["Run tests", "Running tests", "Run tests"];
        assert_eq!(actual, expected);
    }

    #[test]
    fn stored_json_omits_unset_fields() {
        let fixture = TodoState::flat(vec![Todo::new("a").id("1")]).version(3u64);
        let actual = serde_json::to_value(&fixture).unwrap();
        let expected = serde_json::json!({
            "version": 3,
            "phases": [{"name": "", "tasks": [{"content": "a", "id": "1", "status": "pending"}]}]
        });
        assert_eq!(actual, expected);
    }
}
