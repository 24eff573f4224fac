//! `vibe`: Mistral Vibe's `todo`: one tool whose `action` (a plain string)
//! is `read` or `write`. A write replaces the list with `{id, content,
//! status, priority}` items (status `pending` and priority `medium` when
//! left out), at most 100 of them with distinct ids. The answer is the
//! result model as Vibe's agent loop prints it: `message:`, `todos:` (a
//! Python `repr`) and `total_count:` lines.

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
        "Mistral Vibe's todo: read or write the whole list, answered as Python prints it",
        ListRules::with_default_limits(InProgressPolicy::Warn),
    )
    .with_upstream(Upstream {
        agent: "Mistral Vibe",
        pin: Pin::Source {
            repository: "mistralai/mistral-vibe",
            path: "vibe/core/tools/builtins/todo.py",
            commit: "ac8f1a09fdfbadb6d4508a555ba6607fd05eb0dc",
            date: Some("2026-07-01"),
            read_through: None,
        },
        ships_in: "Mistral Vibe 2.18.4 (`todo`)",
        checked: Some(Checked {
            date: "2026-11-26",
            against: "ac8f1a09fdfbadb6d4508a555ba6607fd05eb0dc",
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
    /// `read` or `write`.
    pub action: String,
    /// The complete list, for `write`.
    #[serde(default)]
    #[schemars(transform = todokit_app::prelude::omissible)]
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

    /// Anything but `read` may write; [`CommandTool::run`] refuses an
    /// action Vibe does not know.
    fn command(input: &VibeTodoInput) -> ReadWrite {
        match input.action.as_str() {
            "read" => ReadWrite::Read,
            _ => ReadWrite::Write,
        }
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
            ReadWrite::Read => {
                let text = answer(
                    &format!("Retrieved {} todos", ctx.state.tasks().count()),
                    ctx.state,
                );
                read_list::<Write>(text, ctx.state)
            }
            ReadWrite::Write if input.action == ReadWrite::Write.as_str() => {
                write_list::<Write>(Self::NAME, input, ctx)
            }
            ReadWrite::Write => Err(ToolError::refused(
                "action",
                format!("Invalid action '{}'. Use 'read' or 'write'.", clip(&input.action)),
            )),
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
        answer(&format!("Updated {} todos", op.after.tasks().count()), op.after)
    }

    fn fields(_op: &ToolOperation<'_, VibeTodoInput>) {}
}

/// The result model as Vibe's agent loop prints it for the model: each
/// field of `model_dump()` as a `key: value` line, the list as Python's
/// `repr` of dicts holding enum members.
fn answer(message: &str, state: &TodoState) -> String {
    let mut out = format!("message: {message}\ntodos: [");
    for (i, task) in state.tasks().enumerate() {
        let item = Write::item(task, i);
        if i > 0 {
            out.push_str(", ");
        }
        out.push_str("{'id': ");
        python_repr(&mut out, &item.id);
        out.push_str(", 'content': ");
        python_repr(&mut out, item.content);
        out.push_str(", 'status': ");
        enum_repr(&mut out, "TodoStatus", item.status.as_str());
        out.push_str(", 'priority': ");
        enum_repr(&mut out, "TodoPriority", item.priority.as_str());
        out.push('}');
    }
    out.push_str(&format!("]\ntotal_count: {}", state.tasks().count()));
    out
}

/// A Python `StrEnum` member's `repr`, `<TodoStatus.IN_PROGRESS:
/// 'in_progress'>`: the member's name is its value in capitals (`auto()`).
fn enum_repr(out: &mut String, class: &str, value: &str) {
    out.push_str(&format!("<{class}.{}: '{value}'>", value.to_ascii_uppercase()));
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::test_support::{refusals, run_tool};
    use pretty_assertions::assert_eq;

    fn call(state: &TodoState, args: &str) -> Outcome {
        run_tool(&profile(), VibeTodo::NAME, state, args)
    }

    // Golden facts from Mistral Vibe: repository mistralai/mistral-vibe at
    // commit ac8f1a09fdfbadb6d4508a555ba6607fd05eb0dc (v2.18.4):
    // - vibe/core/tools/builtins/todo.py: `TodoArgs {action: str, todos:
    //   list[TodoItem] | None}`; `TodoItem {id, content, status = pending,
    //   priority = medium}` with `StrEnum`s of `auto()` members; `read`
    //   answers `Retrieved N todos`, `write` (todos or []) `Updated N
    //   todos`; `Cannot store more than 100 todos` (max_todos), then `Todo
    //   IDs must be unique`; any other action `Invalid action 'X'. Use
    //   'read' or 'write'.`
    // - vibe/core/agent_loop.py (`_invoke_tool`): the model reads
    //   `"\n".join(f"{k}: {v}" for k, v in result.model_dump().items())`,
    //   so the list is the `repr` of dicts whose status and priority are
    //   enum members.
    #[test]
    fn a_write_answers_as_vibes_agent_loop_prints_the_result() {
        let outcome = call(
            &TodoState::new(),
            r#"{"action":"write","todos":[{"id":"1","content":"Read it's \"docs\"","status":"in_progress","priority":"high"},{"id":"b","content":"Fix"}]}"#,
        );
        let actual = (outcome.commit.is_some(), outcome.result.content);
        let expected = (
            true,
            "message: Updated 2 todos\n\
             todos: [{'id': '1', 'content': 'Read it\\'s \"docs\"', 'status': <TodoStatus.IN_PROGRESS: 'in_progress'>, \
             'priority': <TodoPriority.HIGH: 'high'>}, {'id': 'b', 'content': 'Fix', 'status': \
             <TodoStatus.PENDING: 'pending'>, 'priority': <TodoPriority.MEDIUM: 'medium'>}]\n\
             total_count: 2"
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
            "message: Retrieved 1 todos\ntodos: [{'id': '1', 'content': 'Ship', 'status': \
             <TodoStatus.CANCELLED: 'cancelled'>, 'priority': <TodoPriority.MEDIUM: 'medium'>}]\ntotal_count: 1"
                .to_owned(),
        );
        assert_eq!(actual, expected);
    }

    #[test]
    fn a_write_without_todos_clears_the_list() {
        let before = TodoState::flat(vec![Todo::new("Ship")]);
        let outcome = call(&before, r#"{"action":"write"}"#);
        let actual = (outcome.commit.map(|s| s.is_empty()), outcome.result.content);
        let expected = (
            Some(true),
            "message: Updated 0 todos\ntodos: []\ntotal_count: 0".to_owned(),
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
                vec!["action: Invalid action 'delete'. Use 'read' or 'write'.".to_owned()],
            ),
            (false, vec!["todos: Todo IDs must be unique".to_owned()]),
            (false, vec!["todos: Cannot store more than 100 todos".to_owned()]),
        ];
        assert_eq!(actual, expected);
    }
}
