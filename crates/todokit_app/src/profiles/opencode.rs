//! `opencode`: opencode's `todowrite`: the whole list of
//! `{content, status, priority, id?}` items, with `cancelled` besides the
//! usual three. The result is the list as sent, as JSON, titled `N todos`
//! with how many items are not completed.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::wire::WirePriority;

use crate::prelude::*;

/// The profile's name.
pub const NAME: &str = "opencode";


/// The statuses `todowrite` knows: the common three and `cancelled`.
pub type OpencodeStatus = crate::wire::CancellableStatus;

/// The profile with its default rules.
pub fn profile() -> Profile {
    Profile::new(
        NAME,
        "opencode's todowrite: prioritised items, the list back as JSON",
        ListRules::with_default_limits(InProgressPolicy::Warn),
    )
    .with_upstream(Upstream {
        agent: "opencode",
        pin: Pin::Source {
            repository: "anomalyco/opencode",
            path: "packages/opencode/src/tool/todo.ts",
            commit: "0fbbcdb58b83edf5ccf77b4aadaecd92b76a369f",
            date: None,
        },
        ships_in: "opencode and Kilo Code's CLI (`todowrite`)",
        checked: None,
    })
    .with_system_prompt(include_str!("../../descriptions/opencode/system-prompt.md"))
    .with_example("todowrite", r#"{"todos":[{"content":"Run the tests","status":"in_progress","priority":"high"},{"content":"Fix what fails","status":"pending","priority":"medium"}]}"#)
    .with_leniency(Leniency::STANDARD.enum_spelling(true))
    .tool(ListTool(TodoWrite))
}

/// One item of the list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct OpencodeTodo {
    /// What to do, briefly.
    pub content: String,
    /// Where it stands.
    pub status: OpencodeStatus,
    /// How urgent it is.
    pub priority: WirePriority,
    /// A stable id of the model's choosing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("x-id" = true))]
    pub id: Option<String>,
}

/// A stored todo as an [`OpencodeTodo`] in the details, borrowing its text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct OpencodeTodoView<'a> {
    /// What to do.
    pub content: &'a str,
    /// Where it stands.
    pub status: OpencodeStatus,
    /// How urgent it is.
    pub priority: WirePriority,
    /// Its id, when it has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<&'a str>,
}

crate::writer_tool! {
    /// The `todowrite` tool.
    TodoWrite = "todowrite",
    include_str!("../../descriptions/opencode/todowrite.md")
}

impl ListWriter for TodoWrite {
    type Input = WholeList<OpencodeTodo>;
    type Item<'a> = OpencodeTodoView<'a>;
    type Fields = Title;

    fn todos(input: &mut WholeList<OpencodeTodo>) -> Result<Vec<Todo>, ToolError> {
        Ok(input
            .todos
            .iter()
            .map(|t| {
                let todo = Todo::new(t.content.clone()).status(t.status).priority(t.priority);
                match &t.id {
                    Some(id) => todo.id(id.clone()),
                    None => todo,
                }
            })
            .collect())
    }

    fn item(todo: &Todo, _position: usize) -> OpencodeTodoView<'_> {
        OpencodeTodoView {
            content: &todo.content,
            status: todo.status.into(),
            priority: todo.priority.unwrap_or(Priority::Medium).into(),
            id: todo.id.as_deref(),
        }
    }

    /// The list as it was sent, as JSON with two-space indents.
    fn text(op: &ToolOperation<'_, WholeList<OpencodeTodo>>) -> String {
        serde_json::to_string_pretty(&op.asked.todos).unwrap_or_default()
    }

    fn fields(op: &ToolOperation<'_, WholeList<OpencodeTodo>>) -> Title {
        let not_completed = op
            .asked
            .todos
            .iter()
            .filter(|t| t.status != OpencodeStatus::Completed)
            .count();
        Title {
            title: format!("{not_completed} todos"),
            in_progress_count: op.in_progress_count,
        }
    }
}

/// What `todowrite` reports beside the lists.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Title {
    /// `N todos`: how many items sent are not completed (cancelled ones
    /// count, as in the original).
    pub title: String,
    /// How many items were sent in progress.
    pub in_progress_count: usize,
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    use crate::test_support::{detail, problem_messages, run_tool, snapshot_settings};
    use pretty_assertions::assert_eq;

    fn call(args: &str) -> Outcome {
        run_tool(&profile(), TodoWrite::NAME, &TodoState::new(), args)
    }

    #[test]
    fn every_status_and_priority_is_stored() {
        let fixture = r#"{"todos":[
            {"content":"a","status":"pending","priority":"high","id":"x"},
            {"content":"b","status":"in_progress","priority":"medium"},
            {"content":"c","status":"completed","priority":"low"},
            {"content":"d","status":"cancelled","priority":"low"}]}"#;
        let actual = call(fixture).commit.map(|s| {
            s.tasks()
                .map(|t| (t.id.clone(), t.status, t.priority))
                .collect::<Vec<_>>()
        });
        let expected = Some(vec![
            (Some("x".to_owned()), Status::Pending, Some(Priority::High)),
            (None, Status::InProgress, Some(Priority::Medium)),
            (None, Status::Completed, Some(Priority::Low)),
            (None, Status::Abandoned, Some(Priority::Low)),
        ]);
        assert_eq!(actual, expected);
    }

    #[test]
    fn priority_is_required() {
        let actual = problem_messages(&call(r#"{"todos":[{"content":"a","status":"pending"}]}"#));
        let expected = vec!["todos[0]: missing `priority`".to_owned()];
        assert_eq!(actual, expected);
    }

    #[test]
    fn several_in_progress_are_allowed() {
        let outcome = call(
            r#"{"todos":[{"content":"a","status":"in_progress","priority":"high"},{"content":"b","status":"in_progress","priority":"high"}]}"#,
        );
        let actual = detail(&outcome, "in_progress_count");
        let expected = (false, json!(2));
        assert_eq!(actual, expected);
    }

    #[test]
    fn the_title_counts_items_not_completed() {
        let outcome = call(
            r#"{"todos":[{"content":"a","status":"completed","priority":"high"},{"content":"b","status":"pending","priority":"low"},{"content":"c","status":"in_progress","priority":"low"}]}"#,
        );
        let actual = outcome.result.details.value()["title"].clone();
        let expected = json!("2 todos");
        assert_eq!(actual, expected);
    }

    // Golden facts from anomalyco/opencode,
    // packages/opencode/src/tool/todo.ts at commit
    // 0fbbcdb58b83edf5ccf77b4aadaecd92b76a369f: the output is
    // `JSON.stringify(params.todos, null, 2)` and the title
    // `${params.todos.filter((x) => x.status !== "completed").length} todos`,
    // so cancelled items count in it.
    #[test]
    fn the_output_and_title_are_opencodes() {
        let outcome = call(
            r#"{"todos":[{"content":"a","status":"completed","priority":"high"},{"content":"b","status":"cancelled","priority":"low"},{"content":"c","status":"pending","priority":"medium"}]}"#,
        );
        let actual = (outcome.result.content, outcome.result.details.value()["title"].clone());
        let expected = (
            "[\n  {\n    \"content\": \"a\",\n    \"status\": \"completed\",\n    \"priority\": \"high\"\n  },\n  {\n    \
             \"content\": \"b\",\n    \"status\": \"cancelled\",\n    \"priority\": \"low\"\n  },\n  {\n    \
             \"content\": \"c\",\n    \"status\": \"pending\",\n    \"priority\": \"medium\"\n  }\n]"
                .to_owned(),
            json!("2 todos"),
        );
        assert_eq!(actual, expected);
    }

    #[test]
    fn result_texts() {
        let cases = [
            ("empty", r#"{"todos":[]}"#),
            (
                "mixed",
                r#"{"todos":[{"content":"Find the bug","status":"completed","priority":"high","id":"1"},{"content":"Fix it","status":"in_progress","priority":"high","id":"2"},{"content":"Tidy up","status":"cancelled","priority":"low","id":"3"}]}"#,
            ),
            (
                "refused",
                r#"{"todos":[{"content":"","status":"pending","priority":"urgent"}]}"#,
            ),
        ];
        snapshot_settings().bind(|| {
            for (name, args) in cases {
                let result = call(args).result;
                insta::assert_snapshot!(format!("result__opencode__{name}"), result.content);
                insta::assert_json_snapshot!(format!("details__opencode__{name}"), result.details.value());
            }
        });
    }
}
