//! `gemini`: Gemini CLI's `write_todos`: the whole list of
//! `{description, status}` items, with `cancelled` and `blocked` besides
//! the usual three; more than one item in progress is an error. The result
//! is the list, numbered.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use todokit_app::prelude::WireEnum;

use todokit_app::prelude::*;

/// The profile's name.
pub const NAME: &str = "gemini";

const FIELDS: FieldNames = FieldNames {
    list: "todos",
    content: "description",
    active_form: "activeForm",
    id: "id",
    status: "status",
    ..FieldNames::DEFAULT
};

todokit_app::prelude::status_words! {
    /// The statuses `write_todos` knows: the common three, `cancelled` and
    /// (since March 2026) `blocked`.
    pub enum GeminiStatus {
        /// Not started.
        Pending = "pending" => Pending,
        /// Being worked on.
        InProgress = "in_progress" => InProgress,
        /// Done.
        Completed = "completed" => Completed,
        /// No longer needed.
        Cancelled = "cancelled" => Abandoned,
        /// Cannot go on for now.
        Blocked = "blocked" => Blocked,
    }
    aliases { "done" => Completed, "canceled" => Cancelled, "abandoned" => Cancelled, "dropped" => Cancelled }
}

/// The profile with its default rules.
pub fn profile() -> Profile {
    Profile::new(
        NAME,
        "Gemini CLI's write_todos: five statuses, a numbered list back",
        ListRules::with_default_limits(InProgressPolicy::Warn),
    )
    .with_upstream(Upstream {
        agent: "Gemini CLI",
        pin: Pin::Source {
            repository: "google-gemini/gemini-cli",
            path: "packages/core/src/tools/write-todos.ts",
            commit: "5411f113cafae26161b4969b0237b8e1e024e2c2",
            date: Some("2026-08-21"),
            read_through: None,
        },
        ships_in: "Gemini CLI (`write_todos`) on Gemini 2 models that are not previews, with the tracker off",
        checked: Some(Checked {
            date: "2026-12-07",
            against: "npm @google/gemini-cli 0.61.0",
        }),
    })
    .with_system_prompt(include_str!("../descriptions/gemini/system-prompt.md"))
    .with_example("write_todos", r#"{"todos":[{"description":"Run the tests","status":"in_progress"},{"description":"Fix what fails","status":"pending"}]}"#)
    .with_leniency(Leniency::STANDARD.enum_spelling(true).unknown_keys(true))
    .tool(ListTool(WriteTodos))
}

/// One item of the list.
// Gemini CLI's schema closes the item (`additionalProperties: false`);
// todokit's says the same and still takes an item with keys of its own
// (docs/leniency.md). The doc line above is what the model reads.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[schemars(extend("additionalProperties" = false))]
pub struct GeminiTodo {
    /// What to do.
    pub description: String,
    /// Where it stands.
    pub status: GeminiStatus,
}

/// A stored todo as a [`GeminiTodo`] in the details, borrowing its text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct GeminiTodoView<'a> {
    /// What to do.
    pub description: &'a str,
    /// Where it stands.
    pub status: GeminiStatus,
}

/// The arguments of `write_todos`.
// Closed in the schema as Gemini CLI's are; a call with another key is
// still taken (Gemini CLI adds `wait_for_previous` to every MCP tool it
// relays).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, JsonSchema)]
#[schemars(extend("additionalProperties" = false))]
pub struct WriteTodosInput {
    /// The complete list. It replaces the stored one.
    pub todos: Vec<GeminiTodo>,
}

todokit_app::prelude::writer_tool! {
    /// The `write_todos` tool.
    WriteTodos = "write_todos",
    include_str!("../descriptions/gemini/write_todos.md")
}

impl ListWriter for WriteTodos {
    type Input = WriteTodosInput;
    type Item<'a> = GeminiTodoView<'a>;
    type Fields = ();
    const FIELDS: FieldNames = FIELDS;

    fn todos(input: &mut WriteTodosInput) -> Result<Vec<Todo>, ToolError> {
        let todos: Vec<Todo> = input
            .todos
            .iter()
            .map(|t| Todo::new(t.description.clone()).status(t.status))
            .collect();
        if todos.iter().filter(|t| t.status == Status::InProgress).count() > 1 {
            return Err(ToolError::refused(FIELDS.list, ONE_IN_PROGRESS));
        }
        Ok(todos)
    }

    fn item(todo: &Todo, _position: usize) -> GeminiTodoView<'_> {
        GeminiTodoView {
            description: &todo.content,
            status: todo.status.into(),
        }
    }

    fn text(op: &ToolOperation<'_, WriteTodosInput>) -> String {
        render(op.after)
    }

    fn fields(_op: &ToolOperation<'_, WriteTodosInput>) {}
}

/// Gemini CLI's answer to an accepted list.
pub const UPDATED: &str = "Successfully updated the todo list. The current list is now:";
/// Gemini CLI's answer when the list sent is empty.
pub const CLEARED: &str = "Successfully cleared the todo list.";
/// Gemini CLI's refusal of a second item in progress.
pub const ONE_IN_PROGRESS: &str = "Only one task can be \"in_progress\" at a time.";

/// [`UPDATED`] and `1. [status] description` lines, or [`CLEARED`].
fn render(state: &TodoState) -> String {
    if state.is_empty() {
        return CLEARED.to_owned();
    }
    let mut out = String::from(UPDATED);
    for (i, task) in state.tasks().enumerate() {
        let status = GeminiStatus::from(task.status).as_str();
        out.push_str(&format!("\n{}. [{status}] {}", i + 1, task.content));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::test_support::{ProfileCase, problem_messages, run_tool, snapshot_settings};
    use pretty_assertions::assert_eq;

    fn call(args: &str) -> Outcome {
        run_tool(&profile(), WriteTodos::NAME, &TodoState::new(), args)
    }

    /// The stored status of a one-item list sent with `status`.
    fn stored_status(status: &str) -> Option<Status> {
        let one_item = |word: &str| format!(r#"{{"todos":[{{"description":"a","status":"{word}"}}]}}"#);
        ProfileCase::new(profile()).stored_status(WriteTodos::NAME, one_item, status)
    }

    #[test]
    fn every_status_maps_to_the_stored_one() {
        let fixture = [
            "pending",
            "in_progress",
            "completed",
            "cancelled",
            "blocked",
            "paused",
        ];
        let actual: Vec<Option<Status>> = fixture.iter().map(|s| stored_status(s)).collect();
        let expected = vec![
            Some(Status::Pending),
            Some(Status::InProgress),
            Some(Status::Completed),
            Some(Status::Abandoned),
            Some(Status::Blocked),
            None,
        ];
        assert_eq!(actual, expected);
    }

    #[test]
    fn other_agents_spellings_are_accepted() {
        let fixture = ["done", "canceled", "dropped", "In Progress"];
        let actual: Vec<Option<Status>> = fixture.iter().map(|s| stored_status(s)).collect();
        let expected = vec![
            Some(Status::Completed),
            Some(Status::Abandoned),
            Some(Status::Abandoned),
            Some(Status::InProgress),
        ];
        assert_eq!(actual, expected);
    }

    // Golden fact: Gemini CLI 0.61.0 (npm @google/gemini-cli@0.61.0) sends
    // `write_todos` with `additionalProperties: false` on the arguments and
    // on each item, and adds `wait_for_previous` to every MCP tool it relays.
    #[test]
    fn the_schema_is_closed_and_a_relayed_extra_key_is_still_taken() {
        let schema = todokit_app::schema::canonical::<WriteTodosInput>();
        let closed = (
            schema["additionalProperties"].clone(),
            schema["properties"]["todos"]["items"]["additionalProperties"].clone(),
        );
        let outcome =
            call(r#"{"todos":[{"description":"a","status":"pending","note":"x"}],"wait_for_previous":true}"#);
        let actual = (closed, outcome.result.is_error, outcome.result.content);
        let expected = (
            (serde_json::json!(false), serde_json::json!(false)),
            false,
            format!("{UPDATED}\n1. [pending] a"),
        );
        assert_eq!(actual, expected);
    }

    #[test]
    fn two_in_progress_are_an_error() {
        let outcome = call(
            r#"{"todos":[{"description":"a","status":"in_progress"},{"description":"b","status":"in_progress"}]}"#,
        );
        let actual = (problem_messages(&outcome), outcome.commit);
        let expected = (
            vec!["todos: Only one task can be \"in_progress\" at a time.".to_owned()],
            None,
        );
        assert_eq!(actual, expected);
    }

    #[test]
    fn an_empty_description_is_refused() {
        let actual = problem_messages(&call(r#"{"todos":[{"description":"","status":"pending"}]}"#));
        let expected = vec!["todos[0].description: must not be empty or only whitespace".to_owned()];
        assert_eq!(actual, expected);
    }

    // Golden facts from google-gemini/gemini-cli,
    // packages/core/src/tools/write-todos.ts at commit
    // 5411f113cafae26161b4969b0237b8e1e024e2c2 (2026-08-21; the statuses
    // last changed in b8719bcd47d01a488a9e12695851b43d30d36db3, 2026-03-17,
    // which added `blocked`): statuses pending, in_progress, completed,
    // cancelled, blocked; the answer is "Successfully
    // updated the todo list. The current list is now:" then one
    // `N. [status] description` line per item, or "Successfully cleared the
    // todo list." for an empty list; a second item in progress is refused
    // with "Only one task can be \"in_progress\" at a time.".
    #[test]
    fn the_answers_are_gemini_clis_word_for_word() {
        let actual = [
            call(r#"{"todos":[{"description":"Read the code","status":"completed"},{"description":"Port it","status":"cancelled"},{"description":"Fix the bug","status":"in_progress"},{"description":"Ask for keys","status":"blocked"}]}"#)
                .result
                .content,
            call(r#"{"todos":[]}"#).result.content,
        ];
        let expected = [
            "Successfully updated the todo list. The current list is now:\n1. [completed] Read the code\n\
             2. [cancelled] Port it\n3. [in_progress] Fix the bug\n4. [blocked] Ask for keys"
                .to_owned(),
            "Successfully cleared the todo list.".to_owned(),
        ];
        assert_eq!(actual, expected);
    }

    #[test]
    fn result_texts() {
        let cases = [
            ("empty", r#"{"todos":[]}"#),
            (
                "every_status",
                r#"{"todos":[{"description":"Find the config loader","status":"completed"},{"description":"Add the flag","status":"in_progress"},{"description":"Write tests","status":"pending"},{"description":"Port to Windows","status":"cancelled"},{"description":"Sign the release","status":"blocked"}]}"#,
            ),
            ("refused", r#"{"todos":[{"description":"a","status":"paused"}]}"#),
        ];
        snapshot_settings().bind(|| {
            for (name, args) in cases {
                let result = call(args).result;
                insta::assert_snapshot!(format!("result__gemini__{name}"), result.content);
                insta::assert_json_snapshot!(format!("details__gemini__{name}"), result.details.value());
            }
        });
    }
}
