//! `crush`: Crush's `todos`: the whole list of `{content, status,
//! active_form}` items, every field required and the status a plain
//! string the tool checks itself (`invalid status "X" for todo "Y"`). The
//! answer counts the statuses and adds Claude Code's old nudge; the details
//! carry Crush's metadata (`is_new`, `just_completed`, `just_started`).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use todokit_app::prelude::{TriStatus, WireEnum};

use todokit_app::prelude::*;

/// The profile's name.
pub const NAME: &str = "crush";
/// The first line of every answer.
pub const UPDATED: &str = "Todo list updated successfully.";
/// The nudge every answer ends with, as Crush words it.
pub const NUDGE: &str = "Todos have been modified successfully. Ensure that you continue to use the todo list to track your progress. Please proceed with the current tasks if applicable.";

const FIELDS: FieldNames = FieldNames {
    active_form: "active_form",
    ..FieldNames::DEFAULT
};

/// The profile with its default rules: Crush checks only the statuses.
pub fn profile() -> Profile {
    Profile::new(
        NAME,
        "Crush's todos: the whole list with active forms, status counts back",
        ListRules::with_default_limits(InProgressPolicy::Warn),
    )
    .with_upstream(Upstream {
        agent: "Crush",
        pin: Pin::Source {
            repository: "charmbracelet/crush",
            path: "internal/agent/tools/todos.go",
            commit: "45b1e634a5479297d94141ffc603a1d09f9b6326",
            date: Some("2026-05-18"),
            read_through: None,
        },
        ships_in: "Crush (`todos`, with its todo pill in the TUI)",
        checked: Some(Checked {
            date: "2026-11-26",
            against: "37f36e93824e5c4f892e4a817f7f628e2682fe14",
        }),
    })
    .with_system_prompt(include_str!("../descriptions/crush/system-prompt.md"))
    .with_example(
        "todos",
        r#"{"todos":[{"content":"Run the tests","status":"in_progress","active_form":"Running the tests"},{"content":"Fix what fails","status":"pending","active_form":"Fixing what fails"}]}"#,
    )
    .tool(ListTool(Todos))
}

/// One step of the list.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, JsonSchema)]
pub struct CrushTodo {
    /// What needs doing, in the imperative.
    pub content: String,
    /// `pending`, `in_progress` or `completed`.
    pub status: String,
    /// The step as it is being done ("Running the tests").
    pub active_form: String,
}

/// A stored todo as Crush keeps it, for the details.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct CrushTodoView<'a> {
    /// What needs doing.
    pub content: &'a str,
    /// Where it stands.
    pub status: TriStatus,
    /// The step as it is being done (empty when none).
    pub active_form: &'a str,
}

/// The arguments of `todos`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, JsonSchema)]
pub struct TodosInput {
    /// The whole updated list.
    pub todos: Vec<CrushTodo>,
}

todokit_app::prelude::writer_tool! {
    /// The `todos` tool.
    Todos = "todos",
    include_str!("../descriptions/crush/todos.md")
}

impl ListWriter for Todos {
    type Input = TodosInput;
    type Item<'a> = CrushTodoView<'a>;
    type Fields = CrushMetadata;
    const FIELDS: FieldNames = FIELDS;

    fn todos(input: &mut TodosInput) -> Result<Vec<Todo>, ToolError> {
        let mut todos = Vec::with_capacity(input.todos.len());
        for item in &input.todos {
            // Only the exact words, as Crush compares them.
            let found = TriStatus::SPELLINGS.iter().find(|(word, _)| *word == item.status);
            let Some((_, status)) = found else {
                return Err(ToolError::refused(
                    FIELDS.list,
                    format!(
                        "invalid status {} for todo {}",
                        go_quote(&clip(&item.status)),
                        go_quote(&clip(&item.content))
                    ),
                ));
            };
            let mut todo = Todo::new(item.content.clone()).status(*status);
            // Crush stores an empty active form; here none is none.
            todo.active_form = Some(item.active_form.clone()).filter(|a| !a.is_empty());
            todos.push(todo);
        }
        Ok(todos)
    }

    fn item(todo: &Todo, _position: usize) -> CrushTodoView<'_> {
        CrushTodoView {
            content: &todo.content,
            status: todo.status.into(),
            active_form: todo.active_form.as_deref().unwrap_or_default(),
        }
    }

    fn text(op: &ToolOperation<'_, TodosInput>) -> String {
        let count = |wanted: TriStatus| {
            op.after
                .tasks()
                .filter(|t| TriStatus::from(t.status) == wanted)
                .count()
        };
        format!(
            "{UPDATED}\n\nStatus: {} pending, {} in progress, {} completed\n{NUDGE}",
            count(TriStatus::Pending),
            count(TriStatus::InProgress),
            count(TriStatus::Completed)
        )
    }

    fn fields(op: &ToolOperation<'_, TodosInput>) -> CrushMetadata {
        CrushMetadata::of(op.before, &op.asked.todos)
    }
}

/// What Crush reports beside the list: whether the list was empty before,
/// what this call finished and started, and the counts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CrushMetadata {
    /// The list was empty before the call.
    pub is_new: bool,
    /// Items completed by this call that were on the list before.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub just_completed: Vec<String>,
    /// The last item this call put in progress (its active form when it
    /// has one).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub just_started: String,
    /// How many items are completed.
    pub completed: usize,
    /// How many items there are.
    pub total: usize,
}

impl CrushMetadata {
    /// Crush's comparison of the list `before` with the items sent, by
    /// content (the last item with a content decides its old status).
    fn of(before: &TodoState, sent: &[CrushTodo]) -> Self {
        let old: std::collections::HashMap<&str, TriStatus> = before
            .tasks()
            .map(|t| (t.content.as_str(), TriStatus::from(t.status)))
            .collect();
        let mut metadata = CrushMetadata {
            is_new: before.is_empty(),
            just_completed: Vec::new(),
            just_started: String::new(),
            completed: 0,
            total: sent.len(),
        };
        for item in sent {
            let was = old.get(item.content.as_str()).copied();
            if item.status == TriStatus::Completed.as_str() {
                metadata.completed += 1;
                if was.is_some_and(|w| w != TriStatus::Completed) {
                    metadata.just_completed.push(item.content.clone());
                }
            }
            if item.status == TriStatus::InProgress.as_str() && was != Some(TriStatus::InProgress) {
                metadata.just_started = match item.active_form.as_str() {
                    "" => item.content.clone(),
                    active => active.to_owned(),
                };
            }
        }
        metadata
    }
}

/// `text` as Go's `%q` writes it: in double quotes, with `"` and `\`
/// escaped, the usual short escapes, and other control characters as
/// `\x`, `\u` or `\U` escapes.
fn go_quote(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{7}' => out.push_str("\\a"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{b}' => out.push_str("\\v"),
            c if c.is_control() && (c as u32) < 0x80 => out.push_str(&format!("\\x{:02x}", c as u32)),
            c if c.is_control() => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::test_support::{detail, problem_messages, run_tool};
    use pretty_assertions::assert_eq;
    use serde_json::json;

    fn call(state: &TodoState, args: &str) -> Outcome {
        run_tool(&profile(), Todos::NAME, state, args)
    }

    // Golden facts from Crush: repository charmbracelet/crush at commit
    // 45b1e634a5479297d94141ffc603a1d09f9b6326 (main, 2026-05-18),
    // internal/agent/tools/todos.go: items `{content, status,
    // active_form}`, a status other than `pending`, `in_progress`,
    // `completed` refused as `invalid status %q for todo %q`; the answer
    // `Todo list updated successfully.\n\nStatus: P pending, I in progress,
    // C completed\n` and the nudge; metadata `is_new`, `just_completed`
    // (completed now, on the list before with another status),
    // `just_started` (the last item newly in progress, its active form or
    // else its content), `completed`, `total`.
    #[test]
    fn the_answer_counts_and_nudges_as_crush_does() {
        let before = TodoState::flat(vec![
            Todo::new("Read").status(Status::InProgress),
            Todo::new("Fix"),
        ]);
        let outcome = call(
            &before,
            r#"{"todos":[{"content":"Read","status":"completed","active_form":"Reading"},{"content":"Fix","status":"in_progress","active_form":"Fixing"},{"content":"Ship","status":"pending","active_form":""}]}"#,
        );
        let actual = (
            outcome.result.content.clone(),
            detail(&outcome, "is_new"),
            detail(&outcome, "just_completed"),
            detail(&outcome, "just_started"),
            detail(&outcome, "completed"),
            detail(&outcome, "total"),
        );
        let expected = (
            format!(
                "Todo list updated successfully.\n\nStatus: 1 pending, 1 in progress, 1 completed\n{NUDGE}"
            ),
            (false, json!(false)),
            (false, json!(["Read"])),
            (false, json!("Fixing")),
            (false, json!(1)),
            (false, json!(3)),
        );
        assert_eq!(actual, expected);
    }

    #[test]
    fn an_unknown_status_is_refused_in_crushs_words_and_nothing_is_stored() {
        let outcome = call(
            &TodoState::new(),
            r#"{"todos":[{"content":"Say \"hi\"\n","status":"done","active_form":"x"}]}"#,
        );
        let actual = (outcome.commit.is_some(), problem_messages(&outcome));
        let expected = (
            false,
            vec![r#"todos: invalid status "done" for todo "Say \"hi\"\n""#.to_owned()],
        );
        assert_eq!(actual, expected);
    }

    #[test]
    fn a_first_list_is_new_and_its_started_item_is_named_by_content_without_an_active_form() {
        let outcome = call(
            &TodoState::new(),
            r#"{"todos":[{"content":"Read","status":"in_progress","active_form":""}]}"#,
        );
        let actual = (
            detail(&outcome, "is_new"),
            detail(&outcome, "just_started"),
            detail(&outcome, "just_completed"),
        );
        let expected = (
            (false, json!(true)),
            (false, json!("Read")),
            (false, serde_json::Value::Null),
        );
        assert_eq!(actual, expected);
    }

    #[test]
    fn go_quoting_escapes_what_go_escapes() {
        let actual = go_quote("a\"b\\c\u{1}\u{7f}\u{85}é");
        let expected = r#""a\"b\\c\x01\x7f\u0085é""#;
        assert_eq!(actual, expected);
    }
}
