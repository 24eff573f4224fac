//! `claude-tasks`: Claude Code's task tools (`TaskCreate`, `TaskUpdate`,
//! `TaskList`, `TaskGet`): one task per call, per-field updates, owners,
//! metadata, and blocks/blocked-by dependencies kept acyclic.
//!
//! The list may be shared by several agents at once (one conversation id
//! for the whole team): every write goes through the service's
//! compare-and-swap, so concurrent updates to different tasks all land.

mod read;
mod repair;
mod view;
mod write;

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Map, Value};

use todokit_app::prelude::*;

pub use read::{TaskGet, TaskList};
pub use write::{TaskCreate, TaskUpdate};

/// The profile's name.
pub const NAME: &str = "claude-tasks";
/// Most tasks on one list.
pub const MAX_TASKS: usize = 200;

todokit_app::prelude::wire_enum! {
    /// The statuses `TaskUpdate` accepts.
    pub enum TaskStatus {
        /// Not started.
        Pending = "pending",
        /// Being worked on.
        InProgress = "in_progress",
        /// Finished.
        Completed = "completed",
        /// Remove the task.
        Deleted = "deleted",
    }
    aliases { "done" => Completed }
}

/// The rules task lists are held to by default: several agents may each
/// have a task in progress.
pub fn rules() -> ListRules {
    ListRules::default()
        .limits(Limits::DEFAULT.max_items(MAX_TASKS))
        .in_progress(InProgressPolicy::Warn)
}

/// The profile with its default rules.
pub fn profile() -> Profile {
    Profile::new(
        NAME,
        "Claude Code's task tools: one task per call, owners and dependencies",
        rules(),
    )
    .with_upstream(Upstream {
        agent: "Claude Code",
        pin: Pin::Capture {
            repository: "DroxKiwi/claude-code-leak-packaged",
            path: "src/tools/TaskUpdateTool/TaskUpdateTool.ts",
            commit: "fb1320d1baf5b77a0a02c15f41efb1dfa9aeff4b",
            date: Some("2026-04-17"),
        },
        ships_in: "Claude Code 2.x task tools (`TaskCreate`, `TaskGet`, `TaskUpdate`, `TaskList`), gated as `TodoWrite` is",
        checked: Some(Checked {
            date: "2026-12-07",
            against: "npm @anthropic-ai/claude-code 2.1.332",
        }),
    })
    .with_ids_shown()
    // Claude Code closes its schemas yet strips, not refuses, what a
    // `TaskCreate` call carries besides its own keys: extra keys are left out.
    .with_leniency(Leniency::STANDARD.unknown_keys(true))
    .with_system_prompt(include_str!(
        "../../descriptions/claude-tasks/system-prompt.md"
    ))
    .with_example(
        "TaskCreate",
        r#"{"subject":"Run the tests","description":"The whole suite","activeForm":"Running the tests"}"#,
    )
    .tool(TaskCreate)
    .tool(TaskUpdate)
    .tool(TaskList)
    .tool(TaskGet)
}

/// The arguments of `TaskCreate`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, JsonSchema)]
// Claude Code closes each of its Task tools' arguments.
#[schemars(extend("additionalProperties" = false))]
#[serde(rename_all = "camelCase")]
pub struct TaskCreateInput {
    /// A short imperative title ("Add the export endpoint").
    pub subject: String,
    /// What needs doing, and how to tell it is done.
    pub description: String,
    /// The title in the present continuous, shown while the task runs.
    #[serde(default)]
    #[schemars(transform = omissible)]
    pub active_form: Option<String>,
    /// Free-form data to attach.
    #[serde(default)]
    #[schemars(transform = omissible)]
    pub metadata: Option<Map<String, Value>>,
}

/// The arguments of `TaskUpdate`; fields left out stay as they are.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, JsonSchema)]
// Claude Code closes each of its Task tools' arguments.
#[schemars(extend("additionalProperties" = false))]
#[serde(rename_all = "camelCase")]
pub struct TaskUpdateInput {
    /// The task to change.
    #[schemars(extend("x-id" = true))]
    pub task_id: String,
    /// Its new status; `deleted` removes it.
    #[serde(default)]
    #[schemars(transform = omissible)]
    pub status: Option<TaskStatus>,
    /// Its new title.
    #[serde(default)]
    #[schemars(transform = omissible)]
    pub subject: Option<String>,
    /// Its new description.
    #[serde(default)]
    #[schemars(transform = omissible)]
    pub description: Option<String>,
    /// Its new present-continuous title.
    #[serde(default)]
    #[schemars(transform = omissible)]
    pub active_form: Option<String>,
    /// The agent that takes it on; `""` releases it.
    #[serde(default)]
    #[schemars(transform = omissible)]
    pub owner: Option<String>,
    /// `true` to take the task from the agent that owns it, on purpose.
    #[serde(default)]
    #[schemars(transform = omissible)]
    pub take_over: Option<bool>,
    /// Keys to merge into its metadata; a key set to null is removed.
    #[serde(default)]
    #[schemars(transform = omissible)]
    pub metadata: Option<Map<String, Value>>,
    /// Ids of tasks that must wait for this one.
    #[serde(default)]
    #[schemars(transform = omissible)]
    #[schemars(extend("x-id" = true))]
    pub add_blocks: Option<Vec<String>>,
    /// Ids of tasks this one must wait for.
    #[serde(default)]
    #[schemars(transform = omissible)]
    #[schemars(extend("x-id" = true))]
    pub add_blocked_by: Option<Vec<String>>,
}

/// The arguments of `TaskList`: none.
#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize, JsonSchema)]
// Claude Code closes each of its Task tools' arguments.
#[schemars(extend("additionalProperties" = false))]
pub struct TaskListInput {}

/// The arguments of `TaskGet`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, JsonSchema)]
// Claude Code closes each of its Task tools' arguments.
#[schemars(extend("additionalProperties" = false))]
#[serde(rename_all = "camelCase")]
pub struct TaskGetInput {
    /// The task to show.
    #[schemars(extend("x-id" = true))]
    pub task_id: String,
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use todokit_app::{Outcome, ToolResult};
    use todokit_domain::{Status, TodoState};

    use crate::test_support::{problem_messages, run_session, run_tool, snapshot_settings};
    use pretty_assertions::assert_eq;

    fn call(tool: &str, state: &TodoState, args: &str) -> Outcome {
        run_tool(&profile(), tool, state, args)
    }

    fn session(calls: &[(&str, &str)]) -> (TodoState, Vec<ToolResult>) {
        run_session(&profile(), calls)
    }

    // Claude Code 2.1.332 refuses a batch call and an `Agent` call in its
    // own words (see `repair`), and stores nothing.
    #[test]
    fn a_batch_or_an_agent_call_is_refused_in_claude_codes_words() {
        let actual: Vec<(Vec<String>, bool)> = [
            r#"{"tasks":[{"subject":"a","description":"b"}]}"#,
            r#"{"prompt":"Review the parser","subagent_type":"general-purpose"}"#,
        ]
        .iter()
        .map(|args| {
            let outcome = call("TaskCreate", &TodoState::new(), args);
            (problem_messages(&outcome), outcome.commit.is_none())
        })
        .collect();
        let expected = vec![
            (vec![format!("(arguments): {}", repair::ONE_PER_CALL)], true),
            (vec![format!("(arguments): {}", repair::NOT_AN_AGENT)], true),
        ];
        assert_eq!(actual, expected);
    }

    // Claude Code 2.1.332 (the upstream fixture's call 8): a finished
    // blocker is no longer shown under "Blocked by:".
    #[test]
    fn task_get_shows_only_the_blockers_still_open() {
        let (_, results) = session(&[
            ("TaskCreate", r#"{"subject":"A","description":"a"}"#),
            ("TaskCreate", r#"{"subject":"B","description":"b"}"#),
            ("TaskUpdate", r#"{"taskId":"2","addBlockedBy":["1"]}"#),
            ("TaskGet", r#"{"taskId":"2"}"#),
            ("TaskUpdate", r#"{"taskId":"1","status":"completed"}"#),
            ("TaskGet", r#"{"taskId":"2"}"#),
        ]);
        let actual = (results[3].content.clone(), results[5].content.clone());
        let expected = (
            "Task #2: B\nStatus: pending\nDescription: b\nBlocked by: #1".to_owned(),
            "Task #2: B\nStatus: pending\nDescription: b".to_owned(),
        );
        assert_eq!(actual, expected);
    }

    const THREE: [(&str, &str); 3] = [
        (
            "TaskCreate",
            r#"{"subject":"Design the schema","description":"Tables and keys"}"#,
        ),
        (
            "TaskCreate",
            r#"{"subject":"Write the migration","description":"Up and down","activeForm":"Writing the migration"}"#,
        ),
        (
            "TaskCreate",
            r#"{"subject":"Ship it","description":"Tag a release"}"#,
        ),
    ];

    fn chained() -> Vec<(&'static str, &'static str)> {
        let mut calls = THREE.to_vec();
        calls.push(("TaskUpdate", r#"{"taskId":"1","addBlocks":["2"]}"#));
        calls.push(("TaskUpdate", r#"{"taskId":"3","addBlockedBy":["2"]}"#));
        calls
    }

    // Golden facts from Claude Code's task tools: repository
    // DroxKiwi/claude-code-leak-packaged at commit
    // fb1320d1baf5b77a0a02c15f41efb1dfa9aeff4b, files
    // src/tools/Task{Create,Update,List,Get}Tool/Task*Tool.ts:
    // TaskCreate answers `Task #<id> created successfully: <subject>`;
    // TaskUpdate `Updated task #<id> <fields>` naming only fields whose value
    // changed (`deleted` for a deletion) and `Task not found` as a plain
    // answer; TaskList `No tasks found`, else `#<id> [<status>] <subject>`
    // with ` (<owner>)` and ` [blocked by #a, #b]` (blockers not completed);
    // TaskGet `Task #<id>: <subject>`, `Status: ...`, `Description: ...`,
    // then `Blocked by: ...` and `Blocks: ...` when there are any.
    #[test]
    fn the_answers_are_claude_codes_word_for_word() {
        let mut calls = chained();
        calls.extend([
            (
                "TaskUpdate",
                r#"{"taskId":"2","owner":"agent-a","status":"in_progress","subject":"Write the migration"}"#,
            ),
            ("TaskList", "{}"),
            ("TaskGet", r#"{"taskId":"2"}"#),
            ("TaskUpdate", r#"{"taskId":"3"}"#),
        ]);
        let (_, results) = session(&calls);
        let n = results.len();
        let actual: Vec<String> = results[n - 4..].iter().map(|r| r.content.clone()).collect();
        let expected = vec![
            "Updated task #2 owner, status".to_owned(),
            "#1 [pending] Design the schema\n#2 [in_progress] Write the migration (agent-a) [blocked by #1]\n\
             #3 [pending] Ship it [blocked by #2]"
                .to_owned(),
            "Task #2: Write the migration\nStatus: in_progress\nDescription: Up and down\nBlocked by: #1\nBlocks: #3"
                .to_owned(),
            "Updated task #3 ".to_owned(),
        ];
        assert_eq!(actual, expected);
    }

    #[test]
    fn a_full_list_says_it_would_grow_past_the_limit() {
        let mut state = TodoState::new();
        for _ in 0..MAX_TASKS {
            let id = state.allocate_id();
            state.push_task(todokit_domain::Todo::new(format!("t{id}")).id(id));
        }
        let outcome = call("TaskCreate", &state, r#"{"subject":"one more","description":""}"#);
        let actual = (problem_messages(&outcome), outcome.commit.is_some());
        let expected = (
            vec!["(task list): the list would hold 201 items; at most 200 are allowed".to_owned()],
            false,
        );
        assert_eq!(actual, expected);
    }

    #[test]
    fn an_empty_list_has_no_tasks() {
        let actual = call("TaskList", &TodoState::new(), "{}").result.content;
        let expected = "No tasks found";
        assert_eq!(actual, expected);
    }

    #[test]
    fn create_hands_out_ids_in_order_and_says_which() {
        let (state, results) = session(&THREE);
        let actual = (
            results.iter().map(|r| r.content.clone()).collect::<Vec<_>>(),
            state
                .tasks()
                .map(|t| t.id.clone().unwrap_or_default())
                .collect::<Vec<_>>(),
        );
        let expected = (
            vec![
                "Task #1 created successfully: Design the schema".to_owned(),
                "Task #2 created successfully: Write the migration".to_owned(),
                "Task #3 created successfully: Ship it".to_owned(),
            ],
            vec!["1".to_owned(), "2".to_owned(), "3".to_owned()],
        );
        assert_eq!(actual, expected);
    }

    #[test]
    fn a_chain_lists_its_open_blockers_until_each_completes() {
        let mut calls = chained();
        calls.push(("TaskList", "{}"));
        calls.push(("TaskUpdate", r#"{"taskId":"1","status":"completed"}"#));
        calls.push(("TaskList", "{}"));
        calls.push(("TaskUpdate", r#"{"taskId":"2","status":"completed"}"#));
        calls.push(("TaskList", "{}"));
        let (_, results) = session(&calls);
        let actual: Vec<String> = [5, 6, 7, 8, 9]
            .iter()
            .map(|i| results[*i].content.clone())
            .collect();
        let expected = vec![
            "#1 [pending] Design the schema\n#2 [pending] Write the migration [blocked by #1]\n#3 [pending] Ship it [blocked by #2]".to_owned(),
            "Updated task #1 status".to_owned(),
            "#1 [completed] Design the schema\n#2 [pending] Write the migration\n#3 [pending] Ship it [blocked by #2]".to_owned(),
            "Updated task #2 status".to_owned(),
            "#1 [completed] Design the schema\n#2 [completed] Write the migration\n#3 [pending] Ship it".to_owned(),
        ];
        assert_eq!(actual, expected);
    }

    #[test]
    fn a_cycle_is_refused_and_nothing_changes() {
        let (state, _) = session(&chained());
        let outcome = call(
            "TaskUpdate",
            &state,
            r#"{"taskId":"1","addBlockedBy":["3"],"owner":"agent-a"}"#,
        );
        let actual = (outcome.result.content, outcome.commit);
        let expected = (
            "TaskUpdate was not applied; the stored list is unchanged.\n\
             - addBlockedBy[0]: task 1 cannot wait on task 3: that would close the cycle 1 -> 3 -> 2 -> 1\n\
             Fix the arguments and call TaskUpdate again."
                .to_owned(),
            None,
        );
        assert_eq!(actual, expected);
    }

    #[test]
    fn an_unknown_task_is_a_plain_answer_and_an_unknown_edge_an_error() {
        let (state, _) = session(&THREE);
        let actual: Vec<(bool, String)> = [
            ("TaskUpdate", r#"{"taskId":"9","status":"completed"}"#),
            ("TaskGet", r#"{"taskId":"7"}"#),
            ("TaskUpdate", r#"{"taskId":"1","addBlocks":["8"]}"#),
        ]
        .iter()
        .map(|(tool, args)| {
            let result = call(tool, &state, args).result;
            let text = match result.is_error {
                true => result.details.value()["error"]["problems"][0]["message"].to_string(),
                false => result.content,
            };
            (result.is_error, text)
        })
        .collect();
        let expected = vec![
            (false, "Task not found".to_owned()),
            (false, "Task not found".to_owned()),
            (true, "\"addBlocks[0]: no task has id \\\"8\\\"\"".to_owned()),
        ];
        assert_eq!(actual, expected);
    }

    #[test]
    fn update_changes_only_the_given_fields_and_merges_metadata() {
        let mut calls = THREE.to_vec();
        calls.push(("TaskUpdate", r#"{"taskId":"2","metadata":{"a":1,"b":2}}"#));
        calls.push((
            "TaskUpdate",
            r#"{"taskId":"2","owner":"agent-b","metadata":{"a":null,"c":3}}"#,
        ));
        let (state, _) = session(&calls);
        let task = state.find("2").cloned().unwrap_or_default();
        let actual = (
            task.content,
            task.owner,
            task.metadata.map(Value::Object),
            task.status,
        );
        let expected = (
            "Write the migration".to_owned(),
            Some("agent-b".to_owned()),
            Some(json!({"b": 2, "c": 3})),
            Status::Pending,
        );
        assert_eq!(actual, expected);
    }

    #[test]
    fn deleted_removes_the_task_and_the_edges_to_it() {
        let mut calls = chained();
        calls.push(("TaskUpdate", r#"{"taskId":"2","status":"deleted"}"#));
        let (state, results) = session(&calls);
        let actual = (
            results.last().map(|r| r.content.clone()),
            state
                .tasks()
                .map(|t| (t.id.clone().unwrap_or_default(), t.blocked_by.clone()))
                .collect::<Vec<_>>(),
        );
        let expected = (
            Some("Updated task #2 deleted".to_owned()),
            vec![("1".to_owned(), vec![]), ("3".to_owned(), vec![])],
        );
        assert_eq!(actual, expected);
    }

    #[test]
    fn every_status_is_accepted() {
        let (state, _) = session(&THREE);
        let actual: Vec<Option<Status>> = ["pending", "in_progress", "completed", "done", "deleted"]
            .iter()
            .map(|s| {
                let outcome = call(
                    "TaskUpdate",
                    &state,
                    &format!(r#"{{"taskId":"1","status":"{s}"}}"#),
                );
                outcome
                    .commit
                    .map(|next| next.find("1").map(|t| t.status).unwrap_or(Status::Abandoned))
            })
            .collect();
        // `pending` on a pending task changes nothing, so nothing is stored.
        let expected = vec![
            None,
            Some(Status::InProgress),
            Some(Status::Completed),
            Some(Status::Completed),
            Some(Status::Abandoned),
        ];
        assert_eq!(actual, expected);
    }

    #[test]
    fn an_empty_subject_is_refused() {
        let outcome = call(
            "TaskCreate",
            &TodoState::new(),
            r#"{"subject":" ","description":""}"#,
        );
        let actual = (outcome.result.is_error, outcome.commit);
        let expected = (true, None);
        assert_eq!(actual, expected);
    }

    #[test]
    fn result_texts() {
        let mut calls = chained();
        calls.push((
            "TaskUpdate",
            r#"{"taskId":"2","owner":"agent-a","status":"in_progress","metadata":{"pr":42}}"#,
        ));
        calls.push(("TaskList", "{}"));
        calls.push(("TaskGet", r#"{"taskId":"2"}"#));
        calls.push(("TaskUpdate", r#"{"taskId":"3"}"#));
        calls.push(("TaskList", r#"{"unused":true}"#));
        let (_, results) = session(&calls);
        snapshot_settings().bind(|| {
            for (i, result) in results.iter().enumerate() {
                insta::assert_snapshot!(
                    format!("result__claude-tasks__{i:02}_{}", calls[i].0),
                    result.content
                );
                insta::assert_json_snapshot!(
                    format!("details__claude-tasks__{i:02}_{}", calls[i].0),
                    result.details.value()
                );
            }
        });
    }
}
