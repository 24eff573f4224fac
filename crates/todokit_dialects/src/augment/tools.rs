//! The four task-list tools, answering in Augment's words ([`super::answers`]).
//! A refusal names the task and the field, and nothing is stored.

use std::borrow::Cow;
use std::collections::HashMap;

use serde::Serialize;
use todokit_domain::{Transition, outline, replace_flat};

use super::answers::{changes, view};
use super::markdown::parse;
use super::{AddTasksInput, ID_DIGITS, ROOT_UUID, ReorganizeInput, TaskView, UpdateTasksInput};
use todokit_app::prelude::*;

const FIELDS: FieldNames = FieldNames {
    list: "tasks",
    content: "name",
    ..FieldNames::DEFAULT
};

/// The list with an id on every task (see [`TodoState::with_hex_ids`]).
fn with_ids(state: &TodoState) -> Cow<'_, TodoState> {
    state.with_hex_ids(ID_DIGITS)
}

/// The tasks in tree order (each followed by its subtasks), with ids.
fn tree_order(state: &TodoState) -> Vec<Todo> {
    let tasks: Vec<Todo> = state.tasks().cloned().collect();
    outline(&tasks)
        .into_iter()
        .map(|entry| entry.task.clone())
        .collect()
}

/// `tasks` (with ids and parents set) as the new list, checked whole
/// against the profile's rules; the parents are as given (a rewrite would
/// otherwise keep an old parent where a task now has none).
fn store(tasks: Vec<Todo>, base: &TodoState, ctx: &CallContext<'_>) -> Result<Replacement, ToolError> {
    let parents: HashMap<String, Option<String>> = tasks
        .iter()
        .filter_map(|t| Some((t.id.clone()?, t.parent.clone())))
        .collect();
    let mut replaced = replace_flat(base, tasks, ctx.rules, &FIELDS, ctx.now)?;
    for phase in &mut replaced.state.phases {
        for task in &mut phase.tasks {
            if let Some(parent) = task.id.as_ref().and_then(|id| parents.get(id)) {
                task.parent.clone_from(parent);
            }
        }
    }
    replaced.state.drop_broken_parents();
    Ok(replaced)
}

/// What a writing tool answers: the list, and the lists before and after
/// with what changed in the details.
fn answer(before: &TodoState, replaced: Replacement) -> Outcome {
    #[derive(Serialize)]
    struct ListDetails<'a> {
        previous: Vec<TaskView<'a>>,
        current: Vec<TaskView<'a>>,
        transitions: &'a [Transition],
    }
    let details = Details::of(&ListDetails {
        previous: before.tasks().map(TaskView::of).collect(),
        current: replaced.state.tasks().map(TaskView::of).collect(),
        transitions: &replaced.transitions,
    });
    let text = changes(&with_ids(before), &replaced.state);
    Outcome::commit(replaced.state, ToolResult::ok(text, details))
}

/// Augment's refusal of an `add_tasks` or `update_tasks` call with no task.
fn refuse_empty(empty: bool) -> Result<(), ToolError> {
    match empty {
        true => Err(ToolError::refused("tasks", EMPTY_TASKS)),
        false => Ok(()),
    }
}

/// What Augment says to an `add_tasks` or `update_tasks` call with no task.
pub const EMPTY_TASKS: &str = "tasks array is required and must not be empty.";

/// A parent as given: `None` for none or the root.
fn parent_of(id: Option<&str>) -> Option<&str> {
    id.filter(|id| *id != ROOT_UUID)
}

/// The place after `id`'s subtree in `tasks` (tree order).
fn after_subtree(tasks: &[Todo], id: &str) -> Option<usize> {
    let at = tasks.iter().position(|t| t.id.as_deref() == Some(id))?;
    let mut end = at + 1;
    while end < tasks.len() && is_under(tasks, &tasks[end], id) {
        end += 1;
    }
    Some(end)
}

/// Whether `task` sits somewhere under the task `ancestor`.
fn is_under(tasks: &[Todo], task: &Todo, ancestor: &str) -> bool {
    let mut parent = task.parent.as_deref();
    // At most one step per task: a stored loop cannot hold it.
    for _ in 0..tasks.len() {
        match parent {
            None => return false,
            Some(p) if p == ancestor => return true,
            Some(p) => {
                parent = tasks
                    .iter()
                    .find(|t| t.id.as_deref() == Some(p))
                    .and_then(|t| t.parent.as_deref())
            }
        }
    }
    false
}

/// The `view_tasklist` tool.
#[derive(Debug, Clone, Copy, Default)]
pub struct ViewTasklist;

impl TypedTool for ViewTasklist {
    type Input = NoArguments;
    const NAME: &'static str = "view_tasklist";
    const DESCRIPTION: &'static str = include_str!("../../descriptions/augment/view_tasklist.md");
    const METADATA: ToolMetadata = ToolMetadata::LIST_READER;

    fn run(&self, _input: NoArguments, ctx: &CallContext<'_>) -> Result<Outcome, ToolError> {
        #[derive(Serialize)]
        struct Current<'a> {
            current: Vec<TaskView<'a>>,
        }
        let state = with_ids(ctx.state);
        let details = Details::of(&Current {
            current: state.tasks().map(TaskView::of).collect(),
        });
        Ok(Outcome::read(ToolResult::ok(view(&state), details)))
    }
}

/// The `add_tasks` tool.
#[derive(Debug, Clone, Copy, Default)]
pub struct AddTasks;

impl TypedTool for AddTasks {
    type Input = AddTasksInput;
    const NAME: &'static str = "add_tasks";
    const DESCRIPTION: &'static str = include_str!("../../descriptions/augment/add_tasks.md");
    // Adds: takes nothing off the list, and a second call adds again.
    const METADATA: ToolMetadata = ToolMetadata::LIST_WRITER.idempotent(false).destructive(false);

    fn run(&self, input: AddTasksInput, ctx: &CallContext<'_>) -> Result<Outcome, ToolError> {
        refuse_empty(input.tasks.is_empty())?;
        let mut base = with_ids(ctx.state).into_owned();
        let mut tasks = tree_order(&base);
        for (i, new) in input.tasks.into_iter().enumerate() {
            let known = |id: &str| tasks.iter().any(|t| t.id.as_deref() == Some(id));
            let parent = parent_of(new.parent_task_id.as_deref()).map(str::to_owned);
            if let Some(parent) = parent.as_deref().filter(|p| !known(p)) {
                return Err(ToolError::refused(
                    FIELDS.item(i, "parent_task_id"),
                    format!("no task has the UUID {}", clip(parent)),
                ));
            }
            let after = new.after_task_id.as_deref().filter(|a| *a != ROOT_UUID);
            let (at, parent) = match after {
                Some(after) => {
                    let at = after_subtree(&tasks, after).ok_or_else(|| {
                        ToolError::refused(
                            FIELDS.item(i, "after_task_id"),
                            format!("no task has the UUID {}", clip(after)),
                        )
                    })?;
                    let sibling_parent = tasks
                        .iter()
                        .find(|t| t.id.as_deref() == Some(after))
                        .and_then(|t| t.parent.clone());
                    (at, parent.or(sibling_parent))
                }
                None => match parent.as_deref() {
                    Some(p) => (after_subtree(&tasks, p).unwrap_or(tasks.len()), parent.clone()),
                    None => (tasks.len(), None),
                },
            };
            let mut todo = Todo::new(new.name).status(new.state.unwrap_or(super::AugmentState::NotStarted));
            todo.description = Some(new.description).filter(|d| !d.is_empty());
            todo.parent = parent;
            todo.id = Some(base.allocate_hex_id(ID_DIGITS));
            tasks.insert(at, todo);
        }
        let replaced = store(tasks, &base, ctx)?;
        Ok(answer(ctx.state, replaced))
    }
}

/// The `update_tasks` tool.
#[derive(Debug, Clone, Copy, Default)]
pub struct UpdateTasks;

impl TypedTool for UpdateTasks {
    type Input = UpdateTasksInput;
    const NAME: &'static str = "update_tasks";
    const DESCRIPTION: &'static str = include_str!("../../descriptions/augment/update_tasks.md");
    // Changes tasks in place: takes nothing off the list.
    const METADATA: ToolMetadata = ToolMetadata::LIST_WRITER.destructive(false);

    fn run(&self, input: UpdateTasksInput, ctx: &CallContext<'_>) -> Result<Outcome, ToolError> {
        refuse_empty(input.tasks.is_empty())?;
        let base = with_ids(ctx.state).into_owned();
        let mut tasks = tree_order(&base);
        for (i, change) in input.tasks.into_iter().enumerate() {
            let field = FIELDS.item(i, "task_id");
            if change.task_id == ROOT_UUID {
                return Err(ToolError::refused(
                    field,
                    "the root task is the list itself and cannot be changed".to_owned(),
                ));
            }
            let Some(task) = tasks
                .iter_mut()
                .find(|t| t.id.as_deref() == Some(change.task_id.as_str()))
            else {
                return Err(ToolError::refused(
                    field,
                    format!("no task has the UUID {}", clip(&change.task_id)),
                ));
            };
            if let Some(state) = change.state {
                task.status = state.into();
            }
            if let Some(name) = change.name {
                task.content = name;
            }
            if let Some(description) = change.description {
                task.description = Some(description).filter(|d| !d.is_empty());
            }
        }
        let replaced = store(tasks, &base, ctx)?;
        Ok(answer(ctx.state, replaced))
    }
}

/// The `reorganize_tasklist` tool.
#[derive(Debug, Clone, Copy, Default)]
pub struct ReorganizeTasklist;

impl TypedTool for ReorganizeTasklist {
    type Input = ReorganizeInput;
    const NAME: &'static str = "reorganize_tasklist";
    const DESCRIPTION: &'static str = include_str!("../../descriptions/augment/reorganize_tasklist.md");
    const METADATA: ToolMetadata = ToolMetadata::LIST_WRITER;

    fn run(&self, input: ReorganizeInput, ctx: &CallContext<'_>) -> Result<Outcome, ToolError> {
        let parsed =
            parse(&input.markdown).map_err(|message| ToolError::refused("markdown".to_owned(), message))?;
        let mut base = with_ids(ctx.state).into_owned();
        let mut tasks: Vec<Todo> = Vec::with_capacity(parsed.len());
        // The task each depth currently opens, for the parents below it.
        let mut open: Vec<String> = Vec::new();
        for line in parsed {
            let id = match line.uuid {
                Some(uuid)
                    if tasks
                        .iter()
                        .any(|t: &Todo| t.id.as_deref() == Some(uuid.as_str())) =>
                {
                    return Err(ToolError::refused(
                        "markdown".to_owned(),
                        format!(
                            "the UUID {} stands on two lines; give each task one line",
                            clip(&uuid)
                        ),
                    ));
                }
                // A UUID the list does not know is a new task, as NEW_UUID.
                Some(uuid) if base.find(&uuid).is_some() => uuid,
                _ => base.allocate_hex_id(ID_DIGITS),
            };
            open.truncate(line.depth - 1);
            let mut todo = base.find(&id).cloned().unwrap_or_else(|| Todo::new(""));
            todo.content = line.name;
            todo.description = Some(line.description).filter(|d| !d.is_empty());
            todo.status = line.state.into();
            todo.parent = open.last().cloned();
            todo.id = Some(id.clone());
            open.push(id);
            tasks.push(todo);
        }
        let replaced = store(tasks, &base, ctx)?;
        Ok(answer(ctx.state, replaced))
    }
}
