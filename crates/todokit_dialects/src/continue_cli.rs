//! `continue`: the Continue CLI's `Checklist`: the whole checklist as one
//! markdown text (`- [ ]` open, `- [x]` done), answered with the text
//! itself under `Task list status:`. Its checklist lines are the stored
//! tasks, so `watch` and the board show progress, and the text is kept as
//! written.

use schemars::JsonSchema;
use serde::Deserialize;
use todokit_domain::{Violation, Violations};

use todokit_app::prelude::{ChecklistLine, checklist_todos};

use todokit_app::prelude::*;

/// The profile's name.
pub const NAME: &str = "continue";
/// The line every answer starts with.
pub const STATUS_HEADING: &str = "Task list status:";

const FIELDS: FieldNames = FieldNames {
    list: "checklist",
    ..FieldNames::DEFAULT
};

/// The profile with its default rules, with room for a long checklist
/// (Continue sets no bound).
pub fn profile() -> Profile {
    Profile::new(
        NAME,
        "Continue CLI's Checklist: one markdown checklist, echoed back",
        ListRules::with_default_limits(InProgressPolicy::Warn).limits(Limits::capped(1_000, 8 * 1024)),
    )
    .with_list_text("checklist", None)
    .with_upstream(Upstream {
        agent: "Continue CLI",
        pin: Pin::Package {
            registry: "npm",
            name: "@continuedev/cli",
            version: "1.5.47",
            path: "dist/index.js",
            sha256: "bcf43fd5db041dbff4ee2eb9639a8cc732eba5d7f5ea137c0ef2025976fa3724",
        },
        ships_in: "the Continue CLI, `cn` (`Checklist`; the IDE extensions have no todo tool)",
        checked: Some(Checked {
            date: "2026-12-07",
            against: "1.5.47",
        }),
    })
    .with_system_prompt(include_str!("../descriptions/continue/system-prompt.md"))
    .with_example(
        WriteChecklist::NAME,
        r#"{"checklist":"- [x] Reproduce the bug\n- [ ] Fix the session check\n- [ ] Add a test"}"#,
    )
    .tool(ListTool(WriteChecklist))
}

/// The arguments of `Checklist`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, JsonSchema)]
pub struct ChecklistInput {
    /// The whole checklist in markdown: `- [ ]` for an open task, `- [x]`
    /// for a finished one. Keep it short, each item specific and
    /// actionable, and use headings only to group items.
    pub checklist: String,
}

todokit_app::prelude::writer_tool! {
    /// The `Checklist` tool.
    WriteChecklist = "Checklist",
    include_str!("../descriptions/continue/Checklist.md")
}

impl ListWriter for WriteChecklist {
    type Input = ChecklistInput;
    type Item<'a> = ChecklistLine<'a>;
    type Fields = ();
    const FIELDS: FieldNames = FIELDS;

    fn todos(input: &mut ChecklistInput) -> Result<Vec<Todo>, ToolError> {
        Ok(checklist_todos(&input.checklist))
    }

    fn apply(input: &mut ChecklistInput, ctx: &CallContext<'_>) -> Result<Replacement, ToolError> {
        // The whole text is kept (headings and prose too, not only the task
        // lines the list checks), so every line is held to a task's cap.
        let max = ctx.rules.limits.max_content_bytes;
        let mut problems = Violations::default();
        for (number, line) in input.checklist.lines().enumerate() {
            if line.len() > max {
                problems.push(Violation::TooLong {
                    field: format!("checklist line {}", number + 1),
                    bytes: line.len(),
                    max,
                });
            }
        }
        problems.into_result()?;
        replace_with::<Self>(Self::todos(input)?, ctx)
    }

    fn document(input: &ChecklistInput) -> Option<String> {
        Some(input.checklist.clone())
    }

    fn item(todo: &Todo, _position: usize) -> ChecklistLine<'_> {
        ChecklistLine::of(todo)
    }

    fn text(op: &ToolOperation<'_, ChecklistInput>) -> String {
        format!("{STATUS_HEADING}\n{}", op.asked.checklist)
    }

    fn fields(_op: &ToolOperation<'_, ChecklistInput>) {}
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::test_support::run_tool;
    use pretty_assertions::assert_eq;

    // Golden facts from the Continue CLI: repository continuedev/continue
    // at commit 1821a72d1668154c208b4a732fc4e3587551cb24 (main, 2025-09-22),
    // extensions/cli/src/tools/writeChecklist.ts: the tool `Checklist`
    // takes `{checklist: string}` (required) and answers
    // `Task list status:\n${args.checklist}`; the preview shows the text
    // as a checklist.
    #[test]
    fn the_answer_is_the_checklist_under_its_heading_and_its_lines_are_stored() {
        let checklist = "## Backend\n- [x] Read\n- [ ] Fix";
        let args = serde_json::json!({ "checklist": checklist }).to_string();
        let outcome = run_tool(&profile(), WriteChecklist::NAME, &TodoState::new(), &args);
        let state = outcome.commit.unwrap_or_default();
        let tasks: Vec<(String, Status)> = state.tasks().map(|t| (t.content.clone(), t.status)).collect();
        let actual = (outcome.result.content, tasks, state.document);
        let expected = (
            format!("Task list status:\n{checklist}"),
            vec![
                ("Read".to_owned(), Status::Completed),
                ("Fix".to_owned(), Status::Pending),
            ],
            Some(checklist.to_owned()),
        );
        assert_eq!(actual, expected);
    }

    #[test]
    fn a_line_of_any_kind_longer_than_a_task_may_be_is_refused_and_nothing_is_stored() {
        let long = "x".repeat(8 * 1024 + 1);
        let checklist = format!("## Plan\n{long}\n- [ ] Fix\n- [ ] {long}");
        let args = serde_json::json!({ "checklist": checklist }).to_string();
        let outcome = run_tool(&profile(), WriteChecklist::NAME, &TodoState::new(), &args);
        let actual = crate::test_support::verdict(outcome);
        let expected = (
            true,
            vec![
                "checklist line 2: 8193 bytes of UTF-8 were sent; at most 8192 bytes are allowed".to_owned(),
                "checklist line 4: 8199 bytes of UTF-8 were sent; at most 8192 bytes are allowed".to_owned(),
            ],
            None,
        );
        assert_eq!(actual, expected);
    }
}
