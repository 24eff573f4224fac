//! `cline-team`: the shared task board of Cline's agent teams, one tool,
//! `team_task`, whose `action` says what a call does: `create` a task (a
//! title, a description, the tasks it depends on, an assignee), `list`
//! them (by status or assignee), `claim` one (it must have no unfinished
//! dependency), `complete` one with a summary, or `block` one with a
//! reason. Every answer is a JSON object, as Cline's tools answer.
//!
//! Tasks are `task_0001`, `task_0002`, … from the list's own counter; the
//! assignee is the task's owner, its dependencies its blocked-by list, and
//! the summary and creator are kept in its metadata. Cline's agent that
//! makes a call is its requester (`lead` for a team's lead): todokit's
//! calls carry no agent, so a profile is made for one requester
//! ([`profile_as`]); the registry's is the lead's.

mod board;
mod zod;

use std::borrow::Cow;

use schemars::JsonSchema;
use serde::{Deserialize, Deserializer};
use serde_json::{Map, Value};

use todokit_app::prelude::*;

pub use board::TeamTask;

/// The profile's name.
pub const NAME: &str = "cline-team";
/// The requester of the registry's profile: Cline's id for a team's lead.
pub const LEAD: &str = "lead";
/// Most tasks on one board.
pub const MAX_TASKS: usize = 200;

todokit_app::prelude::wire_enum! {
    /// What a `team_task` call does.
    pub enum Action {
        /// Add a task.
        Create = "create",
        /// Show the tasks.
        List = "list",
        /// Take a task on.
        Claim = "claim",
        /// Finish a task.
        Complete = "complete",
        /// Mark a task blocked.
        Block = "block",
    }
    aliases {}
}

todokit_app::prelude::status_words! {
    /// A board task's statuses; another profile's abandoned task reads as
    /// `completed` (nothing more to do), as the board has no word for it.
    pub enum BoardStatus {
        /// Not taken on yet.
        Pending = "pending" => Pending,
        /// Someone works on it.
        InProgress = "in_progress" => InProgress,
        /// Waiting on something.
        Blocked = "blocked" => Blocked,
        /// Done.
        Completed = "completed" => Completed,
    }
    aliases {}
}

/// The profile with its default rules, as the lead makes its calls.
pub fn profile() -> Profile {
    profile_as(LEAD)
}

/// The profile whose calls are made by the agent `requester`: the one a
/// `claim` assigns and a `create` names as the creator.
pub fn profile_as(requester: &str) -> Profile {
    Profile::new(
        NAME,
        "Cline's team task board: one team_task tool to create, list, claim, complete and block tasks",
        ListRules::default()
            .limits(Limits::DEFAULT.max_items(MAX_TASKS))
            .in_progress(InProgressPolicy::Warn),
    )
    .with_upstream(Upstream {
        agent: "Cline",
        pin: Pin::Package {
            registry: "npm",
            name: "@cline/core",
            version: "0.0.86",
            path: "dist/index.js",
            sha256: "9710673ae60595b9e5b079d8ff6d7abb929e5b087420c5c2f86d3915a15e34d4",
        },
        ships_in: "Cline's CLI 3.0.65 and later, whose agent teams are on unless turned off (`team_task` among \
                   the `team_*` tools); the CLI bundles this package",
        checked: Some(Checked {
            date: "2026-12-07",
            against: "npm @cline/cli-linux-x64 3.0.65",
        }),
    })
    .with_ids_shown()
    // Cline's zod schema strips, not refuses, keys it does not list.
    .with_leniency(Leniency::STANDARD.unknown_keys(true))
    .with_system_prompt(include_str!("../../descriptions/cline-team/system-prompt.md"))
    .with_example(
        TeamTask::NAME,
        r#"{"action":"create","title":"Write the parser","description":"A recursive descent parser for the query language"}"#,
    )
    .tool(TeamTask::as_agent(requester))
}

/// The arguments of `team_task` as its schema states them: every field
/// but `action` optional, each for the actions that read it.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, JsonSchema)]
// Cline's schema closes the arguments (zod's JSON Schema of an object).
#[schemars(extend("additionalProperties" = false))]
#[serde(rename_all = "camelCase")]
pub struct TeamTaskArgs {
    /// What the call does.
    pub action: Action,
    /// `create`: the task's title.
    #[serde(default)]
    #[schemars(transform = omissible, length(min = 1))]
    pub title: Option<String>,
    /// `create`: what the task involves.
    #[serde(default)]
    #[schemars(transform = omissible, length(min = 1))]
    pub description: Option<String>,
    /// `create`: the tasks that must be completed before this one is
    /// claimed.
    #[serde(default)]
    #[schemars(transform = omissible)]
    #[schemars(extend("x-id" = true))]
    pub depends_on: Option<Vec<String>>,
    /// `create`: who takes the task on at once; `list`: only theirs.
    #[serde(default)]
    #[schemars(transform = omissible, length(min = 1))]
    pub assignee: Option<String>,
    /// `list`: only the tasks with this status.
    #[serde(default)]
    #[schemars(transform = omissible)]
    pub status: Option<BoardStatus>,
    /// `claim`, `complete`, `block`: the task.
    #[serde(default)]
    #[schemars(transform = omissible)]
    #[schemars(extend("x-id" = true))]
    pub task_id: Option<String>,
    /// `complete`: what was done.
    #[serde(default)]
    #[schemars(transform = omissible, length(min = 1))]
    pub summary: Option<String>,
    /// `block`: what the task waits for.
    #[serde(default)]
    #[schemars(transform = omissible, length(min = 1))]
    pub reason: Option<String>,
}

/// A `team_task` call: its arguments, and the keys it was sent with in
/// their order (Cline names the fields a `create` ignores in the order
/// the call sent them, and checks which fields an action needs on the
/// call as sent).
#[derive(Debug, Clone, PartialEq)]
pub struct TeamTaskInput {
    /// The arguments.
    pub args: TeamTaskArgs,
    /// The call's own object, keys in the order sent.
    pub sent: Map<String, Value>,
}

impl<'de> Deserialize<'de> for TeamTaskInput {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        // Read once as an object, then into the arguments, with no copy.
        let sent = Value::Object(Map::deserialize(deserializer)?);
        let args = TeamTaskArgs::deserialize(&sent).map_err(serde::de::Error::custom)?;
        match sent {
            Value::Object(sent) => Ok(Self { args, sent }),
            _ => Err(serde::de::Error::custom("the arguments are not an object")),
        }
    }
}

impl JsonSchema for TeamTaskInput {
    fn schema_name() -> Cow<'static, str> {
        TeamTaskArgs::schema_name()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        TeamTaskArgs::json_schema(generator)
    }
}

#[cfg(test)]
mod tests;
