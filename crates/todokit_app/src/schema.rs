//! Tool definitions in the shape each provider expects.
//!
//! Every view is a transform of one canonical schema, generated from the
//! tool's input type: a JSON Schema (2020-12) with every subschema inlined
//! (no `$ref`, so no recursion) and enums as plain `enum` lists.

use schemars::JsonSchema;
use schemars::generate::SchemaSettings;
use serde_json::{Map, Value, json};

use crate::{ALIASES_KEY, Profile, Tool};

/// The meta-schema the plain JSON Schema view declares.
pub const JSON_SCHEMA_DIALECT: &str = "https://json-schema.org/draft/2020-12/schema";

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

/// Whose tool-definition shape to produce.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SchemaTarget {
    /// `{name, description, schema}` with a full JSON Schema document.
    JsonSchema,
    /// OpenAI Chat Completions: `{type: "function", function: {name,
    /// description, parameters}}`.
    OpenAi,
    /// The same with `strict: true` and a schema that meets strict mode:
    /// every object closed, every property required, optional ones nullable,
    /// no `oneOf`.
    OpenAiStrict,
    /// Anthropic Messages: `{name, description, input_schema}`.
    Anthropic,
    /// Model Context Protocol `tools/list`: `{name, description, inputSchema}`.
    Mcp,
}

impl SchemaTarget {
    /// Every target, in the order the CLI lists them.
    pub const ALL: [SchemaTarget; 5] = [
        SchemaTarget::JsonSchema,
        SchemaTarget::OpenAi,
        SchemaTarget::OpenAiStrict,
        SchemaTarget::Anthropic,
        SchemaTarget::Mcp,
    ];

    /// The name the CLI uses (`openai-strict`, ...).
    pub fn as_str(self) -> &'static str {
        match self {
            SchemaTarget::JsonSchema => "json-schema",
            SchemaTarget::OpenAi => "openai",
            SchemaTarget::OpenAiStrict => "openai-strict",
            SchemaTarget::Anthropic => "anthropic",
            SchemaTarget::Mcp => "mcp",
        }
    }
}

impl std::str::FromStr for SchemaTarget {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL.into_iter().find(|t| t.as_str() == s).ok_or_else(|| {
            let names: Vec<&str> = Self::ALL.iter().map(|t| t.as_str()).collect();
            format!(
                "unknown schema target {s:?}; expected one of {}",
                names.join(", ")
            )
        })
    }
}

/// The canonical input schema of `T`.
pub fn canonical<T: JsonSchema>() -> Value {
    let generator = SchemaSettings::draft2020_12()
        .with(|s| {
            s.inline_subschemas = true;
            s.meta_schema = None;
        })
        .into_generator();
    let mut value = generator.into_root_schema_for::<T>().to_value();
    if let Some(root) = value.as_object_mut() {
        // The type's name and doc comment are for Rust readers; the tool's
        // description is what the model reads.
        root.remove("title");
        root.remove("description");
    }
    walk(&mut value, &mut collapse_const_one_of);
    walk(&mut value, &mut describe_aliases);
    value
}

/// Says in an enum's description which extra spellings it accepts, so the
/// views (which drop `x-aliases`) still tell the model.
fn describe_aliases(node: &mut Map<String, Value>) {
    let Some(Value::Object(aliases)) = node.get(ALIASES_KEY) else {
        return;
    };
    let pairs: Vec<String> = aliases
        .iter()
        .map(|(alias, target)| format!("`{alias}` for `{}`", target.as_str().unwrap_or_default()))
        .collect();
    if pairs.is_empty() {
        return;
    }
    let note = format!("Also accepted: {}.", pairs.join(", "));
    let description = match node.get("description").and_then(Value::as_str) {
        Some(text) => format!("{text} {note}"),
        None => note,
    };
    node.insert("description".into(), Value::String(description));
}

/// Drops todokit's own `x-` keywords, which only the decoding layer reads.
fn strip_extensions(node: &mut Map<String, Value>) {
    node.retain(|key, _| !key.starts_with("x-"));
}

/// Closes every object that lists its properties, as Anthropic's strict
/// tool use requires; free-form objects (no properties) stay open.
fn close_objects(node: &mut Map<String, Value>) {
    if node.contains_key("properties") {
        node.insert("additionalProperties".into(), Value::Bool(false));
    }
}

/// One tool's definition for `target`.
pub fn definition(tool: &dyn Tool, target: SchemaTarget) -> Value {
    let mut schema = tool.input_schema();
    walk(&mut schema, &mut strip_extensions);
    let (name, description) = (tool.name(), tool.description());
    match target {
        SchemaTarget::JsonSchema => {
            let mut document = Map::new();
            document.insert("$schema".into(), JSON_SCHEMA_DIALECT.into());
            if let Value::Object(fields) = schema {
                document.extend(fields);
            }
            json!({"name": name, "description": description, "schema": document})
        }
        SchemaTarget::OpenAi => json!({
            "type": "function",
            "function": {"name": name, "description": description, "parameters": schema}
        }),
        SchemaTarget::OpenAiStrict => json!({
            "type": "function",
            "function": {
                "name": name,
                "description": description,
                "parameters": strict(schema),
                "strict": true
            }
        }),
        SchemaTarget::Anthropic => {
            walk(&mut schema, &mut close_objects);
            json!({"name": name, "description": description, "input_schema": schema})
        }
        SchemaTarget::Mcp => json!({"name": name, "description": description, "inputSchema": schema}),
    }
}

/// Every tool of `profile`, as a JSON array of definitions for `target`.
pub fn definitions(profile: &Profile, target: SchemaTarget) -> Value {
    Value::Array(profile.tools().map(|t| definition(t, target)).collect())
}

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

/// A `oneOf` whose branches are all string constants (what schemars makes of
/// an enum whose variants carry doc comments) becomes a plain `enum`, the
/// shape every provider handles.
fn collapse_const_one_of(node: &mut Map<String, Value>) {
    let Some(Value::Array(branches)) = node.get("oneOf") else {
        return;
    };
    let consts: Option<Vec<Value>> = branches
        .iter()
        .map(|b| {
            let b = b.as_object()?;
            let only_const = b
                .keys()
                .all(|k| matches!(k.as_str(), "const" | "type" | "description"));
            b.get("const").filter(|c| c.is_string() && only_const).cloned()
        })
        .collect();
    if let Some(consts) = consts {
        node.remove("oneOf");
        node.insert("type".into(), "string".into());
        node.insert("enum".into(), Value::Array(consts));
    }
}

/// Applies `f` to every schema object in `value`, parents before children.
fn walk(value: &mut Value, f: &mut dyn FnMut(&mut Map<String, Value>)) {
    let Some(map) = value.as_object_mut() else {
        return;
    };
    f(map);
    if let Some(Value::Object(props)) = map.get_mut("properties") {
        for sub in props.values_mut() {
            walk(sub, f);
        }
    }
    if let Some(items) = map.get_mut("items") {
        walk(items, f);
    }
    for keyword in ["anyOf", "oneOf", "allOf"] {
        if let Some(Value::Array(list)) = map.get_mut(keyword) {
            for sub in list {
                walk(sub, f);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

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

    #[test]
    fn target_names_round_trip() {
        let actual: Vec<SchemaTarget> = SchemaTarget::ALL
            .iter()
            .map(|t| t.as_str().parse().unwrap())
            .collect();
        let expected = SchemaTarget::ALL.to_vec();
        assert_eq!(actual, expected);
    }
}
