//! The check pass: every problem in the (repaired) arguments at once, each
//! naming the field, what arrived and what is allowed.

use serde_json::{Map, Value};
use todokit_domain::clip;

use super::compiled::{Node, json_type};
use super::parse::{ArgumentError, ROOT_FIELD, kind};
use super::repair::case_variant;
use super::{Leniency, TEXT_SYNONYMS};

/// One step of the path to a field: a key or an index.
#[derive(Debug, Clone, Copy)]
enum Seg<'v> {
    Key(&'v str),
    Index(usize),
}

/// `todos[0].status`, or [`ROOT_FIELD`] for the arguments themselves. Built
/// only when there is a problem to report: valid arguments cost no strings.
fn render(path: &[Seg<'_>]) -> String {
    if path.is_empty() {
        return ROOT_FIELD.to_owned();
    }
    let mut out = String::new();
    for seg in path {
        match seg {
            Seg::Key(key) if out.is_empty() => out.push_str(key),
            Seg::Key(key) => {
                out.push('.');
                out.push_str(key);
            }
            Seg::Index(i) => {
                if out.is_empty() {
                    out.push_str(ROOT_FIELD);
                }
                out.push_str(&format!("[{i}]"));
            }
        }
    }
    out
}

fn push_problem(problems: &mut Vec<ArgumentError>, path: &[Seg<'_>], message: String) {
    problems.push(ArgumentError::Field {
        field: render(path),
        message,
    });
}

/// The allowed values of an enum schema, as `` `a`, `b` ``.
fn allowed_names(allowed: &[Value]) -> String {
    let names: Vec<String> = allowed
        .iter()
        .filter(|v| !v.is_null())
        .map(|v| format!("`{}`", v.as_str().map_or_else(|| v.to_string(), str::to_owned)))
        .collect();
    names.join(", ")
}

/// Every problem in `value` against `node`, in document order.
pub(super) fn problems(value: &Value, node: &Node, leniency: &Leniency) -> Vec<ArgumentError> {
    let mut problems = Vec::new();
    check(value, node, &mut Vec::new(), leniency, &mut problems);
    problems
}

fn check<'v>(
    value: &'v Value,
    node: &Node,
    path: &mut Vec<Seg<'v>>,
    leniency: &Leniency,
    problems: &mut Vec<ArgumentError>,
) {
    if !node.any_of.is_empty() {
        let mut first = None;
        for branch in &node.any_of {
            let mut found = Vec::new();
            check(value, branch, path, leniency, &mut found);
            if found.is_empty() {
                return;
            }
            first.get_or_insert(found);
        }
        problems.extend(first.unwrap_or_default());
        return;
    }
    let types = &node.types;
    let type_ok = node.allows(json_type(value)) || (node.allows("number") && value.is_number());
    if !types.is_empty() && !type_ok {
        let wanted = match &node.enumeration {
            Some(allowed) => format!("one of {}", allowed_names(allowed)),
            None => expected(types),
        };
        let message = match value {
            Value::String(text)
                if serde_json::from_str::<Value>(text).is_ok_and(|v| node.allows(json_type(&v))) =>
            {
                format!(
                    "expected {wanted}, got a string (send the value itself, not a string holding its JSON)"
                )
            }
            Value::String(text) if text.trim_start().starts_with(['[', '{']) => {
                let reason = serde_json::from_str::<Value>(text)
                    .err()
                    .map(|e| e.to_string())
                    .unwrap_or_default();
                format!(
                    "expected {wanted}, got a string that starts like JSON but does not parse ({reason}); \
                     send the value itself, complete"
                )
            }
            Value::String(text) => format!("expected {wanted}, got the string \"{}\"", clip(text)),
            other => format!("expected {wanted}, got {}", kind(other)),
        };
        push_problem(problems, path, message);
        return;
    }
    if let Some(allowed) = &node.enumeration
        && !allowed.contains(value)
    {
        let got = match value {
            Value::String(text) => format!("\"{}\"", clip(text)),
            other => kind(other).to_owned(),
        };
        push_problem(
            problems,
            path,
            format!("got {got}; allowed: {}", allowed_names(allowed)),
        );
        return;
    }
    match value {
        Value::Object(map) => {
            for name in &node.required {
                if !map.contains_key(name) {
                    let message = format!("missing `{name}`{}", missing_hint(name, map, leniency));
                    push_problem(problems, path, message);
                }
            }
            if node.closed && !leniency.unknown_keys {
                for key in map.keys().filter(|k| node.property(k).is_none()) {
                    let allowed: Vec<String> = node
                        .properties
                        .iter()
                        .flatten()
                        .map(|(k, _)| format!("`{k}`"))
                        .collect();
                    let allowed = if allowed.is_empty() {
                        "none".to_owned()
                    } else {
                        allowed.join(", ")
                    };
                    push_problem(
                        problems,
                        path,
                        format!("unknown field `{}`; allowed: {allowed}", clip(key)),
                    );
                }
            }
            if node.properties.is_some() {
                for (key, field_value) in map {
                    if let Some(field_node) = node.property(key) {
                        path.push(Seg::Key(key));
                        check(field_value, field_node, path, leniency, problems);
                        path.pop();
                    }
                }
            }
        }
        Value::Array(items) => {
            if let Some(min) = node.min_items
                && (items.len() as u64) < min
            {
                let noun = if min == 1 { "item" } else { "items" };
                push_problem(
                    problems,
                    path,
                    format!("needs at least {min} {noun}, got {}", items.len()),
                );
            }
            if let Some(item_node) = &node.items {
                for (i, item) in items.iter().enumerate() {
                    path.push(Seg::Index(i));
                    check(item, item_node, path, leniency, problems);
                    path.pop();
                }
            }
        }
        Value::String(text) => {
            // JSON Schema counts characters (code points), not bytes.
            if let Some(min) = node.min_length
                && (text.chars().count() as u64) < min
            {
                let noun = if min == 1 { "character" } else { "characters" };
                push_problem(
                    problems,
                    path,
                    format!("needs at least {min} {noun}, got {}", text.chars().count()),
                );
            }
        }
        _ => {}
    }
}

/// Why a required field may be missing, when the object suggests it.
fn missing_hint(name: &str, map: &Map<String, Value>, leniency: &Leniency) -> String {
    if !leniency.key_case
        && let Some(variant) = case_variant(name)
        && map.contains_key(&variant)
    {
        return format!(" (got `{variant}`; this tool spells it `{name}`)");
    }
    if TEXT_SYNONYMS.contains(&name)
        && let Some(other) = TEXT_SYNONYMS
            .iter()
            .find(|s| **s != name && map.contains_key(**s))
    {
        return format!(" (got `{other}`; this tool calls that field `{name}`)");
    }
    String::new()
}

fn expected(types: &[&str]) -> String {
    types
        .iter()
        .map(|t| match *t {
            "null" => "null",
            "boolean" => "a boolean",
            "integer" => "an integer",
            "number" => "a number",
            "string" => "a string",
            "array" => "an array",
            "object" => "an object",
            other => other,
        })
        .collect::<Vec<_>>()
        .join(" or ")
}

#[cfg(test)]
mod tests {
    use super::super::fixtures::{closed_schema, schema};
    use super::super::{CompiledSchema, repair_and_check};
    use super::*;
    use crate::test_support::snapshot_settings;
    use pretty_assertions::assert_eq;
    use serde_json::json;

    #[test]
    fn strings_shorter_than_min_length_are_refused_counting_characters() {
        let fixture = CompiledSchema::new(&json!({
            "type": "object",
            "properties": {"a": {"type": "string", "minLength": 1}, "b": {"type": "string", "minLength": 2}},
            "required": ["a", "b"]
        }));
        let actual: Vec<Vec<String>> = [json!({"a": "", "b": "é"}), json!({"a": "x", "b": "éé"})]
            .into_iter()
            .map(
                |args| match repair_and_check(args, &fixture, &Leniency::STANDARD) {
                    Ok(_) => Vec::new(),
                    Err(problems) => problems.iter().map(ToString::to_string).collect(),
                },
            )
            .collect();
        let expected = vec![
            vec![
                "a: needs at least 1 character, got 0".to_owned(),
                "b: needs at least 2 characters, got 1".to_owned(),
            ],
            vec![],
        ];
        assert_eq!(actual, expected);
    }

    #[test]
    fn every_problem_is_reported_at_once() {
        let fixture = json!({"todos": [
            {"content": "a", "status": "finished", "activeForm": "A"},
            {"title": "b", "status": 3},
            "c"
        ], "note": 5});
        let actual = repair_and_check(fixture, &CompiledSchema::new(&schema()), &Leniency::NONE);
        let expected = Err(vec![
            ArgumentError::Field {
                field: "todos[0].status".into(),
                message: "got \"finished\"; allowed: `pending`, `in_progress`, `completed`".into(),
            },
            ArgumentError::Field {
                field: "todos[1]".into(),
                message: "missing `content` (got `title`; this tool calls that field `content`)".into(),
            },
            ArgumentError::Field {
                field: "todos[1]".into(),
                message: "missing `activeForm`".into(),
            },
            ArgumentError::Field {
                field: "todos[1].status".into(),
                message: "expected one of `pending`, `in_progress`, `completed`, got a number".into(),
            },
            ArgumentError::Field {
                field: "todos[2]".into(),
                message: "expected an object, got the string \"c\"".into(),
            },
            ArgumentError::Field {
                field: "note".into(),
                message: "expected a string or null, got a number".into(),
            },
        ]);
        assert_eq!(actual, expected);
    }

    #[test]
    fn a_case_variant_earns_a_hint_where_it_is_not_accepted() {
        let fixture = json!({"todos": [{"content": "a", "status": "pending", "active_form": "A"}]});
        let actual = repair_and_check(fixture, &CompiledSchema::new(&schema()), &Leniency::NONE);
        let expected = Err(vec![ArgumentError::Field {
            field: "todos[0]".into(),
            message: "missing `activeForm` (got `active_form`; this tool spells it `activeForm`)".into(),
        }]);
        assert_eq!(actual, expected);
    }

    #[test]
    fn unknown_fields_are_refused_where_the_schema_is_closed() {
        let fixture = json!({"plan": [], "explain": "x"});
        let actual = repair_and_check(
            fixture,
            &CompiledSchema::new(&closed_schema()),
            &Leniency::STANDARD,
        );
        let expected = Err(vec![
            ArgumentError::Field {
                field: ROOT_FIELD.into(),
                message: "unknown field `explain`; allowed: `plan`".into(),
            },
            ArgumentError::Field {
                field: "plan".into(),
                message: "needs at least 1 item, got 0".into(),
            },
        ]);
        assert_eq!(actual, expected);
    }

    #[test]
    fn the_root_must_be_an_object() {
        let fixture = json!([1]);
        let actual = repair_and_check(
            fixture,
            &CompiledSchema::new(&closed_schema()),
            &Leniency::STANDARD,
        );
        let expected = Err(vec![ArgumentError::Field {
            field: ROOT_FIELD.into(),
            message: "expected an object, got an array".into(),
        }]);
        assert_eq!(actual, expected);
    }

    #[test]
    fn refusal_texts() {
        let cases = [
            (
                "wrong_types",
                json!({"todos": [{"content": 1, "status": null, "activeForm": ["x"]}]}),
            ),
            ("truncated_string_array", json!({"todos": "[{\"content\":\"a\""})),
            (
                "synonym",
                json!({"todos": [{"subject": "a", "status": "pending", "activeForm": "A"}]}),
            ),
            (
                "long_value",
                json!({"todos": [{"content": "a", "status": "x".repeat(500), "activeForm": "A"}]}),
            ),
        ];
        snapshot_settings().bind(|| {
            for (name, args) in cases {
                let messages: Vec<String> =
                    repair_and_check(args, &CompiledSchema::new(&schema()), &Leniency::STANDARD)
                        .err()
                        .unwrap_or_default()
                        .iter()
                        .map(|e| e.to_string())
                        .collect();
                insta::assert_snapshot!(format!("prepare__{name}"), messages.join("\n"));
            }
        });
    }
}
