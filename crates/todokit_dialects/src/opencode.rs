//! `opencode`: opencode's `todowrite`: the whole list of
//! `{content, status, priority}` items, with `cancelled` besides the usual
//! three, every item stored. The result is the list as sent, as JSON,
//! titled `N todos` with how many items are not completed.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use todokit_app::prelude::WirePriority;

use todokit_app::prelude::*;

/// The profile's name.
pub const NAME: &str = "opencode";

/// The statuses `todowrite` knows: the common three and `cancelled`.
pub type OpencodeStatus = todokit_app::prelude::CancellableStatus;

/// The profile with its default rules.
pub fn profile() -> Profile {
    Profile::new(
        NAME,
        "opencode's todowrite: prioritised items, the list back as JSON",
        ListRules::with_default_limits(InProgressPolicy::Warn),
    )
    .with_upstream(Upstream {
        agent: "opencode",
        pin: Pin::Package {
            registry: "npm",
            name: "opencode-linux-x64",
            version: "1.18.33",
            path: "bin/opencode",
            sha256: "149a676b59224b196626abda2fdbd34c8329ac326b57c4891ba3de446f3ca3c1",
        },
        ships_in: "opencode 1.18 (`todowrite`, from packages/opencode/src/tool/todo.ts) and Kilo Code's CLI 7.7, \
                   which ships the same tool",
        checked: Some(Checked {
            date: "2026-12-07",
            against: "npm opencode-ai 1.18.33",
        }),
    })
    .with_system_prompt(include_str!("../descriptions/opencode/system-prompt.md"))
    .with_example("todowrite", r#"{"todos":[{"content":"Run the tests","status":"in_progress","priority":"high"},{"content":"Fix what fails","status":"pending","priority":"medium"}]}"#)
    .with_leniency(Leniency::STANDARD.enum_spelling(true))
    .tool(ListTool(TodoWrite))
}

/// One item of the list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct OpencodeTodo {
    /// What to do, briefly.
    pub content: String,
    /// Where it stands: pending, in_progress, completed or cancelled.
    // A plain string in opencode 1.18.33's schema (the upstream fixture)
    // and in Kilo Code's CLI 7.7.9 (npm `@kilocode/cli-linux-x64`, sha256
    // 01cdbf6e…df28e3: `{content, status, priority}`, each `V.String`):
    // the values are told, not enumerated.
    #[schemars(transform = told_values)]
    pub status: OpencodeStatus,
    /// How urgent it is: high, medium or low.
    #[schemars(transform = told_values)]
    pub priority: WirePriority,
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
}

todokit_app::prelude::writer_tool! {
    /// The `todowrite` tool.
    TodoWrite = "todowrite",
    include_str!("../descriptions/opencode/todowrite.md")
}

impl ListWriter for TodoWrite {
    type Input = WholeList<OpencodeTodo>;
    type Item<'a> = OpencodeTodoView<'a>;
    type Fields = Title;

    fn todos(input: &mut WholeList<OpencodeTodo>) -> Result<Vec<Todo>, ToolError> {
        Ok(input
            .todos
            .iter()
            .map(|t| Todo::new(t.content.clone()).status(t.status).priority(t.priority))
            .collect())
    }

    fn item(todo: &Todo, _position: usize) -> OpencodeTodoView<'_> {
        OpencodeTodoView {
            content: &todo.content,
            status: todo.status.into(),
            priority: todo.priority.unwrap_or(Priority::Medium).into(),
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
            {"content":"a","status":"pending","priority":"high"},
            {"content":"b","status":"in_progress","priority":"medium"},
            {"content":"c","status":"completed","priority":"low"},
            {"content":"d","status":"cancelled","priority":"low"}]}"#;
        let actual = call(fixture)
            .commit
            .map(|s| s.tasks().map(|t| (t.status, t.priority)).collect::<Vec<_>>());
        let expected = Some(vec![
            (Status::Pending, Some(Priority::High)),
            (Status::InProgress, Some(Priority::Medium)),
            (Status::Completed, Some(Priority::Low)),
            (Status::Abandoned, Some(Priority::Low)),
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

    // Golden facts from opencode: the npm package opencode-linux-x64
    // 1.18.33 (sha256
    // 149a676b59224b196626abda2fdbd34c8329ac326b57c4891ba3de446f3ca3c1),
    // bin/opencode, which bundles packages/opencode/src/tool/todo.ts: the
    // items are `{content, status, priority}` (no id); every item sent is
    // stored (`update({todos: params.todos})`); the output is
    // `JSON.stringify(params.todos, null, 2)` and the title
    // `${params.todos.filter((x) => x.status !== "completed").length} todos`,
    // so cancelled items count in it. The bundled core tool
    // (packages/core/src/tool/todowrite.ts) answers the same text and fails
    // with `Unable to update todos`.
    #[test]
    fn the_output_and_title_are_opencodes() {
        let outcome = call(
            r#"{"todos":[{"content":"a","status":"completed","priority":"high"},{"content":"b","status":"cancelled","priority":"low"},{"content":"c","status":"pending","priority":"medium"}]}"#,
        );
        let actual = (
            outcome.result.content,
            outcome.result.details.value()["title"].clone(),
        );
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
                r#"{"todos":[{"content":"Find the bug","status":"completed","priority":"high"},{"content":"Fix it","status":"in_progress","priority":"high"},{"content":"Tidy up","status":"cancelled","priority":"low"}]}"#,
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
