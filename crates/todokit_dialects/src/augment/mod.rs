//! `augment`: Augment's task list, four tools over a tree of tasks under
//! one root: `view_tasklist` shows it as markdown lines
//! (`-[/] UUID:… NAME:… DESCRIPTION:…`, one more dash per level),
//! `add_tasks` adds tasks under a parent or after a task, `update_tasks`
//! changes states, names and descriptions by UUID, and
//! `reorganize_tasklist` replaces the whole tree from such markdown, new
//! tasks marked `NEW_UUID`.
//!
//! The root ("Current Task List") is not stored: it is the list itself. A
//! task's name is its content, its description its description, its
//! parent its parent; tasks another profile wrote get ids the first time
//! an Augment tool looks at the list (shown at once, stored with the next
//! write).

mod answers;
mod markdown;
mod tools;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use todokit_app::prelude::*;

pub use markdown::{ParsedTask, parse, render};
pub use tools::{AddTasks, ReorganizeTasklist, UpdateTasks, ViewTasklist};

/// The profile's name.
pub const NAME: &str = "augment";
/// How many hex digits a task's UUID has here.
pub const ID_DIGITS: u32 = 16;
/// The UUID of the root line; a parent given as this is no parent.
pub const ROOT_UUID: &str = "root";
/// The root line's name.
pub const ROOT_NAME: &str = "Current Task List";
/// The root line's description, as Augment words it for a new agent.
pub const ROOT_DESCRIPTION: &str = "Root task for conversation __NEW_AGENT__";
/// The UUID a new task has in `reorganize_tasklist` markdown.
pub const NEW_UUID: &str = "NEW_UUID";

todokit_app::prelude::status_words! {
    /// Augment's four task states.
    pub enum AugmentState {
        /// `[ ]`.
        NotStarted = "NOT_STARTED" => Pending,
        /// `[/]`.
        InProgress = "IN_PROGRESS" => InProgress,
        /// `[-]`.
        Cancelled = "CANCELLED" => Abandoned,
        /// `[x]`.
        Complete = "COMPLETE" => Completed,
    }
    aliases { "COMPLETED" => Complete, "CANCELED" => Cancelled, "PENDING" => NotStarted }
}

impl AugmentState {
    /// The marker between the brackets in the markdown.
    pub fn marker(self) -> char {
        match self {
            AugmentState::NotStarted => ' ',
            AugmentState::InProgress => '/',
            AugmentState::Cancelled => '-',
            AugmentState::Complete => 'x',
        }
    }

    /// The state a marker stands for.
    pub fn of_marker(marker: char) -> Option<Self> {
        match marker {
            ' ' => Some(AugmentState::NotStarted),
            '/' => Some(AugmentState::InProgress),
            '-' => Some(AugmentState::Cancelled),
            'x' | 'X' => Some(AugmentState::Complete),
            _ => None,
        }
    }
}

/// The profile with its default rules.
pub fn profile() -> Profile {
    Profile::new(
        NAME,
        "Augment's task list: a tree of tasks under one root, four tools",
        ListRules::with_default_limits(InProgressPolicy::Warn),
    )
    .with_upstream(Upstream {
        agent: "Augment Code",
        pin: Pin::Package {
            registry: "npm",
            name: "@augmentcode/auggie",
            version: "0.36.0",
            path: "augment.mjs",
            sha256: "4fef6ddbd9083f14e403c1ef9326c8f5a800a383731416b6c438a04d17e8f5ab",
        },
        ships_in: "Augment Code's agent and Auggie (`view_tasklist`, `add_tasks`, `update_tasks`, \
                   `reorganize_tasklist`; closed source, read in Auggie's bundle)",
        checked: Some(Checked {
            date: "2026-12-07",
            against: "0.36.0",
        }),
    })
    .with_system_prompt(include_str!("../../descriptions/augment/system-prompt.md"))
    .with_example(
        AddTasks::NAME,
        r#"{"tasks":[{"name":"Investigate the failing test","description":"Find why the login test fails","state":"IN_PROGRESS"},{"name":"Fix the session check","description":"Make the check accept refreshed tokens"}]}"#,
    )
    .with_ids_shown()
    .tool(ViewTasklist)
    .tool(AddTasks)
    .tool(UpdateTasks)
    .tool(ReorganizeTasklist)
}

/// One task `add_tasks` adds.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, JsonSchema)]
pub struct NewTask {
    /// Its name.
    pub name: String,
    /// What it involves.
    pub description: String,
    /// The UUID of the task it goes under.
    #[serde(default)]
    #[schemars(extend("x-id" = true), transform = todokit_app::prelude::omissible)]
    pub parent_task_id: Option<String>,
    /// The UUID of the task it goes right after.
    #[serde(default)]
    #[schemars(extend("x-id" = true), transform = todokit_app::prelude::omissible)]
    pub after_task_id: Option<String>,
    /// Its state; `NOT_STARTED` when left out.
    #[serde(default)]
    #[schemars(transform = todokit_app::prelude::omissible)]
    pub state: Option<AugmentState>,
}

/// The arguments of `add_tasks`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, JsonSchema)]
pub struct AddTasksInput {
    /// The tasks to add, in order.
    pub tasks: Vec<NewTask>,
}

/// One change `update_tasks` makes.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, JsonSchema)]
pub struct TaskChange {
    /// The UUID of the task to change.
    #[schemars(extend("x-id" = true))]
    pub task_id: String,
    /// Its new state.
    #[serde(default)]
    #[schemars(transform = todokit_app::prelude::omissible)]
    pub state: Option<AugmentState>,
    /// Its new name.
    #[serde(default)]
    #[schemars(transform = todokit_app::prelude::omissible)]
    pub name: Option<String>,
    /// Its new description.
    #[serde(default)]
    #[schemars(transform = todokit_app::prelude::omissible)]
    pub description: Option<String>,
}

/// The arguments of `update_tasks`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, JsonSchema)]
pub struct UpdateTasksInput {
    /// The changes, each naming its task.
    pub tasks: Vec<TaskChange>,
}

/// The arguments of `reorganize_tasklist`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, JsonSchema)]
pub struct ReorganizeInput {
    /// The whole list as `view_tasklist` shows it: exactly one root task,
    /// nesting by leading dashes, new tasks with the UUID `NEW_UUID`.
    pub markdown: String,
}

/// A stored task as Augment describes it, for the details.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TaskView<'a> {
    /// Its UUID.
    pub uuid: &'a str,
    /// Its name.
    pub name: &'a str,
    /// Its description.
    pub description: &'a str,
    /// Its state.
    pub state: AugmentState,
    /// The UUID of the task it sits under (the root's for a top-level one).
    pub parent: &'a str,
}

impl<'a> TaskView<'a> {
    /// `task` as Augment shows it.
    pub fn of(task: &'a Todo) -> Self {
        TaskView {
            uuid: task.id.as_deref().unwrap_or_default(),
            name: &task.content,
            description: task.description.as_deref().unwrap_or_default(),
            state: task.status.into(),
            parent: task.parent.as_deref().unwrap_or(ROOT_UUID),
        }
    }
}

#[cfg(test)]
mod tests;
