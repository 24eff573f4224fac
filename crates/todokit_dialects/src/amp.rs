//! `amp`: Amp's `todo_read` and `todo_write`. A write replaces the list
//! with `{id, content, status, priority}` todos, all four required, the
//! statuses `todo`, `in-progress` and `completed`. Amp's own result texts
//! are not public (only its tool schemas are, in captured requests), so
//! both tools answer with the stored list as compact JSON in the schema's
//! own shape: what a model reading it already knows how to read.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use todokit_app::prelude::WirePriority;

use todokit_app::prelude::*;

/// The profile's name.
pub const NAME: &str = "amp";

todokit_app::prelude::status_words! {
    /// Amp's three statuses, with a hyphen in `in-progress`.
    pub enum AmpStatus {
        /// Not started.
        Todo = "todo" => Pending,
        /// Being worked on.
        InProgress = "in-progress" => InProgress,
        /// Done.
        Completed = "completed" => Completed,
    }
    aliases { "pending" => Todo, "in_progress" => InProgress, "done" => Completed }
}

/// The profile with its default rules.
pub fn profile() -> Profile {
    Profile::new(
        NAME,
        "Amp's todo_read and todo_write: the whole list with ids and priorities",
        ListRules::with_default_limits(InProgressPolicy::Warn),
    )
    .with_upstream(Upstream {
        agent: "Amp",
        pin: Pin::Capture {
            repository: "x1xhlol/system-prompts-and-models-of-ai-tools",
            path: "Amp/gpt-5.yaml",
            commit: "c258bbb35089002de65384833974e86d8ee2d785",
            date: Some("2025-09-15"),
        },
        ships_in: "Amp by Sourcegraph (`todo_read`/`todo_write`, as a captured 2025 request declares them; Amp \
                   is closed source and its result texts are not public)",
        checked: Some(Checked {
            date: "2026-11-26",
            against: "b8e95891fe6c8f1db651a8ca4d8217f22c73849b",
        }),
    })
    // npm `@ampcode/cli-linux-x64` 0.0.1790142911-g7618fb (sha256
    // bf2daecb…756840; `@sourcegraph/amp` is now `@ampcode/cli`): the
    // client's tool list has no todo tool; `todo_read` and `todo_write`
    // are left only in its map of display names for old threads. Amp is
    // closed source and its server could still add them.
    .retired_upstream("Amp's CLI 0.0.1790142911")
    .with_system_prompt(include_str!("../descriptions/amp/system-prompt.md"))
    .with_example(
        TodoWrite::NAME,
        r#"{"todos":[{"id":"1","content":"Run the tests","status":"in-progress","priority":"high"},{"id":"2","content":"Fix what fails","status":"todo","priority":"medium"}]}"#,
    )
    .with_leniency(Leniency::STANDARD.enum_spelling(true))
    .tool(ListTool(TodoWrite))
    .tool(TodoRead)
}

/// One todo as a call sends it.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, JsonSchema)]
pub struct AmpTodo {
    /// Its id, unique in the list.
    #[schemars(extend("x-id" = true))]
    pub id: String,
    /// What to do.
    pub content: String,
    /// Where it stands.
    pub status: AmpStatus,
    /// How much it matters.
    pub priority: WirePriority,
}

/// A stored todo in Amp's shape.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AmpTodoView<'a> {
    /// Its id (its 1-based position when another profile gave it none).
    pub id: std::borrow::Cow<'a, str>,
    /// What to do.
    pub content: &'a str,
    /// Where it stands.
    pub status: AmpStatus,
    /// How much it matters (`medium` when none was said).
    pub priority: WirePriority,
}

todokit_app::prelude::writer_tool! {
    /// The `todo_write` tool.
    TodoWrite = "todo_write",
    include_str!("../descriptions/amp/todo_write.md")
}

impl ListWriter for TodoWrite {
    type Input = WholeList<AmpTodo>;
    type Item<'a> = AmpTodoView<'a>;
    type Fields = ();

    fn todos(input: &mut WholeList<AmpTodo>) -> Result<Vec<Todo>, ToolError> {
        Ok(input
            .todos
            .iter_mut()
            .map(|item| {
                todo_with_id(
                    &mut item.content,
                    item.status.into(),
                    item.priority.into(),
                    &mut item.id,
                )
            })
            .collect())
    }

    fn item(todo: &Todo, position: usize) -> AmpTodoView<'_> {
        AmpTodoView {
            id: id_or_position(todo, position),
            content: &todo.content,
            status: todo.status.into(),
            priority: todo.priority.map_or(WirePriority::Medium, WirePriority::from),
        }
    }

    fn text(op: &ToolOperation<'_, WholeList<AmpTodo>>) -> String {
        items_json::<Self>(op.after)
    }

    fn fields(_op: &ToolOperation<'_, WholeList<AmpTodo>>) {}
}

/// The `todo_read` tool.
#[derive(Debug, Clone, Copy, Default)]
pub struct TodoRead;

impl TypedTool for TodoRead {
    type Input = NoArguments;
    const NAME: &'static str = "todo_read";
    const DESCRIPTION: &'static str = include_str!("../descriptions/amp/todo_read.md");
    const METADATA: ToolMetadata = ToolMetadata::LIST_READER;

    fn run(&self, _input: NoArguments, ctx: &CallContext<'_>) -> Result<Outcome, ToolError> {
        read_list::<TodoWrite>(items_json::<TodoWrite>(ctx.state), ctx.state)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::test_support::run_tool;
    use pretty_assertions::assert_eq;

    // Golden facts from Amp's tool declarations, captured in a gpt-5
    // request: Amp/gpt-5.yaml in the system-prompts-and-models-of-ai-tools
    // collection (x1xhlol's, at commit
    // c258bbb35089002de65384833974e86d8ee2d785; first read in a copy at
    // f4ea08ed18189b06e177582893376a3c51d8a4e3): `todo_read` takes nothing; `todo_write`
    // takes `todos` ("This replaces any existing todos") of `{id, content,
    // status: completed|in-progress|todo, priority: medium|low|high}`, all
    // required. No capture shows what either tool answers: the answer here
    // is the stored list in the schema's shape (docs/leniency.md).
    #[test]
    fn a_write_replaces_the_list_and_both_tools_answer_with_it() {
        let profile = profile();
        let written = run_tool(
            &profile,
            TodoWrite::NAME,
            &TodoState::new(),
            r#"{"todos":[{"id":"a","content":"Read","status":"in-progress","priority":"high"},{"id":"b","content":"Fix","status":"todo","priority":"low"}]}"#,
        );
        let state = written.commit.clone().unwrap_or_default();
        let read = run_tool(&profile, TodoRead::NAME, &state, "{}");
        let list = r#"[{"id":"a","content":"Read","status":"in-progress","priority":"high"},{"id":"b","content":"Fix","status":"todo","priority":"low"}]"#;
        let actual = (
            written.result.content,
            read.result.content,
            read.commit.is_some(),
            state.tasks().map(|t| (t.status, t.priority)).collect::<Vec<_>>(),
        );
        let expected = (
            list.to_owned(),
            list.to_owned(),
            false,
            vec![
                (Status::InProgress, Some(Priority::High)),
                (Status::Pending, Some(Priority::Low)),
            ],
        );
        assert_eq!(actual, expected);
    }
}
