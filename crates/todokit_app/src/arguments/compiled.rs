//! A tool's canonical schema compiled once into the tree the repair and
//! check passes walk, so no call looks keywords up in JSON.

use serde_json::{Map, Value};

use super::{ALIASES_KEY, CLOSED_KEY, ID_KEY, VALUES_KEY};

/// A schema made ready for the decoding layer: the keywords it reads
/// (types, enum, aliases, properties, required, items, ...) looked up once,
/// so a call does not hash keyword names at every node.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CompiledSchema {
    pub(super) root: Node,
}

impl CompiledSchema {
    /// Compiles `schema` (the subset of JSON Schema todokit's tools use).
    pub fn new(schema: &Value) -> Self {
        Self {
            root: Node::new(schema),
        }
    }
}

/// The JSON Schema type names the decoding layer knows, in the order of
/// [`Node::kinds`]' bits.
pub(super) const TYPE_NAMES: [&str; 7] = [
    "null", "boolean", "integer", "number", "string", "array", "object",
];

/// One schema node, as the decoding layer reads it.
#[derive(Debug, Clone, Default, PartialEq)]
pub(super) struct Node {
    /// The JSON types allowed (empty: any).
    pub(super) types: Vec<&'static str>,
    /// The same types as bits, bit `i` for the `i`-th of [`TYPE_NAMES`]
    /// (0: any), for the fast path's per-value test.
    pub(super) kinds: u8,
    pub(super) enumeration: Option<Vec<Value>>,
    pub(super) aliases: Option<Map<String, Value>>,
    pub(super) is_id: bool,
    pub(super) any_of: Vec<Node>,
    /// `None` when the node does not list properties.
    pub(super) properties: Option<Vec<(String, Node)>>,
    pub(super) required: Vec<String>,
    /// The required properties as bits over `properties` (bit `i`: the
    /// `i`-th); `None` when a required key is not listed or lies past the
    /// 64th, which the fast path leaves to the checking one.
    pub(super) required_mask: Option<u64>,
    pub(super) closed: bool,
    pub(super) items: Option<Box<Node>>,
    pub(super) min_items: Option<u64>,
    /// The fewest characters a string may have.
    pub(super) min_length: Option<u64>,
}

impl Node {
    pub(super) fn new(schema: &Value) -> Self {
        let Some(s) = schema.as_object() else {
            return Self::default();
        };
        let type_names = match s.get("type") {
            Some(Value::String(t)) => vec![t.as_str()],
            Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
            _ => Vec::new(),
        };
        let properties: Option<Vec<(String, Node)>> = s
            .get("properties")
            .and_then(Value::as_object)
            .map(|props| props.iter().map(|(k, v)| (k.clone(), Node::new(v))).collect());
        let required: Vec<String> = s
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).map(str::to_owned).collect())
            .unwrap_or_default();
        let listed = properties.as_deref().unwrap_or_default();
        let required_mask = required.iter().try_fold(0u64, |mask, name| {
            let index = listed.iter().position(|(k, _)| k == name).filter(|i| *i < 64)?;
            Some(mask | 1 << index)
        });
        Self {
            // In the schema's order, which error messages follow.
            types: type_names
                .iter()
                .filter_map(|t| TYPE_NAMES.iter().find(|k| *k == t).copied())
                .collect(),
            kinds: type_names
                .iter()
                .filter_map(|t| TYPE_NAMES.iter().position(|k| k == t))
                .fold(0, |bits, i| bits | 1 << i),
            enumeration: s
                .get("enum")
                .or_else(|| s.get(VALUES_KEY))
                .and_then(Value::as_array)
                .cloned(),
            aliases: s.get(ALIASES_KEY).and_then(Value::as_object).cloned(),
            is_id: s.get(ID_KEY) == Some(&Value::Bool(true)),
            any_of: s
                .get("anyOf")
                .and_then(Value::as_array)
                .map(|branches| branches.iter().map(Node::new).collect())
                .unwrap_or_default(),
            properties,
            required,
            required_mask,
            closed: s.get("additionalProperties") == Some(&Value::Bool(false))
                || s.get(CLOSED_KEY) == Some(&Value::Bool(true)),
            items: s.get("items").map(|items| Box::new(Node::new(items))),
            min_items: s.get("minItems").and_then(Value::as_u64),
            min_length: s.get("minLength").and_then(Value::as_u64),
        }
    }

    pub(super) fn property(&self, key: &str) -> Option<&Node> {
        self.properties
            .as_ref()?
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, n)| n)
    }

    pub(super) fn allows(&self, kind: &str) -> bool {
        self.types.contains(&kind)
    }

    /// For an `anyOf`, the branch to repair a non-null value against: the
    /// first that is not just `null`.
    pub(super) fn value_branch(&self, value: &Value) -> Option<&Node> {
        if value.is_null() {
            return None;
        }
        self.any_of.iter().find(|b| b.types != ["null"])
    }
}
/// The schema type a JSON value has (`integer` for a whole number), as
/// the schema's `type` keyword names it.
pub(super) fn json_type(value: &Value) -> &'static str {
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
