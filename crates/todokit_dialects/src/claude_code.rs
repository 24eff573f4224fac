//! `claude-code`: Claude Code's `TodoWrite`: the flat list of
//! `{content, status, activeForm}` replaced whole on every call, answered
//! with Claude Code's fixed confirmation.
//!
//! `content` and `activeForm` must not be empty; unknown top-level fields
//! are refused, as Claude Code's strict input object does. A list sent with
//! every item completed is stored as empty. Several items may be in
//! progress, as in the original; the details count them. The item and size
//! limits are ours ([`MAX_ITEMS`], [`MAX_TEXT_BYTES`]): Claude Code sets none.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use todokit_app::prelude::TriStatus;

use todokit_app::prelude::*;

/// The profile's name.
pub const NAME: &str = "claude-code";
/// Most items in one list (ours: Claude Code sets no limit).
pub const MAX_ITEMS: usize = 50;
/// Longest `content` and `activeForm`, in UTF-8 bytes (ours).
pub const MAX_TEXT_BYTES: usize = 200;
/// What the model reads back after every accepted call, as Claude Code
/// words it (no final period).
pub const MODIFIED: &str = "Todos have been modified successfully. Ensure that you continue to use the todo \
     list to track your progress. Please proceed with the current tasks if applicable";

/// The rules `TodoWrite` lists are held to by default.
pub fn rules() -> ListRules {
    ListRules::new(Limits::capped(MAX_ITEMS, MAX_TEXT_BYTES), InProgressPolicy::Warn)
}

/// The profile with its default rules.
pub fn profile() -> Profile {
    Profile::new(
        NAME,
        "Claude Code's TodoWrite: the whole flat list on every call",
        rules(),
    )
    .with_upstream(Upstream {
        agent: "Claude Code",
        pin: Pin::Capture {
            repository: "Jayleonc/claude-code-source-code",
            path: "src/tools/TodoWriteTool/TodoWriteTool.ts",
            commit: "83fba929f14ad08f743591c19e945afe5130ab13",
            date: Some("2026-04-13"),
        },
        ships_in: "Claude Code 2.x (`TodoWrite`); as of 2.1.332 sent only with `CLAUDE_CODE_ENABLE_TASKS=0` (otherwise its task tools: the `claude-tasks` profile), and only to the models that get todo tools (its older models, or any with `CLAUDE_CODE_ENABLE_TODO_TOOLS=1`)",
        checked: Some(Checked {
            date: "2026-12-07",
            against: "npm @anthropic-ai/claude-code 2.1.332",
        }),
    })
    .with_system_prompt(include_str!("../descriptions/claude-code/system-prompt.md"))
    .with_example(
        "TodoWrite",
        r#"{"todos":[{"content":"Run the tests","status":"in_progress","activeForm":"Running the tests"},{"content":"Fix what fails","status":"pending","activeForm":"Fixing what fails"}]}"#,
    )
    .tool(ListTool(TodoWrite))
}

/// One item of the list.
// Closed, as Claude Code's schema closes it: an item with a key of its
// own is refused, as Claude Code refuses it. The doc line above is what
// the model reads.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[schemars(extend("additionalProperties" = false))]
pub struct TodoItem {
    /// The step, in the imperative ("Run the tests").
    #[schemars(length(min = 1))]
    pub content: String,
    /// Where the step stands.
    pub status: TriStatus,
    /// The step in the present continuous, shown while it runs ("Running the tests").
    #[serde(rename = "activeForm", alias = "active_form")]
    #[schemars(length(min = 1))]
    pub active_form: String,
}

/// A stored todo as a [`TodoItem`] in the details, borrowing its text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct TodoItemView<'a> {
    /// The step.
    pub content: &'a str,
    /// Where it stands.
    pub status: TriStatus,
    /// The step while it runs (the content when none was given).
    #[serde(rename = "activeForm")]
    pub active_form: &'a str,
}

impl<'a> TodoItemView<'a> {
    /// `todo` as an item, its content standing in for a missing active form.
    pub fn of(todo: &'a Todo) -> Self {
        Self {
            content: &todo.content,
            status: todo.status.into(),
            active_form: todo.active_form.as_deref().unwrap_or(&todo.content),
        }
    }
}

/// The arguments of `TodoWrite`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TodoWriteInput {
    /// The updated todo list.
    pub todos: Vec<TodoItem>,
}

todokit_app::prelude::writer_tool! {
    /// The `TodoWrite` tool.
    TodoWrite = "TodoWrite",
    include_str!("../descriptions/claude-code/TodoWrite.md")
}

impl ListWriter for TodoWrite {
    type Input = TodoWriteInput;
    type Item<'a> = TodoItemView<'a>;
    type Fields = Counts;
    const WIPE_WHEN_ALL_COMPLETED: bool = true;

    /// Moves the text out of the input: the result text is fixed and the
    /// counts do not read it.
    fn todos(input: &mut TodoWriteInput) -> Result<Vec<Todo>, ToolError> {
        Ok(input
            .todos
            .iter_mut()
            .map(|item| {
                Todo::new(std::mem::take(&mut item.content))
                    .status(item.status)
                    .active_form(std::mem::take(&mut item.active_form))
            })
            .collect())
    }

    fn item(todo: &Todo, _position: usize) -> TodoItemView<'_> {
        TodoItemView::of(todo)
    }

    fn text(_op: &ToolOperation<'_, TodoWriteInput>) -> String {
        MODIFIED.to_owned()
    }

    fn fields(op: &ToolOperation<'_, TodoWriteInput>) -> Counts {
        Counts::of(op)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::{NOW, problem_messages, run_tool, snapshot_settings};
    use pretty_assertions::assert_eq;
    use serde_json::json;
    use todokit_app::Outcome;
    use todokit_domain::{Status, TodoState};

    fn call(state: &TodoState, args: &serde_json::Value) -> Outcome {
        run_tool(&profile(), TodoWrite::NAME, state, &args.to_string())
    }

    fn item(content: &str, status: &str, active_form: &str) -> serde_json::Value {
        json!({"content": content, "status": status, "activeForm": active_form})
    }

    // Golden facts from Claude Code's source: repository
    // Jayleonc/claude-code-source-code, src/tools/TodoWriteTool/TodoWriteTool.ts
    // at commit 83fba929f14ad08f743591c19e945afe5130ab13:
    // `mapToolResultToToolResultBlockParam` answers every accepted call with
    // the fixed sentence below (no final period), and `call` stores `[]`
    // when every item is completed.
    #[test]
    fn an_accepted_list_gets_claude_codes_fixed_sentence() {
        let fixture = json!({"todos": [item("Run tests", "in_progress", "Running tests")]});
        let actual = call(&TodoState::new(), &fixture).result.content;
        let expected = "Todos have been modified successfully. Ensure that you continue to use the todo list \
                        to track your progress. Please proceed with the current tasks if applicable";
        assert_eq!(actual, expected);
    }

    #[test]
    fn a_list_sent_all_completed_is_stored_empty_with_the_same_sentence() {
        let fixture = json!({"todos": [item("a", "completed", "A"), item("b", "completed", "B")]});
        let outcome = call(&TodoState::new(), &fixture);
        let actual = (outcome.result.content, outcome.commit);
        let expected = (MODIFIED.to_owned(), Some(TodoState::new()));
        assert_eq!(actual, expected);
    }

    // Golden facts: DroxKiwi/claude-code-leak-packaged,
    // src/utils/todo/types.ts at commit
    // fb1320d1baf5b77a0a02c15f41efb1dfa9aeff4b: `content` and `activeForm`
    // are `z.string().min(1)`, `status` one of pending/in_progress/completed;
    // TodoWriteTool.ts (above) wraps them in `z.strictObject`, so unknown
    // top-level fields are refused.
    #[test]
    fn the_schema_says_min_length_one_and_closes_the_top_level_object() {
        let schema = todokit_app::schema::canonical::<TodoWriteInput>();
        let actual = (
            schema["additionalProperties"].clone(),
            schema["properties"]["todos"]["items"]["properties"]["content"]["minLength"].clone(),
            schema["properties"]["todos"]["items"]["properties"]["activeForm"]["minLength"].clone(),
            schema["properties"]["todos"]["items"]["properties"]["status"]["enum"].clone(),
        );
        let expected = (
            json!(false),
            json!(1),
            json!(1),
            json!(["pending", "in_progress", "completed"]),
        );
        assert_eq!(actual, expected);
    }

    // Golden fact: the TodoWrite definition Claude Code 2.1.332 (npm
    // @anthropic-ai/claude-code@2.1.332) sends its models closes each item
    // too (`todos.items.additionalProperties: false`).
    #[test]
    fn the_schema_closes_each_item_and_an_items_extra_key_is_refused() {
        let schema = todokit_app::schema::canonical::<TodoWriteInput>();
        let closed = schema["properties"]["todos"]["items"]["additionalProperties"].clone();
        let with_id = json!({"todos": [{"content": "a", "status": "pending", "activeForm": "A", "id": "1"}]});
        let outcome = call(&TodoState::new(), &with_id);
        let actual = (closed, problem_messages(&outcome), outcome.commit);
        let expected = (
            json!(false),
            vec!["todos[0]: unknown field `id`; allowed: `content`, `status`, `activeForm`".to_owned()],
            None,
        );
        assert_eq!(actual, expected);
    }

    #[test]
    fn empty_texts_and_unknown_top_level_fields_are_refused_and_nothing_is_stored() {
        let fixtures = [
            json!({"todos": [item("", "pending", "A")]}),
            json!({"todos": [item("a", "pending", "")]}),
            json!({"todos": [], "extra": 1}),
        ];
        let actual: Vec<(Vec<String>, bool)> = fixtures
            .iter()
            .map(|f| {
                let outcome = call(&TodoState::new(), f);
                (problem_messages(&outcome), outcome.commit.is_some())
            })
            .collect();
        let expected = vec![
            (
                vec!["todos[0].content: needs at least 1 character, got 0".to_owned()],
                false,
            ),
            (
                vec!["todos[0].activeForm: needs at least 1 character, got 0".to_owned()],
                false,
            ),
            (
                vec!["(arguments): unknown field `extra`; allowed: `todos`".to_owned()],
                false,
            ),
        ];
        assert_eq!(actual, expected);
    }

    #[test]
    fn several_in_progress_are_accepted_silently_and_counted_in_the_details() {
        let fixture = json!({"todos": [item("a", "in_progress", "A"), item("b", "in_progress", "B")]});
        let outcome = call(&TodoState::new(), &fixture);
        let actual = (
            outcome.result.content.clone(),
            outcome.result.details.value()["in_progress_count"].clone(),
            outcome
                .commit
                .map(|s| s.tasks().map(|t| t.status).collect::<Vec<_>>()),
        );
        let expected = (
            MODIFIED.to_owned(),
            json!(2),
            Some(vec![Status::InProgress, Status::InProgress]),
        );
        assert_eq!(actual, expected);
    }

    #[test]
    fn our_limits_stay_fifty_items_of_two_hundred_bytes() {
        let fixtures = [
            json!({"todos": vec![item("a", "pending", "A"); MAX_ITEMS + 1]}),
            json!({"todos": [item(&"é".repeat(100), "pending", "A"), item(&"x".repeat(201), "pending", "B")]}),
        ];
        let actual: Vec<Vec<String>> = fixtures
            .iter()
            .map(|f| problem_messages(&call(&TodoState::new(), f)))
            .collect();
        let expected = vec![
            vec!["todos: 51 items were sent; at most 50 are allowed".to_owned()],
            vec!["todos[1].content: 201 bytes of UTF-8 were sent; at most 200 bytes are allowed".to_owned()],
        ];
        assert_eq!(actual, expected);
    }

    #[test]
    fn a_stored_todo_keeps_its_times_and_snake_case_is_read() {
        let fixture = json!({"todos": [{"content": "a", "status": "pending", "active_form": "A"}]});
        let actual = call(&TodoState::new(), &fixture).commit;
        let expected = Some(TodoState::flat(vec![
            Todo::new("a")
                .active_form("A")
                .created_at(NOW)
                .status_changed_at(NOW),
        ]));
        assert_eq!(actual, expected);
    }

    #[test]
    fn result_texts() {
        let cases = [
            (
                "update",
                json!({"todos": [item("Read", "completed", "Reading"), item("Fix", "in_progress", "Fixing")]}),
            ),
            ("wiped", json!({"todos": [item("Read", "completed", "Reading")]})),
            ("empty_content", json!({"todos": [item("", "pending", "A")]})),
        ];
        snapshot_settings().bind(|| {
            for (name, args) in cases {
                let result = call(&TodoState::new(), &args).result;
                insta::assert_snapshot!(format!("result__claude-code__{name}"), result.content);
                insta::assert_json_snapshot!(format!("details__claude-code__{name}"), result.details.value());
            }
        });
    }
}
