//! Hand edits by the user (the `/todo` path): show, append, start, done,
//! drop, rm, and replacing the whole list from edited markdown.
//!
//! Each edit is recorded as a [`Notice`] on the list; the host takes it
//! with [`TodoWriteService::take_notices`] and shows the model the reminder: the
//! user changed the list, which action, the new list as markdown, and that
//! the change was deliberate (so the model does not put back what the user
//! removed).

use std::collections::HashMap;

use thiserror::Error;
use todokit_domain::{
    BatchProblem, Notice, NoticeKind, Op, OpKind, Phase, Status, Timestamp, Todo, TodoState, Transition,
    adopt_hidden_fields, apply_ops, diff, normalize_in_progress,
};

use super::error::ServiceError;
use super::todo_write_service::TodoWriteService;
use super::user_edit_limits::{refuse_nul, within_tool_limits};
use super::user_words;

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
#[non_exhaustive]
pub enum UserAction {
    /// Add tasks: to a phase (created when missing; matched ignoring case)
    /// on a profile with phases, to the one list on a flat profile.
    Append {
        /// The phase: required where the profile has phases, refused where
        /// it keeps a flat list.
        phase: Option<String>,
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
    /// Give the task that matches to `owner`, or take it from whoever has
    /// it (`None`): the user settles claims on a shared task board, so no
    /// claim refuses this.
    Assign {
        /// The task.
        task: String,
        /// Its new owner; `None` releases it.
        owner: Option<String>,
    },
}

fn quoted(items: &[String]) -> String {
    let quoted: Vec<String> = items
        .iter()
        .map(|i| format!("\"{}\"", todokit_domain::clip(i)))
        .collect();
    todokit_domain::list_some(&quoted)
}

/// What a user edit did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UserEdit {
    /// What the edit did, every side effect included, in words
    /// (`marked "Run tests" completed; started "Deploy"`).
    pub action: String,
    /// The list afterwards.
    pub state: TodoState,
    /// The reminder the model will get.
    pub reminder: String,
}

/// Why a user edit was not applied. Nothing changed.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum UserEditError {
    /// Nothing matches the name.
    #[error("no task or phase matches \"{}\"", todokit_domain::clip(.0))]
    NotFound(String),
    /// More than one task or phase matches the name.
    #[error(
        "\"{}\" is ambiguous: it matches {}; be more specific",
        todokit_domain::clip(name),
        quoted(matches)
    )]
    Ambiguous {
        /// The name given.
        name: String,
        /// What it matches.
        matches: Vec<String>,
    },
    /// The edit broke a rule of the list.
    #[error("{}", .0.join("; "))]
    Rejected(Vec<String>),
    /// The list is no longer the version the edit was made on (see
    /// [`TodoWriteService::user_edit_on`]): someone changed it meanwhile.
    #[error("the list changed since it was read (version {expected}, now {found})")]
    Changed {
        /// The version the edit was made on.
        expected: u64,
        /// The version stored now.
        found: u64,
    },
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

/// The list after `action` and what changed in words, or why it cannot be
/// applied. `phased`: whether the profile groups tasks into phases. Pure.
fn edit(
    state: &TodoState,
    action: &UserAction,
    now: u64,
    phased: bool,
) -> Result<(TodoState, String), UserEditError> {
    let op = match action {
        UserAction::Replace(new) => {
            if let Some(phase) = new.phases.iter().find(|p| !p.is_implicit()).filter(|_| !phased) {
                return Err(UserEditError::Rejected(vec![format!(
                    "this profile keeps one flat list: its tools cannot show the phase \"{}\"; list the \
                     tasks without headings",
                    phase.name
                )]));
            }
            let mut next = state.clone();
            next.phases = new.phases.clone();
            adopt_hidden_fields(state, &mut next, now);
            normalize_in_progress(&mut next, now);
            let mut words = changes(state, &next);
            words.extend(note_changes(state, &next));
            words.extend(held_back(new, &next));
            let described = match words.is_empty() {
                true => "rewrote the list".to_owned(),
                false => format!("rewrote the list: {}", words.join("; ")),
            };
            return Ok((next, described));
        }
        UserAction::Append { phase, items } => match (phased, phase) {
            (true, Some(phase)) => {
                let existing = state
                    .phases
                    .iter()
                    .find(|p| p.name.to_lowercase() == phase.trim().to_lowercase());
                let phase = existing.map_or_else(|| phase.trim().to_owned(), |p| p.name.clone());
                Op::new(OpKind::Append).phase(phase).items(items.clone())
            }
            (true, None) => {
                return Err(UserEditError::Rejected(vec![
                    "this profile groups tasks into phases: name the phase to append to".to_owned(),
                ]));
            }
            (false, Some(phase)) => {
                return Err(UserEditError::Rejected(vec![format!(
                    "this profile keeps one flat list: append the items without a phase (its tools cannot \
                     show a phase \"{phase}\")"
                )]));
            }
            (false, None) => {
                let next = append_flat(state, items, now)?;
                return Ok((next.clone(), changes(state, &next).join("; ")));
            }
        },
        UserAction::Assign { task, owner } => return assign(state, task, owner.as_deref()),
        UserAction::Start(name) => match resolve(state, name)? {
            Target::Todo(task) => Op::new(OpKind::Start).task(task),
            Target::Phase(phase) => {
                return Err(UserEditError::Rejected(vec![format!(
                    "\"{phase}\" is a phase; start needs a task"
                )]));
            }
        },
        UserAction::Done(name) | UserAction::Drop(name) | UserAction::Rm(name) => {
            let kind = match action {
                UserAction::Done(_) => OpKind::Done,
                UserAction::Drop(_) => OpKind::Drop,
                _ => OpKind::Rm,
            };
            match resolve(state, name)? {
                Target::Todo(task) => Op::new(kind).task(task),
                Target::Phase(phase) => Op::new(kind).phase(phase),
            }
        }
    };
    let batch = apply_ops(state, &[op], now);
    if batch.errors.is_empty() {
        let described = changes(state, &batch.state).join("; ");
        Ok((batch.state, described))
    } else {
        Err(UserEditError::Rejected(
            batch
                .errors
                .iter()
                .map(|problems| user_words::refusals(problems))
                .collect(),
        ))
    }
}

/// The list with `task`'s owner set (or cleared), and that in words.
fn assign(state: &TodoState, task: &str, owner: Option<&str>) -> Result<(TodoState, String), UserEditError> {
    let Target::Todo(content) = resolve(state, task)? else {
        return Err(UserEditError::Rejected(vec![format!(
            "\"{task}\" is a phase; only a task has an owner"
        )]));
    };
    let owner = owner.map(str::trim).filter(|o| !o.is_empty());
    let mut next = state.clone();
    let mut before = None;
    for todo in next.phases.iter_mut().flat_map(|p| p.tasks.iter_mut()) {
        if todo.content == content {
            before = todo.owner.take().filter(|o| !o.is_empty());
            todo.owner = owner.map(str::to_owned);
        }
    }
    let words = match (owner, before) {
        (Some(owner), Some(before)) if owner != before => {
            format!("gave \"{content}\" to {owner} (it was {before}'s)")
        }
        (Some(owner), _) => format!("gave \"{content}\" to {owner}"),
        (None, Some(before)) => format!("released \"{content}\" from {before}"),
        (None, None) => format!("released \"{content}\""),
    };
    Ok((next, words))
}

/// `items` added to the one list of a flat profile (made when missing).
fn append_flat(state: &TodoState, items: &[String], now: Timestamp) -> Result<TodoState, UserEditError> {
    let mut next = state.clone();
    let mut errors = Vec::new();
    let mut added: Vec<Todo> = Vec::new();
    for item in items {
        let content = item.trim();
        if content.is_empty() {
            errors.push(user_words::refusal(&BatchProblem::MissingTask));
        } else if state.tasks().chain(&added).any(|t| t.content == content) {
            errors.push(user_words::refusal(&BatchProblem::TaskExists(content.to_owned())));
        } else {
            added.push(Todo::new(content).created_at(now).status_changed_at(now));
        }
    }
    if items.is_empty() {
        errors.push("append needs at least one item".to_owned());
    }
    if !errors.is_empty() {
        return Err(UserEditError::Rejected(errors));
    }
    let index = match next.phases.iter().position(Phase::is_implicit) {
        Some(index) => index,
        None => {
            next.phases.insert(0, Phase::new(""));
            0
        }
    };
    next.phases[index].tasks.extend(added);
    Ok(next)
}

/// Every change from `before` to `after`, in words, in the order of the new
/// list, then what was removed.
fn changes(before: &TodoState, after: &TodoState) -> Vec<String> {
    let old: Vec<&Todo> = before.tasks().collect();
    let new: Vec<&Todo> = after.tasks().collect();
    // Each task's phase, looked up once per added task rather than found
    // by a pass over the list (an import may add many thousands).
    let mut phase_of: HashMap<&str, &Phase> = HashMap::new();
    for phase in &after.phases {
        for task in &phase.tasks {
            phase_of.entry(task.content.as_str()).or_insert(phase);
        }
    }
    diff(&old, &new)
        .iter()
        .map(|t| change_words(t, &phase_of))
        .collect()
}

/// The first task of `state` with each text.
fn by_content(state: &TodoState) -> HashMap<&str, &Todo> {
    let mut first = HashMap::new();
    for task in state.tasks() {
        first.entry(task.content.as_str()).or_insert(task);
    }
    first
}

/// The notes added, changed or removed on tasks kept by a rewrite, in
/// words: an import that only adds a note must say so, not just that the
/// list was rewritten.
fn note_changes(before: &TodoState, after: &TodoState) -> Vec<String> {
    let old_of = by_content(before);
    after
        .tasks()
        .filter_map(|task| {
            let old = *old_of.get(task.content.as_str())?;
            let name = format!("\"{}\"", task.content);
            let (was, now) = (&old.notes, &task.notes);
            match (was.len(), now.len()) {
                _ if was == now => None,
                (_, 0) => Some(format!("removed the notes of {name}")),
                (kept, all) if all > kept && now.starts_with(was) => Some(match all - kept {
                    1 => format!("added a note to {name}"),
                    added => format!("added {added} notes to {name}"),
                }),
                _ => Some(format!("changed the notes of {name}")),
            }
        })
        .collect()
}

/// One status change in words, naming the phase a task was added to.
fn change_words(transition: &Transition, phase_of: &HashMap<&str, &Phase>) -> String {
    let name = format!("\"{}\"", transition.content);
    match (transition.from, transition.to) {
        (None, to) => {
            let phase = phase_of
                .get(transition.content.as_str())
                .filter(|p| !p.is_implicit());
            let mut words = format!("added {name}");
            if let Some(phase) = phase {
                words.push_str(&format!(" to phase \"{}\"", phase.name));
            }
            if let Some(status) = to.filter(|s| *s != Status::Pending) {
                words.push_str(&format!(" ({})", status_words(status)));
            }
            words
        }
        (Some(_), None) => format!("removed {name}"),
        (Some(_), Some(Status::Completed)) => format!("marked {name} completed"),
        (Some(_), Some(Status::InProgress)) => format!("started {name}"),
        (Some(_), Some(Status::Abandoned)) => format!("abandoned {name}"),
        (Some(_), Some(Status::Blocked)) => format!("marked {name} blocked"),
        (Some(_), Some(Status::Pending)) => format!("put {name} back to pending"),
    }
}

fn status_words(status: Status) -> &'static str {
    match status {
        Status::Pending => "pending",
        Status::InProgress => "in progress",
        Status::Completed => "completed",
        Status::Blocked => "blocked",
        Status::Abandoned => "abandoned",
    }
}

/// The tasks an imported list asked to be in progress that the one-task
/// rule held back, in words.
fn held_back(requested: &TodoState, after: &TodoState) -> Vec<String> {
    let kept_of = by_content(after);
    requested
        .tasks()
        .filter(|t| t.status == Status::InProgress)
        .filter_map(|asked| {
            let kept = *kept_of.get(asked.content.as_str())?;
            (kept.status != Status::InProgress).then(|| {
                format!(
                    "left \"{}\" {} (one task in progress at a time)",
                    asked.content,
                    status_words(kept.status)
                )
            })
        })
        .collect()
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
        self.hand_edit(conversation, action, codec, None).await
    }

    /// [`TodoWriteService::user_edit`], applied only while the stored list
    /// is still at `version` (the one the user edited, say in an editor),
    /// checked in the same step that writes: a commit made in between is
    /// never overwritten, the edit is refused with
    /// [`UserEditError::Changed`] instead.
    pub async fn user_edit_on(
        &self,
        conversation: &str,
        version: u64,
        action: UserAction,
        codec: &dyn MarkdownCodec,
    ) -> Result<Option<UserEdit>, UserEditError> {
        self.hand_edit(conversation, action, codec, Some(version)).await
    }

    async fn hand_edit(
        &self,
        conversation: &str,
        action: UserAction,
        codec: &dyn MarkdownCodec,
        version: Option<u64>,
    ) -> Result<Option<UserEdit>, UserEditError> {
        let phased = self.profile().has_phases();
        let (tool, limits) = (self.profile().name(), self.profile().rules().limits);
        self.transact(conversation, |state, now| {
            if let Some(expected) = version
                && state.version != expected
            {
                return Err(UserEditError::Changed {
                    expected,
                    found: state.version,
                });
            }
            let (mut next, described) = edit(state, &action, now, phased)?;
            if next.phases == state.phases {
                return Ok((None, None));
            }
            within_tool_limits(state, &next, &limits, tool).map_err(UserEditError::Rejected)?;
            refuse_nul(&next).map_err(UserEditError::Rejected)?;
            // Edits the model has not been told about yet become one notice
            // with the list as it is now, not one stale copy per edit.
            let earlier: Vec<String> = next
                .notices
                .iter()
                .filter(|n| n.kind == NoticeKind::UserEdit)
                .filter_map(|n| n.action.clone())
                .collect();
            next.notices
                .retain(|n| !(n.kind == NoticeKind::UserEdit && n.action.is_some()));
            let combined = earlier
                .into_iter()
                .chain([described.clone()])
                .collect::<Vec<_>>()
                .join("; then ");
            let reminder = user_edit_reminder(&combined, &codec.export(&next));
            next.notices.push(Notice {
                kind: NoticeKind::UserEdit,
                at: now,
                text: reminder.clone(),
                action: Some(combined),
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
#[path = "user_edit_tests.rs"]
mod tests;
