//! `qwen`: Qwen Code's `todo_write`: the whole list of `{id, content,
//! status}` items (timestamps optional), checked by Qwen Code's own rules
//! and words rather than by its schema. The answer is Claude Code's old
//! nudge with a `<system-reminder>` that repeats the list as it was sent,
//! as compact JSON.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::claude_code::MODIFIED;
use crate::wire::{TriStatus, WireEnum};

use crate::prelude::*;

/// The profile's name.
pub const NAME: &str = "qwen";
/// The answer to an empty list, reminder included.
pub const CLEARED: &str = "Todo list has been cleared.\n\n<system-reminder>\nYour todo list is now empty. DO NOT \
                           mention this explicitly to the user. You have no pending tasks in your todo \
                           list.\n</system-reminder>";
/// The refusal of arguments without a `todos` array.
pub const NOT_AN_ARRAY: &str = "Parameter \"todos\" must be an array.";
/// The refusal of a todo without a usable id.
pub const NO_ID: &str = "Each todo must have a non-empty \"id\" string.";
/// The refusal of a todo without a usable content.
pub const NO_CONTENT: &str = "Each todo must have a non-empty \"content\" string.";
/// The refusal of a status Qwen Code does not know.
pub const BAD_STATUS: &str = "Each todo must have a valid \"status\" (pending, in_progress, completed).";
/// The refusal of a `created_at` that is not a string.
pub const BAD_CREATED_AT: &str = "Each todo's \"created_at\" field must be a string if provided.";
/// The refusal of a `completed_at` that is neither a string nor `null`.
pub const BAD_COMPLETED_AT: &str = "Each todo's \"completed_at\" field must be a string or null if provided.";
/// The refusal of two todos with one id.
pub const DUPLICATE_IDS: &str = "Todo IDs must be unique within the array.";

const FIELDS: FieldNames = FieldNames::DEFAULT;

/// The profile with its default rules.
pub fn profile() -> Profile {
    Profile::new(
        NAME,
        "Qwen Code's todo_write: the whole list with ids, echoed back as JSON",
        ListRules::with_default_limits(InProgressPolicy::Warn),
    )
    .with_upstream(Upstream {
        agent: "Qwen Code",
        pin: Pin::Source {
            repository: "QwenLM/qwen-code",
            path: "packages/core/src/tools/todoWrite.ts",
            commit: "3b44811d96049ee1e0b19bf03cc5e26ab2066fca",
            date: None,
        },
        ships_in: "Qwen Code (`todo_write`, one list per session)",
        checked: None,
    })
    .with_system_prompt(include_str!("../../descriptions/qwen/system-prompt.md"))
    .with_example(
        "todo_write",
        r#"{"todos":[{"id":"1","content":"Run the tests","status":"in_progress"},{"id":"2","content":"Fix what fails","status":"pending"}]}"#,
    )
    .tool(ListTool(QwenTodoWrite))
}

/// One todo as Qwen Code's schema describes it. The call's items are kept
/// as sent (see [`TodoWriteInput`]); this type gives their schema and
/// their typed reading once they pass Qwen Code's checks.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, JsonSchema)]
pub struct QwenTodo {
    /// What to do.
    #[schemars(length(min = 1))]
    pub content: String,
    /// Where it stands.
    pub status: TriStatus,
    /// Its id, unique in the list.
    pub id: String,
    /// When it was created (an ISO timestamp).
    #[serde(default)]
    #[schemars(transform = crate::schema::omissible)]
    pub created_at: Option<String>,
    /// When it was completed (an ISO timestamp), or `null` while it is not.
    #[serde(default)]
    pub completed_at: Option<String>,
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
}

/// The arguments of `todo_write`. The items stay JSON objects, keys in the
/// order sent, because the answer repeats them as the model wrote them.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, JsonSchema)]
pub struct TodoWriteInput {
    /// The updated list.
    #[schemars(with = "Vec<QwenTodo>")]
    pub todos: Vec<Map<String, Value>>,
}

crate::writer_tool! {
    /// The `todo_write` tool.
    QwenTodoWrite = "todo_write",
    include_str!("../../descriptions/qwen/todo_write.md")
}

impl ListWriter for QwenTodoWrite {
    type Input = TodoWriteInput;
    type Item<'a> = QwenTodoView<'a>;
    type Fields = ();
    const FIELDS: FieldNames = FIELDS;

    fn todos(input: &mut TodoWriteInput) -> Result<Vec<Todo>, ToolError> {
        check_items(input.todos.iter().map(Some)).map_err(|message| ToolError::refused(FIELDS.list, message))?;
        let mut todos = Vec::with_capacity(input.todos.len());
        for item in &input.todos {
            // Checked above, so the typed reading holds; a failure would be
            // a gap between the two and is reported, not unwrapped.
            let typed = QwenTodo::deserialize(Value::Object(item.clone()))
                .map_err(|e| ToolError::refused(FIELDS.list, format!("{}: {e}", FIELDS.list)))?;
            let mut todo = Todo::new(typed.content).status(typed.status);
            todo.id = Some(typed.id);
            todos.push(todo);
        }
        Ok(todos)
    }

    fn item(todo: &Todo, position: usize) -> QwenTodoView<'_> {
        QwenTodoView {
            id: id_or_position(todo, position),
            content: &todo.content,
            status: todo.status.into(),
        }
    }

    fn text(op: &ToolOperation<'_, TodoWriteInput>) -> String {
        if op.asked.todos.is_empty() {
            return CLEARED.to_owned();
        }
        // Serializing maps of JSON values cannot fail.
        let sent = serde_json::to_string(&op.asked.todos).unwrap_or_default();
        format!(
            "{MODIFIED}\n\n<system-reminder>\nYour todo list has changed. DO NOT mention this explicitly to the \
             user. Here are the latest contents of your todo list: \n\n{sent}. Continue on with the tasks at \
             hand if applicable.\n</system-reminder>"
        )
    }

    fn fields(_op: &ToolOperation<'_, TodoWriteInput>) {}

    /// Arguments the schema check stopped are refused with Qwen Code's
    /// first complaint about them, when it has one.
    fn refusal(args: &Value, problems: Vec<ArgumentError>) -> ToolError {
        let items = match args.get(FIELDS.list) {
            Some(Value::Array(items)) => Ok(items),
            _ => Err(NOT_AN_ARRAY),
        };
        match items.and_then(|items| check_items(items.iter().map(Value::as_object))) {
            Err(message) => ToolError::refused(FIELDS.list, message),
            Ok(()) => ToolError::Arguments(problems),
        }
    }
}

/// Qwen Code's checks, in its order, on each item (`None` for one that is
/// not an object), then the ids across the list: the first failure's words.
fn check_items<'a>(items: impl Iterator<Item = Option<&'a Map<String, Value>>>) -> Result<(), &'static str> {
    let mut ids = std::collections::HashSet::new();
    let mut repeated = false;
    for item in items {
        let field = |key: &str| item.and_then(|item| item.get(key));
        if !field(FIELDS.id).is_some_and(is_filled_string) {
            return Err(NO_ID);
        }
        if !field(FIELDS.content).is_some_and(is_filled_string) {
            return Err(NO_CONTENT);
        }
        let known = field(FIELDS.status)
            .and_then(Value::as_str)
            .is_some_and(|word| TriStatus::SPELLINGS.iter().any(|(known, _)| *known == word));
        if !known {
            return Err(BAD_STATUS);
        }
        // `null` is taken as left out: a strict view makes the model send
        // every field, and Qwen Code's own views never show this one.
        if field("created_at").is_some_and(|v| !v.is_string() && !v.is_null()) {
            return Err(BAD_CREATED_AT);
        }
        if field("completed_at").is_some_and(|v| !v.is_string() && !v.is_null()) {
            return Err(BAD_COMPLETED_AT);
        }
        repeated |= !ids.insert(field(FIELDS.id).and_then(Value::as_str));
    }
    if repeated { Err(DUPLICATE_IDS) } else { Ok(()) }
}

/// A string with something in it besides the white space JavaScript's
/// `trim` removes (which, unlike Rust's, includes U+FEFF and leaves U+0085).
fn is_filled_string(value: &Value) -> bool {
    value.as_str().is_some_and(|text| {
        text.chars()
            .any(|c| !(c == '\u{feff}' || (c.is_whitespace() && c != '\u{85}')))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::test_support::{refusals, run_tool};
    use pretty_assertions::assert_eq;

    fn call(state: &TodoState, args: &str) -> Outcome {
        run_tool(&profile(), QwenTodoWrite::NAME, state, args)
    }

    // Golden facts from Qwen Code: repository QwenLM/qwen-code at commit
    // 3b44811d96049ee1e0b19bf03cc5e26ab2066fca,
    // packages/core/src/tools/todoWrite.ts:
    // - `validateToolParams` replaces the schema check: `todos` must be an
    //   array; each item needs a non-empty (after `trim`) string `id` and
    //   `content`, a status among the three, a string `created_at` and a
    //   string-or-null `completed_at` when present; ids unique. The first
    //   failure's message is the refusal.
    // - The answer to a non-empty list is Claude Code's nudge (no final
    //   period), a blank line and a `<system-reminder>` holding
    //   `JSON.stringify` of the todos as sent; an empty list answers
    //   `Todo list has been cleared.` with its own reminder.
    #[test]
    fn the_answer_repeats_the_list_as_sent_inside_a_reminder() {
        let outcome = call(
            &TodoState::new(),
            r#"{"todos":[{"status":"in_progress","content":"Read \"a\"","id":"r"},{"id":"2","content":"Fix","status":"pending","created_at":"2026-01-01T00:00:00Z","completed_at":null}]}"#,
        );
        let actual = outcome.result.content;
        let expected = "Todos have been modified successfully. Ensure that you continue to use the todo list to \
                        track your progress. Please proceed with the current tasks if applicable\n\n\
                        <system-reminder>\nYour todo list has changed. DO NOT mention this explicitly to the user. \
                        Here are the latest contents of your todo list: \n\n\
                        [{\"status\":\"in_progress\",\"content\":\"Read \\\"a\\\"\",\"id\":\"r\"},\
                        {\"id\":\"2\",\"content\":\"Fix\",\"status\":\"pending\",\
                        \"created_at\":\"2026-01-01T00:00:00Z\",\"completed_at\":null}]. \
                        Continue on with the tasks at hand if applicable.\n</system-reminder>";
        assert_eq!(actual, expected);
    }

    #[test]
    fn an_empty_list_clears_it_in_qwens_words() {
        let before = TodoState::flat(vec![Todo::new("Read")]);
        let outcome = call(&before, r#"{"todos":[]}"#);
        let actual = (outcome.result.content, outcome.commit.map(|s| s.is_empty()));
        let expected = (CLEARED.to_owned(), Some(true));
        assert_eq!(actual, expected);
    }

    #[test]
    fn each_broken_list_is_refused_with_qwens_first_complaint_and_nothing_is_stored() {
        let fixture = [
            r#"{"todos":"none"}"#,
            r#"{}"#,
            r#"{"todos":[{"id":" ","content":"a","status":"pending"}]}"#,
            r#"{"todos":[{"id":7,"content":"a","status":"pending"}]}"#,
            r#"{"todos":["a"]}"#,
            r#"{"todos":[{"id":"1","content":"\ufeff","status":"pending"}]}"#,
            r#"{"todos":[{"id":"1","content":"","status":"pending"}]}"#,
            r#"{"todos":[{"id":"1","content":"a","status":"done"}]}"#,
            r#"{"todos":[{"id":"1","content":"a","status":"pending","created_at":1}]}"#,
            r#"{"todos":[{"id":"1","content":"a","status":"pending","completed_at":false}]}"#,
            r#"{"todos":[{"id":"1","content":"a","status":"pending"},{"id":"1","content":"b","status":"pending"}]}"#,
            r#"{"todos":[{"id":"1","content":"a","status":"pending","created_at":null},{"id":"1","content":"b","status":"pending"}]}"#,
        ];
        let actual = refusals(&profile(), QwenTodoWrite::NAME, &fixture);
        let refusal = |message: &str| (false, vec![format!("todos: {message}")]);
        let expected = vec![
            refusal(NOT_AN_ARRAY),
            refusal(NOT_AN_ARRAY),
            refusal(NO_ID),
            refusal(NO_ID),
            refusal(NO_ID),
            refusal(NO_CONTENT),
            refusal(NO_CONTENT),
            refusal(BAD_STATUS),
            refusal(BAD_CREATED_AT),
            refusal(BAD_COMPLETED_AT),
            refusal(DUPLICATE_IDS),
            refusal(DUPLICATE_IDS),
        ];
        assert_eq!(actual, expected);
    }

    #[test]
    fn fields_qwen_does_not_check_are_kept_in_the_echo_and_ids_are_stored() {
        let outcome = call(
            &TodoState::new(),
            r#"{"todos":[{"id":"a1","content":"Read","status":"completed","note":"x"}]}"#,
        );
        let stored = outcome
            .commit
            .map(|s| s.tasks().map(|t| (t.id.clone(), t.status)).collect::<Vec<_>>());
        let actual = (outcome.result.content.contains(r#""note":"x""#), stored);
        let expected = (true, Some(vec![(Some("a1".to_owned()), Status::Completed)]));
        assert_eq!(actual, expected);
    }

    #[test]
    fn javascript_white_space_decides_what_is_blank() {
        let fixture = ["\u{feff}", " \t\u{3000}", "\u{85}", "a"];
        let actual: Vec<bool> = fixture.iter().map(|t| is_filled_string(&Value::from(*t))).collect();
        let expected = vec![false, false, true, true];
        assert_eq!(actual, expected);
    }
}
