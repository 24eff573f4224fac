//! Writing the fields a stored value kept from a newer todokit or another
//! tool (`foreign`) beside the ones this version knows, never over them:
//! a foreign entry under a known field's name (a host can put one in the
//! public map) is left out, so no written object holds a key twice.

use serde::Serializer;
use serde::ser::SerializeMap;
use serde_json::{Map, Value};

/// The fields [`crate::todo::Todo`] writes itself.
pub const TODO_FIELDS: &[&str] = &[
    "content",
    "id",
    "active_form",
    "status",
    "priority",
    "notes",
    "description",
    "owner",
    "metadata",
    "blocked_by",
    "parent",
    "kind",
    "blocked_reason",
    "created_at",
    "status_changed_at",
];

/// The fields [`crate::state::Phase`] writes itself.
pub const PHASE_FIELDS: &[&str] = &["name", "tasks"];

/// The fields [`crate::state::TodoState`] writes itself.
pub const STATE_FIELDS: &[&str] = &[
    "version",
    "phases",
    "next_id",
    "notices",
    "profile",
    "explanation",
    "document",
    "turn",
];

fn without<S: Serializer>(
    known: &[&str],
    map: &Map<String, Value>,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    let mut out = serializer.serialize_map(None)?;
    for (key, value) in map.iter().filter(|(key, _)| !known.contains(&key.as_str())) {
        out.serialize_entry(key, value)?;
    }
    out.end()
}

/// A todo's foreign fields, those with a known name left out.
pub(crate) fn todo<S: Serializer>(map: &Map<String, Value>, serializer: S) -> Result<S::Ok, S::Error> {
    without(TODO_FIELDS, map, serializer)
}

/// A phase's foreign fields, those with a known name left out.
pub(crate) fn phase<S: Serializer>(map: &Map<String, Value>, serializer: S) -> Result<S::Ok, S::Error> {
    without(PHASE_FIELDS, map, serializer)
}

/// A list's foreign fields, those with a known name left out.
pub(crate) fn state<S: Serializer>(map: &Map<String, Value>, serializer: S) -> Result<S::Ok, S::Error> {
    without(STATE_FIELDS, map, serializer)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::{Phase, TodoState};
    use crate::todo::Todo;
    use pretty_assertions::assert_eq;
    use serde_json::json;

    fn properties<T: schemars::JsonSchema>() -> Vec<String> {
        let schema = serde_json::to_value(schemars::schema_for!(T)).unwrap_or_default();
        let mut names: Vec<String> = schema["properties"]
            .as_object()
            .map(|p| p.keys().cloned().collect())
            .unwrap_or_default();
        names.sort();
        names
    }

    fn sorted(names: &[&str]) -> Vec<String> {
        let mut names: Vec<String> = names.iter().map(|n| (*n).to_owned()).collect();
        names.sort();
        names
    }

    #[test]
    fn the_known_field_lists_are_the_types_own_fields() {
        let actual = (
            properties::<Todo>(),
            properties::<Phase>(),
            properties::<TodoState>(),
        );
        let expected = (sorted(TODO_FIELDS), sorted(PHASE_FIELDS), sorted(STATE_FIELDS));
        assert_eq!(actual, expected);
    }

    #[test]
    fn a_foreign_entry_under_a_known_name_is_never_written_twice() {
        let mut todo = Todo::new("real");
        todo.foreign.insert("content".to_owned(), json!("shadow"));
        todo.foreign.insert("x_extra".to_owned(), json!(1));
        let mut state = TodoState::flat(vec![todo]);
        state.foreign.insert("version".to_owned(), json!(99));
        let text = serde_json::to_string(&state).unwrap_or_default();
        let back: TodoState = serde_json::from_str(&text).unwrap_or_default();
        let actual = (
            text.matches("\"content\"").count(),
            text.matches("\"version\"").count(),
            back.tasks()
                .next()
                .map(|t| (t.content.clone(), t.foreign.clone())),
        );
        let expected = (
            1,
            1,
            Some((
                "real".to_owned(),
                serde_json::from_value(json!({"x_extra": 1})).unwrap_or_default(),
            )),
        );
        assert_eq!(actual, expected);
    }
}
