//! `pi`: the phase-and-ops `todo_write`: a batch of ordered ops (`init`,
//! `start`, `done`, `drop`, `rm`, `append`, `note`) over phases of tasks
//! named by their content. A failing op is skipped and reported while the
//! rest apply; the result is then marked as an error and still carries (and
//! stores) the new state. After the batch exactly one task is in progress
//! when any is open.
//!
//! Finished tasks clear themselves after a delay (60 s by default) and are
//! dropped when a stored conversation is resumed.

use std::fmt::Write;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use todokit_domain::{
    CompletedTask, Op, Phase, Violation, Violations, apply_ops, check_op_size, validate_phases,
};

use crate::prelude::*;

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
        pin: Pin::Package {
            registry: "npm",
            name: "@oh-my-pi/pi-coding-agent",
            version: "14.9.9",
            path: "src/tools/todo-write.ts",
            sha256: "2793491a1600e882ef5e13264f9b61f89661cef022ebe86570126f828ab1484d",
        },
        ships_in: "oh-my-pi before June 2026 (`todo_write`; renamed `todo` since, see the `omp` profile)",
        checked: None,
    })
        .with_system_prompt(include_str!("../../../descriptions/pi/system-prompt.md"))
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
    const DESCRIPTION: &'static str = include_str!("../../../descriptions/pi/todo_write.md");
    // Notes and appends add on every call: the same batch twice is not the same list.
    const METADATA: ToolMetadata = ToolMetadata::LIST_WRITER.idempotent(false);

    fn run(&self, input: TodoWriteInput, ctx: &CallContext<'_>) -> Result<Outcome, ToolError> {
        let ops: Vec<Op> = input.ops.into_iter().map(Op::from).collect();
        // A name longer than any task's is refused, not quoted back, and a
        // list too long to keep is refused before it is built.
        let mut problems = Violations::default();
        let mut sent = 0;
        for (i, op) in ops.iter().enumerate() {
            sent += check_op_size(op, &ctx.rules.limits, |name| format!("ops[{i}].{name}"), &mut problems);
        }
        if sent > ctx.rules.limits.max_items {
            problems.push(Violation::TooManyItems {
                field: "ops".to_owned(),
                count: sent,
                max: ctx.rules.limits.max_items,
            });
        }
        problems.into_result()?;
        let batch = apply_ops(ctx.state, &ops, ctx.now);
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
fn batch_details(after: &TodoState, completed: &[CompletedTask], errors: &[String], durable: bool) -> Details {
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
                line(&mut out, &["  - ", &task.content, " [", status, "] (", phase_label(phase), ")"]);
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
mod tests {
    use super::*;
    use serde_json::json;

    use crate::test_support::{NOW, run_tool, snapshot_settings, verdict};
    use pretty_assertions::assert_eq;

    fn call(state: &TodoState, args: &str) -> Outcome {
        run_tool(&profile(), TodoWrite::NAME, state, args)
    }

    const INIT: &str = r#"{"ops":[{"op":"init","list":[{"phase":"Build","items":["Scaffold","Wire"]},{"phase":"Ship","items":["Tag","Publish"]}]}]}"#;

    fn initialized() -> TodoState {
        call(&TodoState::new(), INIT).commit.unwrap_or_default()
    }

    // Golden facts from oh-my-pi (the npm package @oh-my-pi/pi-coding-agent 14.9.9, sha256
    // 2793491a1600e882ef5e13264f9b61f89661cef022ebe86570126f828ab1484d,
    // src/tools/todo-write.ts; first read in a copy of the repository at commit
    // 2f871b6d2359c4fd560936c5ce9197b5eb25c40d, equal but for one string literal of its renderer), `formatSummary`: errors
    // first; `Remaining items (n):` with `  - content [status] (phase)`, or
    // `Remaining items: none.`; `Phase i/n "name" — d/t tasks complete` for
    // the first phase with open work (else the last), `d` counting completed
    // and abandoned tasks; then `  Phase:` and `    <glyph> content` with
    // ` (+k note(s))`, and the in-progress task's notes indented 8 spaces,
    // `        ---` between them. With no task left, the errors alone, or
    // `Todo list cleared.`; `resolveTaskOrError` adds " (todo list is empty —
    // was it replaced or not yet created?)" when the list has no task.
    #[test]
    fn the_summary_is_oh_my_pis_format_summary() {
        let state = TodoState::new().phases(vec![
            Phase::new("Build").tasks(vec![
                Todo::new("Scaffold").status(Status::Completed),
                Todo::new("Wire")
                    .status(Status::InProgress)
                    .notes(vec!["Trait first.\nThen the CLI.".to_owned(), "Ask about locks.".to_owned()]),
            ]),
            Phase::new("Ship").tasks(vec![
                Todo::new("Tag").status(Status::Abandoned),
                Todo::new("Publish").status(Status::Completed).notes(vec!["n".to_owned()]),
            ]),
        ]);
        let finished = TodoState::new().phases(vec![Phase::new("Ship").tasks(vec![
            Todo::new("Tag").status(Status::Abandoned),
            Todo::new("Publish").status(Status::Completed),
        ])]);
        let actual = [
            summary(&state, &[]),
            summary(&finished, &["Phase \"Docs\" not found".to_owned()]),
            call(&TodoState::new(), r#"{"ops":[{"op":"done","task":"Tag"}]}"#).result.content,
            call(&initialized(), r#"{"ops":[{"op":"rm"}]}"#).result.content,
        ];
        let expected = [
            "Remaining items (1):\n  - Wire [in_progress] (Build)\nPhase 1/2 \"Build\" — 1/2 tasks complete\n  Build:\n    \
             ✓ Scaffold\n    → Wire (+2 notes)\n        Trait first.\n        Then the CLI.\n        ---\n        \
             Ask about locks.\n  Ship:\n    ✗ Tag\n    ✓ Publish (+1 note)"
                .to_owned(),
            "Errors: Phase \"Docs\" not found\nRemaining items: none.\nPhase 1/1 \"Ship\" — 2/2 tasks complete\n  Ship:\n    \
             ✗ Tag\n    ✓ Publish"
                .to_owned(),
            "Errors: Task \"Tag\" not found (todo list is empty — was it replaced or not yet created?)".to_owned(),
            "Todo list cleared.".to_owned(),
        ];
        assert_eq!(actual, expected);
    }

    #[test]
    fn init_starts_the_first_task_and_says_so() {
        let outcome = call(&TodoState::new(), INIT);
        let actual = (
            outcome.result.is_error,
            outcome.result.content.lines().nth(1).map(str::to_owned),
        );
        let expected = (false, Some("  - Scaffold [in_progress] (Build)".to_owned()));
        assert_eq!(actual, expected);
    }

    #[test]
    fn a_batch_with_a_failing_op_is_an_error_and_still_stores_the_rest() {
        let fixture = initialized();
        let outcome = call(
            &fixture,
            r#"{"ops":[{"op":"done","task":"Scaffold"},{"op":"start","task":"Nope"},{"op":"start","task":"Tag"},{"op":"note","task":"Tag","text":"v1.2"}]}"#,
        );
        let statuses = outcome.commit.map(|s| {
            s.tasks()
                .map(|t| (t.content.clone(), t.status))
                .collect::<Vec<_>>()
        });
        let actual = (
            outcome.result.is_error,
            outcome.result.details.value()["errors"].clone(),
            statuses,
        );
        let expected = (
            true,
            json!(["Task \"Nope\" not found"]),
            Some(vec![
                ("Scaffold".to_owned(), Status::Completed),
                ("Wire".to_owned(), Status::Pending),
                ("Tag".to_owned(), Status::InProgress),
                ("Publish".to_owned(), Status::Pending),
            ]),
        );
        assert_eq!(actual, expected);
    }

    #[test]
    fn ops_needs_at_least_one_op() {
        let outcome = call(&TodoState::new(), r#"{"ops":[]}"#);
        let actual = (
            outcome.result.is_error,
            outcome.result.details.value()["error"]["problems"][0]["message"].clone(),
        );
        let expected = (true, json!("ops: needs at least 1 item, got 0"));
        assert_eq!(actual, expected);
    }

    #[test]
    fn details_carry_phases_storage_and_completed_tasks() {
        let outcome = call(&initialized(), r#"{"ops":[{"op":"done","task":"Scaffold"}]}"#);
        let details = outcome.result.details.value();
        let actual = (
            details["storage"].clone(),
            details["completedTasks"].clone(),
            details["phases"][0]["tasks"][1].clone(),
        );
        let expected = (
            json!("session"),
            json!([{"content": "Scaffold", "phase": "Build"}]),
            json!({"content": "Wire", "status": "in_progress"}),
        );
        assert_eq!(actual, expected);
    }

    #[test]
    fn a_batch_that_changes_nothing_writes_nothing() {
        let actual = call(&initialized(), r#"{"ops":[{"op":"start","task":"Scaffold"}]}"#).commit;
        let expected = None;
        assert_eq!(actual, expected);
    }

    #[test]
    fn finished_tasks_clear_after_the_delay_on_the_profile_clock() {
        let fixture = call(&initialized(), r#"{"ops":[{"op":"done","task":"Scaffold"}]}"#)
            .commit
            .unwrap_or_default();
        let profile = profile();
        let actual = (
            profile.settle(&fixture, NOW + 59_999).tasks().count(),
            profile.settle(&fixture, NOW + 60_000).tasks().count(),
        );
        let expected = (4, 3);
        assert_eq!(actual, expected);
    }

    #[test]
    fn a_batch_that_outgrows_the_limits_is_refused_whole() {
        let long = "x".repeat(Limits::DEFAULT.max_content_bytes + 1);
        let args = json!({"ops": [{"op": "append", "phase": "P", "items": ["ok", long]}]});
        let outcome = call(&initialized(), &args.to_string());
        let actual = verdict(outcome);
        let expected = (
            true,
            vec![
                "ops[0].items[1]: 1025 bytes of UTF-8 were sent; at most 1024 bytes are allowed".to_owned(),
            ],
            None,
        );
        assert_eq!(actual, expected);
    }

    #[test]
    fn summaries() {
        let with_notes = call(
            &initialized(),
            r#"{"ops":[{"op":"done","task":"Scaffold"},{"op":"note","task":"Wire","text":"Store goes behind a trait.\nCLI next."},{"op":"note","task":"Wire","text":"Ask about the lock file."},{"op":"note","task":"Tag","text":"after CI"},{"op":"drop","task":"Publish"}]}"#,
        );
        let cases = [
            ("empty", call(&initialized(), r#"{"ops":[{"op":"rm"}]}"#).result),
            ("one_phase", call(&TodoState::new(), r#"{"ops":[{"op":"init","list":[{"phase":"Fix","items":["Reproduce","Patch","Test"]}]}]}"#).result),
            ("phases_with_notes", with_notes.result),
            ("error_batch", call(&initialized(), r#"{"ops":[{"op":"init"},{"op":"done","task":""},{"op":"append","phase":"Ship","items":["Tag","Announce"]},{"op":"note","task":"Wire"},{"op":"rm","phase":"Docs"}]}"#).result),
            ("all_done", call(&initialized(), r#"{"ops":[{"op":"done"}]}"#).result),
        ];
        snapshot_settings().bind(|| {
            for (name, result) in cases {
                insta::assert_snapshot!(format!("result__pi__{name}"), result.content);
                insta::assert_json_snapshot!(format!("details__pi__{name}"), result.details.value());
            }
        });
    }

    #[test]
    fn the_preview_caps_each_phase() {
        let items: Vec<String> = (1..=11).map(|i| format!("Step {i}")).collect();
        let args = json!({"ops": [{"op": "init", "list": [{"phase": "Long", "items": items}, {"phase": "Short", "items": ["Only"]}]}]});
        let state = call(&TodoState::new(), &args.to_string())
            .commit
            .unwrap_or_default();
        snapshot_settings().bind(|| insta::assert_snapshot!("preview__pi", preview(&state)));
    }
}
