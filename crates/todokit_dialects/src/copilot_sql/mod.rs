//! `copilot-sql`: the GitHub Copilot CLI's `sql` tool as its model plans
//! with it, over the session database's two built-in tables, `todos` (id,
//! title, description, status in `pending|in_progress|done|blocked`,
//! created and updated times) and `todo_deps` (a todo and one of its
//! prerequisites). The model's statements run in SQLite itself, compiled
//! in (the `sql` feature), on a database made from the list for the call
//! and read back after it, so every query the model was trained to write
//! means here what it means in the CLI; the answers are the CLI's.
//!
//! A todo is a task: `id` its id, `title` its content, `description` its
//! description, `done` its completed status, and its `todo_deps` rows its
//! blocked-by list; `created_at` and `updated_at` are the times it appeared
//! and last changed status. Other tables are not kept (the list is the
//! only thing stored), so statements that would make one are refused.

mod answer;
mod database;
mod statements;
mod tables;

use schemars::JsonSchema;
use serde::Deserialize;

use todokit_app::prelude::*;

use crate::copilot_cli::PACKAGE;

pub use database::{MAX_SHOWN_BYTES, MAX_STEPS, MAX_VALUE_BYTES};
pub use tables::SCHEMA;

/// The profile's name.
pub const NAME: &str = "copilot-sql";
/// Most todos in the table.
pub const MAX_TODOS: usize = 200;

/// The profile with its default rules.
pub fn profile() -> Profile {
    Profile::new(
        NAME,
        "GitHub Copilot CLI's sql tool: the plan as rows of the session database's todos and todo_deps tables",
        ListRules::default()
            .limits(Limits::DEFAULT.max_items(MAX_TODOS))
            .in_progress(InProgressPolicy::Warn),
    )
    .with_upstream(Upstream {
        agent: "GitHub Copilot CLI",
        pin: Pin::Package {
            registry: "npm",
            name: PACKAGE.0,
            version: PACKAGE.1,
            path: "copilot (its copilot.tgz asset: prebuilds/linux-x64/runtime.node, the sql tool and its tables)",
            sha256: PACKAGE.2,
        },
        ships_in: "the GitHub Copilot CLI (`sql` on its per-session database; closed source: the tables' definitions \
                   are in the package's native module, the answers were read from the CLI itself)",
        checked: Some(Checked {
            date: "2026-12-07",
            against: "1.0.102",
        }),
    })
    .with_ids_shown()
    // One query can write the whole plan (an `INSERT` of every todo), so
    // it may be as long as a list written as one text.
    .with_list_text("query", None)
    // The CLI's schema does not close the arguments.
    .with_leniency(Leniency::STANDARD.unknown_keys(true))
    .with_system_prompt(include_str!("../../descriptions/copilot-sql/system-prompt.md"))
    .with_example(
        Sql::NAME,
        r#"{"description":"Insert plan todo","query":"INSERT OR IGNORE INTO todos (id, title) VALUES ('parse-input', 'Writing the parser')"}"#,
    )
    .tool(Sql)
}

/// The arguments of `sql`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, JsonSchema)]
pub struct SqlInput {
    /// A few words on what the statements do ("Insert plan todos").
    pub description: String,
    /// The statements to run, separated by semicolons.
    pub query: String,
}

/// The `sql` tool.
#[derive(Debug, Clone, Copy, Default)]
pub struct Sql;

impl TypedTool for Sql {
    type Input = SqlInput;
    const NAME: &'static str = "sql";
    const DESCRIPTION: &'static str = include_str!("../../descriptions/copilot-sql/sql.md");
    const METADATA: ToolMetadata = ToolMetadata::LIST_WRITER.idempotent(false);

    fn run(&self, input: SqlInput, ctx: &CallContext<'_>) -> Result<Outcome, ToolError> {
        let Some(statements) = statements::split(&input.query) else {
            return Ok(failed(answer::EMPTY_QUERY));
        };
        if let Some(blocked) = statements.iter().find_map(statements::blocked) {
            return Ok(failed(&answer::blocked(&blocked)));
        }
        let session = database::Session::open(ctx.state, &ctx.rules.limits)?;
        let (results, failure) = session.run(&statements);
        let text = answer::of(&statements, &results, failure.as_ref());
        let details = answer::details(&statements, &results, failure.as_ref());
        let is_error = failure.is_some() || statements.is_empty();
        let changed = session.into_state(ctx.state, ctx.rules, ctx.now)?;
        let result = ToolResult {
            is_error,
            content: text,
            details: Details::of(&details),
        };
        Ok(match changed {
            Some(state) => Outcome::commit(state, result),
            None => Outcome::read(result),
        })
    }
}

/// A call refused before any statement ran; nothing is stored.
fn failed(text: &str) -> Outcome {
    Outcome::read(ToolResult {
        is_error: true,
        content: text.to_owned(),
        details: Details::of(
            &serde_json::json!({"statements": [], "failed": {"statement": 0, "message": text}}),
        ),
    })
}

#[cfg(test)]
mod tests;
