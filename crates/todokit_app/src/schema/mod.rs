//! Tool definitions in the shape each provider expects.
//!
//! Every view is a transform of one canonical schema, generated from the
//! tool's input type: a JSON Schema (2020-12) with every subschema inlined
//! (no `$ref`, so no recursion) and enums as plain `enum` lists.

use schemars::JsonSchema;
use schemars::generate::SchemaSettings;
use serde_json::{Map, Value, json};

use crate::{ALIASES_KEY, Profile, Tool};

mod rules;
mod strict;

pub use rules::{anthropic_violations, strict_violations};
pub use strict::{STRICT_UNSUPPORTED_KEYWORDS, strict};

/// The meta-schema the plain JSON Schema view declares.
pub const JSON_SCHEMA_DIALECT: &str = "https://json-schema.org/draft/2020-12/schema";

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
    walk(&mut value, &mut unwrap_description);
    walk(&mut value, &mut describe_aliases);
    value
}

/// Joins the lines of a hard-wrapped doc comment: a line break the source
/// needed for width is a space to the model. Blank lines (paragraphs) stay.
fn unwrap_description(node: &mut Map<String, Value>) {
    let Some(Value::String(text)) = node.get_mut("description") else {
        return;
    };
    if !text.contains('\n') {
        return;
    }
    let paragraphs: Vec<String> = text
        .split("\n\n")
        .map(|p| p.split('\n').map(str::trim).collect::<Vec<_>>().join(" "))
        .collect();
    *text = paragraphs.join("\n\n");
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
    fn wrapped_doc_lines_join_and_paragraphs_stay() {
        let mut fixture = Map::new();
        fixture.insert(
            "description".into(),
            "One line\nwrapped.\n\nA second\n paragraph.".into(),
        );
        unwrap_description(&mut fixture);
        let actual = fixture["description"].clone();
        let expected = Value::from("One line wrapped.\n\nA second paragraph.");
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
