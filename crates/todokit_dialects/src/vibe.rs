//! `vibe`: Mistral Vibe's `todo`: one tool whose `action` is `read` or
//! `write`. A write replaces the list with `{id, content, status,
//! priority}` items (status `pending` and priority `medium` when left out),
//! at most 100 of them with distinct ids; a write without `todos` empties
//! it. The answer is the result as Vibe 3 hands it to the model: the JSON
//! of `{verb, todos, total_count, message}`, as Python's `json.dumps`
//! writes it.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use todokit_app::prelude::{CancellableStatus, WirePriority};

use todokit_app::prelude::*;

/// The profile's name.
pub const NAME: &str = "vibe";

/// The profile with its default rules (at most 100 todos, as Vibe's
/// `max_todos`).
pub fn profile() -> Profile {
    Profile::new(
        NAME,
        "Mistral Vibe's todo: read or write the whole list, the result back as JSON",
        ListRules::with_default_limits(InProgressPolicy::Warn),
    )
    .with_upstream(Upstream {
        agent: "Mistral Vibe",
        pin: Pin::Package {
            registry: "pypi",
            name: "mistral-vibe",
            version: "3.0.3",
            path: "vibe/core/tools/builtins/todo.py (run by vibe/app_server/_provided_tools.py)",
            sha256: "28a2b1f6ae8580853492f2d1aca883901fc4dc062ce484a6057acc0a0bf38521",
        },
        ships_in: "Mistral Vibe 3 (`todo`, run by its Rust harness)",
        checked: Some(Checked {
            date: "2026-12-07",
            against: "3.0.3",
        }),
    })
    .with_system_prompt(include_str!("../descriptions/vibe/system-prompt.md"))
    .with_example(
        VibeTodo::NAME,
        r#"{"action":"write","todos":[{"id":"1","content":"Run the tests","status":"in_progress","priority":"high"},{"id":"2","content":"Fix what fails"}]}"#,
    )
    .tool(Commands(VibeTodo))
}

/// One todo as `write` sends it.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, JsonSchema)]
pub struct VibeTodoItem {
    /// Its id, unique in the list.
    pub id: String,
    /// What to do.
    pub content: String,
    /// Where it stands; `pending` when left out.
    #[serde(default)]
    #[schemars(with = "Option<CancellableStatus>", transform = todokit_app::prelude::omissible)]
    pub status: Option<CancellableStatus>,
    /// How much it matters; `medium` when left out.
    #[serde(default)]
    #[schemars(with = "Option<WirePriority>", transform = todokit_app::prelude::omissible)]
    pub priority: Option<WirePriority>,
}

/// A stored todo as Vibe keeps it, for the details.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct VibeTodoView<'a> {
    /// Its id (its 1-based position when another profile gave it none).
    pub id: std::borrow::Cow<'a, str>,
    /// What to do.
    pub content: &'a str,
    /// Where it stands.
    pub status: CancellableStatus,
    /// How much it matters (`medium` when none was said).
    pub priority: WirePriority,
}

/// The arguments of `todo`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, JsonSchema)]
pub struct VibeTodoInput {
    /// `read` to see the list, `write` to replace it; needed on every call.
    pub action: ReadWrite,
    /// The complete list, for `write`: it replaces the one stored.
    #[serde(default)]
    pub todos: Option<Vec<VibeTodoItem>>,
}

/// The `todo` tool.
#[derive(Debug, Clone, Copy, Default)]
pub struct VibeTodo;

impl CommandTool for VibeTodo {
    type Input = VibeTodoInput;
    type Command = ReadWrite;
    const NAME: &'static str = "todo";
    const DESCRIPTION: &'static str = include_str!("../descriptions/vibe/todo.md");

    fn command(input: &VibeTodoInput) -> ReadWrite {
        input.action
    }

    fn metadata(action: ReadWrite) -> ToolMetadata {
        match action {
            ReadWrite::Read => ToolMetadata::LIST_READER,
            ReadWrite::Write => ToolMetadata::LIST_WRITER,
        }
    }

    fn run(
        &self,
        action: ReadWrite,
        input: VibeTodoInput,
        ctx: &CallContext<'_>,
    ) -> Result<Outcome, ToolError> {
        match action {
            ReadWrite::Read => read_list::<Write>(answer("Retrieved", ctx.state), ctx.state),
            ReadWrite::Write => write_list::<Write>(Self::NAME, input, ctx),
        }
    }
}

/// The `write` action: the whole list, replaced.
#[derive(Debug, Clone, Copy, Default)]
pub struct Write;

impl ListWriter for Write {
    type Input = VibeTodoInput;
    type Item<'a> = VibeTodoView<'a>;
    type Fields = ();

    fn todos(input: &mut VibeTodoInput) -> Result<Vec<Todo>, ToolError> {
        let items = input.todos.take().unwrap_or_default();
        let mut ids = std::collections::HashSet::with_capacity(items.len());
        if !items.iter().all(|item| ids.insert(item.id.as_str())) {
            return Err(ToolError::refused("todos", "Todo IDs must be unique"));
        }
        Ok(items
            .into_iter()
            .map(|item| {
                let mut todo = Todo::new(item.content)
                    .status(item.status.unwrap_or(CancellableStatus::Pending))
                    .priority(Priority::from(item.priority.unwrap_or(WirePriority::Medium)));
                todo.id = Some(item.id);
                todo
            })
            .collect())
    }

    /// Vibe's own bound comes first, in its words, then the usual checks.
    fn apply(input: &mut VibeTodoInput, ctx: &CallContext<'_>) -> Result<Replacement, ToolError> {
        let max = ctx.rules.limits.max_items;
        if input.todos.as_ref().is_some_and(|items| items.len() > max) {
            return Err(ToolError::refused(
                "todos",
                format!("Cannot store more than {max} todos"),
            ));
        }
        replace_with::<Self>(Self::todos(input)?, ctx)
    }

    fn item(todo: &Todo, position: usize) -> VibeTodoView<'_> {
        VibeTodoView {
            id: id_or_position(todo, position),
            content: &todo.content,
            status: todo.status.into(),
            priority: todo.priority.map_or(WirePriority::Medium, WirePriority::from),
        }
    }

    fn text(op: &ToolOperation<'_, VibeTodoInput>) -> String {
        answer("Updated", op.after)
    }

    fn fields(_op: &ToolOperation<'_, VibeTodoInput>) {}
}

/// The result as Vibe 3 hands it to the model: `json.dumps` (`", "` and
/// `": "` between items, non-ASCII kept) of the result model's
/// `model_dump(mode="json")`, its fields in order, then the computed
/// `message`.
fn answer(verb: &str, state: &TodoState) -> String {
    let count = state.tasks().count();
    let mut out = format!(r#"{{"verb": {}, "todos": ["#, json_string(verb));
    for (i, task) in state.tasks().enumerate() {
        let item = Write::item(task, i);
        if i > 0 {
            out.push_str(", ");
        }
        out.push_str(&format!(
            r#"{{"id": {}, "content": {}, "status": {}, "priority": {}}}"#,
            json_string(&item.id),
            json_string(item.content),
            json_string(item.status.as_str()),
            json_string(item.priority.as_str()),
        ));
    }
    out.push_str(&format!(
        r#"], "total_count": {count}, "message": {}}}"#,
        json_string(&format!("{verb} {count} todos"))
    ));
    out
}

/// `text` as a JSON string, escaped as Python's `json.dumps` escapes it
/// with `ensure_ascii=False` (quotes, backslashes and control characters
/// only), which is what serde_json does.
fn json_string(text: &str) -> String {
    serde_json::Value::from(text).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::test_support::{refusals, run_tool};
    use pretty_assertions::assert_eq;

    fn call(state: &TodoState, args: &str) -> Outcome {
        run_tool(&profile(), VibeTodo::NAME, state, args)
    }

    // Golden facts from the mistral-vibe 3.0.3 wheel on PyPI (sha256
    // 28a2b1f6…f38521):
    // - vibe/core/tools/builtins/todo.py: `TodoArgs {action:
    //   Literal["read", "write"], todos: list[TodoItem] | None = None}`;
    //   `TodoItem {id, content, status = pending, priority = medium}`;
    //   `TodoResult {verb, todos, total_count}` with the computed `message`
    //   `f"{verb} {total_count} todos"`; `read` is `Retrieved`, `write`
    //   (todos or []) `Updated`; `Cannot store more than 100 todos`
    //   (max_todos), then `Todo IDs must be unique`.
    // - vibe/app_server/_provided_tools.py (`_succeeded`): the model reads
    //   `json.dumps(result.model_dump(mode="json"), ensure_ascii=False)`.
    #[test]
    fn a_write_answers_with_the_result_as_vibe_3_dumps_it() {
        let outcome = call(
            &TodoState::new(),
            r#"{"action":"write","todos":[{"id":"1","content":"Read it's \"docs\" – now","status":"in_progress","priority":"high"},{"id":"b","content":"Fix"}]}"#,
        );
        let actual = (outcome.commit.is_some(), outcome.result.content);
        let expected = (
            true,
            r#"{"verb": "Updated", "todos": [{"id": "1", "content": "Read it's \"docs\" – now", "status": "in_progress", "priority": "high"}, {"id": "b", "content": "Fix", "status": "pending", "priority": "medium"}], "total_count": 2, "message": "Updated 2 todos"}"#
                .to_owned(),
        );
        assert_eq!(actual, expected);
    }

    #[test]
    fn a_read_answers_with_the_stored_list_and_stores_nothing() {
        let before = TodoState::flat(vec![Todo::new("Ship").status(Status::Abandoned)]);
        let outcome = call(&before, r#"{"action":"read"}"#);
        let actual = (outcome.commit.is_some(), outcome.result.content);
        let expected = (
            false,
            r#"{"verb": "Retrieved", "todos": [{"id": "1", "content": "Ship", "status": "cancelled", "priority": "medium"}], "total_count": 1, "message": "Retrieved 1 todos"}"#
                .to_owned(),
        );
        assert_eq!(actual, expected);
    }

    #[test]
    fn a_write_without_todos_clears_the_list() {
        let before = TodoState::flat(vec![Todo::new("Ship")]);
        let outcome = call(&before, r#"{"action":"write","todos":null}"#);
        let actual = (outcome.commit.map(|s| s.is_empty()), outcome.result.content);
        let expected = (
            Some(true),
            r#"{"verb": "Updated", "todos": [], "total_count": 0, "message": "Updated 0 todos"}"#.to_owned(),
        );
        assert_eq!(actual, expected);
    }

    #[test]
    fn vibes_refusals_are_in_its_words_and_store_nothing() {
        let many: Vec<String> = (0..101)
            .map(|i| format!(r#"{{"id":"{i}","content":"t{i}"}}"#))
            .collect();
        let too_many = format!(r#"{{"action":"write","todos":[{}]}}"#, many.join(","));
        let fixture = [
            r#"{"action":"delete"}"#.to_owned(),
            r#"{"action":"write","todos":[{"id":"1","content":"a"},{"id":"1","content":"b"}]}"#.to_owned(),
            too_many,
        ];
        let fixture: Vec<&str> = fixture.iter().map(String::as_str).collect();
        let actual = refusals(&profile(), VibeTodo::NAME, &fixture);
        let expected = vec![
            (
                false,
                vec!["action: got \"delete\"; allowed: `read`, `write`".to_owned()],
            ),
            (false, vec!["todos: Todo IDs must be unique".to_owned()]),
            (false, vec!["todos: Cannot store more than 100 todos".to_owned()]),
        ];
        assert_eq!(actual, expected);
    }
}
