//! Merging a partial list into the stored one by id: each item names a
//! task by its id and sets only the fields it carries; an id the list does
//! not have adds a task at the end. What the tools of Cursor (`merge:
//! true`) and Hermes do when a model sends only what changed.

use crate::error::{TodoError, Violation, Violations};
use crate::patch::{TodoField, TodoPatch};
use crate::rules::{FieldNames, ListRules};
use crate::state::TodoState;
use crate::time::Timestamp;
use crate::todo::Todo;
use crate::transition::{Replacement, diff};
use crate::validate::validate_list;

/// One item of a partial list: the task's id and the fields it sets (the
/// others keep their stored value).
#[derive(Debug, Clone, PartialEq)]
pub struct MergeItem {
    /// The task's id.
    pub id: String,
    /// The fields to set.
    pub patch: TodoPatch,
}

impl MergeItem {
    /// An item for the task `id` setting what `patch` sets.
    pub fn new(id: impl Into<String>, patch: TodoPatch) -> Self {
        Self { id: id.into(), patch }
    }
}

/// `items` merged into `current` in order: a known id has its task
/// patched where it stands; an unknown id adds a task at the end (it needs
/// content). The whole result is checked against `rules` and nothing is
/// changed when anything is refused; errors name fields as `names` spells
/// them (`todos[2].content`).
pub fn merge_by_id(
    current: &TodoState,
    items: Vec<MergeItem>,
    rules: &ListRules,
    names: &FieldNames,
    now: Timestamp,
) -> Result<Replacement, TodoError> {
    let mut problems = Violations::default();
    for (i, item) in items.iter().enumerate() {
        let field = |f: TodoField| names.item(i, wire_name(names, f));
        item.patch.check(&rules.limits, field, &mut problems);
        let known = current.tasks().any(|t| t.id.as_deref() == Some(item.id.as_str()));
        if !known && item.patch.content.is_none() {
            problems.push(Violation::Empty {
                field: names.item(i, names.content),
            });
        }
    }
    problems.into_result()?;

    let mut next = current.clone();
    for item in items {
        match next.find_mut(&item.id) {
            Some(task) => {
                item.patch.apply(task, now);
            }
            None => {
                let mut task = Todo::new(String::new())
                    .id(item.id)
                    .created_at(now)
                    .status_changed_at(now);
                item.patch.apply(&mut task, now);
                next.push_task(task);
            }
        }
    }
    let tasks: Vec<&Todo> = next.tasks().collect();
    validate_list(&tasks, rules, names)?;
    let old: Vec<&Todo> = current.tasks().collect();
    let transitions = diff(&old, &tasks);
    let in_progress_count = next.counts().in_progress;
    Ok(Replacement {
        state: next,
        transitions,
        in_progress_count,
        wiped: false,
    })
}

/// The wire name of a patched field in a format spelled by `names`.
fn wire_name(names: &FieldNames, field: TodoField) -> &'static str {
    match field {
        TodoField::Content => names.content,
        TodoField::ActiveForm => names.active_form,
        TodoField::Status => names.status,
        other => other.wire_name(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::status::Status;
    use pretty_assertions::assert_eq;

    const NOW: Timestamp = 1_000;
    const LATER: Timestamp = 2_000;

    fn stored() -> TodoState {
        TodoState::flat(vec![
            Todo::new("Read")
                .id("1")
                .status(Status::Completed)
                .created_at(NOW)
                .status_changed_at(NOW),
            Todo::new("Write")
                .id("2")
                .status(Status::InProgress)
                .created_at(NOW)
                .status_changed_at(NOW),
        ])
    }

    #[test]
    fn a_known_id_changes_only_the_fields_sent_and_an_unknown_one_is_added_last() {
        let fixture = vec![
            MergeItem::new("2", TodoPatch::new().status(Status::Completed)),
            MergeItem::new("3", TodoPatch::new().content("Ship").status(Status::InProgress)),
        ];
        let merged = merge_by_id(
            &stored(),
            fixture,
            &ListRules::default(),
            &FieldNames::DEFAULT,
            LATER,
        )
        .expect("the merge is valid");
        let actual = (merged.state, merged.transitions.len(), merged.in_progress_count);
        let mut expected_state = stored();
        if let Some(write) = expected_state.find_mut("2") {
            write.set_status(Status::Completed, LATER);
        }
        expected_state.push_task(
            Todo::new("Ship")
                .id("3")
                .status(Status::InProgress)
                .created_at(LATER)
                .status_changed_at(LATER),
        );
        let expected = (expected_state, 2, 1);
        assert_eq!(actual, expected);
    }

    #[test]
    fn a_new_id_without_content_or_a_blank_content_is_refused_and_nothing_changes() {
        let fixture = vec![
            MergeItem::new("9", TodoPatch::new().status(Status::Pending)),
            MergeItem::new("1", TodoPatch::new().content(" ")),
        ];
        let actual = merge_by_id(
            &stored(),
            fixture,
            &ListRules::default(),
            &FieldNames::DEFAULT,
            LATER,
        )
        .map(|m| m.state)
        .map_err(|e| e.to_string());
        let expected = Err("- todos[0].content: must not be empty or only whitespace\n\
             - todos[1].content: must not be empty or only whitespace"
            .to_owned());
        assert_eq!(actual, expected);
    }
}
