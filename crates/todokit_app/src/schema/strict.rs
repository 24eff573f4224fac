//! OpenAI's strict view: every object closed and every property required
//! (optional ones made nullable), unsupported keywords dropped.

use serde_json::{Map, Value, json};

use super::walk::walk;

/// Keywords OpenAI's strict mode does not accept; the strict view drops them
/// (the limits they carried are enforced by validation anyway).
pub const STRICT_UNSUPPORTED_KEYWORDS: [&str; 9] = [
    "minLength",
    "maxLength",
    "minProperties",
    "maxProperties",
    "patternProperties",
    "unevaluatedProperties",
    "propertyNames",
    "default",
    "$schema",
];

/// The strict-mode form of a schema: every object has
/// `additionalProperties: false` and lists every property as required; a
/// property that was optional becomes a union with `null`; `oneOf` becomes
/// `anyOf`; unsupported keywords are dropped.
pub fn strict(mut schema: Value) -> Value {
    walk(&mut schema, &mut |node| {
        for keyword in STRICT_UNSUPPORTED_KEYWORDS {
            node.remove(keyword);
        }
        if let Some(one_of) = node.remove("oneOf") {
            node.insert("anyOf".into(), one_of);
        }
        let is_object =
            node.get("type").and_then(Value::as_str) == Some("object") || node.contains_key("properties");
        if !is_object {
            return;
        }
        let required: Vec<String> = node
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).map(str::to_owned).collect())
            .unwrap_or_default();
        let properties = node
            .entry("properties")
            .or_insert_with(|| Value::Object(Map::new()));
        let mut all = Vec::new();
        if let Some(properties) = properties.as_object_mut() {
            // A free-form object (metadata) cannot be said in strict mode: a
            // closed object with no properties would only admit `{}`. The
            // strict view leaves such fields out; the other views keep them.
            properties.retain(|_, property| !is_free_form(property));
            for (name, property) in properties.iter_mut() {
                if !required.contains(name) {
                    make_nullable(property);
                }
                all.push(Value::String(name.clone()));
            }
        }
        node.insert("required".into(), Value::Array(all));
        node.insert("additionalProperties".into(), Value::Bool(false));
    });
    schema
}

/// True for a schema that admits any object (or anything at all).
fn is_free_form(schema: &Value) -> bool {
    match schema {
        Value::Bool(true) => true,
        Value::Object(map) => {
            let types = match map.get("type") {
                Some(Value::String(t)) => vec![t.as_str()],
                Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
                _ => Vec::new(),
            };
            (types.contains(&"object") && !map.contains_key("properties"))
                || map
                    .get("anyOf")
                    .and_then(Value::as_array)
                    .is_some_and(|bs| bs.iter().any(is_free_form))
        }
        _ => false,
    }
}

/// Lets `null` through as well as whatever `schema` allowed.
fn make_nullable(schema: &mut Value) {
    let Some(map) = schema.as_object_mut() else {
        return;
    };
    if let Some(Value::Array(values)) = map.get_mut("enum")
        && !values.contains(&Value::Null)
    {
        values.push(Value::Null);
    }
    match map.get_mut("type") {
        // Objects stay whole inside an anyOf: a nullable object type is the
        // form providers document least.
        Some(Value::String(t)) if t != "object" => {
            let t = std::mem::take(t);
            map.insert("type".into(), json!([t, "null"]));
        }
        Some(Value::Array(types)) => {
            if !types.contains(&Value::String("null".into())) {
                types.push("null".into());
            }
        }
        _ => {
            let inner = std::mem::take(map);
            map.insert("anyOf".into(), json!([Value::Object(inner), {"type": "null"}]));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::strict_violations;
    use pretty_assertions::assert_eq;
    use serde_json::json;

    #[test]
    fn strict_closes_objects_and_nulls_optional_fields() {
        let fixture = json!({
            "type": "object",
            "properties": {
                "a": {"type": "string", "minLength": 1},
                "b": {"type": "string", "enum": ["x", "y"]},
                "c": {"type": "object", "properties": {"d": {"type": "integer"}}, "required": ["d"]},
                "e": {"oneOf": [{"type": "string"}, {"type": "integer"}]}
            },
            "required": ["a"]
        });
        let actual = strict(fixture);
        let expected = json!({
            "type": "object",
            "properties": {
                "a": {"type": "string"},
                "b": {"type": ["string", "null"], "enum": ["x", "y", null]},
                "c": {
                    "anyOf": [
                        {
                            "type": "object",
                            "properties": {"d": {"type": "integer"}},
                            "required": ["d"],
                            "additionalProperties": false
                        },
                        {"type": "null"}
                    ]
                },
                "e": {"anyOf": [{"anyOf": [{"type": "string"}, {"type": "integer"}]}, {"type": "null"}]}
            },
            "required": ["a", "b", "c", "e"],
            "additionalProperties": false
        });
        assert_eq!(actual, expected);
    }

    #[test]
    fn strict_output_meets_the_rules_it_is_checked_against() {
        let fixture = json!({
            "type": "object",
            "properties": {"x": {"type": "array", "items": {"type": "object", "properties": {"y": {"type": "string"}}}}}
        });
        let actual = strict_violations(&strict(fixture.clone()));
        let expected: Vec<String> = Vec::new();
        assert_eq!(
            (actual, strict_violations(&fixture).is_empty()),
            (expected, false)
        );
    }
}
