//! The six tracker tools. Each answers in Gemini CLI's words: what the
//! model reads is the tool's `llmContent` on success and its error message
//! on failure (Gemini CLI sends a failed call's `error.message`, not its
//! `llmContent`); the details carry the `returnDisplay` the user sees.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};

use serde::Serialize;
use todokit_domain::{TodoField, Violations};

use super::display::{TrackerDisplay, return_display, visualize};
use super::{
    CreateTaskInput, GetTaskInput, ID_DIGITS, LinkTasksInput, ListTasksInput, TaskType, TrackerStatus,
    UpdateTaskInput,
};
use todokit_app::prelude::WireEnum;
use todokit_app::prelude::*;

/// The `returnDisplay` of a call, in its details.
#[derive(Serialize)]
struct Shown<'a> {
    #[serde(rename = "returnDisplay")]
    return_display: Display<'a>,
}

#[derive(Serialize)]
#[serde(untagged)]
enum Display<'a> {
    List(TrackerDisplay),
    Text(&'a str),
}

fn shown_list(state: &TodoState) -> Details {
    Details::of(&Shown {
        return_display: Display::List(return_display(state)),
    })
}

fn shown_text(text: &str) -> Details {
    Details::of(&Shown {
        return_display: Display::Text(text),
    })
}

/// A failed call: `message` is what the model reads.
fn failed(message: String, display: &str) -> Outcome {
    Outcome::read(ToolResult {
        is_error: true,
        content: message,
        details: shown_text(display),
    })
}

/// The list with an id on every task (see [`TodoState::with_hex_ids`]).
fn with_ids(state: &TodoState) -> Cow<'_, TodoState> {
    state.with_hex_ids(ID_DIGITS)
}

/// Checks the sizes of what a call would store: texts, and the list of
/// dependency ids.
fn check_sizes(
    title: Option<&str>,
    description: Option<&str>,
    dependencies: Option<&[String]>,
    limits: &Limits,
) -> Result<(), TodoError> {
    let patch = TodoPatch {
        content: title.map(str::to_owned),
        description: description.map(str::to_owned),
        ..TodoPatch::default()
    };
    let mut problems = Violations::default();
    patch.check(
        limits,
        |field| match field {
            TodoField::Content => "title".to_owned(),
            other => other.wire_name().to_owned(),
        },
        &mut problems,
    );
    limits.check_ids(dependencies.unwrap_or_default(), "dependencies", &mut problems);
    problems.into_result()
}

/// `ids` without repeats, in first-seen order.
fn unique(ids: impl IntoIterator<Item = String>) -> Vec<String> {
    let mut seen = HashSet::new();
    ids.into_iter().filter(|id| seen.insert(id.clone())).collect()
}

/// The tracker's check before a write of `updated` (already changed):
/// its parent exists; closing it needs every dependency closed; new
/// dependencies must exist and not loop. `None` when it may be written.
fn refusal_of_update(
    state: &TodoState,
    previous: &Todo,
    updated: &Todo,
    dependencies_changed: bool,
) -> Option<String> {
    let id = updated.id.as_deref().unwrap_or_default();
    if let Some(parent) = updated.parent.as_deref().filter(|p| !p.is_empty())
        && state.find(parent).is_none()
    {
        return Some(format!("Parent task with ID {} not found.", clip(parent)));
    }
    let closing = TrackerStatus::from(updated.status) == TrackerStatus::Closed
        && TrackerStatus::from(previous.status) != TrackerStatus::Closed;
    if closing {
        for dependency in &updated.blocked_by {
            let Some(task) = state.find(dependency) else {
                return Some(format!(
                    "Dependency {} not found for task {}.",
                    clip(dependency),
                    clip(id)
                ));
            };
            let status = TrackerStatus::from(task.status);
            if status != TrackerStatus::Closed {
                return Some(format!(
                    "Cannot close task {id} because dependency {dependency} is still {}.",
                    status.as_str()
                ));
            }
        }
    }
    if dependencies_changed {
        return dependency_loop(state, updated);
    }
    None
}

/// The tracker's `updateTask`: `updated`, a changed copy of `previous`,
/// takes its place in `state` and the call answers `content` when the
/// tracker's checks pass; otherwise the call fails, shown to the user as
/// `display`.
fn update_task(
    mut state: TodoState,
    previous: &Todo,
    updated: Todo,
    dependencies_changed: bool,
    content: String,
    display: &str,
) -> Outcome {
    if let Some(message) = refusal_of_update(&state, previous, &updated, dependencies_changed) {
        return failed(message, display);
    }
    let id = previous.id.as_deref().unwrap_or_default();
    if let Some(task) = state.find_mut(id) {
        *task = updated;
    }
    committed(state, content)
}

/// A call that stores `state` and answers `content`, with the tree the
/// user sees.
fn committed(state: TodoState, content: String) -> Outcome {
    let details = shown_list(&state);
    Outcome::commit(state, ToolResult::ok(content, details))
}

/// The tracker's walk of the dependencies from `updated` (as it would be
/// stored), depth first in list order: the first task met again on the
/// path it is walking closes a loop; a dependency that is no task is an
/// error too. Iterative, so a long chain cannot exhaust the stack.
fn dependency_loop(state: &TodoState, updated: &Todo) -> Option<String> {
    let root = updated.id.as_deref().unwrap_or_default();
    let mut by_id: HashMap<&str, &Todo> = HashMap::new();
    for task in state.tasks() {
        if let Some(id) = task.id.as_deref() {
            by_id.entry(id).or_insert(task);
        }
    }
    by_id.insert(root, updated);
    let mut visited: HashSet<&str> = HashSet::new();
    let mut on_path: HashSet<&str> = HashSet::new();
    let mut path: Vec<(&str, usize)> = Vec::new();
    let mut next: Option<&str> = Some(root);
    loop {
        if let Some(id) = next.take() {
            if on_path.contains(id) {
                return Some(format!("Circular dependency detected involving task {id}."));
            }
            if visited.insert(id) {
                if !by_id.contains_key(id) {
                    return Some(format!("Dependency {id} not found."));
                }
                on_path.insert(id);
                path.push((id, 0));
            }
        }
        let (id, at) = path.last_mut()?;
        let task: &Todo = by_id[*id];
        match task.blocked_by.get(*at) {
            Some(dependency) => {
                *at += 1;
                next = Some(dependency);
            }
            None => {
                on_path.remove(*id);
                path.pop();
            }
        }
    }
}

/// The `tracker_create_task` tool.
#[derive(Debug, Clone, Copy, Default)]
pub struct CreateTask;

impl TypedTool for CreateTask {
    type Input = CreateTaskInput;
    const NAME: &'static str = "tracker_create_task";
    const DESCRIPTION: &'static str =
        include_str!("../../descriptions/gemini-tracker/tracker_create_task.md");
    const METADATA: ToolMetadata = ToolMetadata::LIST_WRITER.idempotent(false).destructive(false);

    fn run(&self, input: CreateTaskInput, ctx: &CallContext<'_>) -> Result<Outcome, ToolError> {
        let limits = &ctx.rules.limits;
        check_sizes(
            Some(&input.title),
            Some(&input.description),
            input.dependencies.as_deref(),
            limits,
        )?;
        let mut state = with_ids(ctx.state).into_owned();
        let mut problems = Violations::default();
        limits.check_room(state.tasks().count() + 1, "(tracker)", &mut problems);
        problems.into_result()?;
        // An empty parent id is no parent, as in the tracker.
        let parent = input.parent_id.filter(|p| !p.is_empty());
        if let Some(parent) = &parent
            && state.find(parent).is_none()
        {
            return Ok(failed(
                format!("Parent task with ID {} not found.", clip(parent)),
                "Failed to create task.",
            ));
        }
        let id = state.allocate_hex_id(ID_DIGITS);
        let mut task = Todo::new(input.title)
            .id(id.clone())
            .description(input.description)
            .kind(input.kind.as_str())
            .blocked_by(input.dependencies.unwrap_or_default())
            .created_at(ctx.now)
            .status_changed_at(ctx.now);
        task.parent = parent;
        let content = format!("Created task {id}: {}", task.content);
        state.push_task(task);
        Ok(committed(state, content))
    }
}

/// The `tracker_update_task` tool.
#[derive(Debug, Clone, Copy, Default)]
pub struct UpdateTask;

impl TypedTool for UpdateTask {
    type Input = UpdateTaskInput;
    const NAME: &'static str = "tracker_update_task";
    const DESCRIPTION: &'static str =
        include_str!("../../descriptions/gemini-tracker/tracker_update_task.md");
    const METADATA: ToolMetadata = ToolMetadata::LIST_WRITER.destructive(false);

    fn run(&self, input: UpdateTaskInput, ctx: &CallContext<'_>) -> Result<Outcome, ToolError> {
        check_sizes(
            input.title.as_deref(),
            input.description.as_deref(),
            input.dependencies.as_deref(),
            &ctx.rules.limits,
        )?;
        let state = with_ids(ctx.state).into_owned();
        let Some(previous) = state.find(&input.id).cloned() else {
            return Ok(failed(
                format!("Task with ID {} not found.", clip(&input.id)),
                "Failed to update task.",
            ));
        };
        let mut updated = previous.clone();
        if let Some(title) = input.title {
            updated.content = title;
        }
        if let Some(description) = input.description {
            updated.description = Some(description);
        }
        if let Some(status) = input.status {
            updated.set_status(status.into(), ctx.now);
        }
        let dependencies_changed = input.dependencies.is_some();
        if let Some(dependencies) = input.dependencies {
            updated.blocked_by = dependencies;
        }
        let content = format!(
            "Updated task {}. Status: {}",
            input.id,
            TrackerStatus::from(updated.status).as_str()
        );
        Ok(update_task(
            state,
            &previous,
            updated,
            dependencies_changed,
            content,
            "Failed to update task.",
        ))
    }
}

/// A task as `tracker_get_task` prints it: the tracker's stored JSON.
#[derive(Serialize)]
struct TaskJson<'a> {
    id: &'a str,
    title: &'a str,
    description: &'a str,
    #[serde(rename = "type")]
    kind: &'static str,
    status: &'static str,
    #[serde(rename = "parentId", skip_serializing_if = "Option::is_none")]
    parent_id: Option<&'a str>,
    dependencies: &'a [String],
}

/// The `tracker_get_task` tool.
#[derive(Debug, Clone, Copy, Default)]
pub struct GetTask;

impl TypedTool for GetTask {
    type Input = GetTaskInput;
    const NAME: &'static str = "tracker_get_task";
    const DESCRIPTION: &'static str = include_str!("../../descriptions/gemini-tracker/tracker_get_task.md");
    const METADATA: ToolMetadata = ToolMetadata::LIST_READER;

    fn run(&self, input: GetTaskInput, ctx: &CallContext<'_>) -> Result<Outcome, ToolError> {
        let state = with_ids(ctx.state);
        let Some(task) = state.find(&input.id) else {
            // Not an error in the tracker: the model reads it and goes on.
            let content = format!("Task {} not found.", clip(&input.id));
            return Ok(Outcome::read(ToolResult::ok(
                content,
                shown_text("Task not found."),
            )));
        };
        let json = TaskJson {
            id: &input.id,
            title: &task.content,
            description: task.description.as_deref().unwrap_or_default(),
            kind: TaskType::of(task).as_str(),
            status: TrackerStatus::from(task.status).as_str(),
            parent_id: task.parent.as_deref(),
            dependencies: &task.blocked_by,
        };
        // Plain strings and string lists always serialize.
        let content = serde_json::to_string_pretty(&json).unwrap_or_default();
        Ok(Outcome::read(ToolResult::ok(content, shown_list(&state))))
    }
}

/// The `tracker_list_tasks` tool.
#[derive(Debug, Clone, Copy, Default)]
pub struct ListTasks;

impl TypedTool for ListTasks {
    type Input = ListTasksInput;
    const NAME: &'static str = "tracker_list_tasks";
    const DESCRIPTION: &'static str = include_str!("../../descriptions/gemini-tracker/tracker_list_tasks.md");
    const METADATA: ToolMetadata = ToolMetadata::LIST_READER;

    fn run(&self, input: ListTasksInput, ctx: &CallContext<'_>) -> Result<Outcome, ToolError> {
        let state = with_ids(ctx.state);
        let parent = input.parent_id.as_deref().filter(|p| !p.is_empty());
        let lines: Vec<String> = state
            .tasks()
            .filter(|t| input.status.is_none_or(|s| TrackerStatus::from(t.status) == s))
            .filter(|t| input.kind.is_none_or(|k| TaskType::of(t) == k))
            .filter(|t| parent.is_none_or(|p| t.parent.as_deref() == Some(p)))
            .map(|t| {
                format!(
                    "- [{}] {} ({})",
                    t.id.as_deref().unwrap_or_default(),
                    t.content,
                    TrackerStatus::from(t.status).as_str()
                )
            })
            .collect();
        if lines.is_empty() {
            let content = "No tasks found matching the criteria.";
            return Ok(Outcome::read(ToolResult::ok(
                content,
                shown_text("No matching tasks."),
            )));
        }
        Ok(Outcome::read(ToolResult::ok(
            lines.join("\n"),
            shown_list(&state),
        )))
    }
}

/// The `tracker_add_dependency` tool.
#[derive(Debug, Clone, Copy, Default)]
pub struct LinkTasks;

impl TypedTool for LinkTasks {
    type Input = LinkTasksInput;
    const NAME: &'static str = "tracker_add_dependency";
    const DESCRIPTION: &'static str =
        include_str!("../../descriptions/gemini-tracker/tracker_add_dependency.md");
    const METADATA: ToolMetadata = ToolMetadata::LIST_WRITER.destructive(false);

    fn run(&self, input: LinkTasksInput, ctx: &CallContext<'_>) -> Result<Outcome, ToolError> {
        if input.task_id == input.dependency_id {
            return Ok(failed(
                "Task cannot depend on itself".to_owned(),
                "Self-referential dependency rejected.",
            ));
        }
        let state = with_ids(ctx.state).into_owned();
        let Some(previous) = state.find(&input.task_id).cloned() else {
            let content = format!("Task {} not found.", clip(&input.task_id));
            return Ok(Outcome::read(ToolResult::ok(
                content,
                shown_text("Task not found."),
            )));
        };
        if state.find(&input.dependency_id).is_none() {
            let content = format!("Dependency task {} not found.", clip(&input.dependency_id));
            return Ok(Outcome::read(ToolResult::ok(
                content,
                shown_text("Dependency not found."),
            )));
        }
        let mut updated = previous.clone();
        updated.blocked_by = unique(
            previous
                .blocked_by
                .iter()
                .cloned()
                .chain([input.dependency_id.clone()]),
        );
        check_sizes(None, None, Some(&updated.blocked_by), &ctx.rules.limits)?;
        let content = format!("Linked {} -> {}.", input.task_id, input.dependency_id);
        Ok(update_task(
            state,
            &previous,
            updated,
            true,
            content,
            "Failed to add dependency.",
        ))
    }
}

/// The arguments of `tracker_visualize`: none.
// Gemini CLI declares them as `{"type": "object", "properties": {}}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Deserialize, schemars::JsonSchema)]
#[schemars(extend("properties" = {}))]
pub struct VisualizeArguments {}

/// The `tracker_visualize` tool.
#[derive(Debug, Clone, Copy, Default)]
pub struct Visualize;

impl TypedTool for Visualize {
    type Input = VisualizeArguments;
    const NAME: &'static str = "tracker_visualize";
    const DESCRIPTION: &'static str = include_str!("../../descriptions/gemini-tracker/tracker_visualize.md");
    const METADATA: ToolMetadata = ToolMetadata::LIST_READER;

    fn run(&self, _input: VisualizeArguments, ctx: &CallContext<'_>) -> Result<Outcome, ToolError> {
        let state = with_ids(ctx.state);
        Ok(Outcome::read(match visualize(&state) {
            Some(graph) => ToolResult::ok(graph, shown_list(&state)),
            None => ToolResult::ok("No tasks to visualize.", shown_text("Empty tracker.")),
        }))
    }
}
