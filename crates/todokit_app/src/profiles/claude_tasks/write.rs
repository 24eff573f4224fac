//! The tools that change the task list: `TaskCreate` and `TaskUpdate`.

use std::fmt::Write;

use serde::Serialize;
use todokit_domain::{Status, Todo, TodoError, TodoField, TodoPatch, TodoState, Transition, Violation, Violations};

use super::view::{OneTask, TaskView, view};
use super::{TaskCreateInput, TaskStatus, TaskUpdateInput};
use crate::{CallContext, Details, Outcome, ToolError, ToolMetadata, ToolOperation, ToolResult, TypedTool};

/// The `TaskCreate` tool.
#[derive(Debug, Clone, Copy, Default)]
pub struct TaskCreate;

impl TypedTool for TaskCreate {
    type Input = TaskCreateInput;
    const NAME: &'static str = "TaskCreate";
    const DESCRIPTION: &'static str = include_str!("../../../descriptions/claude-tasks/TaskCreate.md");
    const METADATA: ToolMetadata = ToolMetadata::LIST_WRITER.idempotent(false).inherited(true);

    fn run(&self, input: TaskCreateInput, ctx: &CallContext<'_>) -> Result<Outcome, ToolError> {
        let limits = &ctx.rules.limits;
        let fields = TodoPatch {
            content: Some(input.subject.clone()),
            description: Some(input.description.clone()),
            active_form: input.active_form.clone(),
            metadata: input.metadata.clone(),
            ..TodoPatch::default()
        };
        let mut problems = Violations::default();
        fields.check(limits, |f| wire_name(f).to_owned(), &mut problems);
        let count = ctx.state.tasks().count() + 1;
        if count > limits.max_items {
            problems.push(Violation::TooManyItems {
                field: "(task list)".into(),
                count,
                max: limits.max_items,
            });
        }
        problems.into_result()?;
        let mut state = ctx.state.clone();
        let id = state.allocate_id();
        let mut task = Todo::new("").id(id.clone()).created_at(ctx.now).status_changed_at(ctx.now);
        fields.apply(&mut task, ctx.now);
        let transitions = [Transition {
            content: task.content.clone(),
            id: Some(id.clone()),
            from: None,
            to: Some(task.status),
        }];
        state.push_task(task);
        let op = ToolOperation::new(Self::NAME, &input, ctx.state, &state, &transitions);
        let content = format!("Task #{id} created: {}", op.asked.subject);
        let details = OneTask::of(op.after, &id);
        Ok(Outcome::commit(state, ToolResult::ok(content, details)))
    }
}

/// The `TaskUpdate` tool.
#[derive(Debug, Clone, Copy, Default)]
pub struct TaskUpdate;

impl TypedTool for TaskUpdate {
    type Input = TaskUpdateInput;
    const NAME: &'static str = "TaskUpdate";
    const DESCRIPTION: &'static str = include_str!("../../../descriptions/claude-tasks/TaskUpdate.md");
    const METADATA: ToolMetadata = ToolMetadata::LIST_WRITER.inherited(true);

    fn run(&self, input: TaskUpdateInput, ctx: &CallContext<'_>) -> Result<Outcome, ToolError> {
        let id = input.task_id.clone();
        let previous = ctx.state.require(&id, "taskId")?.clone();
        let mut state = ctx.state.clone();
        if input.status == Some(TaskStatus::Deleted) {
            state.remove_task(&id);
            #[derive(Serialize)]
            struct Deleted<'a> {
                deleted: Option<TaskView<'a>>,
            }
            let details = Details::of(&Deleted {
                deleted: view(ctx.state, &id),
            });
            return Ok(Outcome::commit(
                state,
                ToolResult::ok(format!("Task #{id} deleted."), details),
            ));
        }
        let patch = TodoPatch {
            content: input.subject.clone(),
            description: input.description.clone(),
            active_form: input.active_form.clone(),
            owner: input.owner.clone(),
            metadata: input.metadata.clone(),
            status: input.status.map(|status| match status {
                TaskStatus::Pending => Status::Pending,
                TaskStatus::InProgress => Status::InProgress,
                TaskStatus::Completed | TaskStatus::Deleted => Status::Completed,
            }),
            priority: None,
        };
        let mut problems = Violations::default();
        patch.check(&ctx.rules.limits, |f| wire_name(f).to_owned(), &mut problems);
        let task = state.find_mut(&id).ok_or_else(|| unknown(&id))?;
        let mut changed: Vec<&str> = patch.apply(task, ctx.now).into_iter().map(wire_name).collect();
        problems.into_result()?;
        for (i, blocked) in input.add_blocks.iter().flatten().enumerate() {
            state.add_dependency(&id, blocked, &format!("addBlocks[{i}]"))?;
            changed.push("blocks");
        }
        for (i, blocker) in input.add_blocked_by.iter().flatten().enumerate() {
            state.add_dependency(blocker, &id, &format!("addBlockedBy[{i}]"))?;
            changed.push("blockedBy");
        }
        changed.dedup();
        if changed.is_empty() {
            return Ok(Outcome::read(ToolResult::ok(
                format!("No changes to task #{id}: no field to update was given."),
                OneTask::of(ctx.state, &id),
            )));
        }
        let task = state.find(&id).ok_or_else(|| unknown(&id))?;
        let transitions: Vec<Transition> = (task.status != previous.status)
            .then(|| Transition {
                content: task.content.clone(),
                id: Some(id.clone()),
                from: Some(previous.status),
                to: Some(task.status),
            })
            .into_iter()
            .collect();
        let unblocked = newly_unblocked(ctx.state, &state, &id, previous.status);
        let op = ToolOperation::new(Self::NAME, &input, ctx.state, &state, &transitions).with_fields(Updated {
            id: &id,
            changed: &changed,
            unblocked: &unblocked,
        });
        let content = updated_text(&op);
        let details = Details::of(&OneTask {
            task: view(op.after, &id),
            unblocked: Some(op.fields.unblocked),
        });
        Ok(Outcome::commit(state, ToolResult::ok(content, details)))
    }
}

/// What `TaskUpdate` did besides changing the list.
#[derive(Debug, Clone, Copy)]
struct Updated<'a> {
    id: &'a str,
    changed: &'a [&'a str],
    unblocked: &'a [String],
}

/// `Updated task #1: status.`, then the tasks it unblocked and what it
/// still waits on.
fn updated_text(op: &ToolOperation<'_, TaskUpdateInput, Updated<'_>>) -> String {
    let Updated { id, changed, unblocked } = op.fields;
    let mut content = format!("Updated task #{id}: {}.", changed.join(", "));
    for other in unblocked {
        let _ = write!(content, " Task #{other} is no longer blocked.");
    }
    if let Some(task) = op.after.find(id) {
        let waiting: Vec<String> = op.after.open_blockers(task).iter().map(|b| format!("#{b}")).collect();
        if matches!(task.status, Status::InProgress | Status::Completed) && !waiting.is_empty() {
            let _ = write!(content, " Note: it still waits on {}.", waiting.join(", "));
        }
    }
    content
}

/// The name `TaskUpdate` gives a patched field: the todo's content is its
/// `subject`.
fn wire_name(field: TodoField) -> &'static str {
    match field {
        TodoField::Content => "subject",
        other => other.wire_name(),
    }
}

/// The ids of tasks that waited on `id` before and wait on nothing now.
fn newly_unblocked(before: &TodoState, after: &TodoState, id: &str, was: Status) -> Vec<String> {
    let completed_now =
        after.find(id).is_some_and(|t| t.status == Status::Completed) && was != Status::Completed;
    if !completed_now {
        return Vec::new();
    }
    after
        .blocks(id)
        .into_iter()
        .filter(|other| {
            let waited = before
                .find(other)
                .is_some_and(|t| !before.open_blockers(t).is_empty());
            let waits = after
                .find(other)
                .is_some_and(|t| !after.open_blockers(t).is_empty());
            waited && !waits
        })
        .map(str::to_owned)
        .collect()
}

pub(super) fn unknown(id: &str) -> TodoError {
    TodoError::UnknownTask {
        field: "taskId".into(),
        id: todokit_domain::clip(id),
    }
}
