//! [`TodoPatch`]: a typed change to some fields of one todo, checked
//! against the [`Limits`] and applied by the domain, so every tool that
//! updates a todo field by field does it the same way.

use derive_setters::Setters;
use serde_json::{Map, Value};

use crate::error::Violations;
use crate::rules::Limits;
use crate::status::{Priority, Status};
use crate::time::Timestamp;
use crate::todo::Todo;
use crate::validate::{Presence, check_text_with};

/// A field a [`TodoPatch`] can change.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TodoField {
    /// [`Todo::content`].
    Content,
    /// [`Todo::description`].
    Description,
    /// [`Todo::active_form`].
    ActiveForm,
    /// [`Todo::owner`].
    Owner,
    /// [`Todo::metadata`].
    Metadata,
    /// [`Todo::status`].
    Status,
    /// [`Todo::priority`].
    Priority,
}

impl TodoField {
    /// The field's name in most wire formats (`content`, `activeForm`, ...).
    pub fn wire_name(self) -> &'static str {
        match self {
            TodoField::Content => "content",
            TodoField::Description => "description",
            TodoField::ActiveForm => "activeForm",
            TodoField::Owner => "owner",
            TodoField::Metadata => "metadata",
            TodoField::Status => "status",
            TodoField::Priority => "priority",
        }
    }
}

/// A change to some fields of one todo; a field left `None` stays as it is.
#[derive(Debug, Clone, PartialEq, Default, Setters)]
#[setters(strip_option, into)]
pub struct TodoPatch {
    /// New content.
    pub content: Option<String>,
    /// New description.
    pub description: Option<String>,
    /// New active form.
    pub active_form: Option<String>,
    /// New owner; an empty one releases the todo (no owner).
    pub owner: Option<String>,
    /// Keys merged into the metadata; a key set to `null` is removed.
    pub metadata: Option<Map<String, Value>>,
    /// New status; the change time is stamped when it really changes.
    pub status: Option<Status>,
    /// New priority.
    pub priority: Option<Priority>,
}

impl TodoPatch {
    /// An empty patch.
    pub fn new() -> Self {
        Self::default()
    }

    /// Records every text that breaks `limits` under the wire name `field`
    /// gives it: content must not be blank; owners share the description's
    /// limit.
    pub fn check(&self, limits: &Limits, field: impl Fn(TodoField) -> String, problems: &mut Violations) {
        let texts = [
            (
                &self.content,
                TodoField::Content,
                limits.max_content_bytes,
                Presence::Required,
            ),
            (
                &self.description,
                TodoField::Description,
                limits.max_description_bytes,
                Presence::Optional,
            ),
            (
                &self.active_form,
                TodoField::ActiveForm,
                limits.max_active_form_bytes,
                Presence::Optional,
            ),
            (
                &self.owner,
                TodoField::Owner,
                limits.max_description_bytes,
                Presence::Optional,
            ),
        ];
        for (text, name, max, presence) in texts {
            if let Some(text) = text {
                check_text_with(text, max, presence, || field(name), problems);
            }
        }
    }

    /// Applies the patch to `todo` at `now`; returns the fields it named,
    /// in a fixed order (content, description, active form, owner,
    /// metadata, status, priority).
    pub fn apply(self, todo: &mut Todo, now: Timestamp) -> Vec<TodoField> {
        let mut named = Vec::new();
        if let Some(content) = self.content {
            todo.content = content;
            named.push(TodoField::Content);
        }
        if let Some(description) = self.description {
            todo.description = Some(description);
            named.push(TodoField::Description);
        }
        if let Some(active_form) = self.active_form {
            todo.active_form = Some(active_form);
            named.push(TodoField::ActiveForm);
        }
        if let Some(owner) = self.owner {
            todo.owner = Some(owner).filter(|o| !o.is_empty());
            named.push(TodoField::Owner);
        }
        if let Some(merge) = self.metadata {
            let metadata = todo.metadata.get_or_insert_with(Map::new);
            for (key, value) in merge {
                if value.is_null() {
                    metadata.remove(&key);
                } else {
                    metadata.insert(key, value);
                }
            }
            if metadata.is_empty() {
                todo.metadata = None;
            }
            named.push(TodoField::Metadata);
        }
        if let Some(status) = self.status {
            todo.set_status(status, now);
            named.push(TodoField::Status);
        }
        if let Some(priority) = self.priority {
            todo.priority = Some(priority);
            named.push(TodoField::Priority);
        }
        named
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::{Violation, Violations};
    use pretty_assertions::assert_eq;
    use serde_json::json;

    #[test]
    fn applying_sets_what_it_names_and_reports_it_in_order() {
        let mut fixture = Todo::new("a")
            .owner("me")
            .metadata(
                json!({"keep": 1, "drop": 2})
                    .as_object()
                    .cloned()
                    .unwrap_or_default(),
            )
            .status_changed_at(1u64);
        let patch = TodoPatch::new()
            .status(Status::Completed)
            .owner("")
            .metadata(
                json!({"drop": null, "add": 3})
                    .as_object()
                    .cloned()
                    .unwrap_or_default(),
            )
            .content("b");
        let named = patch.apply(&mut fixture, 9);
        let actual = (named, fixture);
        let expected = (
            vec![
                TodoField::Content,
                TodoField::Owner,
                TodoField::Metadata,
                TodoField::Status,
            ],
            Todo::new("b")
                .metadata(
                    json!({"keep": 1, "add": 3})
                        .as_object()
                        .cloned()
                        .unwrap_or_default(),
                )
                .status(Status::Completed)
                .status_changed_at(9u64),
        );
        assert_eq!(actual, expected);
    }

    #[test]
    fn checking_names_each_field_the_way_the_caller_says() {
        let fixture = TodoPatch::new().content(" ").owner("x".repeat(3));
        let limits = Limits::DEFAULT.max_description_bytes(2usize);
        let mut actual = Violations::default();
        fixture.check(&limits, |f| format!("{f:?}"), &mut actual);
        let expected = Violations {
            list: vec![
                Violation::Empty {
                    field: "Content".into(),
                },
                Violation::TooLong {
                    field: "Owner".into(),
                    bytes: 3,
                    max: 2,
                },
            ],
            omitted: 0,
        };
        assert_eq!(actual, expected);
    }
}
