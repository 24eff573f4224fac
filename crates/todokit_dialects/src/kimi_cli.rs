//! `kimi-cli`: Kimi CLI's `SetTodoList`, the tool Kimi Code's `TodoList`
//! succeeded. The same arguments and rule (`todos` left out reads, `[]`
//! clears, a list replaces), with its own answers: `Todo list updated` for
//! any write, and `- [status] title` lines for a read. No reminders.

use std::fmt::Write;

use schemars::JsonSchema;
use serde::Deserialize;

use crate::kimi::{EMPTY, KimiStatus, KimiTodo, KimiWords, TodoList, TodoListInput};
use todokit_app::prelude::*;

/// The profile's name.
pub const NAME: &str = "kimi-cli";
/// The answer to every write, an empty list included.
pub const UPDATED: &str = "Todo list updated";

/// The profile with its default rules.
pub fn profile() -> Profile {
    Profile::new(
        NAME,
        "Kimi CLI's SetTodoList: leave todos out to read, [] to clear, a list to replace",
        ListRules::with_default_limits(InProgressPolicy::Warn),
    )
    .with_upstream(Upstream {
        agent: "Kimi CLI",
        pin: Pin::Package {
            registry: "pypi",
            name: "kimi-cli",
            version: "1.52.0",
            path: "kimi_cli/tools/todo/__init__.py",
            sha256: "7becbb9081e0c1194b481fe06087ceceaf12bad9f3798fcefc1e3dd2e80b90b2",
        },
        ships_in: "Kimi CLI 1.52 (`SetTodoList`; archived in favour of Kimi Code)",
        checked: Some(Checked {
            date: "2026-12-07",
            against: "1.52.0",
        }),
    })
    .with_system_prompt(include_str!("../descriptions/kimi-cli/system-prompt.md"))
    .with_example(
        "SetTodoList",
        r#"{"todos":[{"title":"Run the tests","status":"in_progress"},{"title":"Fix what fails","status":"pending"}]}"#,
    )
    .tool(Commands(TodoList::<KimiCli>::default()))
}

/// The arguments of `SetTodoList`: Kimi Code's, but for the list, which
/// Kimi CLI declares as "a list or null" (kimi-cli 1.52.0: `todos:
/// list[Todo] | None = None`).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, JsonSchema)]
pub struct SetTodoListInput {
    /// The whole new list. Leave it out, or send null, to read the list
    /// without changing it; send `[]` to clear it.
    #[serde(default)]
    pub todos: Option<Vec<KimiTodo>>,
}

impl From<SetTodoListInput> for TodoListInput {
    fn from(input: SetTodoListInput) -> Self {
        TodoListInput { todos: input.todos }
    }
}

/// Kimi CLI's words.
#[derive(Debug, Clone, Copy, Default)]
pub struct KimiCli;

impl KimiWords for KimiCli {
    type Input = SetTodoListInput;
    const NAME: &'static str = "SetTodoList";
    const DESCRIPTION: &'static str = include_str!("../descriptions/kimi-cli/SetTodoList.md");

    /// [`EMPTY`], or `Current todo list:` and one `- [status] title` line
    /// per item.
    fn read(state: &TodoState) -> String {
        if state.is_empty() {
            return EMPTY.to_owned();
        }
        let mut out = String::from("Current todo list:");
        for todo in state.tasks() {
            // Writing into a `String` cannot fail.
            let _ = write!(
                out,
                "\n- [{}] {}",
                KimiStatus::from(todo.status).as_str(),
                todo.content
            );
        }
        out
    }

    fn written(_after: &TodoState) -> String {
        UPDATED.to_owned()
    }

    fn writes(input: &SetTodoListInput) -> bool {
        input.todos.is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::ProfileCase;
    use pretty_assertions::assert_eq;

    const LIST: &str = r#"{"todos":[{"title":"Read the config","status":"done"},{"title":"Add the flag","status":"in_progress"},{"title":"Run the tests","status":"pending"}]}"#;

    // Golden facts from the kimi-cli 1.52.0 wheel on PyPI (sha256
    // 7becbb90…0b90b2), kimi_cli/tools/todo/__init__.py, as at commit
    // 4a550effdfcb29a25a5d325bf935296cc50cd417: `todos` None reads (`Todo list is
    // empty.`, or `Current todo list:` and `- [status] title` lines); any
    // list, `[]` included, is saved and answered `Todo list updated`; a
    // todo's `title` has `min_length=1` and its status is pending,
    // in_progress or done.
    #[test]
    fn the_answers_are_kimi_clis_word_for_word() {
        let case = ProfileCase::new(profile());
        let stored = case.call("SetTodoList", LIST).commit.unwrap_or_default();
        let cleared = case.call_on(&stored, "SetTodoList", r#"{"todos":[]}"#);
        let actual = (
            [
                case.call("SetTodoList", "{}").result.content,
                case.call("SetTodoList", r#"{"todos":null}"#).result.content,
                case.call("SetTodoList", LIST).result.content,
                case.call_on(&stored, "SetTodoList", "{}").result.content,
                cleared.result.content,
            ],
            cleared.commit.map(|state| state.is_empty()),
            case.problems("SetTodoList", r#"{"todos":[{"title":"","status":"pending"}]}"#)
                .len(),
        );
        let expected = (
            [
                "Todo list is empty.".to_owned(),
                "Todo list is empty.".to_owned(),
                "Todo list updated".to_owned(),
                "Current todo list:\n- [done] Read the config\n- [in_progress] Add the flag\n- [pending] Run the tests"
                    .to_owned(),
                "Todo list updated".to_owned(),
            ],
            Some(true),
            1,
        );
        assert_eq!(actual, expected);
    }

    #[test]
    fn a_read_stores_nothing() {
        let case = ProfileCase::new(profile());
        let stored = case.call("SetTodoList", LIST).commit.unwrap_or_default();
        let actual = case.call_on(&stored, "SetTodoList", "{}").commit;
        assert_eq!(actual, None);
    }
}
