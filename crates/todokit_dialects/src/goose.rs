//! `goose`: Goose's `todo_write`: the whole todo as one free text
//! (`content`), at most 50,000 characters, answered `Updated (N chars)`.
//! Its checklist lines are the stored tasks, so `watch` and the board
//! show progress; the text itself is kept and restated before every
//! request, as Goose does, so the model keeps it through compaction.

use schemars::JsonSchema;
use serde::Deserialize;

use todokit_app::prelude::{ChecklistLine, checklist_lines, checklist_todos, current_document};

use todokit_app::prelude::*;

/// The profile's name.
pub const NAME: &str = "goose";
/// The most characters the text may hold (Goose's default
/// `GOOSE_TODO_MAX_CHARS`).
pub const MAX_CHARS: usize = 50_000;
/// Goose's refusal of a call without a text `content`.
pub const MISSING_CONTENT: &str = "Missing required parameter: content";
/// What goes before every request while the todo is empty.
pub const EMPTY_CONTEXT: &str = "Current tasks and notes:\nOnce given a task, immediately update your todo with all explicit and implicit requirements\n";

const FIELDS: FieldNames = FieldNames {
    list: "content",
    ..FieldNames::DEFAULT
};

/// The profile with its default rules: room for as many checklist lines,
/// and as long a line, as 50,000 characters can hold.
pub fn profile() -> Profile {
    Profile::new(
        NAME,
        "Goose's todo_write: one free text, restated before every request",
        ListRules::with_default_limits(InProgressPolicy::Warn).limits(Limits::capped(MAX_CHARS / 4, MAX_CHARS * 4)),
    )
    // Goose counts characters; four bytes each at the most.
    .with_list_text("content", Some(MAX_CHARS * 4))
    .with_upstream(Upstream {
        agent: "Goose",
        pin: Pin::Source {
            repository: "block/goose",
            path: "crates/goose/src/agents/platform_extensions/todo.rs",
            commit: "e05775174b4691538ff373e63131667c7cf65d6e",
            date: None,
            read_through: None,
        },
        ships_in: "Goose (the `todo` platform extension's `todo_write`)",
        checked: None,
    })
    .with_system_prompt(include_str!("../descriptions/goose/system-prompt.md"))
    .with_example(
        TodoWrite::NAME,
        r#"{"content":"- [x] Reproduce the bug\n- [ ] Fix the session check\n  - [ ] Add a test\nNote: the bug only shows after a restart."}"#,
    )
    .with_context_every_request(context)
    .tool(ListTool(TodoWrite))
}

/// The arguments of `todo_write`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, JsonSchema)]
pub struct TodoWriteInput {
    /// The whole todo text; it replaces the previous one.
    pub content: String,
}

todokit_app::prelude::writer_tool! {
    /// The `todo_write` tool.
    TodoWrite = "todo_write",
    include_str!("../descriptions/goose/todo_write.md")
}

impl ListWriter for TodoWrite {
    type Input = TodoWriteInput;
    type Item<'a> = ChecklistLine<'a>;
    type Fields = ();
    const FIELDS: FieldNames = FIELDS;

    fn todos(input: &mut TodoWriteInput) -> Result<Vec<Todo>, ToolError> {
        let chars = input.content.chars().count();
        if chars > MAX_CHARS {
            return Err(ToolError::refused(
                FIELDS.list,
                format!("Todo list too large: {chars} chars (max: {MAX_CHARS})"),
            ));
        }
        Ok(checklist_todos(&input.content))
    }

    fn document(input: &TodoWriteInput) -> Option<String> {
        Some(input.content.clone())
    }

    fn item(todo: &Todo, _position: usize) -> ChecklistLine<'_> {
        ChecklistLine::of(todo)
    }

    fn text(op: &ToolOperation<'_, TodoWriteInput>) -> String {
        format!("Updated ({} chars)", op.asked.content.chars().count())
    }

    fn fields(_op: &ToolOperation<'_, TodoWriteInput>) {}

    /// Goose reads `content` itself and has one complaint about it.
    fn refusal(args: &serde_json::Value, problems: Vec<ArgumentError>) -> ToolError {
        if args.get(FIELDS.list).is_some_and(serde_json::Value::is_string) {
            return ToolError::Arguments(problems);
        }
        ToolError::refused(FIELDS.list, MISSING_CONTENT)
    }
}

/// Goose's "message of importance": the todo text as written (or, once
/// another profile changed the list, the list as checklist lines), or a
/// nudge to write one.
fn context(state: &TodoState) -> String {
    let text = match current_document(state) {
        Some(text) => text.to_owned(),
        None => checklist_lines(state),
    };
    if text.trim().is_empty() {
        return EMPTY_CONTEXT.to_owned();
    }
    format!("Current tasks and notes:\n{text}\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::test_support::{refusals, run_tool};
    use pretty_assertions::assert_eq;
    use todokit_app::turn::TurnPolicy;

    fn call(state: &TodoState, args: &str) -> Outcome {
        run_tool(&profile(), TodoWrite::NAME, state, args)
    }

    fn context_after(state: &TodoState) -> Option<String> {
        TurnPolicy::new(&profile()).context(state).map(|i| i.text)
    }

    // Golden facts from Goose: repository block/goose at commit
    // e05775174b4691538ff373e63131667c7cf65d6e,
    // crates/goose/src/agents/platform_extensions/todo.rs: `todo_write
    // {content}` overwrites the todo; more than GOOSE_TODO_MAX_CHARS
    // (default 50_000) characters is `Todo list too large: N chars (max:
    // M)`; success is `Updated (N chars)` (characters, not bytes); a call
    // without a string `content` is `Missing required parameter: content`;
    // `get_moim` gives `Current tasks and notes:\n{content}\n`, or the
    // nudge when the content is blank.
    #[test]
    fn a_write_keeps_the_text_counts_its_characters_and_stores_its_checklist() {
        let content = "- [x] Lire é\n- [ ] Fix\nnote";
        let args = serde_json::json!({ "content": content }).to_string();
        let outcome = call(&TodoState::new(), &args);
        let state = outcome.commit.clone().unwrap_or_default();
        let tasks: Vec<(String, Status)> = state.tasks().map(|t| (t.content.clone(), t.status)).collect();
        let actual = (outcome.result.content, tasks, context_after(&state));
        let expected = (
            "Updated (27 chars)".to_owned(),
            vec![
                ("Lire é".to_owned(), Status::Completed),
                ("Fix".to_owned(), Status::Pending),
            ],
            Some(format!("Current tasks and notes:\n{content}\n")),
        );
        assert_eq!(actual, expected);
    }

    #[test]
    fn too_long_or_missing_content_is_refused_in_gooses_words() {
        let long = serde_json::json!({ "content": "é".repeat(MAX_CHARS + 1) }).to_string();
        let fixture = [long.as_str(), "{}", r#"{"content":5}"#];
        let actual = refusals(&profile(), TodoWrite::NAME, &fixture);
        let expected = vec![
            (
                false,
                vec!["content: Todo list too large: 50001 chars (max: 50000)".to_owned()],
            ),
            (false, vec![format!("content: {MISSING_CONTENT}")]),
            (false, vec![format!("content: {MISSING_CONTENT}")]),
        ];
        assert_eq!(actual, expected);
    }

    #[test]
    fn the_context_nudges_while_empty_and_follows_a_list_another_profile_wrote() {
        let other = TodoState::flat(vec![
            Todo::new("Read").status(Status::Completed),
            Todo::new("Fix"),
        ]);
        let actual = (context_after(&TodoState::new()), context_after(&other));
        let expected = (
            Some(EMPTY_CONTEXT.to_owned()),
            Some("Current tasks and notes:\n- [x] Read\n- [ ] Fix\n".to_owned()),
        );
        assert_eq!(actual, expected);
    }

    #[test]
    fn another_profiles_rewrite_leaves_no_stale_text_behind() {
        let written = call(&TodoState::new(), r#"{"content":"- [ ] Read\nnotes"}"#)
            .commit
            .unwrap_or_default();
        let claude = crate::by_name("claude-code").unwrap_or_else(profile);
        let args = r#"{"todos":[{"content":"Read","status":"completed","activeForm":"Reading"},{"content":"Fix","status":"pending","activeForm":"Fixing"}]}"#;
        let rewritten = run_tool(&claude, "TodoWrite", &written, args)
            .commit
            .unwrap_or_default();
        let actual = (
            written.document.is_some(),
            rewritten.document.clone(),
            context_after(&rewritten),
        );
        let expected = (
            true,
            None,
            Some("Current tasks and notes:\n- [x] Read\n- [ ] Fix\n".to_owned()),
        );
        assert_eq!(actual, expected);
    }
}
