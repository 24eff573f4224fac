//! The tools that read the task list: `TaskList` and `TaskGet`.

use std::fmt::Write;

use serde::Serialize;
use todokit_domain::{Todo, TodoState};

use super::view::{OneTask, TaskView, view};
use super::{TaskGetInput, TaskListInput};
use crate::{CallContext, Details, Outcome, ToolError, ToolMetadata, ToolResult, TypedTool};

/// The `TaskList` tool.
#[derive(Debug, Clone, Copy, Default)]
pub struct TaskList;

impl TypedTool for TaskList {
    type Input = TaskListInput;
    const NAME: &'static str = "TaskList";
    const DESCRIPTION: &'static str = include_str!("../../../descriptions/claude-tasks/TaskList.md");
    const METADATA: ToolMetadata = ToolMetadata::LIST_READER.inherited(true);

    fn run(&self, _input: TaskListInput, ctx: &CallContext<'_>) -> Result<Outcome, ToolError> {
        let state = ctx.state;
        let lines: Vec<String> = state
            .tasks()
            .filter_map(|t| Some((t.id.as_deref()?, t)))
            .map(|(id, t)| {
                let mut line = format!("#{id} [{}] {}", reported_status(state, t), t.content);
                if let Some(owner) = &t.owner {
                    let _ = write!(line, " (owner: {owner})");
                }
                let open = state.open_blockers(t);
                if !open.is_empty() {
                    let ids: Vec<String> = open.iter().map(|b| format!("#{b}")).collect();
                    let _ = write!(line, " [blocked by {}]", ids.join(", "));
                }
                line
            })
            .collect();
        let content = if lines.is_empty() {
            "No tasks found.".to_owned()
        } else {
            lines.join("\n")
        };
        #[derive(Serialize)]
        struct Tasks<'a> {
            tasks: Vec<Option<TaskView<'a>>>,
        }
        let tasks = state
            .tasks()
            .filter_map(|t| t.id.as_deref())
            .map(|id| view(state, id))
            .collect();
        Ok(Outcome::read(ToolResult::ok(
            content,
            Details::of(&Tasks { tasks }),
        )))
    }
}

/// The `TaskGet` tool.
#[derive(Debug, Clone, Copy, Default)]
pub struct TaskGet;

impl TypedTool for TaskGet {
    type Input = TaskGetInput;
    const NAME: &'static str = "TaskGet";
    const DESCRIPTION: &'static str = include_str!("../../../descriptions/claude-tasks/TaskGet.md");
    const METADATA: ToolMetadata = ToolMetadata::LIST_READER.inherited(true);

    fn run(&self, input: TaskGetInput, ctx: &CallContext<'_>) -> Result<Outcome, ToolError> {
        let state = ctx.state;
        let task = state.require(&input.task_id, "taskId")?;
        let id = &input.task_id;
        let mut out = format!(
            "Task #{id}: {}\nStatus: {}",
            task.content,
            reported_status(state, task)
        );
        if let Some(description) = task.description.as_deref().filter(|d| !d.is_empty()) {
            let _ = write!(out, "\nDescription: {description}");
        }
        if let Some(active) = &task.active_form {
            let _ = write!(out, "\nActive form: {active}");
        }
        if let Some(owner) = &task.owner {
            let _ = write!(out, "\nOwner: {owner}");
        }
        let hashed = |ids: Vec<&str>| ids.iter().map(|i| format!("#{i}")).collect::<Vec<_>>().join(", ");
        if !task.blocked_by.is_empty() {
            let all = task.blocked_by.iter().map(String::as_str).collect();
            let _ = write!(out, "\nBlocked by: {}", hashed(all));
        }
        let blocks = state.blocks(id);
        if !blocks.is_empty() {
            let _ = write!(out, "\nBlocks: {}", hashed(blocks));
        }
        if let Some(metadata) = &task.metadata {
            let _ = write!(
                out,
                "\nMetadata: {}",
                serde_json::to_string(metadata).unwrap_or_default()
            );
        }
        Ok(Outcome::read(ToolResult::ok(out, OneTask::of(state, id))))
    }
}

/// `blocked` for an open task that waits on unfinished tasks, its own
/// status otherwise.
pub(super) fn reported_status(state: &TodoState, task: &Todo) -> &'static str {
    if task.status.is_open() && !state.open_blockers(task).is_empty() {
        "blocked"
    } else {
        task.status.as_str()
    }
}
