//! Checking a whole submitted list against [`ListRules`] before anything is
//! applied.

use std::borrow::Borrow;
use std::collections::HashMap;

use crate::error::{TodoError, Violation, Violations, clip};
use crate::rules::{FieldNames, InProgressPolicy, Limits, ListRules};
use crate::state::TodoState;
use crate::status::Status;
use crate::todo::Todo;

/// Checks `tasks` against `rules`, reporting every problem found (up to
/// [`crate::error::MAX_REPORTED_VIOLATIONS`]) with the wire names in `names`.
///
/// Under [`InProgressPolicy::Reject`] more than one in-progress task is an
/// error; under the other policies it is left to the caller.
pub fn validate_list<T: Borrow<Todo>>(
    tasks: &[T],
    rules: &ListRules,
    names: &FieldNames,
) -> Result<(), TodoError> {
    let limits = &rules.limits;
    let mut problems = Violations::default();
    if tasks.len() > limits.max_items {
        problems.push(Violation::TooManyItems {
            field: names.list.to_owned(),
            count: tasks.len(),
            max: limits.max_items,
        });
    }
    let mut first_use = FirstUse::with_capacity(tasks.len());
    for (index, task) in tasks.iter().map(Borrow::borrow).enumerate() {
        let field = |name: &str| names.item(index, name);
        check_text_with(
            &task.content,
            limits.max_content_bytes,
            Presence::Required,
            || field(names.content),
            &mut problems,
        );
        if let Some(active) = &task.active_form {
            check_text_with(
                active,
                limits.max_active_form_bytes,
                Presence::Optional,
                || field(names.active_form),
                &mut problems,
            );
        }
        match &task.id {
            None if rules.require_ids => problems.push(Violation::MissingId {
                field: field(names.id),
            }),
            None => {}
            Some(id) => {
                let before = problems.list.len() + problems.omitted;
                check_text_with(
                    id,
                    limits.max_id_bytes,
                    Presence::Required,
                    || field(names.id),
                    &mut problems,
                );
                let id_ok = problems.list.len() + problems.omitted == before;
                if id_ok {
                    if let Some(first) = first_use.get(id) {
                        problems.push(Violation::DuplicateId {
                            field: field(names.id),
                            id: clip(id),
                            first: names.item(first, names.id),
                        });
                    } else {
                        first_use.insert(id, index);
                    }
                }
            }
        }
    }
    if rules.in_progress == InProgressPolicy::Reject {
        let active: Vec<String> = tasks
            .iter()
            .map(Borrow::borrow)
            .enumerate()
            .filter(|(_, t): &(usize, &Todo)| t.status == Status::InProgress)
            .map(|(i, _)| format!("{}[{i}]", names.list))
            .collect();
        if active.len() > 1 {
            problems.push(Violation::TooManyInProgress {
                field: names.list.to_owned(),
                count: active.len(),
                items: active,
            });
        }
    }
    problems.into_result()
}

/// Where each id was first used. A short list (most are) is searched in
/// order, which costs less than hashing every id; a long one is hashed.
struct FirstUse<'a> {
    few: Vec<(&'a str, usize)>,
    many: HashMap<&'a str, usize>,
}

impl<'a> FirstUse<'a> {
    /// Ids kept in order before they are hashed.
    const FEW: usize = 32;

    /// Room for the ids of a list of `count` tasks.
    fn with_capacity(count: usize) -> Self {
        Self {
            few: Vec::with_capacity(count.min(Self::FEW)),
            many: HashMap::new(),
        }
    }

    fn get(&self, id: &str) -> Option<usize> {
        match self.many.is_empty() {
            true => self.few.iter().find(|(seen, _)| *seen == id).map(|(_, at)| *at),
            false => self.many.get(id).copied(),
        }
    }

    /// Records `id` at `index`; the caller has checked it is not there yet.
    fn insert(&mut self, id: &'a str, index: usize) {
        if !self.many.is_empty() {
            self.many.insert(id, index);
        } else if self.few.len() < Self::FEW {
            self.few.push((id, index));
        } else {
            self.many = self.few.drain(..).collect();
            self.many.insert(id, index);
        }
    }
}

/// Checks a list of phases against `limits` after ops changed it: the
/// tasks as [`validate_list`] does (more than one in progress is left to
/// the caller), each phase name against the content limit, each note and
/// blocked reason against the description limit. Fields are named
/// `phases[p].name`, `{list}[i].notes[n]` and `{list}[i].blocked_reason`,
/// the tasks numbered across phases.
pub fn validate_phases(state: &TodoState, limits: &Limits, names: &FieldNames) -> Result<(), TodoError> {
    let tasks: Vec<&Todo> = state.tasks().collect();
    let rules = ListRules::new(*limits, InProgressPolicy::Normalize);
    let mut problems = match validate_list(&tasks, &rules, names) {
        Ok(()) => Violations::default(),
        Err(TodoError::Invalid(found)) => found,
        Err(other) => return Err(other),
    };
    // Field names are written only for a problem: most calls have none.
    for (p, phase) in state.phases.iter().enumerate() {
        check_text_with(
            &phase.name,
            limits.max_content_bytes,
            Presence::Optional,
            || format!("phases[{p}].name"),
            &mut problems,
        );
    }
    for (i, task) in tasks.iter().enumerate() {
        for (n, note) in task.notes.iter().enumerate() {
            check_text_with(
                note,
                limits.max_description_bytes,
                Presence::Optional,
                || format!("{}[{i}].notes[{n}]", names.list),
                &mut problems,
            );
        }
        if let Some(reason) = &task.blocked_reason {
            check_text_with(
                reason,
                limits.max_description_bytes,
                Presence::Optional,
                || format!("{}[{i}].blocked_reason", names.list),
                &mut problems,
            );
        }
    }
    problems.into_result()
}

/// Whether a text field must say something.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Presence {
    /// Empty or only whitespace is refused.
    Required,
    /// Empty is fine.
    Optional,
}

/// Checks one text field: at most `max_bytes` UTF-8 bytes and, when
/// [`Presence::Required`], not empty or only whitespace. Records the
/// problem under `field`.
pub fn check_text(
    text: &str,
    max_bytes: usize,
    presence: Presence,
    field: String,
    problems: &mut Violations,
) {
    check_text_with(text, max_bytes, presence, || field, problems);
}

impl Limits {
    /// Records in `problems` that a list of `count` tasks would hold more
    /// than it may (`field` names what would overflow, as the caller's
    /// wire format says); nothing when it fits.
    pub fn check_room(&self, count: usize, field: &str, problems: &mut Violations) {
        if count > self.max_items {
            problems.push(Violation::WouldExceed {
                field: field.to_owned(),
                count,
                max: self.max_items,
            });
        }
    }

    /// Records in `problems` what is wrong with `ids`, a task's list of
    /// other tasks' ids named `field`: more ids than a list may hold tasks,
    /// or an id longer than ids may be (`field[i]`).
    pub fn check_ids(&self, ids: &[String], field: &str, problems: &mut Violations) {
        if ids.len() > self.max_items {
            problems.push(Violation::TooManyItems {
                field: field.to_owned(),
                count: ids.len(),
                max: self.max_items,
            });
        }
        for (i, id) in ids.iter().enumerate() {
            check_text_with(
                id,
                self.max_id_bytes,
                Presence::Required,
                || format!("{field}[{i}]"),
                problems,
            );
        }
    }
}

/// [`check_text`] with the field's name built only when there is a problem,
/// so a valid list costs no strings.
pub fn check_text_with(
    text: &str,
    max_bytes: usize,
    presence: Presence,
    field: impl FnOnce() -> String,
    problems: &mut Violations,
) {
    if text.len() > max_bytes {
        problems.push(Violation::TooLong {
            field: field(),
            bytes: text.len(),
            max: max_bytes,
        });
    } else if presence == Presence::Required && text.trim().is_empty() {
        problems.push(Violation::Empty { field: field() });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Limits;
    use pretty_assertions::assert_eq;

    fn rules() -> ListRules {
        ListRules::default().limits(
            Limits::DEFAULT
                .max_items(3usize)
                .max_content_bytes(4usize)
                .max_id_bytes(4usize),
        )
    }

    #[test]
    fn a_valid_list_passes() {
        let fixture = vec![
            Todo::new("a").id("1"),
            Todo::new("bb").id("2").status(Status::InProgress),
        ];
        let actual = validate_list(&fixture, &rules(), &FieldNames::default());
        let expected = Ok(());
        assert_eq!(actual, expected);
    }

    #[test]
    fn every_problem_is_reported_with_its_field() {
        let fixture = vec![
            Todo::new(" \t").id("1"),
            Todo::new("toolong").id("1").status(Status::InProgress),
            Todo::new("ok").id("").status(Status::InProgress),
            Todo::new("ok").id("waytoolong"),
        ];
        let actual = validate_list(&fixture, &rules(), &FieldNames::default());
        let expected = Err(TodoError::Invalid(Violations {
            list: vec![
                Violation::TooManyItems {
                    field: "todos".into(),
                    count: 4,
                    max: 3,
                },
                Violation::Empty {
                    field: "todos[0].content".into(),
                },
                Violation::TooLong {
                    field: "todos[1].content".into(),
                    bytes: 7,
                    max: 4,
                },
                Violation::DuplicateId {
                    field: "todos[1].id".into(),
                    id: "1".into(),
                    first: "todos[0].id".into(),
                },
                Violation::Empty {
                    field: "todos[2].id".into(),
                },
                Violation::TooLong {
                    field: "todos[3].id".into(),
                    bytes: 10,
                    max: 4,
                },
                Violation::TooManyInProgress {
                    field: "todos".into(),
                    count: 2,
                    items: vec!["todos[1]".into(), "todos[2]".into()],
                },
            ],
            omitted: 0,
        }));
        assert_eq!(actual, expected);
    }

    #[test]
    fn repeated_ids_point_at_their_first_use_in_short_and_long_lists() {
        // 50 distinct ids cross from the ordered search to the hashed one;
        // the two repeats name one id from each side of that line.
        let duplicates = |ids: Vec<usize>| {
            let fixture: Vec<Todo> = ids.iter().map(|i| Todo::new("a").id(i.to_string())).collect();
            let rules = ListRules::default().limits(Limits::DEFAULT.max_items(fixture.len()));
            validate_list(&fixture, &rules, &FieldNames::default())
        };
        let repeat = |at: usize, id: usize, first: usize| Violation::DuplicateId {
            field: format!("todos[{at}].id"),
            id: id.to_string(),
            first: format!("todos[{first}].id"),
        };
        let actual = (
            duplicates(vec![0, 1, 0, 1, 2]),
            duplicates((0..50).chain([47, 3]).collect()),
        );
        let expected = (
            Err(TodoError::Invalid(Violations {
                list: vec![repeat(2, 0, 0), repeat(3, 1, 1)],
                omitted: 0,
            })),
            Err(TodoError::Invalid(Violations {
                list: vec![repeat(50, 47, 47), repeat(51, 3, 3)],
                omitted: 0,
            })),
        );
        assert_eq!(actual, expected);
    }

    #[test]
    fn lengths_are_counted_in_utf8_bytes() {
        // "é" is two bytes: two of them fill the limit of 4, three exceed it.
        let fixture = vec![Todo::new("éé"), Todo::new("ééé")];
        let actual = validate_list(&fixture, &rules(), &FieldNames::default());
        let expected = Err(TodoError::Invalid(Violations {
            list: vec![Violation::TooLong {
                field: "todos[1].content".into(),
                bytes: 6,
                max: 4,
            }],
            omitted: 0,
        }));
        assert_eq!(actual, expected);
    }

    #[test]
    fn warn_and_normalize_leave_several_in_progress_to_the_caller() {
        let fixture = vec![
            Todo::new("a").status(Status::InProgress),
            Todo::new("b").status(Status::InProgress),
        ];
        let actual: Vec<Result<(), TodoError>> = [InProgressPolicy::Warn, InProgressPolicy::Normalize]
            .into_iter()
            .map(|p| validate_list(&fixture, &rules().in_progress(p), &FieldNames::default()))
            .collect();
        let expected = vec![Ok(()), Ok(())];
        assert_eq!(actual, expected);
    }

    #[test]
    fn required_ids_must_be_present() {
        let fixture = vec![Todo::new("a")];
        let actual = validate_list(&fixture, &rules().require_ids(true), &FieldNames::default());
        let expected = Err(TodoError::Invalid(Violations {
            list: vec![Violation::MissingId {
                field: "todos[0].id".into(),
            }],
            omitted: 0,
        }));
        assert_eq!(actual, expected);
    }
}
