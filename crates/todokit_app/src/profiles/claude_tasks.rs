//! `claude-tasks`: Claude Code's task tools (`TaskCreate`, `TaskUpdate`,
//! `TaskList`, `TaskGet`): one task per call, per-field updates, owners,
//! metadata, and blocks/blocked-by dependencies kept acyclic.
//!
//! The list may be shared by several agents at once (one conversation id
//! for the whole team): every write goes through the service's
//! compare-and-swap, so concurrent updates to different tasks all land.

use std::fmt::Write;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use todokit_domain::{
    InProgressPolicy, Limits, ListRules, Presence, Status, Todo, TodoError, TodoField, TodoPatch, TodoState,
    Violation, Violations, check_text,
};

use crate::{CallContext, Details, Outcome, Profile, ToolError, ToolMetadata, ToolResult, TypedTool};

/// The profile's name.
pub const NAME: &str = "claude-tasks";
/// Most tasks on one list.
pub const MAX_TASKS: usize = 200;

crate::wire_enum! {
    /// The statuses `TaskUpdate` accepts.
    pub enum TaskStatus {
        /// Not started.
        Pending = "pending",
        /// Being worked on.
        InProgress = "in_progress",
        /// Finished.
        Completed = "completed",
        /// Remove the task.
        Deleted = "deleted",
    }
    aliases { "done" => Completed }
}

/// The rules task lists are held to by default: several agents may each
/// have a task in progress.
pub fn rules() -> ListRules {
    ListRules::default()
        .limits(Limits::DEFAULT.max_items(MAX_TASKS))
        .in_progress(InProgressPolicy::Warn)
}

/// The profile with its default rules.
pub fn profile() -> Profile {
    Profile::new(
        NAME,
        "Claude Code's task tools: one task per call, owners and dependencies",
        rules(),
    )
    .with_system_prompt(include_str!("../../descriptions/claude-tasks/system-prompt.md"))
    .tool(TaskCreate)
    .tool(TaskUpdate)
    .tool(TaskList)
    .tool(TaskGet)
}

/// The arguments of `TaskCreate`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct TaskCreateInput {
    /// A short imperative title ("Add the export endpoint").
    pub subject: String,
    /// What needs doing, and how to tell it is done.
    pub description: String,
    /// The title in the present continuous, shown while the task runs.
    #[serde(default)]
    pub active_form: Option<String>,
    /// Free-form data to attach.
    #[serde(default)]
    pub metadata: Option<Map<String, Value>>,
}

/// The arguments of `TaskUpdate`; fields left out stay as they are.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct TaskUpdateInput {
    /// The task to change.
    #[schemars(extend("x-id" = true))]
    pub task_id: String,
    /// Its new status; `deleted` removes it.
    #[serde(default)]
    pub status: Option<TaskStatus>,
    /// Its new title.
    #[serde(default)]
    pub subject: Option<String>,
    /// Its new description.
    #[serde(default)]
    pub description: Option<String>,
    /// Its new present-continuous title.
    #[serde(default)]
    pub active_form: Option<String>,
    /// The agent that takes it on.
    #[serde(default)]
    pub owner: Option<String>,
    /// Keys to merge into its metadata; a key set to null is removed.
    #[serde(default)]
    pub metadata: Option<Map<String, Value>>,
    /// Ids of tasks that must wait for this one.
    #[serde(default)]
    #[schemars(extend("x-id" = true))]
    pub add_blocks: Option<Vec<String>>,
    /// Ids of tasks this one must wait for.
    #[serde(default)]
    #[schemars(extend("x-id" = true))]
    pub add_blocked_by: Option<Vec<String>>,
}

/// The arguments of `TaskList`: none.
#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize, JsonSchema)]
pub struct TaskListInput {}

/// The arguments of `TaskGet`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct TaskGetInput {
    /// The task to show.
    #[schemars(extend("x-id" = true))]
    pub task_id: String,
}

/// The `TaskCreate` tool.
#[derive(Debug, Clone, Copy, Default)]
pub struct TaskCreate;

impl TypedTool for TaskCreate {
    type Input = TaskCreateInput;
    const NAME: &'static str = "TaskCreate";
    const DESCRIPTION: &'static str = include_str!("../../descriptions/claude-tasks/TaskCreate.md");
    const METADATA: ToolMetadata = ToolMetadata::LIST_WRITER.idempotent(false).inherited(true);

    fn run(&self, input: TaskCreateInput, ctx: &CallContext<'_>) -> Result<Outcome, ToolError> {
        let limits = &ctx.rules.limits;
        let mut problems = Violations::default();
        check_text(
            &input.subject,
            limits.max_content_bytes,
            Presence::Required,
            "subject".into(),
            &mut problems,
        );
        check_text(
            &input.description,
            limits.max_description_bytes,
            Presence::Optional,
            "description".into(),
            &mut problems,
        );
        if let Some(active) = &input.active_form {
            check_text(
                active,
                limits.max_active_form_bytes,
                Presence::Optional,
                "activeForm".into(),
                &mut problems,
            );
        }
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
        let mut task = Todo::new(input.subject.clone())
            .id(id.clone())
            .description(input.description)
            .created_at(ctx.now)
            .status_changed_at(ctx.now);
        task.active_form = input.active_form;
        task.metadata = input.metadata;
        state.push_task(task);
        let content = format!("Task #{id} created: {}", input.subject);
        let details = OneTask::of(&state, &id);
        Ok(Outcome::commit(state, ToolResult::ok(content, details.into())))
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
                ToolResult::ok(format!("Task #{id} deleted."), details.into()),
            ));
        }
        let patch = TodoPatch {
            content: input.subject,
            description: input.description,
            active_form: input.active_form,
            owner: input.owner,
            metadata: input.metadata,
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
        let mut content = format!("Updated task #{id}: {}.", changed.join(", "));
        let unblocked = newly_unblocked(ctx.state, &state, &id, previous.status);
        for other in &unblocked {
            let _ = write!(content, " Task #{other} is no longer blocked.");
        }
        let task = state.find(&id).ok_or_else(|| unknown(&id))?;
        let waiting: Vec<String> = state
            .open_blockers(task)
            .iter()
            .map(|b| format!("#{b}"))
            .collect();
        if matches!(task.status, Status::InProgress | Status::Completed) && !waiting.is_empty() {
            let _ = write!(content, " Note: it still waits on {}.", waiting.join(", "));
        }
        let details = Details::of(&OneTask {
            task: view(&state, &id),
            unblocked: Some(&unblocked),
        });
        Ok(Outcome::commit(state, ToolResult::ok(content, details.into())))
    }
}

/// The name `TaskUpdate` gives a patched field.
fn wire_name(field: TodoField) -> &'static str {
    match field {
        TodoField::Content => "subject",
        TodoField::Description => "description",
        TodoField::ActiveForm => "activeForm",
        TodoField::Owner => "owner",
        TodoField::Metadata => "metadata",
        TodoField::Status => "status",
        TodoField::Priority => "priority",
    }
}

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
    const DESCRIPTION: &'static str = include_str!("../../descriptions/claude-tasks/TaskGet.md");
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
fn reported_status(state: &TodoState, task: &Todo) -> &'static str {
    if task.status.is_open() && !state.open_blockers(task).is_empty() {
        "blocked"
    } else {
        task.status.as_str()
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

/// One task as the tools' details show it; `None` (JSON `null`) when there
/// is no such task.
fn view<'a>(state: &'a TodoState, id: &'a str) -> Option<TaskView<'a>> {
    let task = state.find(id)?;
    Some(TaskView {
        id,
        subject: &task.content,
        description: task.description.as_deref(),
        active_form: task.active_form.as_deref(),
        status: reported_status(state, task),
        owner: task.owner.as_deref(),
        metadata: task.metadata.as_ref(),
        blocked_by: &task.blocked_by,
        blocks: state.blocks(id),
    })
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct TaskView<'a> {
    id: &'a str,
    subject: &'a str,
    description: Option<&'a str>,
    active_form: Option<&'a str>,
    status: &'static str,
    owner: Option<&'a str>,
    metadata: Option<&'a Map<String, Value>>,
    blocked_by: &'a [String],
    blocks: Vec<&'a str>,
}

/// The details of a call about one task.
#[derive(Serialize)]
struct OneTask<'a> {
    task: Option<TaskView<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    unblocked: Option<&'a [String]>,
}

impl<'a> OneTask<'a> {
    fn of(state: &'a TodoState, id: &'a str) -> Details {
        Details::of(&OneTask {
            task: view(state, id),
            unblocked: None,
        })
    }
}

fn unknown(id: &str) -> TodoError {
    TodoError::UnknownTask {
        field: "taskId".into(),
        id: todokit_domain::clip(id),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    use crate::test_support::{run_tool, snapshot_settings};
    use pretty_assertions::assert_eq;

    fn call(tool: &str, state: &TodoState, args: &str) -> Outcome {
        run_tool(&profile(), tool, state, args)
    }

    /// Runs a sequence of calls, each on the state the last one left.
    fn session(calls: &[(&str, &str)]) -> (TodoState, Vec<ToolResult>) {
        let mut state = TodoState::new();
        let mut results = Vec::new();
        for (tool, args) in calls {
            let outcome = call(tool, &state, args);
            if let Some(next) = outcome.commit {
                state = next;
            }
            results.push(outcome.result);
        }
        (state, results)
    }

    const THREE: [(&str, &str); 3] = [
        (
            "TaskCreate",
            r#"{"subject":"Design the schema","description":"Tables and keys"}"#,
        ),
        (
            "TaskCreate",
            r#"{"subject":"Write the migration","description":"Up and down","activeForm":"Writing the migration"}"#,
        ),
        (
            "TaskCreate",
            r#"{"subject":"Ship it","description":"Tag a release"}"#,
        ),
    ];

    fn chained() -> Vec<(&'static str, &'static str)> {
        let mut calls = THREE.to_vec();
        calls.push(("TaskUpdate", r#"{"taskId":"1","addBlocks":["2"]}"#));
        calls.push(("TaskUpdate", r#"{"taskId":"3","addBlockedBy":["2"]}"#));
        calls
    }

    #[test]
    fn create_hands_out_ids_in_order_and_says_which() {
        let (state, results) = session(&THREE);
        let actual = (
            results.iter().map(|r| r.content.clone()).collect::<Vec<_>>(),
            state
                .tasks()
                .map(|t| t.id.clone().unwrap_or_default())
                .collect::<Vec<_>>(),
        );
        let expected = (
            vec![
                "Task #1 created: Design the schema".to_owned(),
                "Task #2 created: Write the migration".to_owned(),
                "Task #3 created: Ship it".to_owned(),
            ],
            vec!["1".to_owned(), "2".to_owned(), "3".to_owned()],
        );
        assert_eq!(actual, expected);
    }

    #[test]
    fn a_chain_reports_blocked_until_each_blocker_completes() {
        let mut calls = chained();
        calls.push(("TaskList", "{}"));
        calls.push(("TaskUpdate", r#"{"taskId":"1","status":"completed"}"#));
        calls.push(("TaskList", "{}"));
        calls.push(("TaskUpdate", r#"{"taskId":"2","status":"completed"}"#));
        calls.push(("TaskList", "{}"));
        let (_, results) = session(&calls);
        let actual: Vec<String> = [5, 6, 7, 8, 9]
            .iter()
            .map(|i| results[*i].content.clone())
            .collect();
        let expected = vec![
            "#1 [pending] Design the schema\n#2 [blocked] Write the migration [blocked by #1]\n#3 [blocked] Ship it [blocked by #2]".to_owned(),
            "Updated task #1: status. Task #2 is no longer blocked.".to_owned(),
            "#1 [completed] Design the schema\n#2 [pending] Write the migration\n#3 [blocked] Ship it [blocked by #2]".to_owned(),
            "Updated task #2: status. Task #3 is no longer blocked.".to_owned(),
            "#1 [completed] Design the schema\n#2 [completed] Write the migration\n#3 [pending] Ship it".to_owned(),
        ];
        assert_eq!(actual, expected);
    }

    #[test]
    fn a_cycle_is_refused_and_nothing_changes() {
        let (state, _) = session(&chained());
        let outcome = call(
            "TaskUpdate",
            &state,
            r#"{"taskId":"1","addBlockedBy":["3"],"owner":"agent-a"}"#,
        );
        let actual = (outcome.result.content, outcome.commit);
        let expected = (
            "TaskUpdate was not applied; the stored list is unchanged.\n\
             - addBlockedBy[0]: task 1 cannot wait on task 3: that would close the cycle 1 -> 3 -> 2 -> 1\n\
             Fix the arguments and call TaskUpdate again."
                .to_owned(),
            None,
        );
        assert_eq!(actual, expected);
    }

    #[test]
    fn an_unknown_id_is_named() {
        let (state, _) = session(&THREE);
        let actual: Vec<String> = [
            ("TaskUpdate", r#"{"taskId":"9","status":"completed"}"#),
            ("TaskUpdate", r#"{"taskId":"1","addBlocks":["8"]}"#),
            ("TaskGet", r#"{"taskId":"7"}"#),
        ]
        .iter()
        .map(|(tool, args)| {
            call(tool, &state, args).result.details.value()["error"]["problems"][0]["message"].to_string()
        })
        .collect();
        let expected = vec![
            "\"taskId: no task has id \\\"9\\\"\"".to_owned(),
            "\"addBlocks[0]: no task has id \\\"8\\\"\"".to_owned(),
            "\"taskId: no task has id \\\"7\\\"\"".to_owned(),
        ];
        assert_eq!(actual, expected);
    }

    #[test]
    fn update_changes_only_the_given_fields_and_merges_metadata() {
        let mut calls = THREE.to_vec();
        calls.push(("TaskUpdate", r#"{"taskId":"2","metadata":{"a":1,"b":2}}"#));
        calls.push((
            "TaskUpdate",
            r#"{"taskId":"2","owner":"agent-b","metadata":{"a":null,"c":3}}"#,
        ));
        let (state, _) = session(&calls);
        let task = state.find("2").cloned().unwrap_or_default();
        let actual = (
            task.content,
            task.owner,
            task.metadata.map(Value::Object),
            task.status,
        );
        let expected = (
            "Write the migration".to_owned(),
            Some("agent-b".to_owned()),
            Some(json!({"b": 2, "c": 3})),
            Status::Pending,
        );
        assert_eq!(actual, expected);
    }

    #[test]
    fn deleted_removes_the_task_and_the_edges_to_it() {
        let mut calls = chained();
        calls.push(("TaskUpdate", r#"{"taskId":"2","status":"deleted"}"#));
        let (state, results) = session(&calls);
        let actual = (
            results.last().map(|r| r.content.clone()),
            state
                .tasks()
                .map(|t| (t.id.clone().unwrap_or_default(), t.blocked_by.clone()))
                .collect::<Vec<_>>(),
        );
        let expected = (
            Some("Task #2 deleted.".to_owned()),
            vec![("1".to_owned(), vec![]), ("3".to_owned(), vec![])],
        );
        assert_eq!(actual, expected);
    }

    #[test]
    fn every_status_is_accepted() {
        let (state, _) = session(&THREE);
        let actual: Vec<Option<Status>> = ["pending", "in_progress", "completed", "done", "deleted"]
            .iter()
            .map(|s| {
                let outcome = call(
                    "TaskUpdate",
                    &state,
                    &format!(r#"{{"taskId":"1","status":"{s}"}}"#),
                );
                outcome
                    .commit
                    .map(|next| next.find("1").map(|t| t.status).unwrap_or(Status::Abandoned))
            })
            .collect();
        let expected = vec![
            Some(Status::Pending),
            Some(Status::InProgress),
            Some(Status::Completed),
            Some(Status::Completed),
            Some(Status::Abandoned),
        ];
        assert_eq!(actual, expected);
    }

    #[test]
    fn an_empty_subject_is_refused() {
        let outcome = call(
            "TaskCreate",
            &TodoState::new(),
            r#"{"subject":" ","description":""}"#,
        );
        let actual = (outcome.result.is_error, outcome.commit);
        let expected = (true, None);
        assert_eq!(actual, expected);
    }

    #[test]
    fn result_texts() {
        let mut calls = chained();
        calls.push((
            "TaskUpdate",
            r#"{"taskId":"2","owner":"agent-a","status":"in_progress","metadata":{"pr":42}}"#,
        ));
        calls.push(("TaskList", "{}"));
        calls.push(("TaskGet", r#"{"taskId":"2"}"#));
        calls.push(("TaskUpdate", r#"{"taskId":"3"}"#));
        calls.push(("TaskList", r#"{"unused":true}"#));
        let (_, results) = session(&calls);
        snapshot_settings().bind(|| {
            for (i, result) in results.iter().enumerate() {
                insta::assert_snapshot!(
                    format!("result__claude-tasks__{i:02}_{}", calls[i].0),
                    result.content
                );
                insta::assert_json_snapshot!(
                    format!("details__claude-tasks__{i:02}_{}", calls[i].0),
                    result.details.value()
                );
            }
        });
        let empty = call("TaskList", &TodoState::new(), "{}").result.content;
        assert_eq!(empty, "No tasks found.");
    }
}
