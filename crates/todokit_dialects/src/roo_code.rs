//! `roo-code`: Roo Code's `update_todo_list`: the whole list as one
//! markdown checklist string, `[ ]` pending, `[-]` in progress (`[~]` too),
//! `[x]` completed, one item per line, replaced on every call.
//!
//! Roo Code drops lines that are not items without a word; here such a
//! line refuses the call, naming its line number, so the model learns what
//! it got wrong and nothing it meant is lost. Several items in progress are
//! accepted, with a nudge back to one.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use todokit_domain::checklist::{Bullet, LineError, Mark, MarkerTable, Spacing};

use todokit_app::prelude::TriStatus;

use todokit_app::prelude::*;

/// The profile's name.
pub const NAME: &str = "roo-code";
/// What the model reads back after an accepted list, as the original says it.
pub const UPDATED: &str = "Todo list updated successfully.";
/// Most lines reported back when a list has lines that are not items.
pub const MAX_REPORTED_LINES: usize = 5;

const FIELDS: FieldNames = FieldNames {
    list: "todos",
    content: "text",
    items: ItemPath::Ordinal,
    ..FieldNames::DEFAULT
};

/// Roo Code's checklist: `[ ]`, `[-]` in progress, `[x]`; `[~]` and `[X]`
/// read too, with or without a bullet, spaces allowed in the box. Roo has
/// no blocked or abandoned todos; they are written as pending and done.
pub const MARKERS: MarkerTable = MarkerTable {
    written: [
        Mark::plain(' '),
        Mark::plain('-'),
        Mark::plain(' '),
        Mark::plain('x'),
        Mark::plain('x'),
    ],
    also_read: &[('~', Status::InProgress), ('X', Status::Completed)],
    bullet: Bullet::Optional,
    spacing: Spacing::Loose,
};

/// The profile with its default rules.
pub fn profile() -> Profile {
    Profile::new(
        NAME,
        "Roo Code's update_todo_list: the whole list as a markdown checklist",
        ListRules::with_default_limits(InProgressPolicy::Warn),
    )
    .with_list_text("todos", None)
    .with_upstream(Upstream {
        agent: "Roo Code",
        pin: Pin::Source {
            repository: "RooCodeInc/Roo-Code",
            path: "src/core/tools/UpdateTodoListTool.ts",
            commit: "8de9337e63cbeb8e0aef9fdd324bdcb9181e6ed6",
            date: Some("2026-01-20"),
            read_through: None,
        },
        ships_in: "Roo Code (`update_todo_list`; the product shut down on 2026-05-15) and its community fork Zoo Code",
        checked: Some(Checked {
            date: "2026-11-26",
            against: "cb836567180a3ff1da6d082f3178b90c3bd22a70",
        }),
    })
    .with_system_prompt(include_str!("../descriptions/roo-code/system-prompt.md"))
    .with_example(
        "update_todo_list",
        r#"{"todos":"[x] Read the failing test\n[-] Fix the parser\n[ ] Run the whole suite"}"#,
    )
    .tool(ListTool(UpdateTodoList))
}

/// The arguments of `update_todo_list`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, JsonSchema)]
pub struct UpdateTodoListInput {
    /// The whole list as a markdown checklist, one todo per line: `[ ]` to do, `[-]` in progress, `[x]` done, then the todo's text.
    pub todos: String,
}

/// One stored todo as the details show it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RooTodo<'a> {
    /// What to do.
    pub content: &'a str,
    /// Where it stands.
    pub status: TriStatus,
}

todokit_app::prelude::writer_tool! {
    /// The `update_todo_list` tool.
    UpdateTodoList = "update_todo_list",
    include_str!("../descriptions/roo-code/update_todo_list.md")
}

impl ListWriter for UpdateTodoList {
    type Input = UpdateTodoListInput;
    type Item<'a> = RooTodo<'a>;
    type Fields = ();
    const FIELDS: FieldNames = FIELDS;

    fn todos(input: &mut UpdateTodoListInput) -> Result<Vec<Todo>, ToolError> {
        let mut todos = Vec::new();
        let mut bad = Vec::new();
        for (index, line) in input.todos.split('\n').enumerate() {
            let line = line.trim();
            if line.is_empty() {
                continue;
            }
            match MARKERS.parse(line) {
                Ok(Some((status, text))) if !text.trim().is_empty() => {
                    todos.push(Todo::new(text.trim()).status(status));
                }
                Ok(Some(_)) => bad.push(format!("line {} has a box but no text", index + 1)),
                Ok(None) | Err(LineError::BadBox) => bad.push(format!(
                    "line {} is not a checklist item: \"{}\"",
                    index + 1,
                    todokit_domain::clip(line)
                )),
                Err(LineError::UnknownMarker(mark)) => {
                    bad.push(format!("line {} has the unknown box `[{mark}]`", index + 1))
                }
            }
        }
        if bad.is_empty() {
            return Ok(todos);
        }
        let more = bad.len().saturating_sub(MAX_REPORTED_LINES);
        bad.truncate(MAX_REPORTED_LINES);
        if more > 0 {
            bad.push(format!("and {more} more such lines"));
        }
        Err(ToolError::refused(
            FIELDS.list,
            format!(
                "{}; write each todo on its own line as `[ ] text`, `[-] text` or `[x] text`",
                bad.join("; ")
            ),
        ))
    }

    fn item(todo: &Todo, _position: usize) -> RooTodo<'_> {
        RooTodo {
            content: &todo.content,
            status: todo.status.into(),
        }
    }

    fn text(op: &ToolOperation<'_, UpdateTodoListInput>) -> String {
        if op.in_progress_count > 1 {
            return format!(
                "{UPDATED}\n\n{} todos are in progress (`[-]`); keep only the one you are working on in progress.",
                op.in_progress_count
            );
        }
        UPDATED.to_owned()
    }

    fn fields(_op: &ToolOperation<'_, UpdateTodoListInput>) {}
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::{problem_messages, run_tool, snapshot_settings};
    use pretty_assertions::assert_eq;
    use serde_json::json;
    use todokit_app::Outcome;
    use todokit_domain::{Status, TodoState};

    fn call(args: &serde_json::Value) -> Outcome {
        run_tool(
            &profile(),
            UpdateTodoList::NAME,
            &TodoState::new(),
            &args.to_string(),
        )
    }

    fn stored(outcome: &Outcome) -> Option<Vec<(String, Status)>> {
        outcome
            .commit
            .as_ref()
            .map(|s| s.tasks().map(|t| (t.content.clone(), t.status)).collect())
    }

    // Golden cases against the original: RooCodeInc/Roo-Code,
    // src/core/tools/UpdateTodoListTool.ts at commit
    // 8de9337e63cbeb8e0aef9fdd324bdcb9181e6ed6 (main, 2026-01-20). `parseMarkdownChecklist`
    // trims every line, skips empty ones, and reads
    // `^(?:-\s*)?\[\s*([ xX\-~])\s*\]\s+(.+)$`: `x`/`X` completed, `-`/`~`
    // in progress, a space pending; the success text is the literal
    // "Todo list updated successfully.".
    #[test]
    fn the_original_checklist_forms_are_read_as_roo_reads_them() {
        let fixture = json!({"todos": "[x] Read\r\n  - [X] Upper\n\n[-] Fix\n[~] Tilde\n[ - ] Spaced\n[ ] Test\n- [ ]   Padded  \n"});
        let actual = stored(&call(&fixture));
        let expected = Some(vec![
            ("Read".to_owned(), Status::Completed),
            ("Upper".to_owned(), Status::Completed),
            ("Fix".to_owned(), Status::InProgress),
            ("Tilde".to_owned(), Status::InProgress),
            ("Spaced".to_owned(), Status::InProgress),
            ("Test".to_owned(), Status::Pending),
            ("Padded".to_owned(), Status::Pending),
        ]);
        assert_eq!(actual, expected);
    }

    #[test]
    fn an_accepted_list_is_answered_with_the_original_words() {
        let fixture = json!({"todos": "[x] Read\n[-] Fix\n[ ] Test"});
        let actual = call(&fixture).result.content;
        let expected = "Todo list updated successfully.";
        assert_eq!(actual, expected);
    }

    #[test]
    fn lines_that_are_not_items_refuse_the_call_with_their_numbers() {
        let fixture = json!({"todos": "[x] Read\nSome prose\n\n[?] Odd\n[x]   \n[ ] Test"});
        let outcome = call(&fixture);
        let actual = (problem_messages(&outcome), outcome.commit);
        let expected = (
            vec![
                "todos: line 2 is not a checklist item: \"Some prose\"; line 4 has the unknown box `[?]`; \
                 line 5 has a box but no text; write each todo on its own line as `[ ] text`, `[-] text` \
                 or `[x] text`"
                    .to_owned(),
            ],
            None,
        );
        assert_eq!(actual, expected);
    }

    #[test]
    fn limits_name_the_item_by_its_place() {
        let fixture = json!({"todos": format!("[ ] a\n\n[ ] {}", "b".repeat(2_000))});
        let actual = problem_messages(&call(&fixture));
        let expected = vec![format!(
            "todos item 2: 2000 bytes of UTF-8 were sent; at most {} bytes are allowed",
            Limits::DEFAULT.max_content_bytes
        )];
        assert_eq!(actual, expected);
    }

    #[test]
    fn an_empty_string_clears_the_list() {
        let state = TodoState::flat(vec![Todo::new("old")]);
        let outcome = run_tool(&profile(), UpdateTodoList::NAME, &state, r#"{"todos":""}"#);
        let actual = (outcome.result.is_error, outcome.commit);
        let expected = (false, Some(TodoState::new()));
        assert_eq!(actual, expected);
    }

    #[test]
    fn result_texts() {
        let cases = [
            ("accepted", json!({"todos": "[x] Read\n[-] Fix\n[ ] Test"})),
            ("two_in_progress", json!({"todos": "[-] Read\n[-] Fix"})),
            ("not_items", json!({"todos": "1. Read\n2. Fix"})),
            ("todos_missing", json!({"list": "[ ] a"})),
        ];
        snapshot_settings().bind(|| {
            for (name, args) in cases {
                let result = call(&args).result;
                insta::assert_snapshot!(format!("result__roo-code__{name}"), result.content);
                insta::assert_json_snapshot!(format!("details__roo-code__{name}"), result.details.value());
            }
        });
    }
}
