//! `qwen`: Qwen Code's `todo_write`: the whole list of `{id, content,
//! status, blockedBy?}` items, checked by Qwen Code's own rules and words
//! rather than by its schema. While a plan is open, an item sent without
//! `blockedBy` keeps the dependencies it had (on items still in the list).
//! The answer is Claude Code's old nudge with a `<system-reminder>` that
//! repeats the list as written, as compact JSON; a list sent unchanged is
//! answered as already up to date.

mod checks;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::claude_code::MODIFIED;
use todokit_app::prelude::TriStatus;

use todokit_app::prelude::*;

pub use checks::{
    BAD_BLOCKED_BY, BAD_STATUS, CYCLE, DUPLICATE_IDS, MAX_ID_UNITS, NO_CONTENT, NO_ID, NOT_AN_ARRAY,
    NOT_AN_OBJECT,
};
use checks::{BLOCKED_BY, check_items};

/// The profile's name.
pub const NAME: &str = "qwen";
/// The answer to an empty list, reminder included.
pub const CLEARED: &str = "Todo list has been cleared.\n\n<system-reminder>\nYour todo list is now empty. DO NOT \
                           mention this explicitly to the user. You have no pending tasks in your todo \
                           list.\n</system-reminder>";
/// The answer to a list sent exactly as it is stored.
pub const UNCHANGED: &str = "Todo list is already up to date. No changes were needed.\n\n<system-reminder>\nYour \
                             todo list was not modified because it is already current. Continue with your \
                             existing tasks.\n</system-reminder>";

const FIELDS: FieldNames = FieldNames::DEFAULT;

/// The profile with its default rules.
pub fn profile() -> Profile {
    Profile::new(
        NAME,
        "Qwen Code's todo_write: the whole list with ids and dependencies, echoed back as JSON",
        ListRules::with_default_limits(InProgressPolicy::Warn),
    )
    .with_upstream(Upstream {
        agent: "Qwen Code",
        pin: Pin::Package {
            registry: "npm",
            name: "@qwen-code/qwen-code",
            version: "0.24.4",
            path: "chunks/todoWrite-QTSCFAI3.js",
            sha256: "7840ff5c70010be9bd7c903d1ec0893893f5429fde5b4e8a189f61450269d8f4",
        },
        ships_in: "Qwen Code 0.24 (`todo_write`, one list per session)",
        checked: Some(Checked {
            date: "2026-12-07",
            against: "npm @qwen-code/qwen-code 0.24.4",
        }),
    })
    .with_system_prompt(include_str!("../../descriptions/qwen/system-prompt.md"))
    .with_example(
        "todo_write",
        r#"{"todos":[{"id":"1","content":"Run the tests","status":"in_progress"},{"id":"2","content":"Fix what fails","status":"pending","blockedBy":["1"]}]}"#,
    )
    .tool(ListTool(QwenTodoWrite))
}

/// One todo as Qwen Code's schema describes it. The call's items are kept
/// as sent (see [`TodoWriteInput`]); this type gives their schema and
/// their typed reading once they pass Qwen Code's checks. (Qwen Code gives
/// its items no description, so this one stays out of the schema.)
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, JsonSchema)]
#[schemars(transform = todokit_app::prelude::undescribed)]
pub struct QwenTodo {
    /// What to do.
    #[schemars(length(min = 1))]
    pub content: String,
    /// Where it stands.
    pub status: TriStatus,
    /// Its id, unique in the list.
    #[schemars(length(max = 500))]
    pub id: String,
    /// The ids of the todos that must be completed first; left out, an
    /// item of an open plan keeps the ones it had, `[]` clears them.
    #[serde(default, rename = "blockedBy")]
    #[schemars(transform = todokit_app::prelude::omissible, inner(length(max = 500)), extend("uniqueItems" = true))]
    pub blocked_by: Option<Vec<String>>,
}

/// A stored todo as Qwen Code keeps it, for the details.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct QwenTodoView<'a> {
    /// Its id (its 1-based position when another profile gave it none).
    pub id: std::borrow::Cow<'a, str>,
    /// What to do.
    pub content: &'a str,
    /// Where it stands.
    pub status: TriStatus,
    /// What it waits for.
    #[serde(rename = "blockedBy", skip_serializing_if = "<[String]>::is_empty")]
    pub blocked_by: &'a [String],
}

/// The arguments of `todo_write`. The items stay JSON objects, keys in the
/// order sent, because the answer repeats them as the model wrote them.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, JsonSchema)]
pub struct TodoWriteInput {
    /// The updated list.
    #[schemars(with = "Vec<QwenTodo>")]
    pub todos: Vec<Map<String, Value>>,
}

todokit_app::prelude::writer_tool! {
    /// The `todo_write` tool.
    QwenTodoWrite = "todo_write",
    include_str!("../../descriptions/qwen/todo_write.md")
}

/// The items of `input` as Qwen Code's checks see them.
fn items(input: &TodoWriteInput) -> Vec<Option<&Map<String, Value>>> {
    input.todos.iter().map(Some).collect()
}

impl ListWriter for QwenTodoWrite {
    type Input = TodoWriteInput;
    type Item<'a> = QwenTodoView<'a>;
    type Fields = ();
    const FIELDS: FieldNames = FIELDS;

    fn todos(input: &mut TodoWriteInput) -> Result<Vec<Todo>, ToolError> {
        check_items(&items(input)).map_err(|message| ToolError::refused(FIELDS.list, message))?;
        let mut todos = Vec::with_capacity(input.todos.len());
        for item in &input.todos {
            // Checked above, so the typed reading holds; a failure would be
            // a gap between the two and is reported, not unwrapped.
            let typed = QwenTodo::deserialize(Value::Object(item.clone()))
                .map_err(|e| ToolError::refused(FIELDS.list, format!("{}: {e}", FIELDS.list)))?;
            let mut todo = Todo::new(typed.content).status(typed.status);
            todo.id = Some(typed.id);
            todo.blocked_by = typed.blocked_by.unwrap_or_default();
            todos.push(todo);
        }
        Ok(todos)
    }

    /// Qwen Code's write: the list checked as sent; then, while the stored
    /// plan has an open item, each item sent without `blockedBy` takes the
    /// dependencies its id had among the ids sent (unless that closes a
    /// cycle: then the list stays as sent), checked again. The stored
    /// dependencies are exactly the written ones.
    fn apply(input: &mut TodoWriteInput, ctx: &CallContext<'_>) -> Result<Replacement, ToolError> {
        check_items(&items(input)).map_err(|message| ToolError::refused(FIELDS.list, message))?;
        let open_plan = ctx.state.tasks().any(|t| t.status != Status::Completed);
        if open_plan {
            let sent = input.clone();
            let incoming: std::collections::HashSet<String> = sent
                .todos
                .iter()
                .filter_map(|item| item.get("id")?.as_str().map(str::to_owned))
                .collect();
            let mut preserved = false;
            for item in &mut input.todos {
                if item.get(BLOCKED_BY).is_some_and(|v| !v.is_null()) {
                    continue;
                }
                let id = item.get("id").and_then(Value::as_str).unwrap_or_default();
                let kept: Option<Vec<Value>> =
                    ctx.state
                        .tasks()
                        .find(|t| t.id.as_deref() == Some(id))
                        .map(|old| {
                            old.blocked_by
                                .iter()
                                .filter(|d| incoming.contains(*d))
                                .map(|d| Value::from(d.as_str()))
                                .collect()
                        });
                if let Some(kept) = kept {
                    item.insert(BLOCKED_BY.to_owned(), Value::Array(kept));
                    preserved = true;
                }
            }
            if preserved && check_items(&items(input)).is_err_and(|message| message == checks::CYCLE) {
                *input = sent;
            }
        }
        let todos = Self::todos(input)?;
        let written: Vec<Vec<String>> = todos.iter().map(|t| t.blocked_by.clone()).collect();
        let mut replaced = replace_with::<Self>(todos, ctx)?;
        // A rewrite carries over what a wire format cannot say; this one
        // says every dependency, `[]` included.
        for (task, blocked_by) in replaced.state.tasks_mut().zip(written) {
            task.blocked_by = blocked_by;
        }
        Ok(replaced)
    }

    fn item(todo: &Todo, position: usize) -> QwenTodoView<'_> {
        QwenTodoView {
            id: id_or_position(todo, position),
            content: &todo.content,
            status: todo.status.into(),
            blocked_by: &todo.blocked_by,
        }
    }

    fn text(op: &ToolOperation<'_, TodoWriteInput>) -> String {
        if unchanged(op.before, op.after) {
            return UNCHANGED.to_owned();
        }
        if op.asked.todos.is_empty() {
            return CLEARED.to_owned();
        }
        // Serializing maps of JSON values cannot fail.
        let written = serde_json::to_string(&op.asked.todos).unwrap_or_default();
        format!(
            "{MODIFIED}\n\n<system-reminder>\nYour todo list has changed. DO NOT mention this explicitly to the \
             user. Here are the latest contents of your todo list:\n\n{written}. Continue on with the tasks at \
             hand if applicable.\n</system-reminder>"
        )
    }

    fn fields(_op: &ToolOperation<'_, TodoWriteInput>) {}

    /// Arguments the schema check stopped are refused with Qwen Code's
    /// first complaint about them, when it has one.
    fn refusal(args: &Value, problems: Vec<ArgumentError>) -> ToolError {
        let checked = match args.get(FIELDS.list) {
            Some(Value::Array(items)) => check_items(&items.iter().map(Value::as_object).collect::<Vec<_>>()),
            _ => Err(NOT_AN_ARRAY.to_owned()),
        };
        match checked {
            Err(message) => ToolError::refused(FIELDS.list, message),
            Ok(()) => ToolError::Arguments(problems),
        }
    }
}

/// Whether the list written is the list stored, item for item (id,
/// content, status and dependencies), as Qwen Code compares the two before
/// it writes: then it answers [`UNCHANGED`].
fn unchanged(before: &TodoState, after: &TodoState) -> bool {
    let key = |t: &Todo| (t.id.clone(), t.content.clone(), t.status, t.blocked_by.clone());
    before.tasks().map(key).eq(after.tasks().map(key))
}

#[cfg(test)]
mod tests;
