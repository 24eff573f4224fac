//! `openhands`: OpenHands' `task_tracker`, one tool with two commands.
//! `view` shows the stored list as a numbered markdown list; `plan`
//! replaces it whole with `{title, notes, status}` tasks (statuses `todo`,
//! `in_progress`, `done`). Nothing limits how many tasks are in progress.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use todokit_app::prelude::*;

/// The profile's name.
pub const NAME: &str = "openhands";

/// OpenHands' answer to `view` when nothing is stored.
pub const NO_TASK_LIST: &str = "No task list found. Use the \"plan\" command to create one.";
/// The heading of the list `view` shows.
pub const LIST_HEADING: &str = "# Task List";

const FIELDS: FieldNames = FieldNames {
    list: "task_list",
    content: "title",
    notes: Some("notes"),
    ..FieldNames::DEFAULT
};

todokit_app::prelude::wire_enum! {
    /// What a `task_tracker` call does.
    pub enum TrackerCommand {
        /// Show the stored list.
        View = "view",
        /// Replace the stored list.
        Plan = "plan",
    }
    aliases {}
}

impl Default for TrackerCommand {
    /// The original's default when `command` is left out.
    fn default() -> Self {
        TrackerCommand::View
    }
}

todokit_app::prelude::status_words! {
    /// The statuses of a tracked task.
    pub enum TrackerStatus {
        /// Not started.
        Todo = "todo" => Pending,
        /// Being worked on.
        InProgress = "in_progress" => InProgress,
        /// Finished.
        Done = "done" => Completed,
    }
    // openhands-tools 1.58.2 (`TaskItem._normalize_status`): these names,
    // in any case and with `-` or a space for `_`.
    aliases { "pending" => Todo, "to_do" => Todo, "completed" => Done, "complete" => Done }
}

impl Default for TrackerStatus {
    /// The original's default when `status` is left out.
    fn default() -> Self {
        TrackerStatus::Todo
    }
}

/// The profile with its default rules.
pub fn profile() -> Profile {
    Profile::new(
        NAME,
        "OpenHands' task_tracker: `view` the list, `plan` it whole",
        ListRules::with_default_limits(InProgressPolicy::Warn),
    )
    .with_upstream(Upstream {
        agent: "OpenHands",
        pin: Pin::Package {
            registry: "pypi",
            name: "openhands-tools",
            version: "1.58.2",
            path: "openhands/tools/task_tracker/definition.py",
            sha256: "d163d9c8346ab262539deb7ae5750cd8cfae3af90cd915b9980428aba421fcb0",
        },
        ships_in: "OpenHands agents built on the software-agent-sdk (`task_tracker`; openhands-sdk adds `summary` to every tool)",
        checked: Some(Checked {
            date: "2026-12-07",
            against: "1.58.2",
        }),
    })
    .with_system_prompt(include_str!("../descriptions/openhands/system-prompt.md"))
    .with_example(
        TaskTracker::NAME,
        r#"{"command":"plan","task_list":[{"title":"Run the tests","status":"in_progress"},{"title":"Fix what fails","notes":"Start with the parser."}]}"#,
    )
    .with_leniency(Leniency::STANDARD.enum_spelling(true))
    .tool(Commands(TaskTracker))
}

/// One task as `plan` sends it.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, JsonSchema)]
pub struct TrackedTask {
    /// A short name for the task.
    pub title: String,
    /// Details worth keeping with the task; empty for none.
    #[serde(default)]
    pub notes: String,
    /// Where the task stands: `todo` unless said otherwise.
    #[serde(default)]
    pub status: TrackerStatus,
}

/// A stored task as `task_tracker` writes it in the details.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TrackedTaskView<'a> {
    /// A short name for the task.
    pub title: &'a str,
    /// Its notes, one per line.
    pub notes: String,
    /// Where the task stands.
    pub status: TrackerStatus,
}

/// The arguments of `task_tracker`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
// pydantic's extra="forbid" refuses unknown keys, but the schema the SDK
// sends says nothing of it.
#[schemars(transform = silently_closed)]
pub struct TaskTrackerInput {
    /// A short line (ten words or so) on what this call does. Not stored.
    // openhands-sdk 1.58.2 adds this to every tool's arguments
    // (`_create_action_type_with_summary` in `openhands/sdk/tool/tool.py`),
    // first, for the user interface; a call that carries it is the norm.
    #[serde(default)]
    #[schemars(transform = omissible)]
    pub summary: Option<String>,
    /// `view` to see the stored list (the default), `plan` to replace it with `task_list`.
    #[serde(default)]
    pub command: TrackerCommand,
    /// The whole new list, for `plan`: every task to keep, in order.
    #[serde(default)]
    pub task_list: Vec<TrackedTask>,
}

/// The `task_tracker` tool.
#[derive(Debug, Clone, Copy, Default)]
pub struct TaskTracker;

impl CommandTool for TaskTracker {
    type Input = TaskTrackerInput;
    type Command = TrackerCommand;
    const NAME: &'static str = "task_tracker";
    const DESCRIPTION: &'static str = include_str!("../descriptions/openhands/task_tracker.md");

    fn command(input: &TaskTrackerInput) -> TrackerCommand {
        input.command
    }

    fn metadata(command: TrackerCommand) -> ToolMetadata {
        match command {
            TrackerCommand::View => ToolMetadata::LIST_READER,
            TrackerCommand::Plan => ToolMetadata::LIST_WRITER,
        }
    }

    fn run(
        &self,
        command: TrackerCommand,
        input: TaskTrackerInput,
        ctx: &CallContext<'_>,
    ) -> Result<Outcome, ToolError> {
        match command {
            TrackerCommand::View => read_list::<Plan>(view(ctx.state), ctx.state),
            TrackerCommand::Plan => write_list::<Plan>(Self::NAME, input, ctx),
        }
    }
}

/// The `plan` command: the whole list, replaced.
#[derive(Debug, Clone, Copy, Default)]
pub struct Plan;

impl ListWriter for Plan {
    type Input = TaskTrackerInput;
    type Item<'a> = TrackedTaskView<'a>;
    type Fields = ();
    const FIELDS: FieldNames = FIELDS;

    fn todos(input: &mut TaskTrackerInput) -> Result<Vec<Todo>, ToolError> {
        Ok(input
            .task_list
            .iter_mut()
            .map(|task| {
                let notes = match std::mem::take(&mut task.notes) {
                    notes if notes.is_empty() => Vec::new(),
                    notes => vec![notes],
                };
                Todo::new(std::mem::take(&mut task.title))
                    .status(task.status)
                    .notes(notes)
            })
            .collect())
    }

    fn item(todo: &Todo, _position: usize) -> TrackedTaskView<'_> {
        TrackedTaskView {
            title: &todo.content,
            notes: todo.notes.join("\n"),
            status: todo.status.into(),
        }
    }

    fn text(op: &ToolOperation<'_, TaskTrackerInput>) -> String {
        format!(
            "Task list has been updated with {} item(s).",
            op.after.tasks().count()
        )
    }

    fn fields(_op: &ToolOperation<'_, TaskTrackerInput>) {}
}

/// What `view` shows: [`LIST_HEADING`], then each task numbered with its
/// status mark and its notes indented below it; [`NO_TASK_LIST`] when
/// nothing is stored.
fn view(state: &TodoState) -> String {
    if state.is_empty() {
        return NO_TASK_LIST.to_owned();
    }
    let mut out = format!("{LIST_HEADING}\n\n");
    for (i, task) in state.tasks().enumerate() {
        let mark = match TrackerStatus::from(task.status) {
            TrackerStatus::Todo => '⏳',
            TrackerStatus::InProgress => '🔄',
            TrackerStatus::Done => '✅',
        };
        out.push_str(&format!("{}. {mark} {}\n", i + 1, task.content));
        for note in &task.notes {
            out.push_str(&format!("   {note}\n"));
        }
        out.push('\n');
    }
    out.trim().to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::{ProfileCase, snapshot_settings};
    use pretty_assertions::assert_eq;

    fn case() -> ProfileCase {
        ProfileCase::new(profile())
    }

    const PLANNED: &str = r#"{"command":"plan","task_list":[{"title":"Read the issue","status":"done"},{"title":"Write the fix","notes":"Start with the parser.","status":"in_progress"},{"title":"Add a test"}]}"#;

    // Golden facts from OpenHands/software-agent-sdk,
    // openhands-tools/openhands/tools/task_tracker/definition.py at commit
    // 611629e6999ad398dc49c761721eefe18d5e6bd9 (2026-08-22; the file last
    // changed in 824538de513debd99a7daf7e793767588c08c024): `plan` answers
    // "Task list has been updated with N item(s)."; `view` of an empty list
    // answers "No task list found. Use the \"plan\" command to create one.";
    // otherwise "# Task List", a blank line, then per task
    // `N. <mark> title`, its notes on the next line indented by three
    // spaces, a blank line, the whole trimmed; marks ⏳ todo, 🔄
    // in_progress, ✅ done.
    #[test]
    fn the_answers_are_openhands_word_for_word() {
        let case = case();
        let empty_view = case.call("task_tracker", r#"{"command":"view"}"#);
        let planned = case.call("task_tracker", PLANNED);
        let stored = planned.commit.clone().unwrap_or_default();
        let viewed = case.call_on(&stored, "task_tracker", r#"{}"#);
        let actual = [
            empty_view.result.content,
            planned.result.content,
            viewed.result.content,
        ];
        let expected = [
            "No task list found. Use the \"plan\" command to create one.".to_owned(),
            "Task list has been updated with 3 item(s).".to_owned(),
            "# Task List\n\n1. ✅ Read the issue\n\n2. 🔄 Write the fix\n   Start with the parser.\n\n3. ⏳ Add a test"
                .to_owned(),
        ];
        assert_eq!(actual, expected);
    }

    #[test]
    fn plan_stores_titles_statuses_and_notes_and_view_stores_nothing() {
        let case = case();
        let planned = case.call("task_tracker", PLANNED);
        let viewed = case.call(
            "task_tracker",
            r#"{"command":"view","task_list":[{"title":"ignored"}]}"#,
        );
        let actual = (
            ProfileCase::stored(&planned),
            viewed.commit,
            planned.commit.map(|s| s.tasks().nth(1).map(|t| t.notes.clone())),
        );
        let expected = (
            Some(vec![
                ("Read the issue".to_owned(), Status::Completed),
                ("Write the fix".to_owned(), Status::InProgress),
                ("Add a test".to_owned(), Status::Pending),
            ]),
            None,
            Some(Some(vec!["Start with the parser.".to_owned()])),
        );
        assert_eq!(actual, expected);
    }

    #[test]
    fn a_plan_without_a_task_list_empties_the_list_as_the_original_does() {
        let case = case();
        let stored = case.call("task_tracker", PLANNED).commit.unwrap_or_default();
        let cleared = case.call_on(&stored, "task_tracker", r#"{"command":"plan"}"#);
        let actual = (ProfileCase::stored(&cleared), cleared.result.content);
        let expected = (
            Some(Vec::new()),
            "Task list has been updated with 0 item(s).".to_owned(),
        );
        assert_eq!(actual, expected);
    }

    #[test]
    fn view_only_reads_and_plan_writes() {
        let fixture = profile();
        let tool = fixture.find("task_tracker").map(|t| (t.commands(), t.metadata()));
        let expected = Some((
            vec![
                ("view", ToolMetadata::LIST_READER),
                ("plan", ToolMetadata::LIST_WRITER),
            ],
            ToolMetadata::LIST_WRITER,
        ));
        assert_eq!(tool, expected);
    }

    #[test]
    fn an_unknown_command_or_field_is_refused_with_the_allowed_values() {
        let case = case();
        let actual = [
            case.problems("task_tracker", r#"{"command":"delete"}"#),
            case.problems("task_tracker", r#"{"command":"plan","tasks":[]}"#),
        ];
        let expected = [
            vec!["command: got \"delete\"; allowed: `view`, `plan`".to_owned()],
            vec!["(arguments): unknown field `tasks`; allowed: `summary`, `command`, `task_list`".to_owned()],
        ];
        assert_eq!(actual, expected);
    }

    // openhands-sdk 1.58.2 sends every tool a `summary` (and pydantic
    // forbids any other extra key); openhands-tools 1.58.2's
    // `TaskItem._normalize_status` lower-cases a status, reads `-` and a
    // space as `_`, and takes `pending`/`to_do` for `todo` and
    // `completed`/`complete` for `done`.
    #[test]
    fn a_summary_and_the_status_names_openhands_normalises_are_taken() {
        let case = case();
        let outcome = case.call(
            "task_tracker",
            r#"{"summary":"Plan the parser work","command":"plan","task_list":[
                {"title":"a","status":"To Do"},{"title":"b","status":"In-Progress"},
                {"title":"c","status":"COMPLETE"},{"title":"d","status":"to-do"},{"title":"e","status":"Done"}]}"#,
        );
        let actual = (outcome.result.is_error, ProfileCase::stored(&outcome));
        let expected = (
            false,
            Some(vec![
                ("a".to_owned(), Status::Pending),
                ("b".to_owned(), Status::InProgress),
                ("c".to_owned(), Status::Completed),
                ("d".to_owned(), Status::Pending),
                ("e".to_owned(), Status::Completed),
            ]),
        );
        assert_eq!(actual, expected);
    }

    #[test]
    fn result_texts() {
        let case = case();
        let stored = case.call("task_tracker", PLANNED).commit.unwrap_or_default();
        let cases = [
            ("view_empty", TodoState::new(), r#"{"command":"view"}"#),
            ("plan", TodoState::new(), PLANNED),
            ("view", stored, r#"{"command":"view"}"#),
            (
                "refused",
                TodoState::new(),
                r#"{"command":"plan","task_list":[{"status":"done"}]}"#,
            ),
        ];
        snapshot_settings().bind(|| {
            for (name, state, args) in cases {
                let result = case.call_on(&state, "task_tracker", args).result;
                insta::assert_snapshot!(format!("result__openhands__{name}"), result.content);
                insta::assert_json_snapshot!(format!("details__openhands__{name}"), result.details.value());
            }
        });
    }
}
