//! `forge`: `todo_write` (the whole list, each item with an id) and
//! `todo_read`, answering with a progress line and a markdown checklist.
//!
//! Ids must be unique and at most one item may be in progress (a setting
//! turns that into a warning). The result carries the list before and after
//! the call so a UI can show the change.

use std::borrow::Cow;

use derive_setters::Setters;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use todokit_app::prelude::TriStatus;

use todokit_app::prelude::*;

/// Forge's checklist is the shown checklist todokit draws for users.
pub use todokit_domain::checklist::{Checklist, SHOWN as MARKERS};

/// The profile's name.
pub const NAME: &str = "forge";
/// Most items in one list.
pub const MAX_ITEMS: usize = 20;
/// Longest `content`, in UTF-8 bytes. The original sets none; this keeps a
/// runaway model from storing megabytes in one item.
pub const MAX_CONTENT_BYTES: usize = 500;
/// Longest `id`, in UTF-8 bytes.
pub const MAX_ID_BYTES: usize = 64;

/// The rules `todo_write` lists are held to by default: one item in
/// progress, enforced.
pub fn rules() -> ListRules {
    ListRules::default()
        .limits(
            Limits::DEFAULT
                .max_items(MAX_ITEMS)
                .max_content_bytes(MAX_CONTENT_BYTES)
                .max_id_bytes(MAX_ID_BYTES),
        )
        .in_progress(InProgressPolicy::Reject)
        .require_ids(true)
}

/// The profile with its default rules.
pub fn profile() -> Profile {
    Profile::new(
        NAME,
        "Forge's todo_write and todo_read: an id'd list rendered as a checklist",
        rules(),
    )
    .with_upstream(Upstream {
        agent: "forge",
        pin: Pin::DesignNote {
            title: "Todo Write Tool Implementation",
            date: None,
        },
        ships_in: "forge (tailcallhq/forgecode) as its design note planned `todo_write`; the shipped tool has since grown a `cancelled` status",
        checked: None,
    })
    .with_system_prompt(include_str!("../../descriptions/forge/system-prompt.md"))
    .with_example("todo_write", r#"{"todos":[{"id":"1","content":"Run the tests","status":"in_progress"},{"id":"2","content":"Fix what fails","status":"pending"}]}"#)
    .tool(ListTool(TodoWrite))
    .tool(TodoRead)
}

/// One step of the plan.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, Setters)]
#[setters(strip_option, into)]
pub struct TodoItem {
    /// A short id, unique within the list ("1", "2", ...).
    #[schemars(extend("x-id" = true))]
    pub id: String,
    /// What to do.
    pub content: String,
    /// Where it stands.
    pub status: TriStatus,
}

impl TodoItem {
    /// An item.
    pub fn new(id: impl Into<String>, content: impl Into<String>, status: TriStatus) -> Self {
        Self {
            id: id.into(),
            content: content.into(),
            status,
        }
    }

    fn to_todo(&self) -> Todo {
        Todo::new(self.content.clone())
            .id(self.id.clone())
            .status(self.status)
    }
}

/// A stored todo as a [`TodoItem`] in the details, borrowing its text; a
/// todo without an id is shown with its 1-based position.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TodoItemView<'a> {
    /// Its id.
    pub id: Cow<'a, str>,
    /// What to do.
    pub content: &'a str,
    /// Where it stands.
    pub status: TriStatus,
}

todokit_app::prelude::writer_tool! {
    /// The `todo_write` tool.
    TodoWrite = "todo_write",
    include_str!("../../descriptions/forge/todo_write.md")
}

impl ListWriter for TodoWrite {
    type Input = WholeList<TodoItem>;
    type Item<'a> = TodoItemView<'a>;
    type Fields = ();

    fn todos(input: &mut WholeList<TodoItem>) -> Result<Vec<Todo>, ToolError> {
        Ok(input.todos.iter().map(TodoItem::to_todo).collect())
    }

    fn item(todo: &Todo, position: usize) -> TodoItemView<'_> {
        TodoItemView {
            id: id_or_position(todo, position),
            content: &todo.content,
            status: todo.status.into(),
        }
    }

    fn text(op: &ToolOperation<'_, WholeList<TodoItem>>) -> String {
        let mut content = Checklist::new(op.after).render();
        if op.in_progress_count > 1 {
            content.push_str(&format!(
                "\n\nWarning: {} items are in_progress. Keep only the one you are working on in progress.",
                op.in_progress_count
            ));
        }
        content
    }

    fn fields(_op: &ToolOperation<'_, WholeList<TodoItem>>) {}
}

/// The `todo_read` tool.
#[derive(Debug, Clone, Copy, Default)]
pub struct TodoRead;

impl TypedTool for TodoRead {
    type Input = NoArguments;
    const NAME: &'static str = "todo_read";
    const DESCRIPTION: &'static str = include_str!("../../descriptions/forge/todo_read.md");
    const METADATA: ToolMetadata = ToolMetadata::LIST_READER;

    fn run(&self, _input: NoArguments, ctx: &CallContext<'_>) -> Result<Outcome, ToolError> {
        // The list under the writer's key, so a UI reads both alike.
        read_list::<TodoWrite>(Checklist::new(ctx.state).render(), ctx.state)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    use crate::test_support::{problem_messages, run_tool, snapshot_settings};
    use pretty_assertions::assert_eq;
    use todokit_domain::Status;

    fn call_with(tool: &str, rules: &ListRules, state: &TodoState, args: &str) -> Outcome {
        run_tool(&profile().with_rules(*rules), tool, state, args)
    }

    fn write(state: &TodoState, args: &str) -> Outcome {
        call_with(TodoWrite::NAME, &rules(), state, args)
    }

    fn list(n: usize) -> String {
        let items: Vec<_> = (0..n)
            .map(|i| json!({"id": (i + 1).to_string(), "content": format!("Step {i}"), "status": "pending"}))
            .collect();
        json!({ "todos": items }).to_string()
    }

    // Golden facts from forge's todo_write design note (seed 004, "Todo
    // Write Tool Implementation", steps 1, 5 and 6): items are `{id, content, status}` with pending,
    // in_progress and completed; the output is a markdown checklist with a
    // completed/total summary on top, `[ ]` pending, `[~]` in progress in
    // bold, `[x]` completed struck through; ids must be unique, content
    // non-empty, one item in progress.
    #[test]
    fn the_checklist_and_rules_are_seed_004s() {
        let args = r#"{"todos":[{"id":"1","content":"Read","status":"completed"},{"id":"2","content":"Fix","status":"in_progress"},{"id":"3","content":"Test","status":"pending"}]}"#;
        let refusals = [
            r#"{"todos":[{"id":"1","content":"a","status":"pending"},{"id":"1","content":"b","status":"pending"}]}"#,
            r#"{"todos":[{"id":"1","content":" ","status":"pending"}]}"#,
            r#"{"todos":[{"id":"1","content":"a","status":"in_progress"},{"id":"2","content":"b","status":"in_progress"}]}"#,
        ];
        let actual = (
            write(&TodoState::new(), args).result.content,
            refusals.map(|r| write(&TodoState::new(), r).result.is_error),
        );
        let expected = (
            "Progress: 1/3 completed\n\n- [x] ~~Read~~\n- [~] **Fix**\n- [ ] Test".to_owned(),
            [true, true, true],
        );
        assert_eq!(actual, expected);
    }

    #[test]
    fn twenty_items_pass_and_twenty_one_fail() {
        let fixture = [list(MAX_ITEMS), list(MAX_ITEMS + 1)];
        let actual: Vec<Vec<String>> = fixture
            .iter()
            .map(|a| problem_messages(&write(&TodoState::new(), a)))
            .collect();
        let expected = vec![
            vec![],
            vec!["todos: 21 items were sent; at most 20 are allowed".to_owned()],
        ];
        assert_eq!(actual, expected);
    }

    #[test]
    fn duplicate_ids_fail() {
        let fixture = r#"{"todos":[{"id":"1","content":"a","status":"pending"},{"id":"1","content":"b","status":"pending"}]}"#;
        let outcome = write(&TodoState::new(), fixture);
        let actual = (problem_messages(&outcome), outcome.commit);
        let expected = (
            vec!["todos[1].id: id \"1\" is already used by todos[0].id; ids must be unique".to_owned()],
            None,
        );
        assert_eq!(actual, expected);
    }

    #[test]
    fn two_in_progress_fail_by_default() {
        let fixture = r#"{"todos":[{"id":"1","content":"a","status":"in_progress"},{"id":"2","content":"b","status":"in_progress"}]}"#;
        let outcome = write(&TodoState::new(), fixture);
        let actual = (problem_messages(&outcome), outcome.commit);
        let expected = (
            vec!["todos: 2 items are in_progress (todos[0], todos[1]); only one item may be in_progress at a time".to_owned()],
            None,
        );
        assert_eq!(actual, expected);
    }

    #[test]
    fn two_in_progress_only_warn_when_configured() {
        let fixture = r#"{"todos":[{"id":"1","content":"a","status":"in_progress"},{"id":"2","content":"b","status":"in_progress"}]}"#;
        let outcome = call_with(
            TodoWrite::NAME,
            &rules().in_progress(InProgressPolicy::Warn),
            &TodoState::new(),
            fixture,
        );
        let actual = (
            outcome.result.is_error,
            outcome.commit.map(|s| s.counts().in_progress),
        );
        let expected = (false, Some(2));
        assert_eq!(actual, expected);
    }

    #[test]
    fn empty_content_fails() {
        let fixture = r#"{"todos":[{"id":"1","content":"  ","status":"pending"}]}"#;
        let actual = problem_messages(&write(&TodoState::new(), fixture));
        let expected = vec!["todos[0].content: must not be empty or only whitespace".to_owned()];
        assert_eq!(actual, expected);
    }

    #[test]
    fn the_result_carries_the_previous_and_current_list() {
        let fixture = TodoState::flat(vec![Todo::new("a").id("1")]);
        let outcome = write(
            &fixture,
            r#"{"todos":[{"id":"1","content":"a","status":"completed"}]}"#,
        );
        let actual = (
            outcome.result.details.value()["previous"].clone(),
            outcome.result.details.value()["current"].clone(),
        );
        let expected = (
            json!([{"id": "1", "content": "a", "status": "pending"}]),
            json!([{"id": "1", "content": "a", "status": "completed"}]),
        );
        assert_eq!(actual, expected);
    }

    #[test]
    fn read_commits_nothing_and_fills_in_missing_ids() {
        let fixture = TodoState::flat(vec![Todo::new("a"), Todo::new("b").status(Status::InProgress)]);
        let outcome = call_with(TodoRead::NAME, &rules(), &fixture, "");
        let actual = (outcome.commit, outcome.result.details.value());
        let expected = (
            None,
            json!({"current": [
                {"id": "1", "content": "a", "status": "pending"},
                {"id": "2", "content": "b", "status": "in_progress"}
            ]}),
        );
        assert_eq!(actual, expected);
    }

    #[test]
    fn result_texts() {
        let previous = TodoState::flat(vec![
            Todo::new("Define the types").id("1").status(Status::Completed),
            Todo::new("Write the service").id("2").status(Status::InProgress),
            Todo::new("Add tests").id("3"),
        ]);
        let write_args = r#"{"todos":[{"id":"1","content":"Define the types","status":"completed"},{"id":"2","content":"Write the service","status":"completed"},{"id":"3","content":"Add tests","status":"in_progress"}]}"#;
        let cases: [(&str, &str, ListRules, &TodoState, &str); 6] = [
            ("write", TodoWrite::NAME, rules(), &previous, write_args),
            (
                "write_numeric_ids",
                TodoWrite::NAME,
                rules(),
                &previous,
                r#"{"todos":[{"id":1,"content":"Define the types","status":"completed"}]}"#,
            ),
            (
                "write_empty",
                TodoWrite::NAME,
                rules(),
                &previous,
                r#"{"todos":[]}"#,
            ),
            (
                "write_warn",
                TodoWrite::NAME,
                rules().in_progress(InProgressPolicy::Warn),
                &previous,
                r#"{"todos":[{"id":"1","content":"a","status":"in_progress"},{"id":"2","content":"b","status":"in_progress"}]}"#,
            ),
            (
                "write_rejected",
                TodoWrite::NAME,
                rules(),
                &previous,
                r#"{"todos":[{"id":"1","content":"a","status":"in_progress"},{"id":"1","content":"","status":"in_progress"}]}"#,
            ),
            ("read", TodoRead::NAME, rules(), &previous, "{}"),
        ];
        snapshot_settings().bind(|| {
            for (name, tool, rules, state, args) in cases {
                let result = call_with(tool, &rules, state, args).result;
                insta::assert_snapshot!(format!("result__forge__{name}"), result.content);
                insta::assert_json_snapshot!(format!("details__forge__{name}"), result.details.value());
            }
        });
    }
}
