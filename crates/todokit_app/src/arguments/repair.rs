//! The repair pass: brings arguments into the shape the schema describes
//! where the profile's [`Leniency`] allows it (a list sent as a JSON
//! string, the other key case, numeric ids, enum spellings and aliases).

use serde_json::{Map, Value};

use super::Leniency;
use super::compiled::{Node, json_type};

pub(super) fn normalize(value: &mut Value, node: &Node, leniency: &Leniency, in_id_list: bool) {
    if !node.any_of.is_empty() {
        if let Some(branch) = node.value_branch(value) {
            normalize(value, branch, leniency, in_id_list);
        }
        return;
    }
    let is_id = in_id_list || node.is_id;
    if leniency.json_in_strings
        && let Value::String(text) = &*value
        && !node.allows("string")
        && (node.allows("array") || node.allows("object"))
        && let Ok(parsed) = serde_json::from_str::<Value>(text)
        && node.allows(json_type(&parsed))
    {
        *value = parsed;
    }
    if leniency.numeric_ids
        && is_id
        && node.allows("string")
        && let Value::Number(n) = &*value
        && (n.is_u64() || n.is_i64())
    {
        *value = Value::String(n.to_string());
    }
    if let (Some(allowed), Value::String(text)) = (&node.enumeration, &*value)
        && !allowed.contains(value)
    {
        let respelled_text = text.trim().to_lowercase().replace([' ', '-'], "_");
        // An alias is also found in another spelling where the profile
        // forgives spellings (`To Do` for the alias `to_do`).
        let alias = node.aliases.as_ref().and_then(|a| {
            a.get(text.as_str())
                .or_else(|| leniency.enum_spelling.then(|| a.get(&respelled_text)).flatten())
                .cloned()
        });
        let respelled = Value::String(respelled_text);
        if let Some(alias) = alias {
            *value = alias;
        } else if leniency.enum_spelling && allowed.contains(&respelled) {
            *value = respelled;
        }
    }
    match value {
        Value::Object(map) => {
            if node.properties.is_none() {
                return;
            }
            if leniency.key_case {
                rename_case_variants(map, node);
            }
            // A `null` for a field that may be left out and cannot be null
            // means "left out": what a model in a strict mode, which must
            // send every field, sends for one it has nothing for.
            map.retain(|key, field| {
                !(field.is_null()
                    && !node.required.iter().any(|r| r == key)
                    && node
                        .property(key)
                        .is_some_and(|f| f.any_of.is_empty() && !f.allows("null")))
            });
            for (key, field) in map.iter_mut() {
                if let Some(field_node) = node.property(key) {
                    normalize(field, field_node, leniency, false);
                }
            }
        }
        Value::Array(items) => {
            if let Some(item_node) = &node.items {
                for item in items {
                    normalize(item, item_node, leniency, is_id);
                }
            }
        }
        _ => {}
    }
}

/// Renames keys the schema does not know to the known key they are a case
/// variant of, unless that key is present too (then nothing is guessed).
fn rename_case_variants(map: &mut Map<String, Value>, node: &Node) {
    let known = |k: &str| node.property(k).is_some();
    let needs_rename = map
        .keys()
        .any(|k| !known(k) && case_variant(k).is_some_and(|v| known(&v)));
    if !needs_rename {
        return;
    }
    let old = std::mem::take(map);
    let original: Vec<String> = old.keys().cloned().collect();
    for (key, value) in old {
        let renamed = match case_variant(&key) {
            Some(v) if !known(&key) && known(&v) && !original.contains(&v) => v,
            _ => key,
        };
        if !map.contains_key(&renamed) {
            map.insert(renamed, value);
        }
    }
}

/// The other spelling of a key that [`Leniency`](super::Leniency)'s case
/// forgiveness accepts: `active_form` → `activeForm`, `activeForm` →
/// `active_form`; `None` for a key with neither shape.
pub fn case_variant(key: &str) -> Option<String> {
    if key.contains('_') {
        let mut out = String::with_capacity(key.len());
        let mut upper = false;
        for c in key.chars() {
            if c == '_' {
                upper = true;
            } else if upper {
                out.extend(c.to_uppercase());
                upper = false;
            } else {
                out.push(c);
            }
        }
        Some(out)
    } else if key.chars().any(|c| c.is_ascii_uppercase()) {
        let mut out = String::with_capacity(key.len() + 4);
        for c in key.chars() {
            if c.is_ascii_uppercase() {
                out.push('_');
                out.push(c.to_ascii_lowercase());
            } else {
                out.push(c);
            }
        }
        Some(out)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::super::ArgumentError;
    use super::super::fixtures::{item, schema};
    use super::super::{CompiledSchema, repair_and_check};
    use super::*;
    use pretty_assertions::assert_eq;
    use serde_json::json;

    #[test]
    fn an_array_sent_as_a_json_string_is_decoded() {
        let fixture = json!({"todos": json!([item()]).to_string()});
        let actual = repair_and_check(fixture, &CompiledSchema::new(&schema()), &Leniency::STANDARD);
        let expected = Ok(json!({"todos": [item()]}));
        assert_eq!(actual, expected);
    }

    #[test]
    fn a_null_means_left_out_only_where_the_field_is_optional_and_not_nullable() {
        let fixture = json!({"todos": [{"id": null, "content": null, "status": "pending", "activeForm": "A"}], "note": null});
        let actual = repair_and_check(fixture, &CompiledSchema::new(&schema()), &Leniency::NONE);
        let expected = Err(vec![ArgumentError::Field {
            field: "todos[0].content".to_owned(),
            message: "expected a string, got null".to_owned(),
        }]);
        assert_eq!(actual, expected);
    }

    #[test]
    fn snake_case_keys_are_renamed_keeping_their_place() {
        let fixture = json!({"todos": [{"content": "a", "active_form": "A", "status": "pending"}]});
        let actual = repair_and_check(fixture, &CompiledSchema::new(&schema()), &Leniency::STANDARD)
            .map(|v| v.to_string());
        let expected = Ok(r#"{"todos":[{"content":"a","activeForm":"A","status":"pending"}]}"#.to_owned());
        assert_eq!(actual, expected);
    }

    #[test]
    fn a_case_variant_is_not_guessed_when_the_real_key_is_there_too() {
        let fixture =
            json!({"todos": [{"content": "a", "active_form": "x", "activeForm": "A", "status": "pending"}]});
        let actual = repair_and_check(
            fixture.clone(),
            &CompiledSchema::new(&schema()),
            &Leniency::STANDARD,
        );
        let expected = Ok(fixture);
        assert_eq!(actual, expected);
    }

    #[test]
    fn numeric_ids_become_strings_where_the_schema_marks_ids() {
        let fixture = json!({"todos": [{"id": 3, "content": "a", "status": "pending", "activeForm": "A"}], "remove": [1, 2]});
        let actual = repair_and_check(fixture, &CompiledSchema::new(&schema()), &Leniency::STANDARD);
        let expected = Ok(json!({
            "todos": [{"id": "3", "content": "a", "status": "pending", "activeForm": "A"}],
            "remove": ["1", "2"]
        }));
        assert_eq!(actual, expected);
    }

    #[test]
    fn declared_aliases_apply_whatever_the_leniency() {
        let fixture = json!({"todos": [{"content": "a", "status": "done", "activeForm": "A"}]});
        let actual = repair_and_check(fixture, &CompiledSchema::new(&schema()), &Leniency::NONE);
        let expected = Ok(json!({"todos": [{"content": "a", "status": "completed", "activeForm": "A"}]}));
        assert_eq!(actual, expected);
    }

    /// A list with one item of status `status`, repaired with spellings
    /// forgiven, and whether it is refused without.
    fn with_and_without_spellings(status: &str) -> (Result<Value, Vec<ArgumentError>>, bool) {
        let fixture = json!({"todos": [{"content": "a", "status": status, "activeForm": "A"}]});
        let schema = CompiledSchema::new(&schema());
        (
            repair_and_check(fixture.clone(), &schema, &Leniency::STANDARD.enum_spelling(true)),
            repair_and_check(fixture, &schema, &Leniency::STANDARD).is_err(),
        )
    }

    #[test]
    fn enum_spelling_is_fixed_only_when_allowed() {
        let actual = with_and_without_spellings("In Progress");
        let expected = (
            Ok(json!({"todos": [{"content": "a", "status": "in_progress", "activeForm": "A"}]})),
            true,
        );
        assert_eq!(actual, expected);
    }

    #[test]
    fn an_alias_in_another_spelling_is_found_only_when_spellings_are_forgiven() {
        let actual = with_and_without_spellings("Done");
        let expected = (
            Ok(json!({"todos": [{"content": "a", "status": "completed", "activeForm": "A"}]})),
            true,
        );
        assert_eq!(actual, expected);
    }

    #[test]
    fn nothing_is_repaired_when_the_profile_allows_nothing() {
        let fixture = json!({"todos": json!([item()]).to_string()});
        let actual = repair_and_check(fixture, &CompiledSchema::new(&schema()), &Leniency::NONE);
        let expected = Err(vec![ArgumentError::Field {
            field: "todos".into(),
            message: "expected an array, got a string (send the value itself, not a string holding its JSON)"
                .into(),
        }]);
        assert_eq!(actual, expected);
    }

    #[test]
    fn case_variants_both_ways() {
        let fixture = ["active_form", "activeForm", "task_id", "taskId", "content"];
        let actual: Vec<Option<String>> = fixture.iter().map(|k| case_variant(k)).collect();
        let expected = vec![
            Some("activeForm".to_owned()),
            Some("active_form".to_owned()),
            Some("taskId".to_owned()),
            Some("task_id".to_owned()),
            None,
        ];
        assert_eq!(actual, expected);
    }
}
