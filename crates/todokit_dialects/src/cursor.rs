//! `cursor`: Cursor's `todo_write`. Every call says whether it `merge`s:
//! `false` replaces the stored list with the items sent, `true` patches
//! the items sent by `id` (fields left out keep their value, an unknown id
//! adds an item at the end). The answer confirms and shows the whole list
//! as compact JSON.

use std::borrow::Cow;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use todokit_app::prelude::*;

/// The profile's name.
pub const NAME: &str = "cursor";

/// Cursor's confirmation, before the list.
pub const UPDATED: &str = "Successfully updated TODOs. Make sure to follow and update your TODO list as you make \
                           progress. Cancel and add new TODO tasks as needed when the user makes a correction or \
                           follow-up request.";
/// The line that introduces the list in the answer.
pub const LATEST: &str = "Here are the latest contents of your TODO list:";

/// The statuses `todo_write` knows.
pub type CursorStatus = todokit_app::prelude::CancellableStatus;

/// The profile with its default rules.
pub fn profile() -> Profile {
    Profile::new(
        NAME,
        "Cursor's todo_write: replace the list, or merge changes into it by id",
        ListRules::with_default_limits(InProgressPolicy::Warn),
    )
    .with_upstream(Upstream {
        agent: "Cursor",
        pin: Pin::Capture {
            repository: "x1xhlol/system-prompts-and-models-of-ai-tools",
            path: "Cursor Prompts/Agent Prompt 2.0.txt",
            commit: "97081cd52b1da6f7f0ab45fd2f1f6ef65af25db9",
            date: Some("2025-11-07"),
        },
        ships_in: "Cursor's agent (closed source; the schema is read from a published capture of its prompt)",
        checked: Some(Checked {
            date: "2026-11-26",
            against: "b8e95891fe6c8f1db651a8ca4d8217f22c73849b",
        }),
    })
    .with_system_prompt(include_str!("../descriptions/cursor/system-prompt.md"))
    .with_example(
        "todo_write",
        r#"{"merge":false,"todos":[{"id":"tests","content":"Run the tests","status":"in_progress"},{"id":"fix","content":"Fix what fails","status":"pending"}]}"#,
    )
    .with_leniency(Leniency::STANDARD.enum_spelling(true))
    .tool(ListTool(TodoWrite))
}

/// One item as `todo_write` sends it. With `merge: true` only `id` is
/// needed; the fields left out keep their value.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, JsonSchema)]
pub struct CursorTodo {
    /// What to do.
    #[schemars(with = "Option<String>", transform = todokit_app::prelude::omissible)]
    pub content: Option<String>,
    /// Where it stands.
    #[schemars(with = "Option<CursorStatus>", transform = todokit_app::prelude::omissible)]
    pub status: Option<CursorStatus>,
    /// The item's id, unique in the list.
    #[schemars(extend("x-id" = true))]
    pub id: String,
}

/// A stored item as Cursor shows it, in its key order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CursorTodoView<'a> {
    /// What to do.
    pub content: &'a str,
    /// Where it stands.
    pub status: CursorStatus,
    /// Its id (its 1-based position when it has none).
    pub id: Cow<'a, str>,
}

/// The arguments of `todo_write`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, JsonSchema)]
pub struct TodoWriteInput {
    /// `true`: change only the items sent, found by `id`; `false`: replace
    /// the whole list with them.
    pub merge: bool,
    /// The items to write.
    pub todos: Vec<CursorTodo>,
}

/// What the details carry beside the lists, as Cursor's backend answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct MergeFacts {
    /// How many items the stored list holds now.
    pub total_count: usize,
    /// Whether the call merged rather than replaced.
    pub was_merge: bool,
}

todokit_app::prelude::writer_tool! {
    /// The `todo_write` tool.
    TodoWrite = "todo_write",
    include_str!("../descriptions/cursor/todo_write.md")
}

impl ListWriter for TodoWrite {
    type Input = TodoWriteInput;
    type Item<'a> = CursorTodoView<'a>;
    type Fields = MergeFacts;

    /// The whole list a `merge: false` call sends: each item needs its
    /// content and status.
    fn todos(input: &mut TodoWriteInput) -> Result<Vec<Todo>, ToolError> {
        let mut missing = Vec::new();
        let mut todos = Vec::with_capacity(input.todos.len());
        for (i, item) in input.todos.iter_mut().enumerate() {
            let (content, status) = (item.content.take(), item.status);
            for (field, absent) in [("content", content.is_none()), ("status", status.is_none())] {
                if absent {
                    missing.push(ArgumentError::Field {
                        field: format!("todos[{i}]"),
                        message: format!("missing `{field}` (with `merge: false` every item is sent whole)"),
                    });
                }
            }
            if let (Some(content), Some(status)) = (content, status) {
                todos.push(Todo::new(content).id(std::mem::take(&mut item.id)).status(status));
            }
        }
        match missing.is_empty() {
            true => Ok(todos),
            false => Err(ToolError::Arguments(missing)),
        }
    }

    fn apply(input: &mut TodoWriteInput, ctx: &CallContext<'_>) -> Result<Replacement, ToolError> {
        if !input.merge {
            return replace_with::<Self>(Self::todos(input)?, ctx);
        }
        let items = input
            .todos
            .iter_mut()
            .map(|item| {
                let patch = TodoPatch {
                    content: item.content.take(),
                    status: item.status.map(Status::from),
                    ..TodoPatch::default()
                };
                MergeItem::new(std::mem::take(&mut item.id), patch)
            })
            .collect();
        Ok(merge_by_id(ctx.state, items, ctx.rules, &Self::FIELDS, ctx.now)?)
    }

    fn item(todo: &Todo, position: usize) -> CursorTodoView<'_> {
        CursorTodoView {
            content: &todo.content,
            status: todo.status.into(),
            id: id_or_position(todo, position),
        }
    }

    /// [`UPDATED`], a blank line, [`LATEST`], then the whole stored list as
    /// compact JSON.
    fn text(op: &ToolOperation<'_, TodoWriteInput>) -> String {
        let items: Vec<CursorTodoView<'_>> = op
            .after
            .tasks()
            .enumerate()
            .map(|(i, t)| Self::item(t, i))
            .collect();
        // Serializing borrowed strings and enums cannot fail.
        let list = serde_json::to_string(&items).unwrap_or_default();
        format!("{UPDATED}\n\n{LATEST}\n{list}")
    }

    fn fields(op: &ToolOperation<'_, TodoWriteInput>) -> MergeFacts {
        MergeFacts {
            total_count: op.after.tasks().count(),
            was_merge: op.asked.merge,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::{ProfileCase, snapshot_settings};
    use pretty_assertions::assert_eq;

    fn case() -> ProfileCase {
        ProfileCase::new(profile())
    }

    const PLANNED: &str = r#"{"merge":false,"todos":[{"id":"read","content":"Read the parser","status":"completed"},{"id":"fix","content":"Fix the off-by-one","status":"in_progress"},{"id":"test","content":"Add a regression test","status":"pending"}]}"#;

    /// The stored list as (id, content, status).
    fn stored(state: &TodoState) -> Vec<(String, String, Status)> {
        state
            .tasks()
            .map(|t| (t.id.clone().unwrap_or_default(), t.content.clone(), t.status))
            .collect()
    }

    fn row(id: &str, content: &str, status: Status) -> (String, String, Status) {
        (id.to_owned(), content.to_owned(), status)
    }

    // Golden facts: the schema from Cursor's agent prompt as published in
    // x1xhlol/system-prompts-and-models-of-ai-tools, "Cursor Prompts/Agent
    // Prompt 2.0.txt" at commit 97081cd52b1da6f7f0ab45fd2f1f6ef65af25db9
    // (2025-11-07): `merge: boolean` ("merged into the existing todos
    // based on the id field ... leave unchanged properties undefined", else
    // replace) and `todos: [{content, status, id}]`, statuses pending,
    // in_progress, completed, cancelled. Cursor is closed source: the
    // answer text is the one a captured Cursor transcript in public code
    // shows (its repository is not named in the capture): "Successfully
    // updated TODOs. Make sure to follow and update your TODO list as you
    // make progress. Cancel and add new TODO tasks as needed when the user
    // makes a correction or follow-up request.", a blank line, "Here are
    // the latest contents of your TODO list:" and the list as compact JSON
    // with keys content, status, id.
    #[test]
    fn the_answer_and_schema_are_cursors() {
        let schema = todokit_app::schema::canonical::<TodoWriteInput>();
        let item = &schema["properties"]["todos"]["items"];
        let actual = (
            case().call("todo_write", PLANNED).result.content,
            schema["required"].clone(),
            item["properties"]
                .as_object()
                .map(|p| p.keys().cloned().collect::<Vec<_>>()),
            item["properties"]["status"]["enum"].clone(),
        );
        let expected = (
            "Successfully updated TODOs. Make sure to follow and update your TODO list as you make progress. \
             Cancel and add new TODO tasks as needed when the user makes a correction or follow-up request.\n\n\
             Here are the latest contents of your TODO list:\n\
             [{\"content\":\"Read the parser\",\"status\":\"completed\",\"id\":\"read\"},\
             {\"content\":\"Fix the off-by-one\",\"status\":\"in_progress\",\"id\":\"fix\"},\
             {\"content\":\"Add a regression test\",\"status\":\"pending\",\"id\":\"test\"}]"
                .to_owned(),
            serde_json::json!(["merge", "todos"]),
            Some(vec!["content".to_owned(), "status".to_owned(), "id".to_owned()]),
            serde_json::json!(["pending", "in_progress", "completed", "cancelled"]),
        );
        assert_eq!(actual, expected);
    }

    #[test]
    fn a_merge_changes_only_the_named_items_and_appends_unknown_ids() {
        let case = case();
        let planned = case.call("todo_write", PLANNED).commit.unwrap_or_default();
        let merged = case.call_on(
            &planned,
            "todo_write",
            r#"{"merge":true,"todos":[{"id":"fix","status":"completed"},{"id":"test","status":"in_progress"},{"id":"docs","content":"Note the fix in the changelog"}]}"#,
        );
        let actual = merged.commit.as_ref().map(stored);
        let expected = Some(vec![
            row("read", "Read the parser", Status::Completed),
            row("fix", "Fix the off-by-one", Status::Completed),
            row("test", "Add a regression test", Status::InProgress),
            row("docs", "Note the fix in the changelog", Status::Pending),
        ]);
        assert_eq!(actual, expected);
    }

    #[test]
    fn a_null_from_a_strict_mode_model_leaves_the_field_as_it_was() {
        let case = case();
        let planned = case.call("todo_write", PLANNED).commit.unwrap_or_default();
        let merged = case.call_on(
            &planned,
            "todo_write",
            r#"{"merge":true,"todos":[{"id":"read","content":null,"status":null},{"id":"fix","content":null,"status":"completed"}]}"#,
        );
        let actual = merged.commit.as_ref().map(stored);
        let expected = Some(vec![
            row("read", "Read the parser", Status::Completed),
            row("fix", "Fix the off-by-one", Status::Completed),
            row("test", "Add a regression test", Status::Pending),
        ]);
        assert_eq!(actual, expected);
    }

    #[test]
    fn a_replace_drops_what_it_does_not_send() {
        let case = case();
        let planned = case.call("todo_write", PLANNED).commit.unwrap_or_default();
        let replaced = case.call_on(
            &planned,
            "todo_write",
            r#"{"merge":false,"todos":[{"id":"ship","content":"Ship it","status":"pending"}]}"#,
        );
        let actual = replaced.commit.as_ref().map(stored);
        let expected = Some(vec![row("ship", "Ship it", Status::Pending)]);
        assert_eq!(actual, expected);
    }

    #[test]
    fn incomplete_items_are_refused_and_nothing_changes() {
        let case = case();
        let planned = case.call("todo_write", PLANNED).commit.unwrap_or_default();
        let actual = [
            case.problems(
                "todo_write",
                r#"{"merge":false,"todos":[{"id":"a","status":"pending"},{"id":"b"}]}"#,
            ),
            case.problems_on(
                &planned,
                "todo_write",
                r#"{"merge":true,"todos":[{"id":"new","status":"pending"}]}"#,
            ),
            case.problems("todo_write", r#"{"todos":[]}"#),
        ];
        let expected = [
            vec![
                "todos[0]: missing `content` (with `merge: false` every item is sent whole)".to_owned(),
                "todos[1]: missing `content` (with `merge: false` every item is sent whole)".to_owned(),
                "todos[1]: missing `status` (with `merge: false` every item is sent whole)".to_owned(),
            ],
            vec!["todos[0].content: must not be empty or only whitespace".to_owned()],
            vec!["(arguments): missing `merge`".to_owned()],
        ];
        assert_eq!(actual, expected);
    }

    #[test]
    fn result_texts() {
        let case = case();
        let planned = case.call("todo_write", PLANNED).commit.unwrap_or_default();
        let cases = [
            ("replace", TodoState::new(), PLANNED),
            (
                "merge",
                planned,
                r#"{"merge":true,"todos":[{"id":"fix","status":"completed"},{"id":"test","status":"in_progress"}]}"#,
            ),
            (
                "refused",
                TodoState::new(),
                r#"{"merge":false,"todos":[{"id":"a","content":"x","status":"paused"}]}"#,
            ),
        ];
        snapshot_settings().bind(|| {
            for (name, state, args) in cases {
                let result = case.call_on(&state, "todo_write", args).result;
                insta::assert_snapshot!(format!("result__cursor__{name}"), result.content);
                insta::assert_json_snapshot!(format!("details__cursor__{name}"), result.details.value());
            }
        });
    }
}
