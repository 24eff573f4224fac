//! `omp`: oh-my-pi's current `todo` (since June 2026; `pi` is its earlier
//! `todo_write`). One op per call, the arguments being the op itself:
//! `init`, `start`, `done`, `drop`, `block`, `unblock`, `rm`, `append` and
//! the read-only `view`, over phases of tasks named by their content. A
//! blocked task carries an optional reason and is neither open work nor
//! started by the normalization that keeps one task in progress. A call
//! with any error changes nothing: the answer leads with its errors and
//! shows the list as it was.

mod summary;
mod words;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use todokit_domain::{
    CompletedTask, Op, OpKind, PhaseItems, Violations, apply_ops, check_op_size, validate_phases,
};

use crate::pi::{phase_label, storage};
use todokit_app::prelude::*;

pub use summary::{CLEARED, EMPTY, WORKED_AHEAD, summary};
pub use words::problem_text;

/// The profile's name.
pub const NAME: &str = "omp";
/// The phase a flat `init` (`items` without `list`) fills when it names none.
pub const DEFAULT_INIT_PHASE: &str = "Tasks";

/// The profile with its defaults. Finished tasks stay: oh-my-pi clears
/// them from its display only, never from the list.
pub fn profile() -> Profile {
    Profile::new(
        NAME,
        "oh-my-pi's todo: one op per call over phases of tasks, with block and view",
        ListRules::with_default_limits(InProgressPolicy::Normalize),
    )
    .with_upstream(Upstream {
        agent: "oh-my-pi",
        pin: Pin::Package {
            registry: "npm",
            name: "@oh-my-pi/pi-coding-agent",
            version: "18.2.3",
            path: "src/tools/todo.ts",
            sha256: "5433b265fb264e2e6198c9291a7f5a36b0c1a75ad80b697399851ec0e2534e2b",
        },
        ships_in: "oh-my-pi since June 2026 (`todo`, coding-agent 18.0.0 at this pin)",
        checked: Some(Checked {
            date: "2026-12-07",
            against: "18.2.3",
        }),
    })
    // 18.2.3 is the newest version npm installs: 18.3.4 (npm's `latest`)
    // and 18.2.9 name sibling packages (`@oh-my-pi/omptype`, `pi-ai`, …)
    // at versions never published, so `npm install` refuses them. Their
    // `todo.ts` differs from 18.2.3's in descriptions and in where its
    // types live, not in what it does.
    .with_system_prompt(include_str!("../../descriptions/omp/system-prompt.md"))
    .with_phases()
    .with_example(
        "todo",
        r#"{"op":"init","list":[{"phase":"Build","items":["Scaffold the crate","Wire the store"]},{"phase":"Ship","items":["Tag the release"]}]}"#,
    )
    // oh-my-pi sends its objects closed (pi-ai's toolWireSchema) yet its
    // ArkType schema ignores the keys it lacks: extra keys are left out.
    .with_leniency(Leniency::STANDARD.enum_spelling(true).unknown_keys(true))
    .tool(Commands(TodoTool))
}

todokit_app::prelude::wire_enum! {
    /// The operation a `todo` call applies.
    pub enum TodoOp {
        /// Replace the list.
        Init = "init",
        /// Put a task in progress.
        Start = "start",
        /// Mark tasks completed.
        Done = "done",
        /// Remove tasks.
        Rm = "rm",
        /// Mark tasks abandoned.
        Drop = "drop",
        /// Mark tasks blocked.
        Block = "block",
        /// Put blocked tasks back to pending.
        Unblock = "unblock",
        /// Add tasks to a phase.
        Append = "append",
        /// Show the list.
        View = "view",
    }
    aliases {}
}

/// One phase of an `init`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, JsonSchema)]
// Closed, as pi-ai sends it (the description above is the model's).
#[schemars(extend("additionalProperties" = false))]
pub struct InitPhase {
    /// The phase's name.
    pub phase: String,
    /// Its tasks, in order.
    #[schemars(length(min = 1))]
    pub items: Vec<String>,
}

impl From<InitPhase> for PhaseItems {
    fn from(phase: InitPhase) -> Self {
        PhaseItems {
            phase: phase.phase,
            items: phase.items,
        }
    }
}

/// The key [`TodoTool::complete`] sets when it reads bare `items` as an
/// `init`, which holds only while the list has no phase; a model's own
/// value for it is taken out first.
pub const INIT_FROM_ITEMS: &str = "x-todokit-init-from-items";

/// The arguments of `todo`: one operation and the fields it uses.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, JsonSchema)]
// pi-ai closes the objects it sends (`closeDeclaredObjects`).
#[schemars(extend("additionalProperties" = false))]
pub struct TodoInput {
    /// The operation to apply.
    pub op: TodoOp,
    /// For `init`: the whole list, phase by phase.
    #[serde(default)]
    #[schemars(transform = todokit_app::prelude::omissible)]
    pub list: Option<Vec<InitPhase>>,
    /// A task, by its full text.
    #[serde(default)]
    #[schemars(transform = todokit_app::prelude::omissible)]
    pub task: Option<String>,
    /// A phase, by its name.
    #[serde(default)]
    #[schemars(transform = todokit_app::prelude::omissible)]
    pub phase: Option<String>,
    /// For `append`, or a one-phase `init`: the tasks.
    #[serde(default)]
    #[schemars(transform = todokit_app::prelude::omissible)]
    pub items: Option<Vec<String>>,
    /// For `block`: what the work waits on.
    #[serde(default)]
    #[schemars(transform = todokit_app::prelude::omissible)]
    pub reason: Option<String>,
    /// Set only by [`TodoTool::complete`] (see [`INIT_FROM_ITEMS`]).
    #[serde(default, rename = "x-todokit-init-from-items")]
    #[schemars(skip)]
    pub init_from_items: bool,
}

impl TodoInput {
    /// The engine's op for a writing command: a flat `init` becomes one
    /// phase, named by `phase` or [`DEFAULT_INIT_PHASE`].
    fn into_op(self, kind: OpKind) -> Op {
        let list = match (kind, self.list, self.items.as_deref()) {
            (OpKind::Init, None, Some(items)) if !items.is_empty() => Some(vec![PhaseItems {
                phase: self
                    .phase
                    .clone()
                    .unwrap_or_else(|| DEFAULT_INIT_PHASE.to_owned()),
                items: items.to_vec(),
            }]),
            (_, list, _) => list.map(|phases| phases.into_iter().map(PhaseItems::from).collect()),
        };
        Op {
            list,
            task: self.task,
            phase: self.phase,
            items: self.items,
            reason: self.reason,
            ..Op::new(kind)
        }
    }
}

/// The `todo` tool.
#[derive(Debug, Clone, Copy, Default)]
pub struct TodoTool;

impl CommandTool for TodoTool {
    type Input = TodoInput;
    type Command = TodoOp;
    const NAME: &'static str = "todo";
    const DESCRIPTION: &'static str = include_str!("../../descriptions/omp/todo.md");

    fn command(input: &TodoInput) -> TodoOp {
        input.op
    }

    fn metadata(command: TodoOp) -> ToolMetadata {
        match command {
            TodoOp::View => ToolMetadata::LIST_READER,
            // A second identical call fails (`rm`) or adds again (`append`).
            TodoOp::Rm => ToolMetadata::LIST_WRITER.idempotent(false),
            TodoOp::Append => ToolMetadata::LIST_WRITER.idempotent(false).destructive(false),
            // Only `init` (a new list) and `rm` take tasks off it.
            TodoOp::Init => ToolMetadata::LIST_WRITER,
            _ => ToolMetadata::LIST_WRITER.destructive(false),
        }
    }

    /// A missing `op` is inferred as oh-my-pi infers it: a non-empty
    /// `list` is an `init`, non-empty `items` with a `phase` an `append`,
    /// and bare non-empty `items` an `init` while the list has no phase
    /// yet; that last needs the stored list, which [`TodoTool::run`]
    /// reads, so it is marked here (with [`INIT_FROM_ITEMS`]).
    fn complete(args: &mut Value) {
        let Some(fields) = args.as_object_mut() else {
            return;
        };
        fields.remove(INIT_FROM_ITEMS);
        if fields.contains_key("op") {
            return;
        }
        let filled = |key: &str| {
            fields
                .get(key)
                .and_then(Value::as_array)
                .is_some_and(|a| !a.is_empty())
        };
        let named_phase = fields
            .get("phase")
            .and_then(Value::as_str)
            .is_some_and(|p| !p.is_empty());
        let inferred = match (filled("list"), filled("items"), named_phase) {
            (true, _, _) => TodoOp::Init,
            (false, true, true) => TodoOp::Append,
            (false, true, false) => {
                fields.insert(INIT_FROM_ITEMS.to_owned(), Value::Bool(true));
                TodoOp::Init
            }
            (false, false, _) => return,
        };
        fields.insert("op".to_owned(), Value::from(inferred.as_str()));
    }

    fn run(&self, command: TodoOp, input: TodoInput, ctx: &CallContext<'_>) -> Result<Outcome, ToolError> {
        if input.init_from_items && !ctx.state.phases.is_empty() {
            // oh-my-pi infers nothing from bare items once a phase exists.
            return Err(ToolError::refused("(arguments)", "missing `op`"));
        }
        let kind = match command {
            TodoOp::View => return Ok(Outcome::read(view(ctx))),
            TodoOp::Init => OpKind::Init,
            TodoOp::Start => OpKind::Start,
            TodoOp::Done => OpKind::Done,
            TodoOp::Rm => OpKind::Rm,
            TodoOp::Drop => OpKind::Drop,
            TodoOp::Block => OpKind::Block,
            TodoOp::Unblock => OpKind::Unblock,
            TodoOp::Append => OpKind::Append,
        };
        let op = input.into_op(kind);
        let mut problems = Violations::default();
        check_op_size(&op, &ctx.rules.limits, str::to_owned, &mut problems);
        problems.into_result()?;
        let batch = apply_ops(ctx.state, &[op], ctx.now);
        let errors: Vec<String> = batch.errors.iter().flatten().map(problem_text).collect();
        let storage = storage(ctx.durable);
        if !errors.is_empty() {
            // The whole op is discarded: the answer shows the list as it was.
            let result = ToolResult {
                is_error: true,
                content: summary(ctx.state, &errors, false),
                details: ctx.details(ctx.state, move |before, _| {
                    Details::of(&TodoDetails::new(command, before, storage, &[]))
                }),
            };
            return Ok(Outcome::read(result));
        }
        validate_phases(&batch.state, &ctx.rules.limits, &FIELDS)?;
        let completed = batch.completed;
        let result = ToolResult {
            is_error: false,
            content: summary(&batch.state, &[], false),
            details: ctx.details(&batch.state, move |_, after| {
                Details::of(&TodoDetails::new(command, after, storage, &completed))
            }),
        };
        if batch.state == *ctx.state {
            return Ok(Outcome::read(result));
        }
        Ok(Outcome::commit(batch.state, result))
    }
}

/// The names `omp` size errors use for the list and its parts.
const FIELDS: FieldNames = FieldNames {
    list: "tasks",
    ..FieldNames::DEFAULT
};

/// `view`: the list as it stands, nothing normalized or stored.
fn view(ctx: &CallContext<'_>) -> ToolResult {
    let storage = storage(ctx.durable);
    ToolResult {
        is_error: false,
        content: summary(ctx.state, &[], true),
        details: ctx.details(ctx.state, move |before, _| {
            Details::of(&TodoDetails::new(TodoOp::View, before, storage, &[]))
        }),
    }
}

/// What `todo` reports beside its text: the op, the phases, where they are
/// kept and the tasks this call completed (left out when none).
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TodoDetails<'a> {
    /// The op that ran.
    pub op: TodoOp,
    /// Every phase with its tasks.
    pub phases: Vec<PhaseView<'a>>,
    /// `session` or `memory`.
    pub storage: &'static str,
    /// The tasks that became completed.
    #[serde(skip_serializing_if = "<[CompletedTask]>::is_empty")]
    pub completed_tasks: &'a [CompletedTask],
}

impl<'a> TodoDetails<'a> {
    /// The details of `op` showing `state`.
    pub fn new(
        op: TodoOp,
        state: &'a TodoState,
        storage: &'static str,
        completed: &'a [CompletedTask],
    ) -> Self {
        let phases = state
            .phases
            .iter()
            .map(|phase| PhaseView {
                name: phase_label(phase),
                tasks: phase
                    .tasks
                    .iter()
                    .map(|task| TaskView {
                        content: &task.content,
                        status: task.status,
                        blocker: task
                            .blocked_reason
                            .as_deref()
                            .filter(|_| task.status == Status::Blocked),
                    })
                    .collect(),
            })
            .collect();
        Self {
            op,
            phases,
            storage,
            completed_tasks: completed,
        }
    }
}

/// One phase as `todo`'s details show it.
#[derive(Debug, Serialize)]
pub struct PhaseView<'a> {
    /// Its name.
    pub name: &'a str,
    /// Its tasks.
    pub tasks: Vec<TaskView<'a>>,
}

/// One task as `todo`'s details show it.
#[derive(Debug, Serialize)]
pub struct TaskView<'a> {
    /// Its text.
    pub content: &'a str,
    /// Where it stands.
    pub status: Status,
    /// What a blocked task waits on, when it says.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub blocker: Option<&'a str>,
}

#[cfg(test)]
mod tests;
