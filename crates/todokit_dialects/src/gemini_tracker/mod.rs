//! `gemini-tracker`: Gemini CLI's experimental task tracker, six tools
//! over a graph of tasks: each task has a six-digit hex id, a type (`epic`,
//! `task`, `bug`), a status (`open`, `in_progress`, `blocked`, `closed`),
//! an optional parent and the tasks it depends on. One task per call; a
//! task cannot close before its dependencies, and dependencies never loop.
//!
//! A task's title is its content, its type its kind, its dependencies its
//! blocked-by list and its parent its parent; tasks another profile wrote
//! get their hex ids the first time a tracker tool looks at the list
//! (shown at once, stored with the next write).

mod display;
mod tools;

use schemars::JsonSchema;
use serde::Deserialize;

use todokit_app::prelude::WireEnum;
use todokit_app::prelude::*;

pub use display::{TrackerDisplay, TrackerDisplayItem, return_display, visualize};
pub use tools::{CreateTask, GetTask, LinkTasks, ListTasks, UpdateTask, Visualize};

/// The profile's name.
pub const NAME: &str = "gemini-tracker";
/// How many hex digits an id has.
pub const ID_DIGITS: u32 = 6;

todokit_app::prelude::status_words! {
    /// A tracker task's statuses. Another profile's abandoned task reads
    /// as `closed` (nothing more to do), as Gemini's tracker has no word
    /// for it.
    pub enum TrackerStatus {
        /// Not started.
        Open = "open" => Pending,
        /// Being worked on.
        InProgress = "in_progress" => InProgress,
        /// Waiting on something.
        Blocked = "blocked" => Blocked,
        /// Done.
        Closed = "closed" => Completed,
    }
    aliases { "pending" => Open, "done" => Closed, "completed" => Closed }
}

todokit_app::prelude::wire_enum! {
    /// The sorts of task the tracker knows.
    pub enum TaskType {
        /// A large piece of work with subtasks.
        Epic = "epic",
        /// One piece of work.
        Task = "task",
        /// A defect to fix.
        Bug = "bug",
    }
    aliases {}
}

impl TaskType {
    /// The type a stored task has in the tracker's words: its kind when it
    /// is one of the tracker's, `task` for a task another profile wrote.
    pub fn of(task: &Todo) -> Self {
        Self::SPELLINGS
            .iter()
            .find(|(word, _)| task.kind.as_deref() == Some(*word))
            .map_or(TaskType::Task, |(_, kind)| *kind)
    }

    /// The label `tracker_visualize` shows (`[EPIC]`).
    pub fn label(self) -> &'static str {
        match self {
            TaskType::Epic => "[EPIC]",
            TaskType::Task => "[TASK]",
            TaskType::Bug => "[BUG]",
        }
    }
}

/// The profile with its default rules: several tasks may be in progress.
pub fn profile() -> Profile {
    Profile::new(
        NAME,
        "Gemini CLI's experimental tracker: a graph of epics, tasks and bugs with parents and dependencies",
        ListRules::with_default_limits(InProgressPolicy::Warn),
    )
    .with_upstream(Upstream {
        agent: "Gemini CLI",
        pin: Pin::Source {
            repository: "google-gemini/gemini-cli",
            path: "packages/core/src/tools/trackerTools.ts",
            commit: "5411f113cafae26161b4969b0237b8e1e024e2c2",
            date: Some("2026-08-21"),
            read_through: None,
        },
        ships_in: "Gemini CLI with the experimental `tracker` setting on (the `tracker_*` tools replace `write_todos`)",
        checked: Some(Checked {
            date: "2026-12-07",
            against: "npm @google/gemini-cli 0.61.0",
        }),
    })
    .with_ids_shown()
    .with_system_prompt(include_str!("../../descriptions/gemini-tracker/system-prompt.md"))
    .with_example(
        "tracker_create_task",
        r#"{"title":"Add the export command","description":"Write the list as markdown to a file or stdout","type":"task"}"#,
    )
    .tool(CreateTask)
    .tool(UpdateTask)
    .tool(GetTask)
    .tool(ListTasks)
    .tool(LinkTasks)
    .tool(Visualize)
}

/// The arguments of `tracker_create_task`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, JsonSchema)]
pub struct CreateTaskInput {
    /// A short title that still says what the task is for.
    pub title: String,
    /// What the task involves, in more detail than the title.
    pub description: String,
    /// What sort of task it is.
    #[serde(rename = "type")]
    pub kind: TaskType,
    /// The id of the task this one belongs under, if any.
    #[serde(rename = "parentId", default)]
    #[schemars(transform = todokit_app::prelude::omissible)]
    #[schemars(extend("x-id" = true))]
    pub parent_id: Option<String>,
    /// Ids of the tasks this one depends on, if any.
    #[serde(default)]
    #[schemars(transform = todokit_app::prelude::omissible)]
    #[schemars(extend("x-id" = true))]
    pub dependencies: Option<Vec<String>>,
}

/// The arguments of `tracker_update_task`; what is left out stays.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, JsonSchema)]
pub struct UpdateTaskInput {
    /// The six-digit hex id of the task to change.
    #[schemars(extend("x-id" = true))]
    pub id: String,
    /// Its new title.
    #[serde(default)]
    #[schemars(transform = todokit_app::prelude::omissible)]
    pub title: Option<String>,
    /// Its new description.
    #[serde(default)]
    #[schemars(transform = todokit_app::prelude::omissible)]
    pub description: Option<String>,
    /// Its new status.
    #[serde(default)]
    #[schemars(transform = todokit_app::prelude::omissible)]
    pub status: Option<TrackerStatus>,
    /// The ids it depends on from now on (replacing the old ones).
    #[serde(default)]
    #[schemars(transform = todokit_app::prelude::omissible)]
    #[schemars(extend("x-id" = true))]
    pub dependencies: Option<Vec<String>>,
}

/// The arguments of `tracker_get_task`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, JsonSchema)]
pub struct GetTaskInput {
    /// The six-digit hex id of the task to show.
    #[schemars(extend("x-id" = true))]
    pub id: String,
}

/// The arguments of `tracker_list_tasks`: filters, all optional.
#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize, JsonSchema)]
pub struct ListTasksInput {
    /// Only tasks with this status.
    #[serde(default)]
    #[schemars(transform = todokit_app::prelude::omissible)]
    pub status: Option<TrackerStatus>,
    /// Only tasks of this type.
    #[serde(rename = "type", default)]
    #[schemars(transform = todokit_app::prelude::omissible)]
    pub kind: Option<TaskType>,
    /// Only the subtasks of this task.
    #[serde(rename = "parentId", default)]
    #[schemars(transform = todokit_app::prelude::omissible)]
    #[schemars(extend("x-id" = true))]
    pub parent_id: Option<String>,
}

/// The arguments of `tracker_add_dependency`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct LinkTasksInput {
    /// The task that depends on the other.
    #[schemars(extend("x-id" = true))]
    pub task_id: String,
    /// The task it depends on.
    #[schemars(extend("x-id" = true))]
    pub dependency_id: String,
}

#[cfg(test)]
mod tests;
