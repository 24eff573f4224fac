//! `trae`: Trae's `todo_write`, as its Builder agent declares it: the whole
//! list of 3 to 10 `{content, status, id, priority}` todos, all four
//! required, the statuses `pending`, `in_progress` and `completed`. Trae is
//! closed source and no capture shows what the tool answers, so it answers
//! with the stored list as compact JSON in the schema's own shape, as
//! `amp` does.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use todokit_app::prelude::{TriStatus, WirePriority};

use todokit_app::prelude::*;

/// The profile's name.
pub const NAME: &str = "trae";
/// The fewest todos a list may hold, as Trae's schema says.
pub const MIN_TODOS: usize = 3;
/// The most todos a list may hold, as Trae's schema says.
pub const MAX_TODOS: usize = 10;

/// The profile with its default rules, held to Trae's ten todos at most.
pub fn profile() -> Profile {
    let mut rules = ListRules::with_default_limits(InProgressPolicy::Warn);
    rules.limits.max_items = MAX_TODOS;
    Profile::new(
        NAME,
        "Trae's todo_write: 3 to 10 todos with ids and priorities",
        rules,
    )
    .with_upstream(Upstream {
        agent: "Trae",
        pin: Pin::Capture {
            repository: "x1xhlol/system-prompts-and-models-of-ai-tools",
            path: "Trae/Builder Tools.json",
            commit: "66ed60e6975dfdb3f6678bd2eb296c8997df6a6f",
            date: Some("2025-08-18"),
        },
        ships_in: "Trae's Builder agent (`todo_write`; Trae is closed source, its tool list was captured in 2025 and \
                   its result texts are not public)",
        checked: Some(Checked {
            date: "2026-11-26",
            against: "b8e95891fe6c8f1db651a8ca4d8217f22c73849b",
        }),
    })
    .with_system_prompt(include_str!("../descriptions/trae/system-prompt.md"))
    .with_example(
        TodoWrite::NAME,
        r#"{"todos":[{"id":"1","content":"Run the tests","status":"in_progress","priority":"high"},{"id":"2","content":"Fix what fails","status":"pending","priority":"high"},{"id":"3","content":"Update the changelog","status":"pending","priority":"low"}]}"#,
    )
    .tool(ListTool(TodoWrite))
}

/// One todo as a call sends it.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, JsonSchema)]
pub struct TraeTodo {
    /// What to do.
    pub content: String,
    /// Where it stands.
    pub status: TriStatus,
    /// Its id, unique in the list.
    #[schemars(extend("x-id" = true))]
    pub id: String,
    /// How much it matters.
    pub priority: WirePriority,
}

/// The arguments of `todo_write`: the whole list, 3 to 10 todos.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, JsonSchema)]
pub struct TraeTodos {
    /// The whole updated list. It replaces the stored one.
    #[schemars(length(min = MIN_TODOS, max = MAX_TODOS))]
    pub todos: Vec<TraeTodo>,
}

/// A stored todo in Trae's shape.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TraeTodoView<'a> {
    /// What to do.
    pub content: &'a str,
    /// Where it stands.
    pub status: TriStatus,
    /// Its id (its 1-based position when another profile gave it none).
    pub id: std::borrow::Cow<'a, str>,
    /// How much it matters (`medium` when none was said).
    pub priority: WirePriority,
}

todokit_app::prelude::writer_tool! {
    /// The `todo_write` tool.
    TodoWrite = "todo_write",
    include_str!("../descriptions/trae/todo_write.md")
}

impl ListWriter for TodoWrite {
    type Input = TraeTodos;
    type Item<'a> = TraeTodoView<'a>;
    type Fields = ();

    fn todos(input: &mut TraeTodos) -> Result<Vec<Todo>, ToolError> {
        Ok(input
            .todos
            .iter_mut()
            .map(|item| {
                todo_with_id(
                    &mut item.content,
                    item.status.into(),
                    item.priority.into(),
                    &mut item.id,
                )
            })
            .collect())
    }

    fn item(todo: &Todo, position: usize) -> TraeTodoView<'_> {
        TraeTodoView {
            content: &todo.content,
            status: todo.status.into(),
            id: id_or_position(todo, position),
            priority: todo.priority.map_or(WirePriority::Medium, WirePriority::from),
        }
    }

    fn text(op: &ToolOperation<'_, TraeTodos>) -> String {
        items_json::<Self>(op.after)
    }

    fn fields(_op: &ToolOperation<'_, TraeTodos>) {}
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::test_support::{problem_messages, run_tool};
    use pretty_assertions::assert_eq;

    fn call(args: &str) -> Outcome {
        run_tool(&profile(), TodoWrite::NAME, &TodoState::new(), args)
    }

    // Golden facts from Trae's tool list, captured from its Builder agent:
    // "Trae/Builder Tools.json" in x1xhlol/system-prompts-and-models-of-ai-tools
    // at commit 66ed60e6975dfdb3f6678bd2eb296c8997df6a6f: `todo_write`
    // takes `todos` (required) of `{content, status: pending|in_progress|
    // completed, id, priority: high|medium|low}`, all four required, with
    // `minItems: 3` and `maxItems: 10` (the capture writes both inside the
    // item schema; they bound the list, as the Builder prompt's examples
    // of five-step lists show). No capture shows the answer: it is the
    // stored list in the schema's shape (docs/leniency.md).
    #[test]
    fn the_schema_is_traes() {
        let schema = todokit_app::schema::canonical::<TraeTodos>();
        let todos = &schema["properties"]["todos"];
        let actual = (
            schema["required"].clone(),
            todos["minItems"].clone(),
            todos["maxItems"].clone(),
            todos["items"]["required"].clone(),
            todos["items"]["properties"]["status"]["enum"].clone(),
            todos["items"]["properties"]["priority"]["enum"].clone(),
        );
        let expected = (
            serde_json::json!(["todos"]),
            serde_json::json!(3),
            serde_json::json!(10),
            serde_json::json!(["content", "status", "id", "priority"]),
            serde_json::json!(["pending", "in_progress", "completed"]),
            serde_json::json!(["high", "medium", "low"]),
        );
        assert_eq!(actual, expected);
    }

    #[test]
    fn a_list_of_three_is_stored_and_answered_with_the_list() {
        let outcome = call(
            r#"{"todos":[{"content":"Read","status":"completed","id":"a","priority":"low"},{"content":"Fix","status":"in_progress","id":"b","priority":"high"},{"content":"Ship","status":"pending","id":"c","priority":"medium"}]}"#,
        );
        let actual = (
            outcome.result.content,
            outcome
                .commit
                .map(|s| s.tasks().map(|t| (t.id.clone(), t.status)).collect::<Vec<_>>()),
        );
        let expected = (
            r#"[{"content":"Read","status":"completed","id":"a","priority":"low"},{"content":"Fix","status":"in_progress","id":"b","priority":"high"},{"content":"Ship","status":"pending","id":"c","priority":"medium"}]"#.to_owned(),
            Some(vec![
                (Some("a".to_owned()), Status::Completed),
                (Some("b".to_owned()), Status::InProgress),
                (Some("c".to_owned()), Status::Pending),
            ]),
        );
        assert_eq!(actual, expected);
    }

    #[test]
    fn fewer_than_three_todos_are_refused_and_nothing_is_stored() {
        let outcome = call(r#"{"todos":[{"content":"Read","status":"pending","id":"a","priority":"low"}]}"#);
        let actual = (
            outcome.commit.is_some(),
            outcome.result.is_error,
            problem_messages(&outcome).len(),
        );
        let expected = (false, true, 1);
        assert_eq!(actual, expected);
    }
}
