//! `copilot`: GitHub Copilot's `manage_todo_list` in VS Code. Every call
//! sends the whole list of `{id: number, title, status}` items
//! (`not-started`, `in-progress`, `completed`); the answer confirms and
//! adds VS Code's warnings about a very short or long list and about
//! changing many items at once. [`read_text`] is VS Code's read answer,
//! for hosts that show the list to the model.

use std::fmt::Write;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Number;

use todokit_app::prelude::*;

/// The profile's name.
pub const NAME: &str = "copilot";
/// VS Code's answer to every accepted write.
pub const WROTE: &str = "Successfully wrote todo list";
/// The warning for a list of fewer than three items.
pub const SMALL_LIST: &str = "Warning: Small todo list (<3 items). This task might not need a todo list.";
/// The warning for a list of more than ten items.
pub const LARGE_LIST: &str =
    "Warning: Large todo list (>10 items). Consider keeping the list focused and actionable.";
/// The warning for a write that changes more than three items.
pub const MANY_CHANGES: &str =
    "Warning: Did you mean to update so many todos at the same time? Consider working on them one by one.";
/// VS Code's read answer for an empty list.
pub const NO_LIST: &str = "No todo list found.";

todokit_app::prelude::status_words! {
    /// The statuses of a Copilot todo.
    pub enum CopilotStatus {
        /// Not begun.
        NotStarted = "not-started" => Pending,
        /// Being worked on.
        InProgress = "in-progress" => InProgress,
        /// Finished.
        Completed = "completed" => Completed,
    }
    aliases { "pending" => NotStarted, "in_progress" => InProgress, "done" => Completed }
}

const FIELDS: FieldNames = FieldNames {
    list: "todoList",
    content: "title",
    ..FieldNames::DEFAULT
};

/// The profile with its default rules.
pub fn profile() -> Profile {
    Profile::new(
        NAME,
        "GitHub Copilot's manage_todo_list (VS Code): the whole numbered list, with VS Code's warnings",
        ListRules::with_default_limits(InProgressPolicy::Warn),
    )
    .with_upstream(Upstream {
        agent: "GitHub Copilot (VS Code)",
        pin: Pin::Source {
            repository: "microsoft/vscode",
            path: "src/vs/workbench/contrib/chat/common/tools/builtinTools/manageTodoListTool.ts",
            commit: "01272b921e9c053b06b0751a032341c80e4c7241",
            date: None,
            read_through: None,
        },
        ships_in: "VS Code's chat agent mode with GitHub Copilot (`manage_todo_list`, referenced as `#todo`)",
        checked: None,
    })
    .with_system_prompt(include_str!("../descriptions/copilot/system-prompt.md"))
    .with_example(
        "manage_todo_list",
        r#"{"todoList":[{"id":1,"title":"Run the tests","status":"in-progress"},{"id":2,"title":"Fix failing tests","status":"not-started"},{"id":3,"title":"Update the changelog","status":"not-started"}]}"#,
    )
    .with_leniency(Leniency::STANDARD.enum_spelling(true))
    .tool(ListTool(ManageTodoList))
}

/// One todo as `manage_todo_list` sends it.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, JsonSchema)]
pub struct CopilotTodo {
    /// A unique number for the item, counting from 1.
    pub id: Number,
    /// A short action-oriented label (a few words) that the UI shows.
    pub title: String,
    /// Where it stands.
    pub status: CopilotStatus,
}

/// A stored todo as Copilot writes it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CopilotTodoView<'a> {
    /// Its number (its 1-based position when it has none).
    pub id: Number,
    /// Its label.
    pub title: &'a str,
    /// Where it stands.
    pub status: CopilotStatus,
}

/// The arguments of `manage_todo_list`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ManageTodoListInput {
    /// The complete list, every existing item and every new one.
    pub todo_list: Vec<CopilotTodo>,
}

/// What the details carry beside the lists: VS Code's warnings, and the
/// line its chat shows for the call.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct WriteFacts {
    /// The warnings added to the answer.
    pub warnings: Vec<&'static str>,
    /// What VS Code's chat says the call did (`Created 3 todos`,
    /// `Starting: *title* (2/3)`, ...).
    pub message: String,
}

todokit_app::prelude::writer_tool! {
    /// The `manage_todo_list` tool.
    ManageTodoList = "manage_todo_list",
    include_str!("../descriptions/copilot/manage_todo_list.md")
}

impl ListWriter for ManageTodoList {
    type Input = ManageTodoListInput;
    type Item<'a> = CopilotTodoView<'a>;
    type Fields = WriteFacts;
    const FIELDS: FieldNames = FIELDS;

    fn todos(input: &mut ManageTodoListInput) -> Result<Vec<Todo>, ToolError> {
        Ok(input
            .todo_list
            .iter_mut()
            .map(|t| {
                Todo::new(std::mem::take(&mut t.title))
                    .id(t.id.to_string())
                    .status(t.status)
            })
            .collect())
    }

    fn item(todo: &Todo, position: usize) -> CopilotTodoView<'_> {
        CopilotTodoView {
            id: number(todo, position),
            title: &todo.content,
            status: todo.status.into(),
        }
    }

    /// [`WROTE`], then, after a blank line, the warnings one per line.
    fn text(op: &ToolOperation<'_, ManageTodoListInput>) -> String {
        let warnings = warnings(op.before, op.after);
        match warnings.is_empty() {
            true => WROTE.to_owned(),
            false => format!("{WROTE}\n\n{}", warnings.join("\n")),
        }
    }

    fn fields(op: &ToolOperation<'_, ManageTodoListInput>) -> WriteFacts {
        WriteFacts {
            warnings: warnings(op.before, op.after),
            message: past_tense(op.before, op.after),
        }
    }
}

/// A todo's number: its id when that is a number, else its position.
fn number(todo: &Todo, position: usize) -> Number {
    let parsed = todo
        .id
        .as_deref()
        .and_then(|id| serde_json::from_str::<Number>(id).ok());
    parsed.unwrap_or_else(|| Number::from(position + 1))
}

/// VS Code's warnings for a write from `before` to `after`: a list under
/// three items or over ten, and more than three changes (items compared
/// position by position on title and status, plus items added or removed).
fn warnings(before: &TodoState, after: &TodoState) -> Vec<&'static str> {
    let (old, new): (Vec<&Todo>, Vec<&Todo>) = (before.tasks().collect(), after.tasks().collect());
    let mut warnings = Vec::new();
    if new.len() < 3 {
        warnings.push(SMALL_LIST);
    } else if new.len() > 10 {
        warnings.push(LARGE_LIST);
    }
    let modified = old
        .iter()
        .zip(&new)
        .filter(|(o, n)| {
            o.content != n.content || CopilotStatus::from(o.status) != CopilotStatus::from(n.status)
        })
        .count();
    if modified + old.len().abs_diff(new.len()) > 3 {
        warnings.push(MANY_CHANGES);
    }
    warnings
}

/// What VS Code's chat shows for a write: `Created N todos` for a first
/// list, else the first item started (`Starting: *title* (i/n)`), else the
/// first completed, else how many were added, else `Updated todo list`.
fn past_tense(before: &TodoState, after: &TodoState) -> String {
    let new: Vec<(usize, &Todo)> = after.tasks().enumerate().collect();
    let total = new.len();
    if before.is_empty() && total > 0 {
        return match total {
            1 => "Created 1 todo".to_owned(),
            n => format!("Created {n} todos"),
        };
    }
    let old = |todo: &Todo| before.tasks().find(|o| o.id.is_some() && o.id == todo.id);
    let changed_to = |status: Status| {
        new.iter()
            .find(|(_, t)| t.status == status && old(t).is_some_and(|o| o.status != status))
    };
    if let Some((i, todo)) = changed_to(Status::InProgress) {
        return format!("Starting: *{}* ({}/{total})", todo.content, i + 1);
    }
    if let Some((i, todo)) = changed_to(Status::Completed) {
        return format!("Completed: *{}* ({}/{total})", todo.content, i + 1);
    }
    match new.iter().filter(|(_, t)| old(t).is_none()).count() {
        0 => "Updated todo list".to_owned(),
        1 => "Added 1 todo".to_owned(),
        n => format!("Added {n} todos"),
    }
}

/// VS Code's answer when the list is read: [`NO_LIST`], or `# Todo List`,
/// a blank line and one `- [x] title` line per item (`[-]` in progress,
/// `[ ]` not started).
pub fn read_text(state: &TodoState) -> String {
    if state.is_empty() {
        return NO_LIST.to_owned();
    }
    let mut out = String::from("# Todo List\n\n");
    for (i, todo) in state.tasks().enumerate() {
        let mark = match CopilotStatus::from(todo.status) {
            CopilotStatus::Completed => "[x]",
            CopilotStatus::InProgress => "[-]",
            CopilotStatus::NotStarted => "[ ]",
        };
        if i > 0 {
            out.push('\n');
        }
        // Writing into a `String` cannot fail.
        let _ = write!(out, "- {mark} {}", todo.content);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::{ProfileCase, detail, snapshot_settings};
    use pretty_assertions::assert_eq;

    fn case() -> ProfileCase {
        ProfileCase::new(profile())
    }

    /// A list of `n` items, the first `done` completed and the next one in
    /// progress.
    fn list(n: usize, done: usize) -> String {
        let items: Vec<String> = (1..=n)
            .map(|i| {
                let status = match i {
                    i if i <= done => "completed",
                    i if i == done + 1 => "in-progress",
                    _ => "not-started",
                };
                format!(r#"{{"id":{i},"title":"Step {i}","status":"{status}"}}"#)
            })
            .collect();
        format!(r#"{{"todoList":[{}]}}"#, items.join(","))
    }

    // Golden facts from microsoft/vscode,
    // src/vs/workbench/contrib/chat/common/tools/builtinTools/manageTodoListTool.ts
    // at commit 01272b921e9c053b06b0751a032341c80e4c7241: the schema
    // requires `todoList`, each item `id` (number), `title` and `status`
    // (not-started, in-progress, completed); a write answers "Successfully
    // wrote todo list", then "\n\n" and the warnings joined by "\n": under 3
    // items "Warning: Small todo list (<3 items). This task might not need a
    // todo list.", else over 10 "Warning: Large todo list (>10 items).
    // Consider keeping the list focused and actionable.", and with more than
    // 3 changes (position by position on title and status, plus added and
    // removed) "Warning: Did you mean to update so many todos at the same
    // time? Consider working on them one by one."; a read answers "No todo
    // list found." or "# Todo List\n\n" and `- [x]`/`- [-]`/`- [ ]` lines.
    #[test]
    fn the_answers_and_warnings_are_vs_codes_word_for_word() {
        let case = case();
        let three = case
            .call("manage_todo_list", &list(3, 0))
            .commit
            .unwrap_or_default();
        let actual = [
            case.call("manage_todo_list", &list(3, 0)).result.content,
            case.call("manage_todo_list", &list(2, 0)).result.content,
            case.call("manage_todo_list", &list(11, 0)).result.content,
            case.call_on(&three, "manage_todo_list", &list(3, 1))
                .result
                .content,
            case.call_on(&three, "manage_todo_list", &list(8, 0))
                .result
                .content,
            read_text(&TodoState::new()),
            read_text(
                &case
                    .call_on(&three, "manage_todo_list", &list(3, 1))
                    .commit
                    .unwrap_or_default(),
            ),
        ];
        let expected = [
            "Successfully wrote todo list".to_owned(),
            "Successfully wrote todo list\n\nWarning: Small todo list (<3 items). This task might not need a todo list."
                .to_owned(),
            "Successfully wrote todo list\n\nWarning: Large todo list (>10 items). Consider keeping the list focused \
             and actionable.\nWarning: Did you mean to update so many todos at the same time? Consider working on \
             them one by one."
                .to_owned(),
            "Successfully wrote todo list".to_owned(),
            "Successfully wrote todo list\n\nWarning: Did you mean to update so many todos at the same time? \
             Consider working on them one by one."
                .to_owned(),
            "No todo list found.".to_owned(),
            "# Todo List\n\n- [x] Step 1\n- [-] Step 2\n- [ ] Step 3".to_owned(),
        ];
        assert_eq!(actual, expected);
    }

    // Golden facts, same file: `generatePastTenseMessage` says "Created N
    // todos" ("Created 1 todo") for a first list, else "Starting: *title*
    // (i/n)" for the first item newly in progress, else "Completed: *title*
    // (i/n)", else "Added N todos" ("Added 1 todo"), else "Updated todo
    // list".
    #[test]
    fn the_details_say_what_vs_codes_chat_shows_for_the_call() {
        let case = case();
        let three = case
            .call("manage_todo_list", &list(3, 0))
            .commit
            .unwrap_or_default();
        let started = case
            .call_on(&three, "manage_todo_list", &list(3, 1))
            .commit
            .unwrap_or_default();
        let message = |state: &TodoState, args: &str| {
            detail(&case.call_on(state, "manage_todo_list", args), "message").1
        };
        let finish_second = list(3, 1).replacen(
            r#""id":2,"title":"Step 2","status":"in-progress""#,
            r#""id":2,"title":"Step 2","status":"completed""#,
            1,
        );
        let actual = [
            message(&TodoState::new(), &list(3, 0)),
            message(&three, &list(3, 1)),
            message(&started, &finish_second),
            message(&started, &list(5, 1)),
            message(&started, &list(3, 1)),
        ];
        let expected = [
            serde_json::json!("Created 3 todos"),
            serde_json::json!("Starting: *Step 2* (2/3)"),
            serde_json::json!("Completed: *Step 2* (2/3)"),
            serde_json::json!("Added 2 todos"),
            serde_json::json!("Updated todo list"),
        ];
        assert_eq!(actual, expected);
    }

    #[test]
    fn ids_are_numbers_and_come_back_as_numbers() {
        let case = case();
        let outcome = case.call("manage_todo_list", r#"{"todoList":[{"id":7,"title":"a","status":"completed"},{"id":"8","title":"b","status":"not-started"}]}"#);
        let stored = case.call(
            "manage_todo_list",
            r#"{"todoList":[{"id":7,"title":"a","status":"completed"}]}"#,
        );
        let actual = (ProfileCase::stored(&outcome), detail(&stored, "current").1);
        let expected = (
            None,
            serde_json::json!([{"id": 7, "title": "a", "status": "completed"}]),
        );
        assert_eq!(actual, expected);
    }

    #[test]
    fn result_texts() {
        let case = case();
        let cases = [
            ("first", list(3, 0)),
            ("small", list(1, 0)),
            (
                "refused",
                r#"{"todoList":[{"id":1,"title":"a","status":"blocked"}]}"#.to_owned(),
            ),
        ];
        snapshot_settings().bind(|| {
            for (name, args) in cases {
                let result = case.call("manage_todo_list", &args).result;
                insta::assert_snapshot!(format!("result__copilot__{name}"), result.content);
                insta::assert_json_snapshot!(format!("details__copilot__{name}"), result.details.value());
            }
        });
    }
}
