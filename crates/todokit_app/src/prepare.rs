//! The decoding layer between what a model sent and a tool's typed input.
//!
//! Models slip. Some slips are unambiguous and a profile may accept them
//! ([`Leniency`]): an array sent as a string holding its JSON, `active_form`
//! for `activeForm` (or the reverse), `3` for the id `"3"`, `In Progress` for
//! `in_progress`, and the status spellings a wire enum lists as aliases
//! (`done` for `completed`). Everything else is refused, and every problem in
//! the arguments is reported at once, each naming the field, what arrived
//! and what is allowed, so the model can fix the whole call in one go.
//!
//! Both steps read the tool's canonical schema, so they follow the input
//! types without any per-profile code. Two schema extensions steer them:
//! `x-aliases` on an enum (extra spellings and what they mean) and `x-id` on
//! a field that holds an id or a list of ids. The provider views strip both.

use derive_setters::Setters;
use serde_json::{Map, Value};
use todokit_domain::{MAX_REPORTED_VIOLATIONS, clip};

use crate::decode::{ArgumentError, ROOT_FIELD, kind};

/// The schema extension that lists an enum's extra spellings.
pub const ALIASES_KEY: &str = "x-aliases";
/// The schema extension that marks a field holding an id (or ids).
pub const ID_KEY: &str = "x-id";

/// Field names that models use for a task's text in one tool or another; a
/// missing one of these next to a present one earns a hint.
const TEXT_SYNONYMS: [&str; 8] = [
    "content",
    "text",
    "subject",
    "title",
    "description",
    "step",
    "task",
    "name",
];

/// Which unambiguous slips a profile accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Setters)]
pub struct Leniency {
    /// An array or object sent as a string that holds its JSON.
    pub json_in_strings: bool,
    /// `snake_case` where the schema says `camelCase`, and the reverse.
    pub key_case: bool,
    /// An integer where an id string is expected.
    pub numeric_ids: bool,
    /// An enum value in another case, or with `-` or a space for `_`.
    pub enum_spelling: bool,
}

impl Leniency {
    /// Accepts nothing beyond the schema (aliases a type declares still apply).
    pub const NONE: Leniency = Leniency {
        json_in_strings: false,
        key_case: false,
        numeric_ids: false,
        enum_spelling: false,
    };

    /// What most profiles accept: JSON in strings, either key case, numeric
    /// ids. Enum values must still be spelled as listed.
    pub const STANDARD: Leniency = Leniency {
        json_in_strings: true,
        key_case: true,
        numeric_ids: true,
        enum_spelling: false,
    };
}

/// A schema made ready for the decoding layer: the keywords it reads
/// (types, enum, aliases, properties, required, items, ...) looked up once,
/// so a call does not hash keyword names at every node.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CompiledSchema {
    root: Node,
}

impl CompiledSchema {
    /// Compiles `schema` (the subset of JSON Schema todokit's tools use).
    pub fn new(schema: &Value) -> Self {
        Self {
            root: Node::new(schema),
        }
    }
}

/// One schema node, as the decoding layer reads it.
#[derive(Debug, Clone, Default, PartialEq)]
struct Node {
    /// The JSON types allowed (empty: any).
    types: Vec<&'static str>,
    enumeration: Option<Vec<Value>>,
    aliases: Option<Map<String, Value>>,
    is_id: bool,
    any_of: Vec<Node>,
    /// `None` when the node does not list properties.
    properties: Option<Vec<(String, Node)>>,
    required: Vec<String>,
    closed: bool,
    items: Option<Box<Node>>,
    min_items: Option<u64>,
}

impl Node {
    fn new(schema: &Value) -> Self {
        let Some(s) = schema.as_object() else {
            return Self::default();
        };
        let type_names = match s.get("type") {
            Some(Value::String(t)) => vec![t.as_str()],
            Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
            _ => Vec::new(),
        };
        let known = [
            "null", "boolean", "integer", "number", "string", "array", "object",
        ];
        Self {
            // In the schema's order, which error messages follow.
            types: type_names
                .iter()
                .filter_map(|t| known.iter().find(|k| *k == t).copied())
                .collect(),
            enumeration: s.get("enum").and_then(Value::as_array).cloned(),
            aliases: s.get(ALIASES_KEY).and_then(Value::as_object).cloned(),
            is_id: s.get(ID_KEY) == Some(&Value::Bool(true)),
            any_of: s
                .get("anyOf")
                .and_then(Value::as_array)
                .map(|branches| branches.iter().map(Node::new).collect())
                .unwrap_or_default(),
            properties: s
                .get("properties")
                .and_then(Value::as_object)
                .map(|props| props.iter().map(|(k, v)| (k.clone(), Node::new(v))).collect()),
            required: s
                .get("required")
                .and_then(Value::as_array)
                .map(|r| r.iter().filter_map(Value::as_str).map(str::to_owned).collect())
                .unwrap_or_default(),
            closed: s.get("additionalProperties") == Some(&Value::Bool(false)),
            items: s.get("items").map(|items| Box::new(Node::new(items))),
            min_items: s.get("minItems").and_then(Value::as_u64),
        }
    }

    fn property(&self, key: &str) -> Option<&Node> {
        self.properties
            .as_ref()?
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, n)| n)
    }

    fn allows(&self, kind: &str) -> bool {
        self.types.contains(&kind)
    }

    /// For an `anyOf`, the branch to repair a non-null value against: the
    /// first that is not just `null`.
    fn value_branch(&self, value: &Value) -> Option<&Node> {
        if value.is_null() {
            return None;
        }
        self.any_of.iter().find(|b| b.types != ["null"])
    }
}

/// `args` brought into the shape `schema` describes where `leniency`
/// allows, then checked against it: the repaired arguments, or every problem
/// found (at most [`MAX_REPORTED_VIOLATIONS`]).
pub fn prepare(
    mut args: Value,
    schema: &CompiledSchema,
    leniency: &Leniency,
) -> Result<Value, Vec<ArgumentError>> {
    normalize(&mut args, &schema.root, leniency, false);
    let mut problems = Vec::new();
    check(&args, &schema.root, &mut Vec::new(), leniency, &mut problems);
    if problems.is_empty() {
        Ok(args)
    } else {
        problems.truncate(MAX_REPORTED_VIOLATIONS);
        Err(problems)
    }
}

fn normalize(value: &mut Value, node: &Node, leniency: &Leniency, in_id_list: bool) {
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
        let alias = node.aliases.as_ref().and_then(|a| a.get(text.as_str())).cloned();
        let respelled = Value::String(text.trim().to_lowercase().replace([' ', '-'], "_"));
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

/// `active_form` → `activeForm`, `activeForm` → `active_form`; `None` for a
/// key with neither shape.
fn case_variant(key: &str) -> Option<String> {
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
            if node.closed {
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

fn json_type(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_u64() || n.is_i64() => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
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
    use super::*;
    use crate::test_support::snapshot_settings;
    use pretty_assertions::assert_eq;
    use serde_json::json;

    fn schema() -> Value {
        json!({
            "type": "object",
            "properties": {
                "todos": {
                    "type": "array",
                    "minItems": 0,
                    "items": {
                        "type": "object",
                        "properties": {
                            "id": {"type": "string", "x-id": true},
                            "content": {"type": "string"},
                            "activeForm": {"type": "string"},
                            "status": {
                                "type": "string",
                                "enum": ["pending", "in_progress", "completed"],
                                "x-aliases": {"done": "completed"}
                            }
                        },
                        "required": ["content", "status", "activeForm"]
                    }
                },
                "remove": {"type": "array", "items": {"type": "string"}, "x-id": true},
                "note": {"type": ["string", "null"]}
            },
            "required": ["todos"]
        })
    }

    fn closed_schema() -> Value {
        json!({
            "type": "object",
            "properties": {"plan": {"type": "array", "minItems": 1, "items": {"type": "string"}}},
            "required": ["plan"],
            "additionalProperties": false
        })
    }

    fn item() -> Value {
        json!({"content": "a", "status": "pending", "activeForm": "A"})
    }

    #[test]
    fn an_array_sent_as_a_json_string_is_decoded() {
        let fixture = json!({"todos": json!([item()]).to_string()});
        let actual = prepare(fixture, &CompiledSchema::new(&schema()), &Leniency::STANDARD);
        let expected = Ok(json!({"todos": [item()]}));
        assert_eq!(actual, expected);
    }

    #[test]
    fn snake_case_keys_are_renamed_keeping_their_place() {
        let fixture = json!({"todos": [{"content": "a", "active_form": "A", "status": "pending"}]});
        let actual =
            prepare(fixture, &CompiledSchema::new(&schema()), &Leniency::STANDARD).map(|v| v.to_string());
        let expected = Ok(r#"{"todos":[{"content":"a","activeForm":"A","status":"pending"}]}"#.to_owned());
        assert_eq!(actual, expected);
    }

    #[test]
    fn a_case_variant_is_not_guessed_when_the_real_key_is_there_too() {
        let fixture =
            json!({"todos": [{"content": "a", "active_form": "x", "activeForm": "A", "status": "pending"}]});
        let actual = prepare(
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
        let actual = prepare(fixture, &CompiledSchema::new(&schema()), &Leniency::STANDARD);
        let expected = Ok(json!({
            "todos": [{"id": "3", "content": "a", "status": "pending", "activeForm": "A"}],
            "remove": ["1", "2"]
        }));
        assert_eq!(actual, expected);
    }

    #[test]
    fn declared_aliases_apply_whatever_the_leniency() {
        let fixture = json!({"todos": [{"content": "a", "status": "done", "activeForm": "A"}]});
        let actual = prepare(fixture, &CompiledSchema::new(&schema()), &Leniency::NONE);
        let expected = Ok(json!({"todos": [{"content": "a", "status": "completed", "activeForm": "A"}]}));
        assert_eq!(actual, expected);
    }

    #[test]
    fn enum_spelling_is_fixed_only_when_allowed() {
        let fixture = json!({"todos": [{"content": "a", "status": "In Progress", "activeForm": "A"}]});
        let actual = (
            prepare(
                fixture.clone(),
                &CompiledSchema::new(&schema()),
                &Leniency::STANDARD.enum_spelling(true),
            ),
            prepare(fixture, &CompiledSchema::new(&schema()), &Leniency::STANDARD).is_err(),
        );
        let expected = (
            Ok(json!({"todos": [{"content": "a", "status": "in_progress", "activeForm": "A"}]})),
            true,
        );
        assert_eq!(actual, expected);
    }

    #[test]
    fn nothing_is_repaired_when_the_profile_allows_nothing() {
        let fixture = json!({"todos": json!([item()]).to_string()});
        let actual = prepare(fixture, &CompiledSchema::new(&schema()), &Leniency::NONE);
        let expected = Err(vec![ArgumentError::Field {
            field: "todos".into(),
            message: "expected an array, got a string (send the value itself, not a string holding its JSON)"
                .into(),
        }]);
        assert_eq!(actual, expected);
    }

    #[test]
    fn every_problem_is_reported_at_once() {
        let fixture = json!({"todos": [
            {"content": "a", "status": "finished", "activeForm": "A"},
            {"title": "b", "status": 3},
            "c"
        ], "note": 5});
        let actual = prepare(fixture, &CompiledSchema::new(&schema()), &Leniency::NONE);
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
        let actual = prepare(fixture, &CompiledSchema::new(&schema()), &Leniency::NONE);
        let expected = Err(vec![ArgumentError::Field {
            field: "todos[0]".into(),
            message: "missing `activeForm` (got `active_form`; this tool spells it `activeForm`)".into(),
        }]);
        assert_eq!(actual, expected);
    }

    #[test]
    fn unknown_fields_are_refused_where_the_schema_is_closed() {
        let fixture = json!({"plan": [], "explain": "x"});
        let actual = prepare(
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
        let actual = prepare(
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
                    prepare(args, &CompiledSchema::new(&schema()), &Leniency::STANDARD)
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
