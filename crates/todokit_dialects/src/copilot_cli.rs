//! `copilot-cli`: the GitHub Copilot CLI's `update_todo`, a markdown
//! checklist in one string: a title line, then `- [ ]`, `- [~]` (or
//! `[>]`) and `- [x]` items, numbered items too, indented lines continuing
//! an item, fenced code skipped. Read as VS Code's Copilot extension reads
//! it, and replaced whole on every call; answered as the CLI answers
//! (`TODO list updated`), and a checklist without an item is refused, as
//! the CLI refuses it.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use todokit_app::prelude::parse_checklist;
use todokit_app::prelude::*;

/// The profile's name.
pub const NAME: &str = "copilot-cli";
/// The npm package the Copilot CLI's tools are read from (the x64 Linux
/// build, whose native module holds them), its version and its archive's
/// sha256; `copilot-sql` reads the same package.
pub const PACKAGE: (&str, &str, &str) = (
    "@github/copilot-linux-x64",
    "1.0.102",
    "450d256c69526c1c30286d21df0f6e1a05412beb37fe4a5b5054905f5f8fbd3d",
);
/// The title when the checklist has no title line.
pub const DEFAULT_TITLE: &str = "Updated todo list";
/// The CLI's answer to a checklist it took.
pub const UPDATED: &str = "TODO list updated";
/// The CLI's answer to a checklist without an item.
pub const NO_ITEMS: &str = "No TODO items provided";

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
        pin: Pin::Package {
            registry: "npm",
            name: PACKAGE.0,
            version: PACKAGE.1,
            path: "copilot (its copilot.tgz asset: prebuilds/linux-x64/runtime.node, src/runtime/src/tools/update_todo.rs)",
            sha256: PACKAGE.2,
        },
        ships_in: "the GitHub Copilot CLI (`update_todo`; closed source: its answers are read from the package's native \
                   module, its checklist as VS Code's Copilot extension reads it)",
        checked: Some(Checked {
            date: "2026-12-07",
            against: "1.0.102",
        }),
    })
    .with_system_prompt(include_str!("../descriptions/copilot-cli/system-prompt.md"))
    .with_example(
        "update_todo",
        r#"{"todos":"Fix the login bug\n- [x] Reproduce it\n- [~] Fix the session check\n- [ ] Add a test"}"#,
    )
    .tool(ListTool(UpdateTodo))
}

/// The arguments of `update_todo`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, JsonSchema)]
pub struct UpdateTodoInput {
    /// The whole checklist as markdown: a title line, then `- [ ]`, `- [~]`
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

    /// Reads the checklist once, keeping its title for the details; one
    /// without an item is refused, as the CLI refuses it.
    fn todos(input: &mut UpdateTodoInput) -> Result<Vec<Todo>, ToolError> {
        let (title, items) = parse_checklist(&input.todos, DEFAULT_TITLE);
        if items.is_empty() {
            return Err(ToolError::refused("todos", NO_ITEMS));
        }
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

    /// The CLI's answer: the tool gives the model nothing back but that
    /// the list was taken.
    fn text(_op: &ToolOperation<'_, UpdateTodoInput>) -> String {
        UPDATED.to_owned()
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

    // Golden facts from npm @github/copilot-linux-x64 1.0.102 (sha256
    // 450d256c…fbd3d): the native module in its `copilot.tgz` asset
    // (prebuilds/linux-x64/runtime.node, src/runtime/src/tools/update_todo.rs)
    // answers `TODO list updated`, and `No TODO items provided` for a
    // checklist it finds no item in.
    #[test]
    fn a_call_replaces_the_list_and_answers_as_the_cli_does() {
        let case = ProfileCase::new(profile());
        let outcome = case.call(
            "update_todo",
            r#"{"todos":"Fix the login bug\n- [x] Reproduce it\n- [~] Fix it\n- [ ] Add a test"}"#,
        );
        let actual = (outcome.result.content.clone(), ProfileCase::stored(&outcome));
        let expected = (
            UPDATED.to_owned(),
            Some(vec![
                item("Reproduce it", Status::Completed),
                item("Fix it", Status::InProgress),
                item("Add a test", Status::Pending),
            ]),
        );
        assert_eq!(actual, expected);
    }

    #[test]
    fn a_checklist_without_an_item_is_refused_and_the_list_kept() {
        let case = ProfileCase::new(profile());
        let stored = case
            .call("update_todo", r#"{"todos":"- [ ] a"}"#)
            .commit
            .unwrap_or_default();
        let actual: Vec<(bool, Vec<String>, bool)> =
            [r#"{"todos":""}"#, r#"{"todos":"Nothing to track yet"}"#]
                .iter()
                .map(|args| {
                    let outcome = case.call_on(&stored, "update_todo", args);
                    (
                        outcome.result.is_error,
                        crate::test_support::problem_messages(&outcome),
                        outcome.commit.is_none(),
                    )
                })
                .collect();
        let expected = vec![(true, vec![format!("todos: {NO_ITEMS}")], true); 2];
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
