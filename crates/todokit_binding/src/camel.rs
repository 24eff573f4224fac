//! The stored documents (a list, the store's conversations) in
//! JavaScript's naming, for the npm package: every key in camelCase
//! (`active_form` is `activeForm`, `changed_at` is `changedAt`), as its
//! TypeScript types declare them. A task's `metadata` is the model's own
//! object and keeps its keys; values are never touched (a status stays
//! `in_progress`).

use serde_json::{Map, Value};

/// `document` with every key in camelCase, a task's `metadata` as it is.
pub fn camel_case(document: Value) -> Value {
    match document {
        Value::Object(object) => Value::Object(
            object
                .into_iter()
                .map(|(key, value)| {
                    let value = if key == "metadata" {
                        value
                    } else {
                        camel_case(value)
                    };
                    (camel_key(&key), value)
                })
                .collect::<Map<String, Value>>(),
        ),
        Value::Array(items) => Value::Array(items.into_iter().map(camel_case).collect()),
        other => other,
    }
}

/// `key` in camelCase: each `_` dropped and the letter after it raised.
fn camel_key(key: &str) -> String {
    let mut out = String::with_capacity(key.len());
    let mut raise = false;
    for c in key.chars() {
        match c {
            '_' if !out.is_empty() => raise = true,
            c if raise => {
                out.extend(c.to_uppercase());
                raise = false;
            }
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use pretty_assertions::assert_eq;
    use serde_json::json;

    use super::*;

    #[test]
    fn keys_go_camel_case_and_values_and_metadata_stay() {
        let fixture = json!({
            "version": 2,
            "next_id": 3,
            "phases": [{"name": "", "tasks": [{
                "content": "a",
                "status": "in_progress",
                "active_form": "doing a",
                "blocked_by": ["2"],
                "status_changed_at": 5,
                "metadata": {"story_points": 3},
            }]}],
            "counts": {"in_progress": 1},
            "_private": true,
        });
        let actual = camel_case(fixture);
        let expected = json!({
            "version": 2,
            "nextId": 3,
            "phases": [{"name": "", "tasks": [{
                "content": "a",
                "status": "in_progress",
                "activeForm": "doing a",
                "blockedBy": ["2"],
                "statusChangedAt": 5,
                "metadata": {"story_points": 3},
            }]}],
            "counts": {"inProgress": 1},
            "_private": true,
        });
        assert_eq!(actual, expected);
    }
}
