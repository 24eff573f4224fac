//! A dialect of a host's own, written outside the workspace: three tools of
//! a small ticket board (`ticket_add`, `ticket_move`, `ticket_list`) on
//! todokit's list, its stores and its turn policy. It uses only what a host
//! crate reaches: `todokit`, `serde` and `schemars` (1.x), and the prelude
//! (`todokit::app::prelude`). `docs/your-own-dialect.md` walks through it.
//!
//! Run it with `cargo run -q -p todokit --example own_dialect`.

use std::io::Write;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use todokit::app::prelude::*;

/// `ticket_add`'s arguments. Doc comments become the schema's
/// descriptions, which the model reads.
#[derive(Debug, Deserialize, JsonSchema)]
struct AddInput {
    /// What the ticket asks for.
    title: String,
    /// `high`, `medium` or `low`; `medium` when left out.
    #[serde(default)]
    priority: Option<WirePriority>,
}

/// `ticket_move`'s arguments.
#[derive(Debug, Deserialize, JsonSchema)]
struct MoveInput {
    /// The ticket's id, as `ticket_add` gave it.
    id: String,
    /// Where it goes: `pending`, `in_progress` or `completed`.
    status: TriStatus,
}

/// One ticket as the tools show it, in the details a host reads.
#[derive(Debug, Serialize)]
struct TicketView<'a> {
    id: &'a str,
    title: &'a str,
    status: TriStatus,
}

/// The tickets of `state`, for the details.
fn views(state: &TodoState) -> Vec<TicketView<'_>> {
    state
        .tasks()
        .map(|todo| TicketView {
            id: todo.id.as_deref().unwrap_or_default(),
            title: &todo.content,
            status: todo.status.into(),
        })
        .collect()
}

/// The board as the model reads it: one `#id [status] title` line each.
fn board(state: &TodoState) -> String {
    let lines: Vec<String> = state
        .tasks()
        .map(|t| format!("#{} [{}] {}", t.id.as_deref().unwrap_or("?"), t.status, t.content))
        .collect();
    match lines.is_empty() {
        true => "The board is empty.".to_owned(),
        false => lines.join("\n"),
    }
}

struct TicketAdd;

impl TypedTool for TicketAdd {
    type Input = AddInput;
    const NAME: &'static str = "ticket_add";
    const DESCRIPTION: &'static str = "Add a ticket to the board; it starts pending. Answers with its id.";
    // It adds and never drops: not destructive, and not idempotent (the
    // same call twice adds two tickets).
    const METADATA: ToolMetadata = ToolMetadata::LIST_WRITER.destructive(false).idempotent(false);

    fn run(&self, input: AddInput, ctx: &CallContext<'_>) -> Result<Outcome, ToolError> {
        let title = input.title.trim();
        if title.is_empty() {
            return Err(ToolError::refused("title", "a ticket needs a title"));
        }
        // `ctx.state` is the list as stored before the call (a field, not
        // a method); a tool works on a copy and returns the new list.
        let mut next = ctx.state.clone();
        if next.tasks().count() >= ctx.rules.limits.max_items {
            return Err(ToolError::refused(
                "title",
                format!("the board holds at most {} tickets", ctx.rules.limits.max_items),
            ));
        }
        let id = next.allocate_id();
        let priority = input.priority.unwrap_or(WirePriority::Medium);
        next.push_task(
            Todo::new(title)
                .id(id.clone())
                .priority(Priority::from(priority))
                .created_at(ctx.now)
                .status_changed_at(ctx.now),
        );
        let details = Details::of(&views(&next));
        Ok(Outcome::commit(
            next,
            ToolResult::ok(format!("Added ticket #{id}."), details),
        ))
    }
}

struct TicketMove;

impl TypedTool for TicketMove {
    type Input = MoveInput;
    const NAME: &'static str = "ticket_move";
    const DESCRIPTION: &'static str = "Move a ticket to another status.";
    const METADATA: ToolMetadata = ToolMetadata::LIST_WRITER.destructive(false);

    fn run(&self, input: MoveInput, ctx: &CallContext<'_>) -> Result<Outcome, ToolError> {
        let mut next = ctx.state.clone();
        // `tasks_mut` walks every task of every phase, to change in place.
        let Some(ticket) = next
            .tasks_mut()
            .find(|t| t.id.as_deref() == Some(input.id.as_str()))
        else {
            // `clip` quotes a value the model sent at a bounded length.
            return Err(ToolError::refused(
                "id",
                format!("no ticket #{}", clip(&input.id)),
            ));
        };
        let status = Status::from(input.status);
        if ticket.status != status {
            ticket.status = status;
            ticket.status_changed_at = Some(ctx.now);
        }
        let content = format!("Ticket #{} is {}.", input.id, status);
        if next == *ctx.state {
            // Nothing changed: answer without a commit.
            return Ok(Outcome::read(ToolResult::ok(content, Details::null())));
        }
        Ok(Outcome::commit(next, ToolResult::ok(content, Details::null())))
    }
}

struct TicketList;

impl TypedTool for TicketList {
    type Input = NoArguments;
    const NAME: &'static str = "ticket_list";
    const DESCRIPTION: &'static str = "Show every ticket with its id and status.";
    const METADATA: ToolMetadata = ToolMetadata::LIST_READER;

    fn run(&self, _input: NoArguments, ctx: &CallContext<'_>) -> Result<Outcome, ToolError> {
        let details = Details::of(&views(ctx.state));
        Ok(Outcome::read(ToolResult::ok(board(ctx.state), details)))
    }
}

/// The dialect: its name, its rules, its tools. No upstream to pin: it is
/// the host's own.
fn ticket_board() -> Profile {
    Profile::new(
        "ticket-board",
        "A small ticket board: add, move and list tickets by id",
        ListRules::with_default_limits(InProgressPolicy::Warn).limits(Limits::DEFAULT.max_items(20usize)),
    )
    .with_ids_shown()
    .tool(TicketAdd)
    .tool(TicketMove)
    .tool(TicketList)
}

/// A scripted session through the service, as a model would call the
/// tools: the answers, one line each.
async fn run(out: &mut impl Write) -> Result<(), Box<dyn std::error::Error>> {
    let service = todokit::Todokit::builder()
        .with_profile(ticket_board())
        .memory_store()
        .build()?;
    let calls = [
        (
            "ticket_add",
            r#"{"title":"Fix the login redirect","priority":"high"}"#,
        ),
        ("ticket_add", r#"{"title":"Write the release note"}"#),
        ("ticket_move", r#"{"id":"1","status":"in_progress"}"#),
        ("ticket_move", r#"{"id":"7","status":"completed"}"#),
        ("ticket_add", r#"{"title":"   "}"#),
        ("ticket_move", r#"{"id":"1","status":"finished"}"#),
        ("ticket_list", "{}"),
    ];
    for (tool, arguments) in calls {
        let result = service.call("board-1", tool, arguments).await?;
        let mark = if result.is_error { "refused" } else { "ok" };
        writeln!(out, "> {tool} {arguments}\n[{mark}] {}", result.content)?;
    }
    // The same list, as any other todokit view shows it.
    let state = service.state("board-1").await?;
    writeln!(out, "\n{}", todokit::render(&state, todokit::Format::Text))?;
    Ok(())
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    run(&mut std::io::stdout().lock()).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn the_transcript() {
        let mut out = Vec::new();
        let ran = run(&mut out).await.map_err(|e| e.to_string());
        let transcript = String::from_utf8_lossy(&out).into_owned();
        let mut settings = insta::Settings::clone_current();
        settings.set_snapshot_path(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../snapshots"));
        settings.set_omit_expression(true);
        settings.bind(|| insta::assert_snapshot!("example__own_dialect_transcript", transcript));
        assert_eq!(ran, Ok(()));
    }
}
