//! The tools that change the task list: `TaskCreate` and `TaskUpdate`.

use serde::Serialize;
use serde_json::Value;
use todokit_domain::{ClaimFields, TodoField, TodoPatch, Transition, Violations, check_claim};

use super::read::NOT_FOUND;
use super::repair::{repair_create, repair_update, steering};
use super::view::{OneTask, TaskView, view};
use super::{TaskCreateInput, TaskStatus, TaskUpdateInput};

use todokit_app::prelude::*;

/// How `TaskUpdate` names the fields of a claim, for the refusal message.
const CLAIM_FIELDS: ClaimFields = ClaimFields {
    owner: "owner",
    take_over: "takeOver",
};

/// The `TaskCreate` tool.
#[derive(Debug, Clone, Copy, Default)]
pub struct TaskCreate;

impl TypedTool for TaskCreate {
    type Input = TaskCreateInput;
    const NAME: &'static str = "TaskCreate";
    const DESCRIPTION: &'static str = include_str!("../../descriptions/claude-tasks/TaskCreate.md");
    // Only adds a task.
    const METADATA: ToolMetadata = ToolMetadata::LIST_WRITER
        .idempotent(false)
        .destructive(false)
        .inherited(true);

    fn complete(args: &mut Value) {
        repair_create(args);
    }

    /// A batch call, or one meant for the `Agent` tool, is refused in
    /// Claude Code's words.
    fn refusal(args: &Value, problems: Vec<ArgumentError>) -> ToolError {
        match steering(args) {
            Some(words) => ToolError::refused("(arguments)", words),
            None => ToolError::Arguments(problems),
        }
    }

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
        limits.check_room(ctx.state.tasks().count() + 1, "(task list)", &mut problems);
        problems.into_result()?;
        let mut state = ctx.state.clone();
        let id = state.allocate_id();
        let mut task = Todo::new("")
            .id(id.clone())
            .created_at(ctx.now)
            .status_changed_at(ctx.now);
        fields.apply(&mut task, ctx.now);
        let transitions = [Transition {
            content: task.content.clone(),
            id: Some(id.clone()),
            from: None,
            to: Some(task.status),
        }];
        state.push_task(task);
        let op = ToolOperation::new(Self::NAME, &input, ctx.state, &state, &transitions);
        let content = format!("Task #{id} created successfully: {}", op.asked.subject);
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
    const DESCRIPTION: &'static str = include_str!("../../descriptions/claude-tasks/TaskUpdate.md");
    const METADATA: ToolMetadata = ToolMetadata::LIST_WRITER.inherited(true);

    fn complete(args: &mut Value) {
        repair_update(args);
    }

    fn run(&self, input: TaskUpdateInput, ctx: &CallContext<'_>) -> Result<Outcome, ToolError> {
        let id = input.task_id.clone();
        let Some(previous) = ctx.state.find(&id).cloned() else {
            // Not an error in Claude Code: the model reads it and moves on.
            return Ok(Outcome::read(ToolResult::ok(
                NOT_FOUND,
                OneTask::of(ctx.state, &id),
            )));
        };
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
                ToolResult::ok(format!("Updated task #{id} deleted"), details),
            ));
        }
        if let Some(owner) = input.owner.as_deref() {
            check_claim(&previous, &id, owner, input.take_over == Some(true), CLAIM_FIELDS)?;
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
        let named = patch.apply(task, ctx.now);
        // A released task has no owner, not an empty one.
        if task.owner.as_deref() == Some("") {
            task.owner = None;
        }
        // As in Claude Code, a field counts as updated only when its value
        // changed; metadata counts whenever it was given.
        let mut changed: Vec<&str> = named
            .into_iter()
            .filter(|field| *field == TodoField::Metadata || differs(&previous, task, *field))
            .map(wire_name)
            .collect();
        problems.into_result()?;
        let new_blocks: Vec<&String> = input
            .add_blocks
            .iter()
            .flatten()
            .filter(|other| !ctx.state.blocks(&id).contains(&other.as_str()))
            .collect();
        for (i, blocked) in new_blocks.iter().enumerate() {
            state.add_dependency(&id, blocked, &format!("addBlocks[{i}]"))?;
        }
        if !new_blocks.is_empty() {
            changed.push("blocks");
        }
        let new_blocked_by: Vec<&String> = input
            .add_blocked_by
            .iter()
            .flatten()
            .filter(|blocker| !previous.blocked_by.contains(blocker))
            .collect();
        for (i, blocker) in new_blocked_by.iter().enumerate() {
            state.add_dependency(blocker, &id, &format!("addBlockedBy[{i}]"))?;
        }
        if !new_blocked_by.is_empty() {
            changed.push("blockedBy");
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
        let op =
            ToolOperation::new(Self::NAME, &input, ctx.state, &state, &transitions).with_fields(Updated {
                id: &id,
                changed: &changed,
                unblocked: &unblocked,
            });
        let content = format!("Updated task #{} {}", op.fields.id, op.fields.changed.join(", "));
        let details = Details::of(&OneTask {
            task: view(op.after, &id),
            unblocked: Some(op.fields.unblocked),
        });
        if state == *ctx.state {
            return Ok(Outcome::read(ToolResult::ok(content, details)));
        }
        Ok(Outcome::commit(state, ToolResult::ok(content, details)))
    }
}

/// True when `field` of `after` differs from `before`.
fn differs(before: &Todo, after: &Todo, field: TodoField) -> bool {
    match field {
        TodoField::Content => before.content != after.content,
        TodoField::Description => before.description != after.description,
        TodoField::ActiveForm => before.active_form != after.active_form,
        TodoField::Owner => before.owner != after.owner,
        TodoField::Metadata => before.metadata != after.metadata,
        TodoField::Status => before.status != after.status,
        TodoField::Priority => before.priority != after.priority,
    }
}

/// What `TaskUpdate` did besides changing the list.
#[derive(Debug, Clone, Copy)]
struct Updated<'a> {
    id: &'a str,
    changed: &'a [&'a str],
    unblocked: &'a [String],
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

#[cfg(test)]
mod tests {
    use super::super::profile;
    use crate::test_support::run_tool;
    use pretty_assertions::assert_eq;
    use todokit_domain::TodoState;

    /// Runs `calls` in order, each on the state the last one left; returns
    /// each answer (with whether it was an error) and the last owner of #1.
    fn claims(calls: &[&str]) -> (Vec<(bool, String)>, Option<String>) {
        let mut state = TodoState::new();
        let created = run_tool(
            &profile(),
            "TaskCreate",
            &state,
            r#"{"subject":"Ship","description":"Tag it"}"#,
        );
        state = created.commit.unwrap_or(state);
        let mut answers = Vec::new();
        for args in calls {
            let outcome = run_tool(&profile(), "TaskUpdate", &state, args);
            answers.push((outcome.result.is_error, outcome.result.content));
            if let Some(next) = outcome.commit {
                state = next;
            }
        }
        (answers, state.find("1").and_then(|task| task.owner.clone()))
    }

    #[test]
    fn a_task_someone_else_owns_is_refused_with_their_name_and_the_list_kept() {
        let actual = claims(&[
            r#"{"taskId":"1","owner":"agent-a","status":"in_progress"}"#,
            r#"{"taskId":"1","owner":"agent-b","status":"in_progress"}"#,
            r#"{"taskId":"1","owner":"agent-a"}"#,
        ]);
        let expected = (
            vec![
                (false, "Updated task #1 owner, status".to_owned()),
                (
                    true,
                    "TaskUpdate was not applied; the stored list is unchanged.\n\
                     - owner: task 1 is owned by \"agent-a\", so it was left unchanged: another agent is working on it. \
                     Pick another task; to change hands, the owner releases it first (owner \"\"), or the call takes it over on purpose (takeOver: true)\n\
                     Fix the arguments and call TaskUpdate again."
                        .to_owned(),
                ),
                (false, "Updated task #1 ".to_owned()),
            ],
            Some("agent-a".to_owned()),
        );
        // What the refused model reads is pinned for review as well.
        crate::test_support::snapshot_settings().bind(|| {
            insta::assert_snapshot!("claude_tasks__claim_refused", actual.0[1].1);
        });
        assert_eq!(actual, expected);
    }

    #[test]
    fn a_released_task_or_a_take_over_changes_hands() {
        let actual = claims(&[
            r#"{"taskId":"1","owner":"agent-a"}"#,
            r#"{"taskId":"1","owner":""}"#,
            r#"{"taskId":"1","owner":"agent-b"}"#,
            r#"{"taskId":"1","owner":"agent-c","takeOver":true}"#,
        ]);
        let expected = (
            vec![
                (false, "Updated task #1 owner".to_owned()),
                (false, "Updated task #1 owner".to_owned()),
                (false, "Updated task #1 owner".to_owned()),
                (false, "Updated task #1 owner".to_owned()),
            ],
            Some("agent-c".to_owned()),
        );
        assert_eq!(actual, expected);
    }
}
