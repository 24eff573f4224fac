//! Tool definitions in the shape each provider expects.
//!
//! Every view is a transform of one canonical schema, generated from the
//! tool's input type: a JSON Schema (2020-12) with every subschema inlined
//! (no `$ref`, so no recursion) and enums as plain `enum` lists.

use serde_json::{Map, Value, json};

use crate::profile::Profile;
use crate::tool::Tool;
use walk::walk;

pub use canonical::canonical;
pub use omissible::omissible;
pub use silently_closed::silently_closed;
pub use told_values::told_values;
pub use undescribed::undescribed;

mod canonical;
mod omissible;
mod rules;
mod silently_closed;
mod strict;
mod told_values;
mod undescribed;
mod walk;

pub use rules::{anthropic_violations, strict_violations};
pub use strict::{STRICT_UNSUPPORTED_KEYWORDS, strict};

/// The key of an MCP tool's `_meta` that holds its [`crate::tool::ToolMetadata`]
/// (whether it may run in plan mode, changes the list, must not overlap,
/// is inherited by subagents).
pub const MCP_TOOL_META_KEY: &str = "todokit/metadata";

/// The key of an MCP tool's `_meta` that holds, for a tool whose calls
/// name a command (`op`, `command`, ...), each command's own
/// [`crate::tool::ToolMetadata`] by its word.
pub const MCP_COMMANDS_META_KEY: &str = "todokit/commands";

/// The meta-schema the plain JSON Schema view declares.
pub const JSON_SCHEMA_DIALECT: &str = "https://json-schema.org/draft/2020-12/schema";

/// Whose tool-definition shape to produce.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
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
    /// Model Context Protocol `tools/list`: `{name, description,
    /// inputSchema, annotations, _meta}`, exactly as `todokit mcp` lists
    /// the tool (see [`mcp_annotations`]).
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
        SchemaTarget::Mcp => {
            let metadata = tool.metadata();
            let mut meta = Map::new();
            meta.insert(MCP_TOOL_META_KEY.into(), json!(metadata));
            // A tool with commands is annotated as its most permissive
            // command; each command's own facts let a client approve, say,
            // a `view` call on its own.
            let commands = tool.commands();
            if !commands.is_empty() {
                let each: Map<String, Value> = commands
                    .into_iter()
                    .map(|(word, facts)| (word.to_owned(), json!(facts)))
                    .collect();
                meta.insert(MCP_COMMANDS_META_KEY.into(), Value::Object(each));
            }
            json!({
                "name": name,
                "description": description,
                "inputSchema": schema,
                "annotations": mcp_annotations(metadata),
                "_meta": meta,
            })
        }
    }
}

/// A tool's MCP annotations, in the sense the MCP specification gives
/// them: `readOnlyHint` only for a tool that does not change the list (a
/// writer changes its environment, even though it touches no file, so a
/// client that approves read-only tools on its own does not approve it);
/// never `destructiveHint`: a todo tool changes only todokit's own list,
/// nothing of the user's environment a client guards (a client that asks
/// before every destructive tool would stop the model at each plan
/// update; a host that cares whether a call can take tasks off the list
/// reads [`crate::tool::ToolMetadata::destructive`]); `idempotentHint`
/// when the same call twice leaves the same list; never open-world.
/// Whether a tool may run in plan mode is under `_meta`
/// ([`MCP_TOOL_META_KEY`], `read_only_workspace`), not in these hints.
pub fn mcp_annotations(metadata: crate::tool::ToolMetadata) -> Value {
    json!({
        "readOnlyHint": metadata.read_only,
        "destructiveHint": false,
        "idempotentHint": metadata.idempotent,
        "openWorldHint": false,
    })
}

/// Every tool of `profile`, as a JSON array of definitions for `target`.
pub fn definitions(profile: &Profile, target: SchemaTarget) -> Value {
    Value::Array(profile.tools().map(|t| definition(t, target)).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

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
