//! A dialect of the stores' tests' own, written over the profile-author
//! prelude as a host's would be, so the stores are tested through the
//! service with no dependency on the dialects' crate: `TodoWrite`
//! replaces the list (`{content, status, activeForm}` items),
//! `TaskCreate` adds a task numbered from the list's counter, and
//! `TaskUpdate` claims one for an owner (refused while another owns it).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use todokit_app::prelude::*;
use todokit_domain::{ClaimFields, Status, check_claim};

/// The profile.
pub fn profile() -> Profile {
    Profile::new(
        "stores-test",
        "the stores' tests' own dialect",
        ListRules::with_default_limits(InProgressPolicy::Warn),
    )
    .tool(ListTool(Write))
    .tool(Create)
    .tool(Update)
}

/// One item of `TodoWrite`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Item {
    content: String,
    status: TriStatus,
    #[serde(rename = "activeForm")]
    active_form: String,
}

/// The arguments of `TodoWrite`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, JsonSchema)]
pub struct WriteInput {
    todos: Vec<Item>,
}

todokit_app::prelude::writer_tool! {
    /// Replaces the list.
    Write = "TodoWrite",
    "Replace the list."
}

impl ListWriter for Write {
    type Input = WriteInput;
    type Item<'a> = &'a str;
    type Fields = Counts;

    fn todos(input: &mut WriteInput) -> Result<Vec<Todo>, ToolError> {
        Ok(input
            .todos
            .iter_mut()
            .map(|item| {
                Todo::new(std::mem::take(&mut item.content))
                    .status(item.status)
                    .active_form(std::mem::take(&mut item.active_form))
            })
            .collect())
    }

    fn item(todo: &Todo, _position: usize) -> &str {
        &todo.content
    }

    fn text(_op: &ToolOperation<'_, WriteInput>) -> String {
        "written".to_owned()
    }

    fn fields(op: &ToolOperation<'_, WriteInput>) -> Counts {
        Counts::of(op)
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize, JsonSchema)]
struct CreateInput {
    subject: String,
    description: String,
}

/// Adds a task.
#[derive(Debug, Clone, Copy, Default)]
struct Create;

impl TypedTool for Create {
    type Input = CreateInput;
    const NAME: &'static str = "TaskCreate";
    const DESCRIPTION: &'static str = "Add a task.";
    const METADATA: ToolMetadata = ToolMetadata::LIST_WRITER;

    fn run(&self, input: CreateInput, ctx: &CallContext<'_>) -> Result<Outcome, ToolError> {
        let mut state = ctx.state.clone();
        let id = state.allocate_id().to_string();
        state.push_task(
            Todo::new(input.subject)
                .id(id.clone())
                .description(input.description),
        );
        Ok(Outcome::commit(
            state,
            ToolResult::ok(format!("Task #{id} created"), Details::of(&id)),
        ))
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize, JsonSchema)]
struct UpdateInput {
    #[serde(rename = "taskId")]
    task_id: String,
    owner: String,
    status: TriStatus,
}

/// Claims a task for an owner.
#[derive(Debug, Clone, Copy, Default)]
struct Update;

impl TypedTool for Update {
    type Input = UpdateInput;
    const NAME: &'static str = "TaskUpdate";
    const DESCRIPTION: &'static str = "Claim a task.";
    const METADATA: ToolMetadata = ToolMetadata::LIST_WRITER;

    fn run(&self, input: UpdateInput, ctx: &CallContext<'_>) -> Result<Outcome, ToolError> {
        let mut state = ctx.state.clone();
        let fields = ClaimFields {
            owner: "owner",
            take_over: "takeOver",
        };
        let Some(task) = state.find_mut(&input.task_id) else {
            return Err(ToolError::refused("taskId", "no such task"));
        };
        check_claim(task, &input.task_id, &input.owner, false, fields)?;
        task.owner = Some(input.owner);
        task.set_status(Status::from(input.status), ctx.now);
        Ok(Outcome::commit(
            state,
            ToolResult::ok("updated", Details::of(&input.task_id)),
        ))
    }
}
