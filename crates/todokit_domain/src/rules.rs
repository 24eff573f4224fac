//! The limits and rules a list must meet. Each profile has its own defaults;
//! hosts may change them.

use derive_setters::Setters;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// What to do when more than one task is in progress at once.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum InProgressPolicy {
    /// Refuse the call, naming the tasks.
    #[default]
    Reject,
    /// Accept the call and report how many there are, so the result text can
    /// nudge the model back to one.
    Warn,
    /// Keep the first in-progress task and put the others back to pending.
    Normalize,
}

/// Size limits for one list. All byte counts are UTF-8 bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema, Setters)]
#[setters(strip_option, into)]
pub struct Limits {
    /// Most tasks a list may hold.
    pub max_items: usize,
    /// Longest task content.
    pub max_content_bytes: usize,
    /// Longest active form.
    pub max_active_form_bytes: usize,
    /// Longest task id.
    pub max_id_bytes: usize,
    /// Longest description, note or owner name.
    pub max_description_bytes: usize,
}

impl Limits {
    /// Generous limits for hosts that set none: enough for any real plan,
    /// small enough that a runaway model cannot fill the store.
    pub const DEFAULT: Limits = Limits {
        max_items: 100,
        max_content_bytes: 1024,
        max_active_form_bytes: 1024,
        max_id_bytes: 128,
        max_description_bytes: 8 * 1024,
    };
}

impl Default for Limits {
    fn default() -> Self {
        Self::DEFAULT
    }
}

/// Everything a full-list write is checked against.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema, Setters)]
#[setters(strip_option, into)]
pub struct ListRules {
    /// Size limits.
    pub limits: Limits,
    /// The one-task-in-progress rule.
    pub in_progress: InProgressPolicy,
    /// Whether every task must carry an id.
    pub require_ids: bool,
}

/// The names a profile's wire format gives to the task fields, so that an
/// error can point at the exact field the model sent (`todos[3].activeForm`,
/// `items[0].text`, `plan[2].step`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Setters)]
#[setters(strip_option)]
pub struct FieldNames {
    /// The key of the array of tasks.
    pub list: &'static str,
    /// The key of a task's content.
    pub content: &'static str,
    /// The key of a task's active form.
    pub active_form: &'static str,
    /// The key of a task's id.
    pub id: &'static str,
    /// The key of a task's status.
    pub status: &'static str,
}

impl FieldNames {
    /// The path of one field of one item: `todos[3].content`.
    pub fn item(&self, index: usize, field: &str) -> String {
        format!("{}[{index}].{field}", self.list)
    }
}

impl Default for FieldNames {
    fn default() -> Self {
        Self {
            list: "todos",
            content: "content",
            active_form: "activeForm",
            id: "id",
            status: "status",
        }
    }
}
