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

impl Limits {
    /// The default limits with at most `max_items` tasks, and content and
    /// active form each at most `max_text_bytes`: the caps most agents'
    /// list writers state.
    pub const fn capped(max_items: usize, max_text_bytes: usize) -> Self {
        Self {
            max_items,
            max_content_bytes: max_text_bytes,
            max_active_form_bytes: max_text_bytes,
            ..Self::DEFAULT
        }
    }
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

impl ListRules {
    /// Todokit's [default limits](Limits::DEFAULT) under the given
    /// one-task-in-progress rule: the rules of a profile whose original
    /// sets no limits of its own.
    pub const fn with_default_limits(in_progress: InProgressPolicy) -> Self {
        Self::new(Limits::DEFAULT, in_progress)
    }

    /// `limits` under the given one-task-in-progress rule, ids optional.
    pub const fn new(limits: Limits, in_progress: InProgressPolicy) -> Self {
        Self {
            limits,
            in_progress,
            require_ids: false,
        }
    }
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
    /// The key of a task's notes when the format writes them (a task sent
    /// without notes then has none); `None` when it has no notes (a
    /// rewrite keeps the notes each task had).
    pub notes: Option<&'static str>,
    /// How an item is named in a path.
    pub items: ItemPath,
}

/// How [`FieldNames::item`] names one item of the list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ItemPath {
    /// A JSON path: `todos[3].content`.
    Indexed,
    /// The item's place in the list (1-based), for lists sent as one text
    /// where JSON paths mean nothing: `todos item 4`.
    Ordinal,
}

impl FieldNames {
    /// Names as most tools spell them: `todos`, `content`, `activeForm`,
    /// `id`, `status`, items as JSON paths.
    pub const DEFAULT: FieldNames = FieldNames {
        list: "todos",
        content: "content",
        active_form: "activeForm",
        id: "id",
        status: "status",
        notes: None,
        items: ItemPath::Indexed,
    };

    /// The path of one field of one item: `todos[3].content`, or
    /// `todos item 4` for [`ItemPath::Ordinal`].
    pub fn item(&self, index: usize, field: &str) -> String {
        match self.items {
            ItemPath::Indexed => format!("{}[{index}].{field}", self.list),
            ItemPath::Ordinal => format!("{} item {}", self.list, index + 1),
        }
    }
}

impl Default for FieldNames {
    fn default() -> Self {
        Self::DEFAULT
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    #[test]
    fn items_are_named_as_json_paths_or_by_their_place() {
        let fixture = [
            FieldNames::DEFAULT,
            FieldNames {
                items: ItemPath::Ordinal,
                ..FieldNames::DEFAULT
            },
        ];
        let actual: Vec<String> = fixture.iter().map(|names| names.item(2, "content")).collect();
        let expected = vec!["todos[2].content".to_owned(), "todos item 3".to_owned()];
        assert_eq!(actual, expected);
    }
}
