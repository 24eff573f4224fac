//! The id-based update engine: remove, update, add and reorder, applied in
//! that order to a copy of the list and checked whole, so a refused call
//! changes nothing and the same call twice leaves the same list.

use std::collections::{BTreeSet, HashSet};

use derive_setters::Setters;
use serde::Serialize;

use crate::error::{TodoError, Violation, Violations, clip};
use crate::patch::TodoPatch;
use crate::rules::Limits;
use crate::state::{Phase, TodoState};
use crate::status::Priority;
use crate::time::Timestamp;
use crate::todo::Todo;
use crate::validate::{Presence, check_text};

/// A todo to append.
#[derive(Debug, Clone, PartialEq, Eq, Setters)]
#[setters(strip_option, into)]
pub struct NewTodo {
    /// What to do.
    pub content: String,
    /// How urgent it is.
    pub priority: Priority,
}

impl NewTodo {
    /// A todo of `content` at medium priority.
    pub fn new(content: impl Into<String>) -> Self {
        Self {
            content: content.into(),
            priority: Priority::Medium,
        }
    }
}

/// One call's changes, by todo id.
#[derive(Debug, Clone, PartialEq, Default, Setters)]
#[setters(strip_option, into)]
pub struct Updates {
    /// Ids to remove; an id already gone is skipped.
    pub remove: Vec<String>,
    /// Changes to existing todos: (id, patch).
    pub update: Vec<(String, TodoPatch)>,
    /// Todos to append; content already on the list is not added twice.
    pub add: Vec<NewTodo>,
    /// Every id once, in the new order (the ids added by this call may be
    /// left out: they keep their place at the end).
    pub reorder: Option<Vec<String>>,
}

/// What [`apply_updates`] did; empty parts are left out when serialized.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct Applied {
    /// Ids removed.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub removed: Vec<String>,
    /// Ids asked to be removed that were already gone.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub already_gone: Vec<String>,
    /// Ids updated.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub updated: Vec<String>,
    /// Ids given to the todos added.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub added: Vec<String>,
    /// Contents not added because the list already has them.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub already_present: Vec<String>,
    /// The list was put in a new order.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub reordered: bool,
}

/// Applies `updates` to `state` at `now` under `limits`: the new list and
/// what was done, or every problem found (nothing applied).
///
/// Todos written through another profile may have no id yet; they get the
/// ids a reader was shown ([`TodoState::ensure_ids`]) first.
pub fn apply_updates(
    state: &TodoState,
    updates: Updates,
    limits: &Limits,
    now: Timestamp,
) -> Result<(TodoState, Applied), TodoError> {
    // Sizes first: no part of the call is worked on when one of them is
    // past what any list may hold (each op costs a pass over the list).
    let bound = limits.max_items.max(state.tasks().count());
    let sizes = [
        ("remove", updates.remove.len(), bound),
        ("update", updates.update.len(), bound),
        ("add", updates.add.len(), limits.max_items),
        ("reorder", updates.reorder.as_ref().map_or(0, Vec::len), bound),
    ];
    if let Some((field, count, max)) = sizes.into_iter().find(|(_, count, max)| count > max) {
        let mut problems = Violations::default();
        problems.push(Violation::TooManyItems {
            field: field.to_owned(),
            count,
            max,
        });
        return problems
            .into_result()
            .map(|()| (state.clone(), Applied::default()));
    }
    let mut next = state.clone();
    next.ensure_ids();
    let mut problems = Violations::default();
    let mut applied = Applied::default();

    for id in updates.remove {
        match next.remove_task(&id) {
            Some(_) => applied.removed.push(id),
            None => applied.already_gone.push(id),
        }
    }

    for (i, (id, patch)) in updates.update.into_iter().enumerate() {
        let Some(todo) = next.find_mut(&id) else {
            problems.push(Violation::UnknownId {
                field: format!("update[{i}].id"),
                id: clip(&id),
            });
            continue;
        };
        patch.check(
            limits,
            |f| format!("update[{i}].{}", f.wire_name()),
            &mut problems,
        );
        patch.apply(todo, now);
        applied.updated.push(id);
    }

    let before_add = ids(&next);
    let mut present: HashSet<String> = next.tasks().map(|t| t.content.trim().to_owned()).collect();
    for (i, item) in updates.add.into_iter().enumerate() {
        let field = format!("add[{i}].content");
        check_text(
            &item.content,
            limits.max_content_bytes,
            Presence::Required,
            field,
            &mut problems,
        );
        if !present.insert(item.content.trim().to_owned()) {
            applied.already_present.push(item.content);
            continue;
        }
        let id = next.allocate_id();
        next.push_task(
            Todo::new(item.content)
                .id(id.clone())
                .priority(item.priority)
                .created_at(now)
                .status_changed_at(now),
        );
        applied.added.push(id);
    }
    limits.check_room(next.tasks().count(), "add", &mut problems);

    if let Some(order) = &updates.reorder {
        match reorder(&mut next, order, &before_add) {
            Ok(()) => applied.reordered = true,
            Err(detail) => problems.push(Violation::NotAPermutation {
                field: "reorder".to_owned(),
                detail,
            }),
        }
    }

    problems.into_result()?;
    Ok((next, applied))
}

fn ids(state: &TodoState) -> Vec<String> {
    state.tasks().filter_map(|t| t.id.clone()).collect()
}

/// Puts the list in `order`: a permutation of every current id, or of the
/// ids there were before this call's additions (which then follow, in the
/// order they were added). Flattens the list into one phase.
fn reorder(state: &mut TodoState, order: &[String], before_add: &[String]) -> Result<(), String> {
    let current = ids(state);
    let given: Vec<&str> = order.iter().map(String::as_str).collect();
    let unique: HashSet<&str> = given.iter().copied().collect();
    let covers = |set: &[String]| {
        unique.len() == given.len()
            && set.len() == given.len()
            && set.iter().all(|id| unique.contains(id.as_str()))
    };
    if !covers(&current) && !covers(before_add) {
        return Err(permutation_problems(&given, before_add));
    }
    let mut tasks = state.flat_tasks();
    let rank = |task: &Todo| {
        let id = task.id.as_deref().unwrap_or_default();
        given.iter().position(|g| *g == id).unwrap_or(usize::MAX)
    };
    // A stable sort keeps the todos this call added, unranked, in order at the end.
    tasks.sort_by_key(rank);
    let foreign = state
        .phases
        .first()
        .map(|phase| phase.foreign.clone())
        .unwrap_or_default();
    state.phases = vec![Phase::new(Phase::IMPLICIT).tasks(tasks).foreign(foreign)];
    Ok(())
}

fn permutation_problems(given: &[&str], expected: &[String]) -> String {
    let expected_set: BTreeSet<&str> = expected.iter().map(String::as_str).collect();
    let given_set: BTreeSet<&str> = given.iter().copied().collect();
    let mut seen = HashSet::new();
    let repeated: BTreeSet<&str> = given.iter().copied().filter(|id| !seen.insert(*id)).collect();
    let list = |set: Vec<&str>| set.iter().map(|id| clip(id)).collect::<Vec<_>>().join(", ");
    let mut parts = Vec::new();
    let missing: Vec<&str> = expected_set.difference(&given_set).copied().collect();
    let unknown: Vec<&str> = given_set.difference(&expected_set).copied().collect();
    if !missing.is_empty() {
        parts.push(format!("missing {}", list(missing)));
    }
    if !unknown.is_empty() {
        parts.push(format!("unknown {}", list(unknown)));
    }
    if !repeated.is_empty() {
        parts.push(format!("repeated {}", list(repeated.into_iter().collect())));
    }
    parts.join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::status::Status;
    use pretty_assertions::assert_eq;

    const NOW: Timestamp = 5;

    fn two() -> TodoState {
        let mut state = TodoState::flat(vec![Todo::new("a"), Todo::new("b")]);
        state.ensure_ids();
        state
    }

    #[test]
    fn every_kind_of_change_applies_in_order() {
        let fixture = Updates::default()
            .remove(vec!["1".to_owned(), "9".to_owned()])
            .update(vec![("2".to_owned(), TodoPatch::new().status(Status::Completed))])
            .add(vec![NewTodo::new("c"), NewTodo::new("b")])
            .reorder(vec!["3".to_owned(), "2".to_owned()]);
        let (state, applied) = apply_updates(&two(), fixture, &Limits::DEFAULT, NOW).unwrap();
        let actual = (
            state
                .tasks()
                .map(|t| (t.id.clone().unwrap_or_default(), t.status))
                .collect::<Vec<_>>(),
            applied,
        );
        let expected = (
            vec![
                ("3".to_owned(), Status::Pending),
                ("2".to_owned(), Status::Completed),
            ],
            Applied {
                removed: vec!["1".into()],
                already_gone: vec!["9".into()],
                updated: vec!["2".into()],
                added: vec!["3".into()],
                already_present: vec!["b".into()],
                reordered: true,
            },
        );
        assert_eq!(actual, expected);
    }

    #[test]
    fn adding_past_the_limit_says_how_large_the_list_would_grow() {
        let fixture = Updates::default().add(vec![NewTodo::new("c"), NewTodo::new("d")]);
        let actual = apply_updates(&two(), fixture, &Limits::DEFAULT.max_items(3usize), NOW);
        let expected = Err(TodoError::Invalid(Violations {
            list: vec![Violation::WouldExceed {
                field: "add".into(),
                count: 4,
                max: 3,
            }],
            omitted: 0,
        }));
        assert_eq!(actual, expected);
    }

    #[test]
    fn a_part_longer_than_any_list_is_refused_before_any_of_it_is_worked_on() {
        let many = |n: usize| (0..n).map(|i| format!("t{i}")).collect::<Vec<_>>();
        let fixture = [
            Updates::default().add(many(10_000).into_iter().map(NewTodo::new).collect::<Vec<_>>()),
            Updates::default().remove(many(101)),
            Updates::default().reorder(many(40_000)),
        ];
        let actual: Vec<String> = fixture
            .into_iter()
            .map(
                |updates| match apply_updates(&two(), updates, &Limits::DEFAULT, NOW) {
                    Err(error) => error.to_string(),
                    Ok(_) => "applied".to_owned(),
                },
            )
            .collect();
        let expected = vec![
            "- add: 10000 items were sent; at most 100 are allowed".to_owned(),
            "- remove: 101 items were sent; at most 100 are allowed".to_owned(),
            "- reorder: 40000 items were sent; at most 100 are allowed".to_owned(),
        ];
        assert_eq!(actual, expected);
    }

    #[test]
    fn every_problem_is_reported_and_nothing_applies() {
        let fixture = Updates::default()
            .update(vec![
                ("7".to_owned(), TodoPatch::new()),
                ("1".to_owned(), TodoPatch::new().content(" ")),
            ])
            .reorder(vec!["1".to_owned(), "1".to_owned()]);
        let actual = apply_updates(&two(), fixture, &Limits::DEFAULT, NOW);
        let expected = Err(TodoError::Invalid(Violations {
            list: vec![
                Violation::UnknownId {
                    field: "update[0].id".into(),
                    id: "7".into(),
                },
                Violation::Empty {
                    field: "update[1].content".into(),
                },
                Violation::NotAPermutation {
                    field: "reorder".into(),
                    detail: "missing 2; repeated 1".into(),
                },
            ],
            omitted: 0,
        }));
        assert_eq!(actual, expected);
    }
}
