//! Hand edits by the user (the `/todo` path): show, append, start, done,
//! drop, rm, and replacing the whole list from edited markdown.
//!
//! Each edit is recorded as a [`Notice`] on the list; the host takes it
//! with [`TodoWriteService::take_notices`] and shows the model the reminder: the
//! user changed the list, which action, the new list as markdown, and that
//! the change was deliberate (so the model does not put back what the user
//! removed).

use thiserror::Error;
use todokit_domain::{
    Notice, NoticeKind, Op, OpKind, Timestamp, TodoState, adopt_hidden_fields, apply_ops,
    normalize_in_progress,
};

use crate::{ServiceError, TodoWriteService};

/// Reads and writes a list as markdown. The infra crate provides the
/// format; the app layer only needs these two directions.
pub trait MarkdownCodec: Send + Sync {
    /// The list as markdown.
    fn export(&self, state: &TodoState) -> String;
    /// A list from markdown, normalized at `now`, or the first problem with
    /// its line.
    fn import(&self, text: &str, now: Timestamp) -> Result<TodoState, ImportError>;
}

/// Why markdown could not be read as a list.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("line {line}: {message}")]
pub struct ImportError {
    /// The 1-based line.
    pub line: usize,
    /// What is wrong there.
    pub message: String,
}

/// One thing a user can do to the list by hand.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UserAction {
    /// Add tasks to a phase (created when missing; matched ignoring case).
    Append {
        /// The phase.
        phase: String,
        /// The tasks' contents.
        items: Vec<String>,
    },
    /// Start the task that matches.
    Start(String),
    /// Complete the task (or every task of the phase) that matches.
    Done(String),
    /// Abandon the task (or every task of the phase) that matches.
    Drop(String),
    /// Remove the task (or empty the phase) that matches.
    Rm(String),
    /// Replace the whole list (an import or an edit in `$EDITOR`).
    Replace(TodoState),
}

fn quoted(items: &[String]) -> String {
    items
        .iter()
        .map(|i| format!("\"{i}\""))
        .collect::<Vec<_>>()
        .join(", ")
}

/// What a user edit did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UserEdit {
    /// The action, in words ("marked \"Wire\" done").
    pub action: String,
    /// The list afterwards.
    pub state: TodoState,
    /// The reminder the model will get.
    pub reminder: String,
}

/// Why a user edit was not applied. Nothing changed.
#[derive(Debug, Error)]
pub enum UserEditError {
    /// Nothing matches the name.
    #[error("no task or phase matches \"{0}\"")]
    NotFound(String),
    /// More than one task or phase matches the name.
    #[error("\"{name}\" is ambiguous: it matches {}; be more specific", quoted(matches))]
    Ambiguous {
        /// The name given.
        name: String,
        /// What it matches.
        matches: Vec<String>,
    },
    /// The edit broke a rule of the list.
    #[error("{}", .0.join("; "))]
    Rejected(Vec<String>),
    /// Storing failed.
    #[error(transparent)]
    Service(#[from] ServiceError),
}

/// What a name resolves to.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Target {
    Todo(String),
    Phase(String),
}

/// The task or phase `name` means: an exact match ignoring case first, then
/// a unique part of a name ignoring case; tasks before phases. A name that
/// fits several is refused, never guessed.
fn resolve(state: &TodoState, name: &str) -> Result<Target, UserEditError> {
    let wanted = name.trim().to_lowercase();
    let tasks: Vec<&str> = state.tasks().map(|t| t.content.as_str()).collect();
    let phases: Vec<&str> = state
        .phases
        .iter()
        .filter(|p| !p.is_implicit())
        .map(|p| p.name.as_str())
        .collect();
    type Rule = fn(&str, &str) -> bool;
    let rules: [Rule; 2] = [|c, w| c.to_lowercase() == w, |c, w| c.to_lowercase().contains(w)];
    for rule in rules {
        for (candidates, make) in [
            (&tasks, Target::Todo as fn(String) -> Target),
            (&phases, Target::Phase),
        ] {
            let found: Vec<&str> = candidates.iter().copied().filter(|c| rule(c, &wanted)).collect();
            match found.as_slice() {
                [] => {}
                [one] => return Ok(make((*one).to_owned())),
                many => {
                    return Err(UserEditError::Ambiguous {
                        name: name.to_owned(),
                        matches: many.iter().map(|m| (*m).to_owned()).collect(),
                    });
                }
            }
        }
    }
    Err(UserEditError::NotFound(name.to_owned()))
}

/// The list after `action` and the action in words, or why it cannot be
/// applied. Pure.
fn edit(state: &TodoState, action: &UserAction, now: u64) -> Result<(TodoState, String), UserEditError> {
    let (op, described) = match action {
        UserAction::Replace(new) => {
            let mut next = state.clone();
            next.phases = new.phases.clone();
            adopt_hidden_fields(state, &mut next, now);
            normalize_in_progress(&mut next, now);
            return Ok((next, "rewrote the list".to_owned()));
        }
        UserAction::Append { phase, items } => {
            let existing = state
                .phases
                .iter()
                .find(|p| p.name.to_lowercase() == phase.trim().to_lowercase());
            let phase = existing.map_or_else(|| phase.trim().to_owned(), |p| p.name.clone());
            let described = format!("appended {} to phase \"{phase}\"", quoted(items));
            (
                Op::new(OpKind::Append).phase(phase).items(items.clone()),
                described,
            )
        }
        UserAction::Start(name) => match resolve(state, name)? {
            Target::Todo(task) => (
                Op::new(OpKind::Start).task(task.clone()),
                format!("started task \"{task}\""),
            ),
            Target::Phase(phase) => {
                return Err(UserEditError::Rejected(vec![format!(
                    "\"{phase}\" is a phase; start needs a task"
                )]));
            }
        },
        UserAction::Done(name) | UserAction::Drop(name) | UserAction::Rm(name) => {
            let (kind, verb) = match action {
                UserAction::Done(_) => (OpKind::Done, "marked {} completed"),
                UserAction::Drop(_) => (OpKind::Drop, "abandoned {}"),
                _ => (OpKind::Rm, "removed {}"),
            };
            let (op, what) = match resolve(state, name)? {
                Target::Todo(task) => (Op::new(kind).task(task.clone()), format!("task \"{task}\"")),
                Target::Phase(phase) => (
                    Op::new(kind).phase(phase.clone()),
                    format!("every task of phase \"{phase}\""),
                ),
            };
            (op, verb.replace("{}", &what))
        }
    };
    let batch = apply_ops(state, &[op], now);
    if batch.errors.is_empty() {
        Ok((batch.state, described))
    } else {
        Err(UserEditError::Rejected(batch.errors))
    }
}

/// The reminder a model gets after a hand edit.
pub fn user_edit_reminder(action: &str, markdown: &str) -> String {
    format!(
        "The user edited the todo list by hand: they {action}. The change is deliberate: carry on from \
         this list, and do not restore or re-add anything they removed or changed.\n\nThe list now:\n\n{markdown}"
    )
}

impl TodoWriteService {
    /// Applies a hand edit by the user to `conversation`, records it as a
    /// notice for the model, and returns what it did; `None` when the list
    /// was already like that.
    pub async fn user_edit(
        &self,
        conversation: &str,
        action: UserAction,
        codec: &dyn MarkdownCodec,
    ) -> Result<Option<UserEdit>, UserEditError> {
        self.transact(conversation, |state, now| {
            let (mut next, described) = edit(state, &action, now)?;
            if next.phases == state.phases {
                return Ok((None, None));
            }
            let reminder = user_edit_reminder(&described, &codec.export(&next));
            next.notices.push(Notice {
                kind: NoticeKind::UserEdit,
                at: now,
                text: reminder.clone(),
            });
            let edit = UserEdit {
                action: described,
                state: next.clone(),
                reminder,
            };
            Ok((Some(next), Some(edit)))
        })
        .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;
    use todokit_domain::{Phase, Status, Todo};

    fn fixture() -> TodoState {
        TodoState::new().phases(vec![
            Phase::new("Build").tasks(vec![
                Todo::new("Scaffold the crate").status(Status::InProgress),
                Todo::new("Wire the store"),
                Todo::new("Wire the CLI"),
            ]),
            Phase::new("Ship").tasks(vec![Todo::new("Tag")]),
        ])
    }

    #[test]
    fn names_match_ignoring_case_whole_first_then_in_part() {
        let state = fixture();
        let actual: Vec<Result<Target, String>> = ["wire the STORE", "scaffold", "ship", "tag"]
            .iter()
            .map(|n| resolve(&state, n).map_err(|e| e.to_string()))
            .collect();
        let expected = vec![
            Ok(Target::Todo("Wire the store".into())),
            Ok(Target::Todo("Scaffold the crate".into())),
            Ok(Target::Phase("Ship".into())),
            Ok(Target::Todo("Tag".into())),
        ];
        assert_eq!(actual, expected);
    }

    #[test]
    fn an_ambiguous_or_unknown_name_is_refused() {
        let state = fixture();
        let actual: Vec<String> = ["wire", "deploy"]
            .iter()
            .map(|n| {
                resolve(&state, n)
                    .map(|_| String::new())
                    .unwrap_or_else(|e| e.to_string())
            })
            .collect();
        let expected = vec![
            "\"wire\" is ambiguous: it matches \"Wire the store\", \"Wire the CLI\"; be more specific"
                .to_owned(),
            "no task or phase matches \"deploy\"".to_owned(),
        ];
        assert_eq!(actual, expected);
    }

    #[test]
    fn done_on_a_phase_completes_all_of_it_and_the_next_task_starts() {
        let actual = edit(&fixture(), &UserAction::Done("build".into()), 5)
            .map(|(s, _)| s.tasks().map(|t| t.status).collect::<Vec<_>>())
            .map_err(|e| e.to_string());
        let expected = Ok(vec![
            Status::Completed,
            Status::Completed,
            Status::Completed,
            Status::InProgress,
        ]);
        assert_eq!(actual, expected);
    }

    #[test]
    fn append_reuses_a_phase_matched_ignoring_case_and_refuses_duplicates() {
        let state = fixture();
        let added = edit(
            &state,
            &UserAction::Append {
                phase: "ship".into(),
                items: vec!["Publish".into()],
            },
            5,
        )
        .map(|(s, _)| s.phases.iter().map(|p| p.tasks.len()).collect::<Vec<_>>())
        .map_err(|e| e.to_string());
        let duplicate = edit(
            &state,
            &UserAction::Append {
                phase: "Ship".into(),
                items: vec!["Tag".into()],
            },
            5,
        )
        .map(|_| ())
        .map_err(|e| e.to_string());
        let actual = (added, duplicate);
        let expected = (Ok(vec![3, 2]), Err("Task \"Tag\" already exists".to_owned()));
        assert_eq!(actual, expected);
    }

    #[test]
    fn the_action_is_described_with_the_resolved_names() {
        let state = fixture();
        let actual: Vec<String> = [
            UserAction::Done("scaffold".into()),
            UserAction::Drop("SHIP".into()),
            UserAction::Rm("the CLI".into()),
            UserAction::Start("store".into()),
            UserAction::Append {
                phase: "docs".into(),
                items: vec!["Readme".into()],
            },
            UserAction::Replace(state.clone()),
        ]
        .iter()
        .map(|a| {
            edit(&state, a, 5)
                .map(|(_, d)| d)
                .unwrap_or_else(|e| e.to_string())
        })
        .collect();
        let expected = vec![
            "marked task \"Scaffold the crate\" completed".to_owned(),
            "abandoned every task of phase \"Ship\"".to_owned(),
            "removed task \"Wire the CLI\"".to_owned(),
            "started task \"Wire the store\"".to_owned(),
            "appended \"Readme\" to phase \"docs\"".to_owned(),
            "rewrote the list".to_owned(),
        ];
        assert_eq!(actual, expected);
    }

    #[test]
    fn start_needs_a_task() {
        let actual = edit(&fixture(), &UserAction::Start("Ship".into()), 5)
            .map(|_| ())
            .map_err(|e| e.to_string());
        let expected = Err("\"Ship\" is a phase; start needs a task".to_owned());
        assert_eq!(actual, expected);
    }
}
