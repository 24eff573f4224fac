//! Checkers for the rules each provider holds input schemas to, so a test
//! can prove every view of every tool meets them.

use serde_json::{Map, Value};

use super::STRICT_UNSUPPORTED_KEYWORDS;

/// Every way `schema` breaks Anthropic's input-schema rules (root object,
/// no references, every object with properties closed).
pub fn anthropic_violations(schema: &Value) -> Vec<String> {
    let mut problems = Vec::new();
    if schema.get("type").and_then(Value::as_str) != Some("object") {
        problems.push("(root): the root must be a schema of type object".to_owned());
    }
    let text = schema.to_string();
    for keyword in ["\"$ref\"", "\"$defs\"", "\"definitions\""] {
        if text.contains(keyword) {
            problems.push(format!("uses {keyword}: every subschema must be inlined"));
        }
    }
    check_closed(schema, "#", &mut problems);
    problems
}

fn check_closed(node: &Value, at: &str, problems: &mut Vec<String>) {
    let Some(map) = node.as_object() else {
        return;
    };
    if map.contains_key("properties") && map.get("additionalProperties") != Some(&Value::Bool(false)) {
        problems.push(format!("{at}: additionalProperties must be false"));
    }
    for_each_subschema(map, at, |sub, path| check_closed(sub, &path, problems));
}

/// Every way `schema` breaks OpenAI's strict-mode rules or Anthropic's
/// input-schema rules, as human-readable lines; empty when it meets them.
pub fn strict_violations(schema: &Value) -> Vec<String> {
    let mut problems = Vec::new();
    if schema.get("type").and_then(Value::as_str) != Some("object") {
        problems.push("(root): the root must be a schema of type object".to_owned());
    }
    for keyword in ["anyOf", "oneOf", "allOf", "$ref", "$defs", "definitions"] {
        if schema.get(keyword).is_some() {
            problems.push(format!("(root): the root must not use {keyword}"));
        }
    }
    check_strict(schema, "#", &mut problems);
    problems
}

fn check_strict(node: &Value, at: &str, problems: &mut Vec<String>) {
    let Some(map) = node.as_object() else {
        if !node.is_boolean() {
            problems.push(format!("{at}: a schema must be an object"));
        }
        return;
    };
    for keyword in STRICT_UNSUPPORTED_KEYWORDS.iter().chain(&["oneOf", "$ref"]) {
        if map.contains_key(*keyword) {
            problems.push(format!("{at}: uses {keyword}, which strict mode refuses"));
        }
    }
    let types: Vec<&str> = match map.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    };
    let combined = ["anyOf", "oneOf", "enum", "const"]
        .iter()
        .any(|k| map.contains_key(*k));
    if types.is_empty() && !combined {
        problems.push(format!("{at}: no type given"));
    }
    if types.contains(&"object") || map.contains_key("properties") {
        if map.get("additionalProperties") != Some(&Value::Bool(false)) {
            problems.push(format!("{at}: additionalProperties must be false"));
        }
        let keys: Vec<&str> = map
            .get("properties")
            .and_then(Value::as_object)
            .map(|p| p.keys().map(String::as_str).collect())
            .unwrap_or_default();
        let required: Vec<&str> = map
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        if keys != required {
            problems.push(format!(
                "{at}: required must list every property in order ({keys:?}, got {required:?})"
            ));
        }
    }
    for_each_subschema(map, at, |sub, path| check_strict(sub, &path, problems));
}

fn for_each_subschema(map: &Map<String, Value>, at: &str, mut f: impl FnMut(&Value, String)) {
    if let Some(props) = map.get("properties").and_then(Value::as_object) {
        for (name, sub) in props {
            f(sub, format!("{at}/properties/{name}"));
        }
    }
    if let Some(items) = map.get("items") {
        f(items, format!("{at}/items"));
    }
    for keyword in ["anyOf", "oneOf", "allOf"] {
        if let Some(list) = map.get(keyword).and_then(Value::as_array) {
            for (i, sub) in list.iter().enumerate() {
                f(sub, format!("{at}/{keyword}/{i}"));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;
    use serde_json::json;

    #[test]
    fn the_checker_names_each_broken_rule() {
        let fixture = json!({
            "type": "object",
            "properties": {"a": {"oneOf": [{"type": "string"}]}, "b": {"type": "string", "maxLength": 3}},
            "required": ["a"]
        });
        let actual = strict_violations(&fixture);
        let expected = vec![
            "#: additionalProperties must be false".to_owned(),
            "#: required must list every property in order ([\"a\", \"b\"], got [\"a\"])".to_owned(),
            "#/properties/a: uses oneOf, which strict mode refuses".to_owned(),
            "#/properties/b: uses maxLength, which strict mode refuses".to_owned(),
        ];
        assert_eq!(actual, expected);
    }
}
