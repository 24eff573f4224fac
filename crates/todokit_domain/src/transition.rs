//! Pure state transitions. Each takes the current state and returns a new
//! one or an error; the current state is never modified, so a refused call
//! cannot leave anything half-applied.

use std::borrow::Borrow;
use std::collections::{HashMap, VecDeque};

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::error::TodoError;
use crate::rules::{FieldNames, InProgressPolicy, ListRules};
use crate::state::Phase;
use crate::state::TodoState;
use crate::status::Status;
use crate::time::Timestamp;
use crate::todo::Todo;
use crate::todo::{NotesFrom, carry_over_in_place, stamp_new_in_place};
use crate::validate::validate_list;

/// One task's change of status within a call.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Transition {
    /// The task's content after the call (before it, for a removed task).
    pub content: String,
    /// The task's id, where it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// Its status before the call; `None` for a task the call added.
    pub from: Option<Status>,
    /// Its status after the call; `None` for a task the call removed.
    pub to: Option<Status>,
}

/// What a full-list replacement produced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Replacement {
    /// The new state (same version as the old one; the caller commits it).
    pub state: TodoState,
    /// Every task whose status changed, was added or was removed.
    pub transitions: Vec<Transition>,
    /// How many submitted tasks were in progress, before any normalization.
    pub in_progress_count: usize,
    /// True when [`Replacement::wipe_if_all_completed`] emptied the list.
    pub wiped: bool,
}

impl Replacement {
    /// Empties the list when it has tasks and every one is completed, so the
    /// next plan starts from a clean slate.
    pub fn wipe_if_all_completed(mut self) -> Self {
        if self.state.all_completed() {
            self.state.phases.clear();
            self.wiped = true;
        }
        self
    }
}

/// Replaces the whole list with `incoming` (one implicit phase), after
/// checking it against `rules`.
///
/// A task that matches one already stored (same id, or same content when the
/// incoming task has no id) keeps what the incoming one does not say: its id,
/// notes, priority, description, owner, metadata, dependencies, creation time
/// and, while its status is unchanged, the time of its last status change.
pub fn replace_flat(
    current: &TodoState,
    incoming: Vec<Todo>,
    rules: &ListRules,
    names: &FieldNames,
    now: Timestamp,
) -> Result<Replacement, TodoError> {
    validate_list(&incoming, rules, names)?;
    // Borrowed: the old tasks are read, never kept.
    let old: Vec<&Todo> = current.tasks().collect();
    let in_progress_count = incoming.iter().filter(|t| t.status == Status::InProgress).count();
    let matches = match_tasks(&old, &incoming);
    // An id the new list gives explicitly is not handed to another task by
    // carry-over, or the list would end up with the same id twice. Only a
    // new task without an id takes its old task's over, so only those old
    // tasks are looked up, up front, so the new tasks can then be moved.
    let mut id_taken = vec![false; old.len()];
    let inheriting: Vec<usize> = incoming
        .iter()
        .zip(&matches)
        .filter_map(|(task, m)| m.filter(|_| task.id.is_none()))
        .collect();
    if !inheriting.is_empty() {
        let mut given: Vec<&str> = incoming.iter().filter_map(|t| t.id.as_deref()).collect();
        given.sort_unstable();
        for i in inheriting {
            id_taken[i] = old[i]
                .id
                .as_deref()
                .is_some_and(|id| given.binary_search(&id).is_ok());
        }
    }
    let notes_from = match names.notes {
        Some(_) => NotesFrom::New,
        None => NotesFrom::OldWhenNewHasNone,
    };
    // Rewritten where they lie: a `Todo` is a few hundred bytes to move.
    let mut tasks = incoming;
    for (task, m) in tasks.iter_mut().zip(&matches) {
        match m {
            Some(i) => carry_over_in_place(task, old[*i], now, notes_from, |_| id_taken[*i]),
            None => stamp_new_in_place(task, now),
        }
    }
    if rules.in_progress == InProgressPolicy::Normalize {
        keep_first_in_progress(&mut tasks);
    }
    let transitions = transitions(&old, &tasks, &matches);
    // Only the list's own fields are copied: the old tasks are replaced.
    // What a newer version stored on the state and the implicit phase is
    // kept (`with_flat_tasks` takes the phase's over).
    let next = TodoState {
        version: current.version,
        phases: current
            .phases
            .iter()
            .filter(|phase| phase.is_implicit())
            .map(|phase| Phase::new(Phase::IMPLICIT).foreign(phase.foreign.clone()))
            .collect(),
        next_id: current.next_id,
        notices: current.notices.clone(),
        profile: current.profile.clone(),
        explanation: current.explanation.clone(),
        // The text described the old tasks; a writer that sends text sets
        // it again after the replacement.
        document: None,
        turn: current.turn.clone(),
        foreign: current.foreign.clone(),
    };
    let mut state = next.with_flat_tasks(tasks);
    // A parent carried over from the old list may have left it.
    state.drop_broken_parents();
    Ok(Replacement {
        state,
        transitions,
        in_progress_count,
        wiped: false,
    })
}

/// Gives each todo of `new` that matches a todo of `old` by content what a
/// hand-edited text cannot carry (see `carry_over_in_place`); content, status and
/// notes stay as `new` has them. A todo with no match is new and is
/// stamped `now`.
pub fn adopt_hidden_fields(old: &TodoState, new: &mut TodoState, now: Timestamp) {
    let previous = old.flat_tasks();
    // The old tasks of each text, in order: each new task takes the first
    // one not taken yet, one look-up per task (a list may be thousands).
    let mut unclaimed: HashMap<&str, VecDeque<usize>> = HashMap::new();
    for (i, task) in previous.iter().enumerate() {
        unclaimed.entry(task.content.as_str()).or_default().push_back(i);
    }
    for todo in new.phases.iter_mut().flat_map(|p| p.tasks.iter_mut()) {
        let found = unclaimed
            .get_mut(todo.content.as_str())
            .and_then(VecDeque::pop_front);
        match found {
            Some(i) => carry_over_in_place(todo, &previous[i], now, NotesFrom::New, |_| false),
            None => stamp_new_in_place(todo, now),
        }
    }
    new.drop_broken_parents();
}

/// The status changes between two lists, matching tasks by id, else by
/// content: changed tasks in the order of `new`, then removed ones.
pub fn diff<O: Borrow<Todo>, N: Borrow<Todo>>(old: &[O], new: &[N]) -> Vec<Transition> {
    transitions(old, new, &match_tasks(old, new))
}

fn transitions<O: Borrow<Todo>, N: Borrow<Todo>>(
    old: &[O],
    new: &[N],
    matches: &[Option<usize>],
) -> Vec<Transition> {
    let mut out = Vec::new();
    let mut seen = vec![false; old.len()];
    for (task, m) in new.iter().map(Borrow::borrow).zip(matches) {
        let from = m.map(|i| {
            seen[i] = true;
            old[i].borrow().status
        });
        if from != Some(task.status) {
            out.push(Transition {
                content: task.content.clone(),
                id: task.id.clone(),
                from,
                to: Some(task.status),
            });
        }
    }
    for (task, _) in old
        .iter()
        .map(Borrow::borrow)
        .zip(&seen)
        .filter(|(_, seen)| !**seen)
    {
        out.push(Transition {
            content: task.content.clone(),
            id: task.id.clone(),
            from: Some(task.status),
            to: None,
        });
    }
    out
}

/// For each task of `new`, the index of the task of `old` it continues: the
/// first unclaimed one with the same id when it has an id, else with the
/// same content.
fn match_tasks<O: Borrow<Todo>, N: Borrow<Todo>>(old: &[O], new: &[N]) -> Vec<Option<usize>> {
    let mut claimed = vec![false; old.len()];
    // Every old task before `first_open` is claimed: a list rewritten in
    // the same order (the usual call) is matched by looking there alone.
    let mut first_open = 0;
    // Otherwise, each new task takes the first unclaimed old task with its
    // id (or, without one, its text), from indexes made on first need: one
    // look-up per task, not a pass over the list.
    let mut index: Option<(Keyed<'_>, Keyed<'_>)> = None;
    let matches = |o: &Todo, task: &Todo| match &task.id {
        Some(id) => o.id.as_ref() == Some(id),
        None => o.content == task.content,
    };
    new.iter()
        .map(Borrow::borrow)
        .map(|task: &Todo| {
            let found = match old.get(first_open).map(Borrow::borrow) {
                Some(next) if matches(next, task) => Some(first_open),
                _ => {
                    let (by_id, by_content) = index.get_or_insert_with(|| keyed(old));
                    let queue = match &task.id {
                        Some(id) => by_id.get_mut(id.as_str()),
                        None => by_content.get_mut(task.content.as_str()),
                    };
                    queue.and_then(|queue| {
                        while let Some(&i) = queue.front() {
                            if !claimed[i] {
                                return Some(i);
                            }
                            queue.pop_front();
                        }
                        None
                    })
                }
            };
            if let Some(i) = found {
                claimed[i] = true;
                while claimed.get(first_open) == Some(&true) {
                    first_open += 1;
                }
            }
            found
        })
        .collect()
}

/// Old tasks' positions by a key, in order.
type Keyed<'a> = HashMap<&'a str, VecDeque<usize>>;

/// The positions of `old`'s tasks by id, and by text.
fn keyed<O: Borrow<Todo>>(old: &[O]) -> (Keyed<'_>, Keyed<'_>) {
    let (mut by_id, mut by_content) = (Keyed::new(), Keyed::new());
    for (i, task) in old.iter().map(Borrow::borrow).enumerate() {
        if let Some(id) = &task.id {
            by_id.entry(id.as_str()).or_default().push_back(i);
        }
        by_content.entry(task.content.as_str()).or_default().push_back(i);
    }
    (by_id, by_content)
}

fn keep_first_in_progress(tasks: &mut [Todo]) {
    let mut seen = false;
    for task in tasks.iter_mut().filter(|t| t.status == Status::InProgress) {
        if seen {
            task.status = Status::Pending;
        }
        seen = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::{Violation, Violations};
    use crate::rules::Limits;
    use crate::status::Priority;
    use pretty_assertions::assert_eq;

    const NOW: Timestamp = 1_000;
    const LATER: Timestamp = 2_000;

    fn rules() -> ListRules {
        ListRules::default().limits(Limits::DEFAULT)
    }

    /// Each new task takes the first old task not taken yet with its id (or,
    /// without one, its text), in and out of order, repeats included.
    #[test]
    fn tasks_are_matched_first_come_by_id_else_by_text() {
        let old = [
            Todo::new("a"),
            Todo::new("b"),
            Todo::new("a"),
            Todo::new("x").id("7"),
            Todo::new("c"),
        ];
        let new = [
            Todo::new("c"),
            Todo::new("a"),
            Todo::new("renamed").id("7"),
            Todo::new("a"),
            Todo::new("a"),
            Todo::new("b"),
            Todo::new("d"),
        ];
        let actual = match_tasks(&old, &new);
        let expected = vec![Some(4), Some(0), Some(3), Some(2), None, Some(1), None];
        assert_eq!(actual, expected);
    }

    #[test]
    fn replacing_an_empty_list_stamps_every_task() {
        let fixture = TodoState::new();
        let actual = replace_flat(
            &fixture,
            vec![Todo::new("a")],
            &rules(),
            &FieldNames::default(),
            NOW,
        )
        .unwrap();
        let expected = Replacement {
            state: TodoState::flat(vec![Todo::new("a").created_at(NOW).status_changed_at(NOW)]),
            transitions: vec![Transition {
                content: "a".into(),
                id: None,
                from: None,
                to: Some(Status::Pending),
            }],
            in_progress_count: 0,
            wiped: false,
        };
        assert_eq!(actual, expected);
    }

    #[test]
    fn a_matched_task_keeps_what_the_new_one_does_not_say() {
        let fixture = TodoState::flat(vec![
            Todo::new("a")
                .id("7")
                .notes(vec!["n".to_owned()])
                .priority(Priority::High)
                .created_at(NOW)
                .status_changed_at(NOW),
            Todo::new("gone").created_at(NOW).status_changed_at(NOW),
        ])
        .version(4u64);
        let actual = replace_flat(
            &fixture,
            vec![Todo::new("a").status(Status::InProgress)],
            &rules(),
            &FieldNames::default(),
            LATER,
        )
        .unwrap();
        let expected = Replacement {
            state: TodoState::flat(vec![
                Todo::new("a")
                    .id("7")
                    .notes(vec!["n".to_owned()])
                    .priority(Priority::High)
                    .status(Status::InProgress)
                    .created_at(NOW)
                    .status_changed_at(LATER),
            ])
            .version(4u64),
            transitions: vec![
                Transition {
                    content: "a".into(),
                    id: Some("7".into()),
                    from: Some(Status::Pending),
                    to: Some(Status::InProgress),
                },
                Transition {
                    content: "gone".into(),
                    id: None,
                    from: Some(Status::Pending),
                    to: None,
                },
            ],
            in_progress_count: 1,
            wiped: false,
        };
        assert_eq!(actual, expected);
    }

    #[test]
    fn a_carried_over_id_never_duplicates_one_the_new_list_gives() {
        let fixture = TodoState::flat(vec![Todo::new("b").id("3")]);
        let outcome = replace_flat(
            &fixture,
            vec![Todo::new("b"), Todo::new("other").id("3")],
            &rules(),
            &FieldNames::default(),
            NOW,
        )
        .unwrap();
        let actual: Vec<Option<String>> = outcome.state.tasks().map(|t| t.id.clone()).collect();
        let expected = vec![None, Some("3".to_owned())];
        assert_eq!(actual, expected);
    }

    #[test]
    fn a_refused_list_leaves_the_state_alone() {
        let fixture = TodoState::flat(vec![Todo::new("keep")]).version(2u64);
        let before = fixture.clone();
        let actual = replace_flat(
            &fixture,
            vec![Todo::new("")],
            &rules(),
            &FieldNames::default(),
            NOW,
        );
        let expected = Err(TodoError::Invalid(Violations {
            list: vec![Violation::Empty {
                field: "todos[0].content".into(),
            }],
            omitted: 0,
        }));
        assert_eq!((actual, fixture), (expected, before));
    }

    #[test]
    fn normalize_keeps_only_the_first_in_progress() {
        let fixture = vec![
            Todo::new("a").status(Status::InProgress),
            Todo::new("b").status(Status::InProgress),
        ];
        let outcome = replace_flat(
            &TodoState::new(),
            fixture,
            &rules().in_progress(InProgressPolicy::Normalize),
            &FieldNames::default(),
            NOW,
        )
        .unwrap();
        let actual: Vec<Status> = outcome.state.tasks().map(|t| t.status).collect();
        let expected = vec![Status::InProgress, Status::Pending];
        assert_eq!(actual, expected);
    }

    #[test]
    fn all_completed_wipes_and_says_so() {
        let fixture = vec![
            Todo::new("a").status(Status::Completed),
            Todo::new("b").status(Status::Completed),
        ];
        let outcome = replace_flat(&TodoState::new(), fixture, &rules(), &FieldNames::default(), NOW)
            .unwrap()
            .wipe_if_all_completed();
        let actual = (outcome.state, outcome.wiped);
        let expected = (TodoState::new(), true);
        assert_eq!(actual, expected);
    }

    #[test]
    fn an_empty_list_is_not_wiped_it_is_just_empty() {
        let fixture = TodoState::flat(vec![Todo::new("a")]);
        let outcome = replace_flat(&fixture, Vec::new(), &rules(), &FieldNames::default(), NOW)
            .unwrap()
            .wipe_if_all_completed();
        let actual = (outcome.state, outcome.wiped);
        let expected = (TodoState::new(), false);
        assert_eq!(actual, expected);
    }

    #[test]
    fn notes_survive_a_format_without_notes_and_not_one_that_writes_them() {
        let fixture = TodoState::flat(vec![Todo::new("a").notes(vec!["kept?".to_owned()])]);
        let with_notes = FieldNames::DEFAULT.notes("notes");
        let notes_after = |names: &FieldNames| {
            let replaced = replace_flat(&fixture, vec![Todo::new("a")], &rules(), names, LATER).unwrap();
            replaced
                .state
                .tasks()
                .map(|t| t.notes.clone())
                .collect::<Vec<_>>()
        };
        let actual = (notes_after(&FieldNames::DEFAULT), notes_after(&with_notes));
        let expected = (vec![vec!["kept?".to_owned()]], vec![Vec::<String>::new()]);
        assert_eq!(actual, expected);
    }

    #[test]
    fn a_hand_edited_list_keeps_what_the_text_cannot_carry() {
        let old = TodoState::flat(vec![
            Todo::new("a")
                .id("1")
                .priority(Priority::High)
                .notes(vec!["old".to_owned()])
                .created_at(NOW)
                .status_changed_at(NOW),
        ]);
        let mut fixture = TodoState::flat(vec![Todo::new("a").status(Status::Completed), Todo::new("b")]);
        adopt_hidden_fields(&old, &mut fixture, LATER);
        let actual = fixture;
        let expected = TodoState::flat(vec![
            Todo::new("a")
                .id("1")
                .priority(Priority::High)
                .status(Status::Completed)
                .created_at(NOW)
                .status_changed_at(LATER),
            Todo::new("b").created_at(LATER).status_changed_at(LATER),
        ]);
        assert_eq!(actual, expected);
    }

    #[test]
    fn diff_matches_by_id_before_content() {
        let old = vec![Todo::new("old text").id("1"), Todo::new("x")];
        let new = vec![
            Todo::new("new text").id("1").status(Status::Completed),
            Todo::new("x"),
        ];
        let actual = diff(&old, &new);
        let expected = vec![Transition {
            content: "new text".into(),
            id: Some("1".into()),
            from: Some(Status::Pending),
            to: Some(Status::Completed),
        }];
        assert_eq!(actual, expected);
    }

    /// The matching as first written: a scan of every old task per new one.
    fn match_by_full_scan(old: &[Todo], new: &[Todo]) -> Vec<Option<usize>> {
        let mut claimed = vec![false; old.len()];
        new.iter()
            .map(|task| {
                let found = (0..old.len()).find(|&i| {
                    !claimed[i]
                        && match &task.id {
                            Some(id) => old[i].id.as_ref() == Some(id),
                            None => old[i].content == task.content,
                        }
                });
                if let Some(i) = found {
                    claimed[i] = true;
                }
                found
            })
            .collect()
    }

    #[test]
    fn matching_skips_only_claimed_tasks_and_agrees_with_a_full_scan() {
        // Every list of up to four tasks drawn from two contents, with and
        // without an id (ids shared between contents too), old against new.
        let kinds = [
            Todo::new("a"),
            Todo::new("b"),
            Todo::new("a").id("1"),
            Todo::new("b").id("1"),
        ];
        let mut lists: Vec<Vec<Todo>> = vec![Vec::new()];
        for length in 1..=4 {
            let shorter: Vec<Vec<Todo>> = lists.iter().filter(|l| l.len() == length - 1).cloned().collect();
            for list in shorter {
                for kind in &kinds {
                    let mut longer = list.clone();
                    longer.push(kind.clone());
                    lists.push(longer);
                }
            }
        }
        let disagreements: Vec<(&Vec<Todo>, &Vec<Todo>)> = lists
            .iter()
            .flat_map(|old| lists.iter().map(move |new| (old, new)))
            .filter(|(old, new)| match_tasks(old, new) != match_by_full_scan(old, new))
            .collect();
        let in_order = match_tasks(&kinds, &kinds);
        let actual = (lists.len(), disagreements, in_order);
        let expected = (341, Vec::new(), vec![Some(0), Some(1), Some(2), Some(3)]);
        assert_eq!(actual, expected);
    }
}
