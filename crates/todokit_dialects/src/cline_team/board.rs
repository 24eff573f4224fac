//! The `team_task` tool. Its answers are what Cline's model reads: the
//! action's result object as compact JSON, or, for a call Cline refuses,
//! `{"error": message}` (Cline's agent loop wraps a thrown error's message
//! so, and sends a JSON result as its JSON text).

use std::borrow::Cow;

use serde_json::{Map, Value, json};
use todokit_domain::{Presence, Violations, check_text_with};

use super::zod;
use super::{Action, BoardStatus, TeamTaskArgs, TeamTaskInput};
use todokit_app::prelude::WireEnum;
use todokit_app::prelude::*;

/// What Cline tells the model after a claim.
const NEXT_STEP: &str = "Task is now in_progress. Execute the work using team_run_task or your own tools, then call \
                         team_task with action=complete when done.";

/// The fields a `create` names as ignored when a call sends them.
const IGNORED_ON_CREATE: [&str; 4] = ["status", "taskId", "summary", "reason"];

/// The metadata keys the board keeps beside a task's own fields.
const CREATED_BY: &str = "createdBy";
const SUMMARY: &str = "summary";

/// The `team_task` tool, its calls made by one agent (see
/// [`super::profile_as`]).
#[derive(Debug, Clone, Default)]
pub struct TeamTask {
    requester: String,
}

impl TeamTask {
    /// The tool whose calls `requester` makes.
    pub fn as_agent(requester: &str) -> Self {
        Self {
            requester: requester.to_owned(),
        }
    }
}

impl TypedTool for TeamTask {
    type Input = TeamTaskInput;
    const NAME: &'static str = "team_task";
    const DESCRIPTION: &'static str = include_str!("../../descriptions/cline-team/team_task.md");
    const METADATA: ToolMetadata = ToolMetadata::LIST_WRITER.idempotent(false).destructive(false);

    /// Arguments Cline's schema refuses are refused in zod's words.
    fn refusal(args: &Value, problems: Vec<ArgumentError>) -> ToolError {
        match zod::refusal(args) {
            Some(words) => ToolError::refused("(arguments)", words),
            None => ToolError::Arguments(problems),
        }
    }

    fn run(&self, input: TeamTaskInput, ctx: &CallContext<'_>) -> Result<Outcome, ToolError> {
        let TeamTaskInput { args, sent } = input;
        // What passed the schema can still lack a field its action needs.
        if let Some(words) = zod::refusal_of(&sent) {
            return Ok(failed(&words));
        }
        check_sizes(&args, &ctx.rules.limits)?;
        let state = with_board_ids(ctx.state);
        let task_id = args.task_id.clone().unwrap_or_default();
        let requester = self.requester.as_str();
        match args.action {
            Action::Create => create(state.into_owned(), args, &sent, requester, ctx),
            Action::List => Ok(list(&state, &args)),
            Action::Claim => Ok(change(state.into_owned(), |state| {
                let blocked_by = unresolved(state, &task_id);
                let task = found(state, &task_id)?;
                if let Some(dependency) = blocked_by.first() {
                    return Err(format!("Task \"{task_id}\" is blocked by \"{dependency}\""));
                }
                task.set_status(Status::InProgress, ctx.now);
                task.owner = Some(requester.to_owned());
                Ok(json!({
                    "action": "claim",
                    "taskId": task_id,
                    "status": "in_progress",
                    "nextStep": NEXT_STEP,
                }))
            })),
            Action::Complete => Ok(change(state.into_owned(), |state| {
                let task = found(state, &task_id)?;
                task.set_status(Status::Completed, ctx.now);
                set_meta(task, SUMMARY, args.summary.unwrap_or_default());
                if task.owner.as_deref().is_none_or(str::is_empty) {
                    task.owner = Some(requester.to_owned());
                }
                Ok(json!({"action": "complete", "taskId": task_id, "status": "completed"}))
            })),
            Action::Block => Ok(change(state.into_owned(), |state| {
                let task = found(state, &task_id)?;
                let reason = args.reason.unwrap_or_default();
                task.block(Some(reason.clone()), ctx.now);
                set_meta(task, SUMMARY, reason);
                Ok(json!({"action": "block", "taskId": task_id, "status": "blocked"}))
            })),
        }
    }
}

/// A call Cline refuses with `message`; nothing is stored. The details
/// are the answer's object, as for every call.
fn failed(message: &str) -> Outcome {
    let answer = json!({ "error": message });
    Outcome::read(ToolResult {
        is_error: true,
        content: answer.to_string(),
        details: Details::of(&answer),
    })
}

/// A call that stores `state` and answers `answer`.
fn committed(state: TodoState, answer: &Value) -> Outcome {
    Outcome::commit(state, ToolResult::ok(answer.to_string(), Details::of(answer)))
}

/// todokit's own bounds on what a call would store: sizes (Cline sets
/// none), and a title that is not blank (Cline takes one; todokit keeps no
/// task without a name).
fn check_sizes(args: &TeamTaskArgs, limits: &Limits) -> Result<(), TodoError> {
    let mut problems = Violations::default();
    let texts = [
        ("title", &args.title, limits.max_content_bytes, Presence::Required),
        (
            "description",
            &args.description,
            limits.max_description_bytes,
            Presence::Optional,
        ),
        (
            "assignee",
            &args.assignee,
            limits.max_description_bytes,
            Presence::Optional,
        ),
        (
            "summary",
            &args.summary,
            limits.max_description_bytes,
            Presence::Optional,
        ),
        (
            "reason",
            &args.reason,
            limits.max_description_bytes,
            Presence::Optional,
        ),
        ("taskId", &args.task_id, limits.max_id_bytes, Presence::Optional),
    ];
    for (name, text, max, presence) in texts {
        if let Some(text) = text {
            check_text_with(text, max, presence, || name.to_owned(), &mut problems);
        }
    }
    limits.check_ids(
        args.depends_on.as_deref().unwrap_or_default(),
        "dependsOn",
        &mut problems,
    );
    problems.into_result()
}

/// The list with a board id on every task: a task another profile wrote
/// without one gets the next `task_NNNN` (shown at once, stored with the
/// next write).
fn with_board_ids(state: &TodoState) -> Cow<'_, TodoState> {
    state.with_ids_from(next_id)
}

/// The next `task_NNNN` no task has, from the list's never-reused counter.
fn next_id(state: &mut TodoState) -> String {
    loop {
        let id = format!("task_{:0>4}", state.allocate_id());
        if state.find(&id).is_none() {
            return id;
        }
    }
}

fn create(
    mut state: TodoState,
    args: TeamTaskArgs,
    sent: &Map<String, Value>,
    requester: &str,
    ctx: &CallContext<'_>,
) -> Result<Outcome, ToolError> {
    let limits = &ctx.rules.limits;
    let mut problems = Violations::default();
    limits.check_room(state.tasks().count() + 1, "(board)", &mut problems);
    problems.into_result()?;
    let id = next_id(&mut state);
    let mut task = Todo::new(args.title.unwrap_or_default())
        .id(id.clone())
        .description(args.description.unwrap_or_default())
        .blocked_by(args.depends_on.unwrap_or_default())
        .created_at(ctx.now)
        .status_changed_at(ctx.now);
    set_meta(&mut task, CREATED_BY, requester.to_owned());
    if let Some(assignee) = args.assignee {
        task.owner = Some(assignee);
        task.status = Status::InProgress;
    }
    let status = BoardStatus::from(task.status).as_str();
    state.push_task(task);
    let mut answer = json!({"action": "create", "taskId": id, "status": status});
    let ignored: Vec<&str> = sent
        .iter()
        .filter(|(key, value)| IGNORED_ON_CREATE.contains(&key.as_str()) && !value.is_null())
        .map(|(key, _)| key.as_str())
        .collect();
    if !ignored.is_empty() {
        answer["ignoredFields"] = json!(ignored);
        answer["note"] = json!(format!(
            "Ignored fields for action=create: {}",
            ignored.join(", ")
        ));
    }
    Ok(committed(state, &answer))
}

/// The tasks `args` asks for, as Cline lists them.
fn list(state: &TodoState, args: &TeamTaskArgs) -> Outcome {
    let tasks: Vec<Value> = state
        .tasks()
        .filter(|t| args.status.is_none_or(|s| BoardStatus::from(t.status) == s))
        .filter(|t| args.assignee.is_none() || t.owner == args.assignee)
        .map(|task| listed(state, task))
        .collect();
    let answer = json!({"action": "list", "tasks": tasks});
    Outcome::read(ToolResult::ok(answer.to_string(), Details::of(&answer)))
}

/// One task as `list` shows it: Cline's task with what waits on it.
fn listed(state: &TodoState, task: &Todo) -> Value {
    let mut shown = Map::new();
    shown.insert("id".into(), json!(task.id));
    shown.insert("title".into(), json!(task.content));
    if let Some(description) = &task.description {
        shown.insert("description".into(), json!(description));
    }
    shown.insert("status".into(), json!(BoardStatus::from(task.status).as_str()));
    let iso = |at: u64| UtcTime::of(at).iso_8601();
    if let Some(created) = task.created_at {
        shown.insert("createdAt".into(), json!(iso(created)));
    }
    if let Some(updated) = task.status_changed_at.or(task.created_at) {
        shown.insert("updatedAt".into(), json!(iso(updated)));
    }
    let meta = |key: &str| {
        task.metadata
            .as_ref()
            .and_then(|m| m.get(key))
            .filter(|v| v.is_string())
            .cloned()
    };
    if let Some(creator) = meta(CREATED_BY) {
        shown.insert("createdBy".into(), creator);
    }
    if let Some(owner) = task.owner.as_deref().filter(|o| !o.is_empty()) {
        shown.insert("assignee".into(), json!(owner));
    }
    shown.insert("dependsOn".into(), json!(task.blocked_by));
    if let Some(summary) = meta(SUMMARY) {
        shown.insert("summary".into(), summary);
    }
    let blocked_by = unresolved(state, task.id.as_deref().unwrap_or_default());
    let ready = task.status == Status::Pending
        && task.owner.as_deref().is_none_or(str::is_empty)
        && blocked_by.is_empty();
    shown.insert("isReady".into(), json!(ready));
    shown.insert("blockedBy".into(), json!(blocked_by));
    Value::Object(shown)
}

/// The dependencies of task `id` not completed yet (or no task at all).
fn unresolved(state: &TodoState, id: &str) -> Vec<String> {
    let Some(task) = state.find(id) else {
        return Vec::new();
    };
    task.blocked_by
        .iter()
        .filter(|dependency| {
            state
                .find(dependency)
                .is_none_or(|d| BoardStatus::from(d.status) != BoardStatus::Completed)
        })
        .cloned()
        .collect()
}

/// A change to one task: `apply` changes `state` and gives the answer, or
/// refuses in Cline's words (then nothing is stored).
fn change(mut state: TodoState, apply: impl FnOnce(&mut TodoState) -> Result<Value, String>) -> Outcome {
    match apply(&mut state) {
        Ok(answer) => committed(state, &answer),
        Err(message) => failed(&message),
    }
}

/// Task `id`, to change it, or Cline's refusal when there is none.
fn found<'a>(state: &'a mut TodoState, id: &str) -> Result<&'a mut Todo, String> {
    state
        .find_mut(id)
        .ok_or_else(|| format!("Task \"{id}\" was not found"))
}

fn set_meta(task: &mut Todo, key: &str, value: String) {
    task.metadata
        .get_or_insert_with(Map::new)
        .insert(key.to_owned(), Value::String(value));
}
