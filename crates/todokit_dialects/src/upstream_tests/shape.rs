//! A tool's input schema as the facts a model can act on, one per place
//! and kind: the types a value may have, whether it may be null, its
//! allowed values, an object's required and allowed keys, a list's or a
//! string's bounds. Two schemas that say the same in different JSON
//! Schema spellings (`type: [T, "null"]` or `anyOf: [T, {type: null}]`;
//! one `enum` or an `anyOf` of `enum` and `const`; `additionalProperties`
//! absent, `true` or `{}`) give the same facts. Prose (descriptions,
//! titles) and `default`s are not facts here.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

/// The facts, by place (`todos[]/status`) and kind (`enum`).
pub type Facts = BTreeMap<(String, &'static str), String>;

/// The bounds a model is told, as JSON Schema spells them.
const BOUNDS: [&str; 8] = [
    "minItems",
    "maxItems",
    "minLength",
    "maxLength",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
];

/// Every fact of `schema`.
pub fn facts(schema: &Value) -> Facts {
    let mut out = Facts::new();
    place(schema, schema, "", &mut out);
    out
}

/// The facts of `schema`, met at `at`, and of everything under it.
fn place(root: &Value, schema: &Value, at: &str, out: &mut Facts) {
    let mut node = Node::default();
    gather(root, schema, &mut node);
    node.emit(at, root, out);
}

/// What the schemas met at one place say, merged (a place an `anyOf`
/// spells out in several branches is one place).
#[derive(Default)]
struct Node {
    types: BTreeSet<String>,
    nullable: bool,
    values: Option<BTreeSet<String>>,
    bounds: BTreeMap<&'static str, String>,
    branches: Vec<Value>,
}

fn resolve<'a>(root: &'a Value, schema: &'a Value) -> &'a Value {
    match schema.get("$ref").and_then(Value::as_str) {
        Some(pointer) => root.pointer(pointer.trim_start_matches('#')).unwrap_or(schema),
        None => schema,
    }
}

fn gather(root: &Value, schema: &Value, node: &mut Node) {
    let schema = resolve(root, schema);
    for key in ["anyOf", "oneOf"] {
        if let Some(branches) = schema.get(key).and_then(Value::as_array) {
            for branch in branches {
                gather(root, branch, node);
            }
        }
    }
    match schema.get("type") {
        Some(Value::String(t)) => add_type(node, t),
        Some(Value::Array(types)) => types
            .iter()
            .filter_map(Value::as_str)
            .for_each(|t| add_type(node, t)),
        _ => {}
    }
    let mut values: Vec<&Value> = schema
        .get("enum")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .collect();
    values.extend(schema.get("const"));
    if !values.is_empty() {
        let set = node.values.get_or_insert_with(BTreeSet::new);
        for value in values {
            match value {
                Value::Null => node.nullable = true,
                other => {
                    set.insert(other.to_string());
                }
            }
        }
    }
    for bound in BOUNDS {
        if let Some(value) = schema.get(bound) {
            node.bounds.insert(bound, value.to_string());
        }
    }
    if is_object(schema) || schema.get("properties").is_some() || schema.get("items").is_some() {
        node.branches.push(schema.clone());
    }
}

/// Whether `schema` lets the value be an object (`type` says so, alone or
/// among others).
fn is_object(schema: &Value) -> bool {
    match schema.get("type") {
        Some(Value::String(t)) => t == "object",
        Some(Value::Array(types)) => types.iter().any(|t| t == "object"),
        _ => false,
    }
}

fn add_type(node: &mut Node, t: &str) {
    match t {
        "null" => node.nullable = true,
        other => {
            node.types.insert(other.to_owned());
        }
    }
}

impl Node {
    fn emit(&self, at: &str, root: &Value, out: &mut Facts) {
        let shown = if at.is_empty() { "(arguments)" } else { at };
        let fact = |out: &mut Facts, kind: &'static str, value: String| {
            out.insert((shown.to_owned(), kind), value);
        };
        let types: Vec<&str> = self.types.iter().map(String::as_str).collect();
        fact(out, "type", types.join(" or "));
        fact(out, "nullable", self.nullable.to_string());
        if let Some(values) = &self.values {
            fact(out, "enum", values.iter().cloned().collect::<Vec<_>>().join(", "));
        }
        for (bound, value) in &self.bounds {
            fact(out, bound, value.clone());
        }
        // Each branch was resolved where it was gathered.
        for branch in &self.branches {
            let empty = serde_json::Map::new();
            let properties = branch.get("properties").and_then(Value::as_object);
            if let Some(properties) = properties.or(is_object(branch).then_some(&empty)) {
                let closed = branch.get("additionalProperties") == Some(&Value::Bool(false));
                fact(
                    out,
                    "additionalProperties",
                    if closed { "false" } else { "allowed" }.into(),
                );
                let mut required: Vec<&str> = branch
                    .get("required")
                    .and_then(Value::as_array)
                    .map(|r| r.iter().filter_map(Value::as_str).collect())
                    .unwrap_or_default();
                required.sort_unstable();
                fact(out, "required", required.join(", "));
                let mut keys: Vec<&String> = properties.keys().collect();
                keys.sort_unstable();
                fact(
                    out,
                    "properties",
                    keys.iter().map(|k| k.as_str()).collect::<Vec<_>>().join(", "),
                );
                for (key, schema) in properties {
                    let inner = if at.is_empty() {
                        key.clone()
                    } else {
                        format!("{at}/{key}")
                    };
                    place(root, schema, &inner, out);
                }
            }
            if let Some(items) = branch.get("items") {
                place(root, items, &format!("{at}[]"), out);
            }
        }
    }
}

/// The facts that differ: `(place, kind, upstream's, todokit's)`, a fact
/// one side lacks shown as `-`. A place only one side has is told once,
/// by its parent's `properties`.
pub fn differences(upstream: &Facts, todokit: &Facts) -> Vec<(String, String, String, String)> {
    let places =
        |facts: &Facts| -> BTreeSet<String> { facts.keys().map(|(place, _)| place.clone()).collect() };
    let both: BTreeSet<String> = places(upstream).intersection(&places(todokit)).cloned().collect();
    let keys: BTreeSet<&(String, &'static str)> = upstream.keys().chain(todokit.keys()).collect();
    keys.into_iter()
        .filter(|key| both.contains(&key.0))
        .filter_map(|key| {
            let theirs = upstream.get(key).map_or("-", String::as_str);
            let ours = todokit.get(key).map_or("-", String::as_str);
            (theirs != ours).then(|| {
                (
                    key.0.clone(),
                    key.1.to_owned(),
                    theirs.to_owned(),
                    ours.to_owned(),
                )
            })
        })
        .collect()
}
