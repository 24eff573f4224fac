//! `kimi`: Kimi Code's `TodoList`. One tool that reads when `todos` is
//! left out, clears the list on `[]` and otherwise replaces it with
//! `{title, status}` items (`pending`, `in_progress`, `done`). A write is
//! answered with the list and a standing reminder; after ten rounds
//! without a todo call the nag repeats the list.

use std::fmt::Write;
use std::marker::PhantomData;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use todokit_app::prelude::*;

/// The profile's name.
pub const NAME: &str = "kimi";
/// Rounds without a todo call before the nag, as Kimi Code counts turns.
pub const NAG_AFTER_ROUNDS: usize = 10;
/// The answer to a write that leaves the list empty.
pub const CLEARED: &str = "Todo list cleared.";
/// The render of an empty list.
pub const EMPTY: &str = "Todo list is empty.";
/// What follows every write that leaves items.
pub const WRITE_REMINDER: &str = "Ensure that you continue to use the todo list to track progress. Mark tasks \
                                  done immediately after finishing them, and keep exactly one task in_progress \
                                  when work is underway.";
/// The nag's words; the list follows them when it has items.
pub const STALE_REMINDER: &str = "The TodoList tool has not been updated recently. If you are working on tasks \
                                  that benefit from progress tracking, consider using TodoList to update task \
                                  status. Also consider clearing or rewriting the todo list if it has become \
                                  stale and no longer matches the current work. Only use it if relevant. This is \
                                  a gentle reminder; ignore it if not applicable. Make sure that you NEVER mention \
                                  this reminder to the user.";

const FIELDS: FieldNames = FieldNames {
    content: "title",
    ..FieldNames::DEFAULT
};

todokit_app::prelude::status_words! {
    /// The statuses of a Kimi todo.
    pub enum KimiStatus {
        /// Not started.
        Pending = "pending" => Pending,
        /// Being worked on.
        InProgress = "in_progress" => InProgress,
        /// Finished.
        Done = "done" => Completed,
    }
    aliases { "completed" => Done }
}

/// The profile with its default rules.
pub fn profile() -> Profile {
    Profile::new(
        NAME,
        "Kimi Code's TodoList: leave todos out to read, [] to clear, a list to replace",
        ListRules::with_default_limits(InProgressPolicy::Warn),
    )
    .with_upstream(Upstream {
        agent: "Kimi Code",
        pin: Pin::Source {
            repository: "MoonshotAI/kimi-code",
            path: "packages/agent-core-v2/src/agent/tools/todo-list/todoListTool.ts",
            commit: "d723cc47ee43e5ca3c3c4ec2473f205d44acede2",
            date: Some("2026-08-22"),
            read_through: None,
        },
        ships_in: "Kimi Code (`TodoList`; the successor of Kimi CLI's `SetTodoList`)",
        checked: Some(Checked {
            date: "2026-11-26",
            against: "d723cc47ee43e5ca3c3c4ec2473f205d44acede2",
        }),
    })
    .with_system_prompt(include_str!("../descriptions/kimi/system-prompt.md"))
    .with_example(
        "TodoList",
        r#"{"todos":[{"title":"Run the tests","status":"in_progress"},{"title":"Fix what fails","status":"pending"}]}"#,
    )
    .with_nag_after_rounds(NAG_AFTER_ROUNDS)
    .with_nag_text(stale_reminder)
    .tool(Commands(TodoList::<KimiCode>::default()))
}

/// One item of the list.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, JsonSchema)]
pub struct KimiTodo {
    /// A short, actionable title.
    #[schemars(length(min = 1))]
    pub title: String,
    /// Where it stands.
    pub status: KimiStatus,
}

/// A stored item as Kimi Code keeps it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct KimiTodoView<'a> {
    /// Its title.
    pub title: &'a str,
    /// Where it stands.
    pub status: KimiStatus,
}

/// The arguments of `TodoList` (and of Kimi CLI's `SetTodoList`).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, JsonSchema)]
pub struct TodoListInput {
    /// The whole new list. Leave it out to read the list without changing
    /// it; send `[]` to clear it.
    #[schemars(transform = todokit_app::prelude::omissible)]
    pub todos: Option<Vec<KimiTodo>>,
}

/// What sets one Kimi todo tool apart from the other, over the same
/// arguments and the same read-or-replace rule: its name, description and
/// answers. [`KimiCode`] words Kimi Code's `TodoList`; the `kimi-cli`
/// profile words Kimi CLI's `SetTodoList`.
pub trait KimiWords: Send + Sync + 'static {
    /// The arguments as this tool declares them (its schema), read as
    /// [`TodoListInput`].
    type Input: serde::de::DeserializeOwned + JsonSchema + Send + 'static + Into<TodoListInput>;
    /// The tool's name.
    const NAME: &'static str;
    /// Its description.
    const DESCRIPTION: &'static str;
    /// The answer to a read of `state`.
    fn read(state: &TodoState) -> String;
    /// The answer to a write that left `after`.
    fn written(after: &TodoState) -> String;
    /// Whether `input` sends a list (a write) rather than reading.
    fn writes(input: &Self::Input) -> bool;
}

/// Kimi Code's words.
#[derive(Debug, Clone, Copy, Default)]
pub struct KimiCode;

impl KimiWords for KimiCode {
    type Input = TodoListInput;
    const NAME: &'static str = "TodoList";
    const DESCRIPTION: &'static str = include_str!("../descriptions/kimi/TodoList.md");

    fn read(state: &TodoState) -> String {
        render(state)
    }

    /// [`CLEARED`] for an empty list; else `Todo list updated.`, the list,
    /// a blank line and [`WRITE_REMINDER`].
    fn written(after: &TodoState) -> String {
        match after.is_empty() {
            true => CLEARED.to_owned(),
            false => format!("Todo list updated.\n{}\n\n{WRITE_REMINDER}", render(after)),
        }
    }

    fn writes(input: &TodoListInput) -> bool {
        input.todos.is_some()
    }
}

/// The tool: `todos` left out reads, a list (even `[]`) replaces; named
/// and answered as `W` says.
#[derive(Debug, Clone, Copy, Default)]
pub struct TodoList<W = KimiCode>(PhantomData<W>);

impl<W: KimiWords> CommandTool for TodoList<W> {
    type Input = W::Input;
    type Command = ReadWrite;
    const NAME: &'static str = W::NAME;
    const DESCRIPTION: &'static str = W::DESCRIPTION;

    fn command(input: &W::Input) -> ReadWrite {
        match W::writes(input) {
            true => ReadWrite::Write,
            false => ReadWrite::Read,
        }
    }

    fn metadata(command: ReadWrite) -> ToolMetadata {
        match command {
            ReadWrite::Read => ToolMetadata::LIST_READER,
            ReadWrite::Write => ToolMetadata::LIST_WRITER,
        }
    }

    fn run(&self, command: ReadWrite, input: W::Input, ctx: &CallContext<'_>) -> Result<Outcome, ToolError> {
        match command {
            ReadWrite::Read => read_list::<Replace<W>>(W::read(ctx.state), ctx.state),
            ReadWrite::Write => write_list::<Replace<W>>(W::NAME, input.into(), ctx),
        }
    }
}

/// A write: the list sent replaces the stored one.
#[derive(Debug, Clone, Copy, Default)]
pub struct Replace<W = KimiCode>(PhantomData<W>);

impl<W: KimiWords> ListWriter for Replace<W> {
    type Input = TodoListInput;
    type Item<'a> = KimiTodoView<'a>;
    type Fields = ();
    const FIELDS: FieldNames = FIELDS;

    fn todos(input: &mut TodoListInput) -> Result<Vec<Todo>, ToolError> {
        Ok(input
            .todos
            .take()
            .unwrap_or_default()
            .into_iter()
            .map(|t| Todo::new(t.title).status(t.status))
            .collect())
    }

    fn item(todo: &Todo, _position: usize) -> KimiTodoView<'_> {
        KimiTodoView {
            title: &todo.content,
            status: todo.status.into(),
        }
    }

    fn text(op: &ToolOperation<'_, TodoListInput>) -> String {
        W::written(op.after)
    }

    fn fields(_op: &ToolOperation<'_, TodoListInput>) {}
}

/// `Current todo list:`, then one `  [status] title` line per item;
/// [`EMPTY`] for none.
fn render(state: &TodoState) -> String {
    if state.is_empty() {
        return EMPTY.to_owned();
    }
    let mut out = String::from("Current todo list:");
    for todo in state.tasks() {
        // Writing into a `String` cannot fail.
        let _ = write!(
            out,
            "\n  [{}] {}",
            KimiStatus::from(todo.status).as_str(),
            todo.content
        );
    }
    out
}

/// Kimi Code's stale-list reminder: [`STALE_REMINDER`], then, when the
/// list has items, a blank line, `Current todo list:` and `N. [status]
/// title` lines.
pub fn stale_reminder(state: &TodoState) -> String {
    let mut out = STALE_REMINDER.to_owned();
    if !state.is_empty() {
        out.push_str("\n\nCurrent todo list:");
        for (i, todo) in state.tasks().enumerate() {
            let _ = write!(
                out,
                "\n{}. [{}] {}",
                i + 1,
                KimiStatus::from(todo.status).as_str(),
                todo.content
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::{ProfileCase, snapshot_settings};
    use pretty_assertions::assert_eq;
    use todokit_app::turn::{CallRecord, TurnPolicy};

    fn case() -> ProfileCase {
        ProfileCase::new(profile())
    }

    const LIST: &str = r#"{"todos":[{"title":"Read session-control.ts","status":"done"},{"title":"Add the flag","status":"in_progress"},{"title":"Run the tests","status":"pending"}]}"#;

    // Golden facts from MoonshotAI/kimi-code at commit
    // d723cc47ee43e5ca3c3c4ec2473f205d44acede2 (2026-08-22):
    // packages/agent-core-v2/src/agent/tools/todo-list/todoListTool.ts reads
    // when `todos` is undefined and answers `renderTodoList`; a write whose
    // stored list is empty answers "Todo list cleared.", else "Todo list
    // updated.\n", the render, "\n\n" and todo-list-write-reminder.md
    // trimmed; session/todo/todoItem.ts renders "Current todo list:" and
    // `  [status] title` lines, or "Todo list is empty."; todo-list.ts
    // requires a non-empty `title` and status pending, in_progress or done.
    #[test]
    fn the_answers_are_kimi_codes_word_for_word() {
        let case = case();
        let stored = case.call("TodoList", LIST).commit.unwrap_or_default();
        let actual = [
            case.call("TodoList", "{}").result.content,
            case.call("TodoList", LIST).result.content,
            case.call_on(&stored, "TodoList", "{}").result.content,
            case.call_on(&stored, "TodoList", r#"{"todos":[]}"#)
                .result
                .content,
        ];
        let expected = [
            "Todo list is empty.".to_owned(),
            "Todo list updated.\nCurrent todo list:\n  [done] Read session-control.ts\n  [in_progress] Add the flag\n  \
             [pending] Run the tests\n\nEnsure that you continue to use the todo list to track progress. Mark tasks \
             done immediately after finishing them, and keep exactly one task in_progress when work is underway."
                .to_owned(),
            "Current todo list:\n  [done] Read session-control.ts\n  [in_progress] Add the flag\n  [pending] Run the tests"
                .to_owned(),
            "Todo list cleared.".to_owned(),
        ];
        assert_eq!(actual, expected);
    }

    #[test]
    fn reading_stores_nothing_an_empty_list_clears_and_a_read_is_read_only() {
        let case = case();
        let stored = case.call("TodoList", LIST).commit.unwrap_or_default();
        let read = case.call_on(&stored, "TodoList", "{}");
        let cleared = case.call_on(&stored, "TodoList", r#"{"todos":[]}"#);
        let tool = profile().find("TodoList").map(|t| t.commands());
        let actual = (read.commit.is_none(), ProfileCase::stored(&cleared), tool);
        let expected = (
            true,
            Some(Vec::new()),
            Some(vec![
                ("read", ToolMetadata::LIST_READER),
                ("write", ToolMetadata::LIST_WRITER),
            ]),
        );
        assert_eq!(actual, expected);
    }

    #[test]
    fn an_empty_title_or_another_status_is_refused() {
        let actual = case().problems(
            "TodoList",
            r#"{"todos":[{"title":"","status":"pending"},{"title":"b","status":"blocked"}]}"#,
        );
        let expected = vec![
            "todos[0].title: needs at least 1 character, got 0".to_owned(),
            "todos[1].status: got \"blocked\"; allowed: `pending`, `in_progress`, `done`".to_owned(),
        ];
        assert_eq!(actual, expected);
    }

    // Golden facts, same commit, session/todo/todoListReminder.ts: after
    // 10 assistant turns without a write (and 10 since the last reminder)
    // the injected text is the fixed reminder, then, for a list with items,
    // "\n\nCurrent todo list:\n" and `N. [status] title` lines.
    #[test]
    fn the_nag_comes_after_ten_rounds_in_kimi_codes_words_with_the_list() {
        let stored = case().call("TodoList", LIST).commit.unwrap_or_default();
        let mut policy = TurnPolicy::new(&profile());
        let other = [CallRecord::new("Shell", false)];
        let nags: Vec<String> = (0..NAG_AFTER_ROUNDS)
            .flat_map(|_| policy.on_tool_results(&other, &stored))
            .map(|injection| injection.text)
            .collect();
        // todokit frames every injection the same way, in a
        // `<system-reminder>` block; the words inside are Kimi Code's.
        let expected = vec![format!(
            "<system-reminder>\n{STALE_REMINDER}\n\nCurrent todo list:\n1. [done] Read session-control.ts\n\
             2. [in_progress] Add the flag\n3. [pending] Run the tests\n</system-reminder>"
        )];
        assert_eq!(nags, expected);
    }

    #[test]
    fn result_texts() {
        let case = case();
        let stored = case.call("TodoList", LIST).commit.unwrap_or_default();
        let cases = [
            ("read_empty", TodoState::new(), "{}"),
            ("write", TodoState::new(), LIST),
            ("read", stored.clone(), "{}"),
            ("clear", stored, r#"{"todos":[]}"#),
        ];
        snapshot_settings().bind(|| {
            for (name, state, args) in cases {
                let result = case.call_on(&state, "TodoList", args).result;
                insta::assert_snapshot!(format!("result__kimi__{name}"), result.content);
                insta::assert_json_snapshot!(format!("details__kimi__{name}"), result.details.value());
            }
        });
    }
}
