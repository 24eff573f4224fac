//! The tools that read the task list: `TaskList` and `TaskGet`.

use std::fmt::Write;

use serde::Serialize;

use super::view::{OneTask, TaskView, status_name, view};
use super::{TaskGetInput, TaskListInput};

use todokit_app::prelude::*;

/// The `TaskList` tool.
#[derive(Debug, Clone, Copy, Default)]
pub struct TaskList;

impl TypedTool for TaskList {
    type Input = TaskListInput;
    const NAME: &'static str = "TaskList";
    const DESCRIPTION: &'static str = include_str!("../../descriptions/claude-tasks/TaskList.md");
    const METADATA: ToolMetadata = ToolMetadata::LIST_READER.inherited(true);

    fn run(&self, _input: TaskListInput, ctx: &CallContext<'_>) -> Result<Outcome, ToolError> {
        let state = ctx.state;
        // Claude Code keeps tasks whose metadata says `_internal` out of the list.
        let listed = || {
            state
                .tasks()
                .filter(|t| !is_internal(t))
                .filter_map(|t| Some((t.id.as_deref()?, t)))
        };
        let lines: Vec<String> = listed()
            .map(|(id, t)| {
                let mut line = format!("#{id} [{}] {}", status_name(t), t.content);
                if let Some(owner) = t.owner.as_deref().filter(|o| !o.is_empty()) {
                    let _ = write!(line, " ({owner})");
                }
                let open = state.open_blockers(t);
                if !open.is_empty() {
                    let _ = write!(line, " [blocked by {}]", hashed(&open));
                }
                line
            })
            .collect();
        let content = if lines.is_empty() {
            NO_TASKS.to_owned()
        } else {
            lines.join("\n")
        };
        #[derive(Serialize)]
        struct Tasks<'a> {
            tasks: Vec<Option<TaskView<'a>>>,
        }
        let tasks = listed().map(|(id, _)| view(state, id)).collect();
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
    const DESCRIPTION: &'static str = include_str!("../../descriptions/claude-tasks/TaskGet.md");
    const METADATA: ToolMetadata = ToolMetadata::LIST_READER.inherited(true);

    fn run(&self, input: TaskGetInput, ctx: &CallContext<'_>) -> Result<Outcome, ToolError> {
        let state = ctx.state;
        let id = &input.task_id;
        let Some(task) = state.find(id) else {
            // Not an error in Claude Code: the model reads it and moves on.
            return Ok(Outcome::read(ToolResult::ok(NOT_FOUND, OneTask::of(state, id))));
        };
        let mut out = format!(
            "Task #{id}: {}\nStatus: {}\nDescription: {}",
            task.content,
            status_name(task),
            task.description.as_deref().unwrap_or_default()
        );
        // Only the blockers still open, as Claude Code 2.1.332 shows them
        // (2.1.328 showed every one).
        let open = state.open_blockers(task);
        if !open.is_empty() {
            let _ = write!(out, "\nBlocked by: {}", hashed(&open));
        }
        let blocks = state.blocks(id);
        if !blocks.is_empty() {
            let _ = write!(out, "\nBlocks: {}", hashed(&blocks));
        }
        Ok(Outcome::read(ToolResult::ok(out, OneTask::of(state, id))))
    }
}

/// What `TaskList` answers for an empty list, as Claude Code words it.
pub const NO_TASKS: &str = "No tasks found";
/// What `TaskGet` and `TaskUpdate` answer for an unknown id, as Claude Code
/// words it (a plain result, not an error).
pub const NOT_FOUND: &str = "Task not found";

/// `#1, #2`.
fn hashed(ids: &[&str]) -> String {
    ids.iter().map(|i| format!("#{i}")).collect::<Vec<_>>().join(", ")
}

/// True for a task whose metadata marks it `_internal` (truthy).
fn is_internal(task: &Todo) -> bool {
    task.metadata
        .as_ref()
        .and_then(|m| m.get("_internal"))
        .is_some_and(|v| !(v.is_null() || v == &serde_json::Value::Bool(false)))
}
