//! `pi`: the phase-and-ops `todo_write`: a batch of ordered ops (`init`,
//! `start`, `done`, `drop`, `rm`, `append`, `note`) over phases of tasks
//! named by their content. A failing op is skipped and reported while the
//! rest apply (an `append` stops at the first task it cannot add); the
//! result is then marked as an error and still carries (and stores) the
//! new state. After the batch exactly one task is in progress when any is
//! open.
//!
//! Finished tasks clear themselves after a delay (60 s by default) and are
//! dropped when a stored conversation is resumed.

use std::fmt::Write;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use todokit_domain::{
    AppendMode, CompletedTask, Op, Phase, Violation, Violations, apply_ops_with, check_op_size,
    validate_phases,
};

use todokit_app::prelude::*;

mod ops;
mod words;

pub use ops::{BatchOp, BatchOpKind};
pub use words::{MARKERS, op_error, problem_text};

/// The profile's name.
pub const NAME: &str = "pi";
/// Finished tasks leave the list this long after they finished, by default.
pub const DEFAULT_CLEAR_DELAY_MS: i64 = 60_000;
/// The collapsed preview shows at most this many tasks per phase.
pub const PREVIEW_TASKS_PER_PHASE: usize = 8;

/// How finished tasks leave `pi` lists by default.
pub fn lifecycle() -> Lifecycle {
    Lifecycle::default()
        .clear_finished_after_ms(DEFAULT_CLEAR_DELAY_MS)
        .drop_finished_on_resume(true)
}

/// The profile with its defaults.
pub fn profile() -> Profile {
    Profile::new(NAME, "pi's todo_write: ordered ops over phases of tasks", ListRules::with_default_limits(InProgressPolicy::Normalize))
    .with_upstream(Upstream {
        agent: "oh-my-pi",
        // The last `todo_write` before the tool became `todo` (the `omp`
        // profile), read through a copy whose main line carries and merges
        // the repository's. `make bench` still measures the published
        // package 14.9.9 (speed, not words; `docs/dialects.md`).
        pin: Pin::Source {
            repository: "can1357/oh-my-pi",
            path: "packages/coding-agent/src/tools/todo-write.ts",
            commit: "0eee5a40197560045d9390533dfa98b2fdb45076",
            date: Some("2026-05-30"),
            read_through: Some("yorha2B0826/oh-my-pi"),
        },
        ships_in: "oh-my-pi before June 2026 (`todo_write`; renamed `todo` since, see the `omp` profile)",
        // The newest main-line commit of the copy, where the file is gone
        // (renamed in `dc4aeb7`): 0eee5a4 is its last version.
        checked: Some(Checked {
            date: "2026-11-28",
            against: "c13ef04b54fb89d4b794e96bf89fa0af74114294",
        }),
    })
        .with_system_prompt(include_str!("../../descriptions/pi/system-prompt.md"))
        .with_phases()
        .with_example("todo_write", r#"{"ops":[{"op":"init","list":[{"phase":"Build","items":["Scaffold","Wire"]},{"phase":"Ship","items":["Tag"]}]}]}"#)
        .with_leniency(Leniency::STANDARD.enum_spelling(true))
        .with_lifecycle(lifecycle())
        .tool(TodoWrite)
}

/// The arguments of `todo_write`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, JsonSchema)]
pub struct TodoWriteInput {
    /// The operations, applied in order.
    #[schemars(length(min = 1))]
    pub ops: Vec<BatchOp>,
}

/// The `todo_write` tool.
#[derive(Debug, Clone, Copy, Default)]
pub struct TodoWrite;

impl TypedTool for TodoWrite {
    type Input = TodoWriteInput;
    const NAME: &'static str = "todo_write";
    const DESCRIPTION: &'static str = include_str!("../../descriptions/pi/todo_write.md");
    // Notes and appends add on every call: the same batch twice is not the same list.
    const METADATA: ToolMetadata = ToolMetadata::LIST_WRITER.idempotent(false);

    fn run(&self, input: TodoWriteInput, ctx: &CallContext<'_>) -> Result<Outcome, ToolError> {
        let ops: Vec<Op> = input.ops.into_iter().map(Op::from).collect();
        // A name longer than any task's is refused, not quoted back, and a
        // list too long to keep is refused before it is built.
        let mut problems = Violations::default();
        let mut sent = 0;
        for (i, op) in ops.iter().enumerate() {
            sent += check_op_size(
                op,
                &ctx.rules.limits,
                |name| format!("ops[{i}].{name}"),
                &mut problems,
            );
        }
        if sent > ctx.rules.limits.max_items {
            problems.push(Violation::TooManyItems {
                field: "ops".to_owned(),
                count: sent,
                max: ctx.rules.limits.max_items,
            });
        }
        problems.into_result()?;
        // oh-my-pi's `append` stops at the first task it cannot add.
        let batch = apply_ops_with(ctx.state, &ops, ctx.now, AppendMode::UpToFirstProblem);
        // Ops fail one by one, but a batch whose result outgrows the size
        // limits is refused whole: nothing is stored.
        validate_phases(&batch.state, &ctx.rules.limits, &FIELDS)?;
        let errors: Vec<String> = batch.errors.iter().map(|problems| op_error(problems)).collect();
        let content = summary(&batch.state, &errors);
        let is_error = !errors.is_empty();
        let (completed, durable) = (batch.completed, ctx.durable);
        let details = ctx.details(&batch.state, move |_, after| {
            batch_details(after, &completed, &errors, durable)
        });
        let result = ToolResult {
            is_error,
            content,
            details,
        };
        if batch.state == *ctx.state {
            return Ok(Outcome::read(result));
        }
        Ok(Outcome::commit(batch.state, result))
    }
}

/// The names `pi` size errors use for the list and its parts.
const FIELDS: FieldNames = FieldNames {
    list: "tasks",
    content: "content",
    active_form: "activeForm",
    id: "id",
    status: "status",
    ..FieldNames::DEFAULT
};

/// One phase as `pi`'s details show it: its name and, per task, its
/// content, status and notes.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PhaseView<'a> {
    /// The phase's name.
    pub name: &'a str,
    /// Its tasks.
    pub tasks: Vec<TaskView<'a>>,
}

/// One task as `pi`'s details show it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TaskView<'a> {
    /// What to do.
    pub content: &'a str,
    /// Where it stands.
    pub status: Status,
    /// Its notes, left out when there are none.
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    pub notes: &'a [String],
}

/// The phases as `pi` shows them.
pub fn phases(state: &TodoState) -> Vec<PhaseView<'_>> {
    state
        .phases
        .iter()
        .map(|p| PhaseView {
            name: &p.name,
            tasks: p
                .tasks
                .iter()
                .map(|t| TaskView {
                    content: &t.content,
                    status: t.status,
                    notes: &t.notes,
                })
                .collect(),
        })
        .collect()
}

/// The details of a batch: the phases as they now stand (`after`), where
/// they are kept, what was completed and what failed.
fn batch_details(
    after: &TodoState,
    completed: &[CompletedTask],
    errors: &[String],
    durable: bool,
) -> Details {
    Details::of(&BatchDetails {
        phases: phases(after),
        storage: storage(durable),
        completed_tasks: completed,
        errors,
    })
}

/// Where oh-my-pi's details say the list is kept: `session` when it
/// outlives the process, else `memory`.
pub fn storage(durable: bool) -> &'static str {
    if durable { "session" } else { "memory" }
}

/// What a batch reports beside its text.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct BatchDetails<'a> {
    phases: Vec<PhaseView<'a>>,
    storage: &'static str,
    /// Left out when the batch completed nothing, as oh-my-pi leaves it out.
    #[serde(skip_serializing_if = "<[CompletedTask]>::is_empty")]
    completed_tasks: &'a [CompletedTask],
    errors: &'a [String],
}

/// The text the model reads after a batch, line for line as oh-my-pi's
/// `formatSummary` writes it: the errors, the open tasks, the current
/// phase's progress, then every phase with its tasks, and the notes of the
/// task in progress.
pub fn summary(state: &TodoState, errors: &[String]) -> String {
    if state.is_empty() {
        return match errors.is_empty() {
            true => "Todo list cleared.".to_owned(),
            false => format!("Errors: {}", errors.join("; ")),
        };
    }
    // One buffer, lines joined by `\n` as they are written: the summary
    // is on every call's path, and a `String` per line was most of its cost.
    // Each task appears twice (as open work, then in its phase): room for
    // both lines of a typical task, so the text is rarely moved as it grows.
    let mut out = String::with_capacity(128 * state.tasks().count() + 256);
    let line = |out: &mut String, parts: &[&str]| {
        if !out.is_empty() {
            out.push('\n');
        }
        parts.iter().for_each(|part| out.push_str(part));
    };
    if !errors.is_empty() {
        line(&mut out, &["Errors: ", &errors.join("; ")]);
    }
    let open_tasks = || {
        state
            .phases
            .iter()
            .flat_map(|p| p.tasks.iter().map(move |t| (p, t)))
            .filter(|(_, t)| t.status.is_open())
    };
    match open_tasks().count() {
        0 => line(&mut out, &["Remaining items: none."]),
        count => {
            line(&mut out, &["Remaining items (", &count.to_string(), "):"]);
            for (phase, task) in open_tasks() {
                let status = task.status.as_str();
                line(
                    &mut out,
                    &[
                        "  - ",
                        &task.content,
                        " [",
                        status,
                        "] (",
                        phase_label(phase),
                        ")",
                    ],
                );
            }
        }
    }
    // A list with tasks has phases, so there is always a current one.
    let Some((index, current, done)) = active_phase(state) else {
        return out;
    };
    // Writing into a `String` cannot fail.
    let _ = write!(
        out,
        "\nPhase {}/{} \"{}\" — {done}/{} tasks complete",
        index + 1,
        state.phases.len(),
        phase_label(current),
        current.tasks.len()
    );
    for phase in &state.phases {
        line(&mut out, &["  ", phase_label(phase), ":"]);
        for task in &phase.tasks {
            line(&mut out, &["    ", glyph(task.status), " ", &task.content]);
            match task.notes.len() {
                0 => {}
                1 => out.push_str(" (+1 note)"),
                n => {
                    let _ = write!(out, " (+{n} notes)");
                }
            }
            if task.status == Status::InProgress {
                for (j, note) in task.notes.iter().enumerate() {
                    if j > 0 {
                        line(&mut out, &["        ---"]);
                    }
                    for text in note.split('\n') {
                        line(&mut out, &["        ", text]);
                    }
                }
            }
        }
    }
    out
}

/// The phase a summary reports on, oh-my-pi's "current" phase: the first
/// with open work, else the last; with its index and how many of its tasks
/// are finished (completed or abandoned). `None` for a list with no phase.
pub fn active_phase(state: &TodoState) -> Option<(usize, &Phase, usize)> {
    let index = state
        .phases
        .iter()
        .position(|p| p.tasks.iter().any(|t| t.status.is_open()))
        .or_else(|| state.phases.len().checked_sub(1))?;
    let phase = &state.phases[index];
    let finished = phase.tasks.iter().filter(|t| t.status.is_finished()).count();
    Some((index, phase, finished))
}

/// The collapsed preview a transcript shows: the tree without note bodies,
/// at most [`PREVIEW_TASKS_PER_PHASE`] tasks per phase, then `… N more`.
pub fn preview(state: &TodoState) -> String {
    if state.is_empty() {
        return "Todo list cleared.".to_owned();
    }
    tree(state, PREVIEW_TASKS_PER_PHASE)
}

/// The name a phase is shown by: its own, or `Todos` for a flat list's
/// unnamed phase (as oh-my-pi names tasks that come before any heading).
pub fn phase_label(phase: &Phase) -> &str {
    if phase.is_implicit() { "Todos" } else { &phase.name }
}

fn glyph(status: Status) -> &'static str {
    match status {
        Status::Completed => "✓",
        Status::InProgress => "→",
        Status::Abandoned => "✗",
        // oh-my-pi has no blocked status; like its pending tasks, one
        // written through another profile shows an open circle.
        Status::Pending | Status::Blocked => "○",
    }
}

/// Every phase as a tree of glyphs, with note counts; at most `limit` tasks
/// a phase.
fn tree(state: &TodoState, limit: usize) -> String {
    let mut out = String::new();
    for phase in &state.phases {
        let _ = writeln!(out, "{}", phase_label(phase));
        let shown = limit.min(phase.tasks.len());
        let hidden = phase.tasks.len() - shown;
        for (i, task) in phase.tasks.iter().take(shown).enumerate() {
            let last = i + 1 == shown && hidden == 0;
            let branch = if last { "└─" } else { "├─" };
            let _ = write!(out, "{branch} {} {}", glyph(task.status), task.content);
            if !task.notes.is_empty() {
                let noun = if task.notes.len() == 1 { "note" } else { "notes" };
                let _ = write!(out, " (+{} {noun})", task.notes.len());
            }
            out.push('\n');
        }
        if hidden > 0 {
            let _ = writeln!(out, "└─ … {hidden} more");
        }
    }
    out.truncate(out.trim_end().len());
    out
}

#[cfg(test)]
mod tests;
