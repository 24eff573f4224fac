//! `cline`: Cline's focus chain. It is not a tool of its own: every Cline
//! tool takes an optional `task_progress` parameter, a markdown checklist
//! (`- [ ]` open, `- [x]` done) that replaces the last one whole. The
//! profile's one tool, `task_progress`, is that parameter: a host adds its
//! schema (the tool's input schema, one property) and description to its
//! own tools, and calls it with what the model put there. Cline answers
//! nothing for it, so neither does the tool; a blank checklist changes
//! nothing, as in Cline.

use schemars::JsonSchema;
use serde::Deserialize;

use todokit_app::prelude::ChecklistLine;

use todokit_app::prelude::*;

/// The profile's name.
pub const NAME: &str = "cline";
/// The parameter every Cline tool takes, and so this profile's tool.
pub const PARAMETER: &str = "task_progress";

const FIELDS: FieldNames = FieldNames {
    list: PARAMETER,
    ..FieldNames::DEFAULT
};

/// The profile with its default rules, with room for a long checklist.
pub fn profile() -> Profile {
    Profile::new(
        NAME,
        "Cline's focus chain: a task_progress checklist on every tool call, replaced whole",
        ListRules::with_default_limits(InProgressPolicy::Warn),
    )
    .with_list_text(PARAMETER, None)
    .with_upstream(Upstream {
        agent: "Cline",
        pin: Pin::Source {
            repository: "cline/cline",
            path: "apps/vscode/src/core/task/focus-chain/index.ts",
            commit: "864419d8b0c2467ec37ccb8837ddd08f96ea31f9",
            date: Some("2026-06-23"),
            read_through: None,
        },
        ships_in: "Cline's VS Code extension with the focus chain on (`task_progress` on every tool), up to its \
                   SDK migration of June 2026",
        checked: Some(Checked {
            date: "2026-11-26",
            against: "21cb8d2525bcedf1f4b6890b27a74a14fe7451e4",
        }),
    })
    // npm `@cline/cli-linux-x64` 3.0.65 (sha256 aa4cdccd…900d13): its
    // bundle names `task_progress` only as an event of the Claude Code
    // provider; it has no focus chain. (The VS Code extension is not on a
    // registry the tests reach, and was not read.)
    .retired_upstream("Cline's CLI 3.0.65")
    .with_system_prompt(include_str!("../descriptions/cline/system-prompt.md"))
    .with_example(
        PARAMETER,
        r#"{"task_progress":"- [x] Read the failing test\n- [ ] Fix the parser\n- [ ] Run the whole suite"}"#,
    )
    .tool(TaskProgress)
}

/// What a host passes on: the `task_progress` parameter of a tool call.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, JsonSchema)]
pub struct TaskProgressInput {
    /// The whole checklist after this tool call, one `- [ ] task` or
    /// `- [x] task` per line.
    pub task_progress: String,
}

/// The `task_progress` parameter, as a tool: a checklist replacing the
/// stored one, or nothing for a blank one.
#[derive(Debug, Clone, Copy, Default)]
pub struct TaskProgress;

impl TypedTool for TaskProgress {
    type Input = TaskProgressInput;
    const NAME: &'static str = PARAMETER;
    const DESCRIPTION: &'static str = include_str!("../descriptions/cline/task_progress.md");
    const METADATA: ToolMetadata = ToolMetadata::LIST_WRITER;

    fn run(&self, input: TaskProgressInput, ctx: &CallContext<'_>) -> Result<Outcome, ToolError> {
        if input.task_progress.trim().is_empty() {
            return read_list::<Checklist>(String::new(), ctx.state);
        }
        write_list::<Checklist>(PARAMETER, input, ctx)
    }
}

/// The checklist as a whole-list write.
#[derive(Debug, Clone, Copy, Default)]
pub struct Checklist;

impl ListWriter for Checklist {
    type Input = TaskProgressInput;
    type Item<'a> = ChecklistLine<'a>;
    type Fields = ();
    const FIELDS: FieldNames = FIELDS;

    fn todos(input: &mut TaskProgressInput) -> Result<Vec<Todo>, ToolError> {
        Ok(input.task_progress.lines().filter_map(item).collect())
    }

    /// Cline keeps the checklist trimmed, as the model wrote it.
    fn document(input: &TaskProgressInput) -> Option<String> {
        Some(input.task_progress.trim().to_owned())
    }

    fn item(todo: &Todo, _position: usize) -> ChecklistLine<'_> {
        ChecklistLine::of(todo)
    }

    /// Cline adds nothing to the tool's answer for its `task_progress`.
    fn text(_op: &ToolOperation<'_, TaskProgressInput>) -> String {
        String::new()
    }

    fn fields(_op: &ToolOperation<'_, TaskProgressInput>) {}
}

/// A checklist line as Cline reads one (`^-\s*\[([ xX])\]\s*(.+)$` on the
/// trimmed line): a todo, completed for `x` or `X`; any other line is not
/// an item.
fn item(line: &str) -> Option<Todo> {
    let rest = line.trim().strip_prefix('-')?.trim_start().strip_prefix('[')?;
    let mut chars = rest.chars();
    let mark = chars.next()?;
    let text = chars.as_str().strip_prefix(']')?.trim();
    let status = match mark {
        ' ' => Status::Pending,
        'x' | 'X' => Status::Completed,
        _ => return None,
    };
    (!text.is_empty()).then(|| Todo::new(text).status(status))
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::test_support::run_tool;
    use pretty_assertions::assert_eq;

    fn call(state: &TodoState, args: &serde_json::Value) -> Outcome {
        run_tool(&profile(), PARAMETER, state, &args.to_string())
    }

    // Golden facts from Cline: repository cline/cline at commit
    // 864419d8b0c2467ec37ccb8837ddd08f96ea31f9 (main, 2026-06-23, the last
    // before the SDK migration removed the parameter):
    // - apps/vscode/src/core/prompts/system-prompt/types.ts:
    //   `TASK_PROGRESS_PARAMETER` is `task_progress`, not required, added
    //   to every tool while the focus chain is on.
    // - apps/vscode/src/core/task/focus-chain/index.ts,
    //   `updateFCListFromToolResponse`: a blank value changes nothing;
    //   otherwise the trimmed text replaces the checklist whole.
    // - apps/vscode/src/shared/focus-chain-utils.ts: an item is a trimmed
    //   line matching `^-\s*\[([ xX])\]\s*(.+)$`, checked for `x` or `X`.
    #[test]
    fn a_checklist_replaces_the_list_and_only_its_item_lines_are_tasks() {
        let text =
            "  Plan:\n- [x] Read\n-  [X]  Shout \n- [ ] Fix\n- [-] Not an item\n* [ ] Nor this\n- [ ]\n";
        let outcome = call(&TodoState::new(), &serde_json::json!({ "task_progress": text }));
        let state = outcome.commit.clone().unwrap_or_default();
        let actual = (
            outcome.result.content,
            outcome.result.is_error,
            state
                .tasks()
                .map(|t| (t.content.clone(), t.status))
                .collect::<Vec<_>>(),
            state.document,
        );
        let expected = (
            String::new(),
            false,
            vec![
                ("Read".to_owned(), Status::Completed),
                ("Shout".to_owned(), Status::Completed),
                ("Fix".to_owned(), Status::Pending),
            ],
            Some(text.trim().to_owned()),
        );
        assert_eq!(actual, expected);
    }

    #[test]
    fn a_blank_checklist_changes_nothing() {
        let before = TodoState::flat(vec![Todo::new("Read")]);
        let outcome = call(&before, &serde_json::json!({ "task_progress": " \n " }));
        let actual = (
            outcome.commit.is_some(),
            outcome.result.is_error,
            outcome.result.content,
        );
        let expected = (false, false, String::new());
        assert_eq!(actual, expected);
    }
}
