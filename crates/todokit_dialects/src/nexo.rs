//! `nexo`: nexo-rs's `TodoWrite` (seed 000): the flat list replaced whole on
//! every call, answered with a JSON body that echoes the list before and as
//! sent, whether it was wiped, how many items are in progress, and a fixed
//! instruction.
//!
//! Items carry `content`, `status` and `activeForm` (`active_form` is
//! accepted too); at most 50 items of at most 200 bytes each. Several items
//! may be in progress; the body counts them. A list sent with every item
//! completed is stored as empty, and the body says so.

use derive_setters::Setters;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

// nexo's items are Claude Code's: the same three fields under the same names.
use crate::claude_code::TodoItemView;
use todokit_app::prelude::TriStatus;

use todokit_app::prelude::*;

/// The profile's name.
pub const NAME: &str = "nexo";
/// Most items in one list.
pub const MAX_ITEMS: usize = 50;
/// Longest `content` and `activeForm`, in UTF-8 bytes.
pub const MAX_TEXT_BYTES: usize = 200;

/// The rules `TodoWrite` lists are held to by default.
pub fn rules() -> ListRules {
    ListRules::new(Limits::capped(MAX_ITEMS, MAX_TEXT_BYTES), InProgressPolicy::Warn)
}

/// The profile with its default rules.
pub fn profile() -> Profile {
    Profile::new(
        NAME,
        "nexo-rs's TodoWrite: the whole list, answered with old and new lists and counts",
        rules(),
    )
    .with_upstream(Upstream {
        agent: "nexo-rs",
        pin: Pin::Source {
            repository: "lordmacu/nexo-rs",
            path: "crates/core/src/agent/todo_write_tool.rs",
            commit: "5b45273de9a181b75c5433e2ad409ab98792cff4",
            date: Some("2026-05-02"),
            read_through: None,
        },
        ships_in: "nexo-rs agents (`TodoWrite`)",
        checked: Some(Checked {
            date: "2026-11-26",
            against: "eec3f3363a9a2d117432083ac17be4c07b990480",
        }),
    })
    .with_system_prompt(include_str!("../descriptions/nexo/system-prompt.md"))
    .with_example("TodoWrite", r#"{"todos":[{"content":"Run the tests","status":"in_progress","activeForm":"Running the tests"},{"content":"Fix what fails","status":"pending","activeForm":"Fixing what fails"}]}"#)
    .tool(ListTool(TodoWrite))
}

/// One step of the plan.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, Setters)]
#[setters(strip_option, into)]
pub struct TodoItem {
    /// The step, in the imperative ("Run the tests").
    pub content: String,
    /// Where the step stands.
    pub status: TriStatus,
    /// The step in the present continuous, shown while it runs ("Running the tests").
    #[serde(rename = "activeForm", alias = "active_form")]
    pub active_form: String,
}

impl TodoItem {
    /// An item.
    pub fn new(content: impl Into<String>, status: TriStatus, active_form: impl Into<String>) -> Self {
        Self {
            content: content.into(),
            status,
            active_form: active_form.into(),
        }
    }

    fn to_todo(&self) -> Todo {
        Todo::new(self.content.clone())
            .status(self.status)
            .active_form(self.active_form.clone())
    }
}

todokit_app::prelude::writer_tool! {
    /// The `TodoWrite` tool.
    TodoWrite = "TodoWrite",
    include_str!("../descriptions/nexo/TodoWrite.md")
}

impl ListWriter for TodoWrite {
    type Input = WholeList<TodoItem>;
    type Item<'a> = TodoItemView<'a>;
    type Fields = Counts;
    const WIPE_WHEN_ALL_COMPLETED: bool = true;

    fn todos(input: &mut WholeList<TodoItem>) -> Result<Vec<Todo>, ToolError> {
        Ok(input.todos.iter().map(TodoItem::to_todo).collect())
    }

    fn item(todo: &Todo, _position: usize) -> TodoItemView<'_> {
        TodoItemView::of(todo)
    }

    fn text(op: &ToolOperation<'_, WholeList<TodoItem>>) -> String {
        let old_todos: Vec<TodoItemView<'_>> = op.before.tasks().map(TodoItemView::of).collect();
        let body = Response {
            old_todos: &old_todos,
            new_todos: &op.asked.todos,
            counts: Self::fields(op),
            instructions: INSTRUCTIONS,
        };
        serde_json::to_string(&body).unwrap_or_default()
    }

    fn fields(op: &ToolOperation<'_, WholeList<TodoItem>>) -> Counts {
        Counts::of(op)
    }
}

/// The text the model reads: the list before and as sent, the counts, and
/// the standing instruction.
#[derive(Serialize)]
struct Response<'a> {
    old_todos: &'a [TodoItemView<'a>],
    new_todos: &'a [TodoItem],
    #[serde(flatten)]
    counts: Counts,
    instructions: &'a str,
}

/// The instruction every accepted call carries, as seed 000 words it.
pub const INSTRUCTIONS: &str = "Todos updated. Keep exactly one item `in_progress` at a time. Mark completed \
     IMMEDIATELY after finishing each task; do not batch completions.";

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::{NOW, detail, problem_messages, run_tool, snapshot_settings, verdict};
    use pretty_assertions::assert_eq;
    use serde_json::Value;
    use serde_json::json;
    use todokit_app::parse_arguments;
    use todokit_domain::Status;

    fn call(state: &TodoState, args: &str) -> Outcome {
        run_tool(&profile(), TodoWrite::NAME, state, args)
    }

    // nexo's TodoWrite never looks at a mode (lordmacu/nexo-rs
    // crates/core/src/agent/todo_write_tool.rs at commit
    // 5b45273de9a181b75c5433e2ad409ab98792cff4): in the host's plan mode it
    // stores the list as in any other.
    #[test]
    fn plan_mode_leaves_todowrite_callable() {
        let service = crate::test_support::memory_service(NAME);
        let plan = todokit_app::CallOptions::default().mode(todokit_app::HostMode::Plan);
        let args = r#"{"todos":[{"content":"Read","status":"in_progress","activeForm":"Reading"}]}"#;
        let result = crate::test_support::block_on(service.call_with("c", TodoWrite::NAME, args, plan));
        let stored = crate::test_support::block_on(service.state("c"))
            .map(|s| s.tasks().count())
            .ok();
        let refused_in = profile()
            .find(TodoWrite::NAME)
            .map(|t| t.metadata().refused_in.is_empty());
        let actual = (result.map(|r| r.is_error).ok(), stored, refused_in);
        let expected = (Some(false), Some(1), Some(true));
        assert_eq!(actual, expected);
    }

    fn items(n: usize, content: &str) -> String {
        let item = json!({"content": content, "status": "pending", "activeForm": "Doing it"});
        json!({"todos": vec![item; n]}).to_string()
    }

    // Golden fact: nexo-rs's TodoWrite design note (seed 000, "TodoWrite
    // (Phase 79.4)", its "Response" section) gives the `instructions` string of every accepted call.
    #[test]
    fn the_instruction_is_the_seeds_word_for_word() {
        let fixture = items(1, "Step");
        let body: Value = serde_json::from_str(&call(&TodoState::new(), &fixture).result.content).unwrap();
        let actual = body["instructions"].clone();
        let expected = json!(
            "Todos updated. Keep exactly one item `in_progress` at a time. Mark completed IMMEDIATELY after \
             finishing each task; do not batch completions."
        );
        assert_eq!(actual, expected);
    }

    #[test]
    fn fifty_items_pass() {
        let fixture = items(MAX_ITEMS, "Step");
        let outcome = call(&TodoState::new(), &fixture);
        let actual = (outcome.result.is_error, outcome.commit.map(|s| s.tasks().count()));
        let expected = (false, Some(50));
        assert_eq!(actual, expected);
    }

    #[test]
    fn fifty_one_items_fail() {
        let fixture = items(MAX_ITEMS + 1, "Step");
        let outcome = call(&TodoState::new(), &fixture);
        let actual = verdict(outcome);
        let expected = (
            true,
            vec!["todos: 51 items were sent; at most 50 are allowed".to_owned()],
            None,
        );
        assert_eq!(actual, expected);
    }

    #[test]
    fn two_hundred_bytes_pass_and_two_hundred_and_one_fail_counting_bytes_not_chars() {
        // "é" is two bytes: 100 of them are exactly 200 bytes.
        let fixture = [
            "é".repeat(100),
            format!("{}x", "é".repeat(100)),
            format!("{}x", "a".repeat(199)),
        ];
        let actual: Vec<(bool, Vec<String>)> = fixture
            .iter()
            .map(|c| {
                let outcome = call(&TodoState::new(), &items(1, c));
                (outcome.result.is_error, problem_messages(&outcome))
            })
            .collect();
        let expected = vec![
            (false, vec![]),
            (
                true,
                vec![
                    "todos[0].content: 201 bytes of UTF-8 were sent; at most 200 bytes are allowed"
                        .to_owned(),
                ],
            ),
            (false, vec![]),
        ];
        assert_eq!(actual, expected);
    }

    #[test]
    fn active_form_is_limited_too() {
        let fixture =
            json!({"todos": [{"content": "a", "status": "pending", "activeForm": "b".repeat(201)}]});
        let outcome = call(&TodoState::new(), &fixture.to_string());
        let actual = problem_messages(&outcome);
        let expected = vec![
            "todos[0].activeForm: 201 bytes of UTF-8 were sent; at most 200 bytes are allowed".to_owned(),
        ];
        assert_eq!(actual, expected);
    }

    #[test]
    fn empty_and_whitespace_only_content_fail() {
        let fixture = ["", " \t\n "];
        let actual: Vec<Vec<String>> = fixture
            .iter()
            .map(|c| problem_messages(&call(&TodoState::new(), &items(1, c))))
            .collect();
        let expected = vec![vec!["todos[0].content: must not be empty or only whitespace".to_owned()]; 2];
        assert_eq!(actual, expected);
    }

    #[test]
    fn a_list_sent_as_a_json_string_is_accepted_as_the_list_it_encodes() {
        let fixture = r#"{"todos":"[{\"content\":\"a\",\"status\":\"pending\",\"activeForm\":\"b\"}]"}"#;
        let actual = call(&TodoState::new(), fixture).commit;
        let expected = Some(TodoState::flat(vec![
            Todo::new("a")
                .active_form("b")
                .created_at(NOW)
                .status_changed_at(NOW),
        ]));
        assert_eq!(actual, expected);
    }

    #[test]
    fn another_profiles_status_spelling_is_refused_naming_the_allowed_ones() {
        let fixture = r#"{"todos":[{"content":"a","status":"done","activeForm":"A"}]}"#;
        let actual = problem_messages(&call(&TodoState::new(), fixture));
        let expected =
            vec!["todos[0].status: got \"done\"; allowed: `pending`, `in_progress`, `completed`".to_owned()];
        assert_eq!(actual, expected);
    }

    #[test]
    fn snake_case_active_form_is_accepted() {
        let fixture =
            r#"{"todos":[{"content":"Run tests","status":"in_progress","active_form":"Running tests"}]}"#;
        let actual = call(&TodoState::new(), fixture).commit;
        let expected = Some(TodoState::flat(vec![
            Todo::new("Run tests")
                .status(Status::InProgress)
                .active_form("Running tests")
                .created_at(NOW)
                .status_changed_at(NOW),
        ]));
        assert_eq!(actual, expected);
    }

    #[test]
    fn all_completed_wipes_the_stored_list() {
        let fixture = r#"{"todos":[{"content":"a","status":"completed","activeForm":"A"},{"content":"b","status":"completed","activeForm":"B"}]}"#;
        let outcome = call(&TodoState::new(), fixture);
        let actual = (
            outcome.commit,
            outcome.result.details.value()["wiped_on_all_completed"].clone(),
        );
        let expected = (Some(TodoState::new()), Value::Bool(true));
        assert_eq!(actual, expected);
    }

    #[test]
    fn an_empty_list_clears() {
        let fixture = TodoState::flat(vec![Todo::new("a")]).version(3u64);
        let outcome = call(&fixture, r#"{"todos":[]}"#);
        let actual = (
            outcome.commit,
            outcome.result.details.value()["wiped_on_all_completed"].clone(),
        );
        let expected = (Some(TodoState::new().version(3u64)), Value::Bool(false));
        assert_eq!(actual, expected);
    }

    #[test]
    fn several_in_progress_are_allowed_and_counted() {
        let fixture = r#"{"todos":[{"content":"a","status":"in_progress","activeForm":"A"},{"content":"b","status":"in_progress","activeForm":"B"}]}"#;
        let outcome = call(&TodoState::new(), fixture);
        let actual = detail(&outcome, "in_progress_count");
        let expected = (false, json!(2));
        assert_eq!(actual, expected);
    }

    #[test]
    fn a_refused_call_commits_nothing() {
        let fixture = TodoState::flat(vec![Todo::new("keep")]).version(7u64);
        let actual = call(
            &fixture,
            r#"{"todos":[{"content":"a","status":"done","activeForm":"A"}]}"#,
        )
        .commit;
        let expected = None;
        assert_eq!(actual, expected);
    }

    #[test]
    fn result_texts() {
        let previous = TodoState::flat(vec![
            Todo::new("Read the code")
                .status(Status::Completed)
                .active_form("Reading the code"),
            Todo::new("Fix the bug").active_form("Fixing the bug"),
        ]);
        let cases: [(&str, &TodoState, &str); 11] = [
            (
                "update",
                &previous,
                r#"{"todos":[{"content":"Read the code","status":"completed","activeForm":"Reading the code"},{"content":"Fix the bug","status":"in_progress","activeForm":"Fixing the bug"},{"content":"Run tests","status":"pending","activeForm":"Running tests"}]}"#,
            ),
            (
                "two_in_progress",
                &previous,
                r#"{"todos":[{"content":"Read the code","status":"in_progress","activeForm":"Reading the code"},{"content":"Fix the bug","status":"in_progress","activeForm":"Fixing the bug"}]}"#,
            ),
            (
                "wiped",
                &previous,
                r#"{"todos":[{"content":"Read the code","status":"completed","activeForm":"Reading the code"},{"content":"Fix the bug","status":"completed","activeForm":"Fixing the bug"}]}"#,
            ),
            (
                "bad_status",
                &previous,
                r#"{"todos":[{"content":"a","status":5,"activeForm":"A"}]}"#,
            ),
            ("not_json", &previous, r#"{"todos":[{"content":"a""#),
            (
                "todos_as_string",
                &previous,
                r#"{"todos":"[{\"content\":\"a\",\"status\":\"pending\",\"activeForm\":\"A\"}]"}"#,
            ),
            ("todos_as_plain_string", &previous, r#"{"todos":"buy milk"}"#),
            (
                "title_for_content",
                &previous,
                r#"{"todos":[{"title":"a","status":"pending","activeForm":"A"}]}"#,
            ),
            (
                "truncated_list_string",
                &previous,
                r#"{"todos":"[{\"content\":\"a\",\"status\":\"pend"}"#,
            ),
            (
                "missing_active_form",
                &previous,
                r#"{"todos":[{"content":"a","status":"pending"}]}"#,
            ),
            (
                "several_problems",
                &previous,
                r#"{"todos":[{"content":" ","status":"pending","activeForm":"A"},{"content":"b","status":"pending","activeForm":""}]}"#,
            ),
        ];
        snapshot_settings().bind(|| {
            for (name, state, args) in cases {
                let rules = rules();
                let ctx = CallContext::new(state, NOW, &rules);
                let result = match parse_arguments(args) {
                    Ok(v) => profile().run(TodoWrite::NAME, &v, &ctx).unwrap().result,
                    Err(e) => ToolError::from(e).into_result(TodoWrite::NAME),
                };
                insta::assert_snapshot!(format!("result__nexo__{name}"), result.content);
                insta::assert_json_snapshot!(format!("details__nexo__{name}"), result.details.value());
            }
        });
    }
}
