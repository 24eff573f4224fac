//! `copilot-cli`: the GitHub Copilot CLI's `update_todo`, a markdown
//! checklist in one string: a title line, then `- [ ]`, `- [>]` (or
//! `[~]`) and `- [x]` items, numbered items too, indented lines continuing
//! an item, fenced code skipped. Read as VS Code's Copilot extension reads
//! it, and replaced whole on every call.

use std::fmt::Write;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use todokit_app::prelude::parse_checklist;
use todokit_app::prelude::*;

/// The profile's name.
pub const NAME: &str = "copilot-cli";
/// The title when the checklist has no title line.
pub const DEFAULT_TITLE: &str = "Updated todo list";

/// The profile with its default rules.
pub fn profile() -> Profile {
    Profile::new(
        NAME,
        "GitHub Copilot CLI's update_todo: a titled markdown checklist, replaced whole",
        ListRules::with_default_limits(InProgressPolicy::Warn),
    )
    .with_list_text("todos", None)
    .with_upstream(Upstream {
        agent: "GitHub Copilot CLI",
        pin: Pin::Source {
            repository: "microsoft/vscode-copilot-chat",
            path: "src/extension/chatSessions/copilotcli/common/copilotCLITools.ts",
            commit: "31acd00a86424e2ee6e980e54919cf31fbf88030",
            date: Some("2026-03-29"),
            read_through: None,
        },
        ships_in: "the GitHub Copilot CLI (`update_todo`; the CLI is closed source, its checklist is read as VS Code's \
                   Copilot extension reads it)",
        checked: Some(Checked {
            date: "2026-11-26",
            against: "31acd00a86424e2ee6e980e54919cf31fbf88030",
        }),
    })
    .with_system_prompt(include_str!("../descriptions/copilot-cli/system-prompt.md"))
    .with_example(
        "update_todo",
        r#"{"todos":"Fix the login bug\n- [x] Reproduce it\n- [>] Fix the session check\n- [ ] Add a test"}"#,
    )
    .tool(ListTool(UpdateTodo))
}

/// The arguments of `update_todo`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, JsonSchema)]
pub struct UpdateTodoInput {
    /// The whole checklist as markdown: a title line, then `- [ ]`, `- [>]`
    /// and `- [x]` items.
    pub todos: String,
    /// The checklist's title, found when its items are read (not sent).
    #[serde(skip)]
    #[schemars(skip)]
    pub title: String,
}

/// A stored item as VS Code hands it on: numbered from 1, with its title
/// and status.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ChecklistItem<'a> {
    /// Its 1-based position.
    pub id: usize,
    /// Its text.
    pub title: &'a str,
    /// `not-started`, `in-progress` or `completed`.
    pub status: &'static str,
}

/// What the details carry beside the lists.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ChecklistTitle {
    /// The checklist's title line (or [`DEFAULT_TITLE`]).
    pub title: String,
}

todokit_app::prelude::writer_tool! {
    /// The `update_todo` tool.
    UpdateTodo = "update_todo",
    include_str!("../descriptions/copilot-cli/update_todo.md")
}

impl ListWriter for UpdateTodo {
    type Input = UpdateTodoInput;
    type Item<'a> = ChecklistItem<'a>;
    type Fields = ChecklistTitle;

    /// Reads the checklist once, keeping its title for the answer.
    fn todos(input: &mut UpdateTodoInput) -> Result<Vec<Todo>, ToolError> {
        let (title, items) = parse_checklist(&input.todos, DEFAULT_TITLE);
        input.title = title;
        Ok(items
            .into_iter()
            .map(|(title, status)| Todo::new(title).status(status))
            .collect())
    }

    fn item(todo: &Todo, position: usize) -> ChecklistItem<'_> {
        ChecklistItem {
            id: position + 1,
            title: &todo.content,
            status: match todo.status {
                Status::Completed => "completed",
                Status::InProgress => "in-progress",
                _ => "not-started",
            },
        }
    }

    /// The checklist as VS Code shows the call: `# title`, then one
    /// `- [x]`, `- [>]` or `- [ ]` line per item.
    fn text(op: &ToolOperation<'_, UpdateTodoInput>) -> String {
        let mut out = format!("# {}", op.asked.title);
        for todo in op.after.tasks() {
            let mark = match todo.status {
                Status::Completed => 'x',
                Status::InProgress => '>',
                _ => ' ',
            };
            // Writing into a `String` cannot fail.
            let _ = write!(out, "\n- [{mark}] {}", todo.content);
        }
        out
    }

    fn fields(op: &ToolOperation<'_, UpdateTodoInput>) -> ChecklistTitle {
        ChecklistTitle {
            title: op.asked.title.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::{ProfileCase, snapshot_settings};
    use pretty_assertions::assert_eq;

    fn parsed(markdown: &str) -> (String, Vec<(String, Status)>) {
        parse_checklist(markdown, DEFAULT_TITLE)
    }

    fn item(text: &str, status: Status) -> (String, Status) {
        (text.to_owned(), status)
    }

    // Golden facts from microsoft/vscode-copilot-chat,
    // src/extension/chatSessions/copilotcli/common/copilotCLITools.ts at
    // commit 31acd00a86424e2ee6e980e54919cf31fbf88030 (2026-03-29),
    // `parseTodoMarkdown`, which reads the Copilot CLI's `update_todo
    // {todos: string}`: lines inside ``` or ~~~ fences are skipped; while
    // the title is still "Updated todo list", a non-empty line that is not
    // `[-*+]` or `N.`/`N)` followed by a one-character box becomes it, its
    // leading `#`s stripped; items match `^\s*[-*+]\s+\[(.?)\]\s*(.*)$` or
    // the ordered form; x/X completed, > or ~ in progress, anything else
    // not started; a non-empty line starting with two spaces or a tab
    // continues the current item after a space; items are trimmed and
    // empty ones dropped. `formatUpdateTodoInvocation` shows `# title` and
    // `- [x]`/`- [>]`/`- [ ]` lines.
    #[test]
    fn the_checklist_is_read_as_vs_codes_parser_reads_it() {
        let fixture = "## Fix the login bug\n- [x] Reproduce it\n* [>] Fix the session\n  check and its cache\n\
                       + [~] Review\n1. [ ] Add a test\n2) [X] Notify\n```\n- [ ] not an item\n```\n- [ ]   \n- [] Empty box\n\
                       -[x] no space";
        let actual = parsed(fixture);
        let expected = (
            "Fix the login bug".to_owned(),
            vec![
                item("Reproduce it", Status::Completed),
                item("Fix the session check and its cache", Status::InProgress),
                item("Review", Status::InProgress),
                item("Add a test", Status::Pending),
                item("Notify", Status::Completed),
                item("Empty box", Status::Pending),
            ],
        );
        assert_eq!(actual, expected);
    }

    #[test]
    fn without_a_title_line_the_title_is_the_default_or_a_later_plain_line() {
        let actual = [parsed("- [ ] a").0, parsed("- [ ] a\nnotes below").0];
        let expected = ["Updated todo list".to_owned(), "notes below".to_owned()];
        assert_eq!(actual, expected);
    }

    #[test]
    fn a_call_replaces_the_list_and_answers_with_the_checklist_as_vs_code_shows_it() {
        let case = ProfileCase::new(profile());
        let outcome = case.call(
            "update_todo",
            r#"{"todos":"Fix the login bug\n- [x] Reproduce it\n- [~] Fix it\n- [ ] Add a test"}"#,
        );
        let actual = (outcome.result.content.clone(), ProfileCase::stored(&outcome));
        let expected = (
            "# Fix the login bug\n- [x] Reproduce it\n- [>] Fix it\n- [ ] Add a test".to_owned(),
            Some(vec![
                item("Reproduce it", Status::Completed),
                item("Fix it", Status::InProgress),
                item("Add a test", Status::Pending),
            ]),
        );
        assert_eq!(actual, expected);
    }

    #[test]
    fn result_texts() {
        let case = ProfileCase::new(profile());
        let cases = [
            (
                "checklist",
                r#"{"todos":"Fix the login bug\n- [x] Reproduce it\n- [>] Fix it\n- [ ] Add a test"}"#,
            ),
            ("no_items", r#"{"todos":"Nothing to track yet"}"#),
            ("refused", r#"{"todos":["- [ ] a"]}"#),
        ];
        snapshot_settings().bind(|| {
            for (name, args) in cases {
                let result = case.call("update_todo", args).result;
                insta::assert_snapshot!(format!("result__copilot-cli__{name}"), result.content);
                insta::assert_json_snapshot!(format!("details__copilot-cli__{name}"), result.details.value());
            }
        });
    }
}
