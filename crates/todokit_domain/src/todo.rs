//! One item of work, [`Todo`], and the two ways a todo changes besides a
//! status: carrying over what a newly written todo does not say from the
//! one it replaces, and applying a typed [`crate::patch::TodoPatch`].

use derive_setters::Setters;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::status::{Priority, Status};
use crate::time::Timestamp;

/// One item of work.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema, Setters)]
#[setters(strip_option, into)]
pub struct Todo {
    /// What to do, in the imperative ("Run the tests"). Profiles that name
    /// tasks by their content use it as the task's identity.
    pub content: String,
    /// A stable id, where the profile has one (`forge`, `todo-update`, ...).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// The present-continuous form a UI shows while the task runs
    /// ("Running the tests").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub active_form: Option<String>,
    /// Where the task stands.
    #[serde(default)]
    pub status: Status,
    /// How urgent it is, where the profile tracks that.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub priority: Option<Priority>,
    /// Notes added while working on it, oldest first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// A longer description, where the profile has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The agent that claimed the task, where several share one list.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owner: Option<String>,
    /// Free-form data a host or model attached to the task.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Map<String, Value>>,
    /// Ids of the tasks that must complete before this one can.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub blocked_by: Vec<String>,
    /// The id of the task this one is part of (a subtask's parent), where
    /// the profile has subtasks. Views show a subtask under its parent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent: Option<String>,
    /// What sort of work the task is, in the words of the profile that
    /// said it (Gemini CLI's tracker: `epic`, `task`, `bug`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    /// Why the task is blocked, where a profile says (a `block` with a
    /// reason); it goes when the task leaves [`Status::Blocked`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub blocked_reason: Option<String>,
    /// When the task first appeared in the list.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub created_at: Option<Timestamp>,
    /// When its status last changed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status_changed_at: Option<Timestamp>,
    /// Stored fields this version does not know (written by a newer
    /// todokit or another tool), kept as they are so a write never drops
    /// them.
    #[serde(flatten, serialize_with = "crate::foreign::todo")]
    pub foreign: Map<String, Value>,
}

impl Todo {
    /// A pending task with the given content and nothing else set.
    pub fn new(content: impl Into<String>) -> Self {
        Self {
            content: content.into(),
            ..Self::default()
        }
    }

    /// Sets the status, stamping `now` as the time of the change when it
    /// really changes (setting the same status again keeps the old time).
    /// A task that leaves [`Status::Blocked`] drops its blocked reason.
    pub fn set_status(&mut self, status: Status, now: Timestamp) {
        if self.status != status {
            self.status = status;
            self.status_changed_at = Some(now);
            if status != Status::Blocked {
                self.blocked_reason = None;
            }
        }
    }

    /// Marks the task blocked at `now`, for `reason` when one is given (a
    /// new reason replaces the old one; none keeps it).
    pub fn block(&mut self, reason: Option<String>, now: Timestamp) {
        self.set_status(Status::Blocked, now);
        if reason.is_some() {
            self.blocked_reason = reason;
        }
    }

    /// The text a UI shows for the task: its active form while it is in
    /// progress (when it has one), its content otherwise.
    pub fn display_text(&self) -> &str {
        match (&self.active_form, self.status) {
            (Some(active), Status::InProgress) if !active.trim().is_empty() => active,
            _ => &self.content,
        }
    }
}

/// Which notes a replacing todo keeps in [`carry_over_in_place`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum NotesFrom {
    /// The new todo's notes, even when it has none: the format it came
    /// from writes notes, so none means the user removed them.
    New,
    /// The new todo's notes, or the old ones when it has none: the format
    /// it came from has no notes.
    OldWhenNewHasNone,
}

/// [`carry_over_in_place`] by value, for tests.
#[cfg(test)]
pub(crate) fn carry_over(
    mut new: Todo,
    old: &Todo,
    now: Timestamp,
    notes_from: NotesFrom,
    id_taken: impl Fn(&str) -> bool,
) -> Todo {
    carry_over_in_place(&mut new, old, now, notes_from, id_taken);
    new
}

/// `new` as it replaces `old`, rewritten where it lies (so a list is
/// rewritten without moving its todos): every field `new` leaves unset is
/// taken from `old`, so what a wire format cannot say survives a rewrite.
///
/// The creation time is always `old`'s; the status-change time is `old`'s
/// while the status is the same, else `now`; the active form comes over
/// only while the content is unchanged (it describes that content); `old`'s
/// id comes over only when `id_taken` says no other todo has it; a blocked
/// reason while the task stays blocked.
pub(crate) fn carry_over_in_place(
    new: &mut Todo,
    old: &Todo,
    now: Timestamp,
    notes_from: NotesFrom,
    id_taken: impl Fn(&str) -> bool,
) {
    // Destructured without `..`: a field added to `Todo` fails to compile
    // here until it is decided whether a rewrite carries it.
    let Todo {
        content: old_content,
        id: old_id,
        active_form: old_active_form,
        status: old_status,
        priority: old_priority,
        notes: old_notes,
        description: old_description,
        owner: old_owner,
        metadata: old_metadata,
        blocked_by: old_blocked_by,
        parent: old_parent,
        kind: old_kind,
        blocked_reason: old_blocked_reason,
        created_at: old_created_at,
        status_changed_at: old_status_changed_at,
        foreign: old_foreign,
    } = old;
    let Todo {
        content,
        id,
        active_form,
        status,
        priority,
        notes,
        description,
        owner,
        metadata,
        blocked_by,
        parent,
        kind,
        blocked_reason,
        created_at,
        status_changed_at,
        foreign,
    } = new;
    if id.is_none() {
        *id = old_id.clone().filter(|id| !id_taken(id));
    }
    if active_form.is_none() && *content == *old_content {
        active_form.clone_from(old_active_form);
    }
    if priority.is_none() {
        *priority = *old_priority;
    }
    if matches!(notes_from, NotesFrom::OldWhenNewHasNone) && notes.is_empty() {
        notes.clone_from(old_notes);
    }
    if description.is_none() {
        description.clone_from(old_description);
    }
    if owner.is_none() {
        owner.clone_from(old_owner);
    }
    if metadata.is_none() {
        metadata.clone_from(old_metadata);
    }
    if blocked_by.is_empty() {
        blocked_by.clone_from(old_blocked_by);
    }
    // A parent that left the list is dropped when the state is tidied
    // (`TodoState::drop_broken_parents`), not here: this task cannot see
    // the rest of the new list.
    if parent.is_none() {
        parent.clone_from(old_parent);
    }
    if kind.is_none() {
        kind.clone_from(old_kind);
    }
    // A reason says why the task is blocked: it stays while it still is.
    if blocked_reason.is_none() && *status == Status::Blocked && *old_status == Status::Blocked {
        blocked_reason.clone_from(old_blocked_reason);
    }
    // What a newer version stored on the task it replaces stays with it.
    if foreign.is_empty() && !old_foreign.is_empty() {
        foreign.clone_from(old_foreign);
    }
    *created_at = old_created_at.or(Some(now));
    *status_changed_at = if *status == *old_status {
        old_status_changed_at.or(Some(now))
    } else {
        Some(now)
    };
}

/// `todo` as a newly added one: created and status-stamped `now` unless
/// it already says when.
pub(crate) fn stamp_new_in_place(todo: &mut Todo, now: Timestamp) {
    todo.created_at = todo.created_at.or(Some(now));
    todo.status_changed_at = todo.status_changed_at.or(Some(now));
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    const NOW: Timestamp = 1_000;
    const LATER: Timestamp = 2_000;

    fn old() -> Todo {
        Todo::new("a")
            .id("7")
            .active_form("Doing a")
            .priority(Priority::High)
            .notes(vec!["n".to_owned()])
            .description("d")
            .owner("o")
            .blocked_by(vec!["1".to_owned()])
            .parent("3")
            .kind("bug")
            .created_at(NOW)
            .status_changed_at(NOW)
    }

    #[test]
    fn set_status_stamps_only_a_real_change() {
        let mut fixture = Todo::new("a").status_changed_at(NOW);
        fixture.set_status(Status::Pending, LATER);
        let unchanged = fixture.status_changed_at;
        fixture.set_status(Status::Completed, LATER);
        let actual = (unchanged, fixture.status, fixture.status_changed_at);
        let expected = (Some(NOW), Status::Completed, Some(LATER));
        assert_eq!(actual, expected);
    }

    #[test]
    fn everything_the_new_todo_leaves_unset_comes_from_the_old_one() {
        let fixture = Todo::new("a").status(Status::InProgress);
        let actual = carry_over(fixture, &old(), LATER, NotesFrom::OldWhenNewHasNone, |_| false);
        let expected = old().status(Status::InProgress).status_changed_at(LATER);
        assert_eq!(actual, expected);
    }

    #[test]
    fn what_the_new_todo_says_wins_and_new_text_drops_the_active_form() {
        let fixture = Todo::new("b").id("8").priority(Priority::Low).notes(vec![]);
        let actual = carry_over(fixture, &old(), LATER, NotesFrom::New, |_| false);
        let expected = Todo::new("b")
            .id("8")
            .priority(Priority::Low)
            .description("d")
            .owner("o")
            .blocked_by(vec!["1".to_owned()])
            .parent("3")
            .kind("bug")
            .created_at(NOW)
            .status_changed_at(NOW);
        assert_eq!(actual, expected);
    }

    #[test]
    fn a_taken_id_is_not_carried_over() {
        let actual = carry_over(Todo::new("a"), &old(), NOW, NotesFrom::New, |id| id == "7").id;
        let expected = None;
        assert_eq!(actual, expected);
    }

    #[test]
    fn a_blocked_reason_lasts_while_the_task_is_blocked() {
        let mut blocked = Todo::new("a");
        blocked.block(Some("waits on review".to_owned()), NOW);
        let mut reblocked = blocked.clone();
        reblocked.block(None, LATER);
        let mut unblocked = blocked.clone();
        unblocked.set_status(Status::Pending, LATER);
        let rewritten_blocked = carry_over(
            Todo::new("a").status(Status::Blocked),
            &blocked,
            LATER,
            NotesFrom::New,
            |_| false,
        );
        let rewritten_pending = carry_over(Todo::new("a"), &blocked, LATER, NotesFrom::New, |_| false);
        let actual = [
            blocked.blocked_reason,
            reblocked.blocked_reason,
            unblocked.blocked_reason,
            rewritten_blocked.blocked_reason,
            rewritten_pending.blocked_reason,
        ];
        let reason = Some("waits on review".to_owned());
        let expected = [reason.clone(), reason.clone(), None, reason, None];
        assert_eq!(actual, expected);
    }
}
