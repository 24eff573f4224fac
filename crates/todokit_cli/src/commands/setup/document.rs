//! An agent's configuration file as its author wrote it: JSON (with the
//! comments and trailing commas JSONC allows) or TOML, edited key by key
//! so that everything `todokit setup` does not touch (comments, order,
//! layout, other keys) comes out byte for byte as it went in.
//!
//! Paths are lists of object keys from the top; values are JSON values,
//! written into TOML as the matching TOML values (objects as tables).

use jsonc_parser::ParseOptions;
use jsonc_parser::cst::{CstInputValue, CstObject, CstRootNode};
use serde_json::Value;
use toml_edit::{DocumentMut, Item, TableLike};

/// The syntax of a configuration file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Syntax {
    /// JSON, comments and trailing commas allowed (as VS Code, Zed and the
    /// agents that share their parsers read it).
    Json,
    /// TOML.
    Toml,
}

/// Why a file could not be changed: said with the file's path by the caller.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DocumentError {
    /// The file does not parse; the parser's own words.
    #[error("it does not parse: {0}")]
    Parse(String),
    /// A key on the way is there but holds something else than an object.
    #[error("`{0}` is not an object (a table in TOML), so todokit cannot add to it; change it by hand")]
    NotAnObject(String),
    /// A key that should hold a list holds something else.
    #[error("`{0}` is not a list, so todokit cannot add to it; change it by hand")]
    NotAList(String),
}

/// A parsed configuration file.
pub enum Document {
    /// JSON or JSONC, as a concrete syntax tree.
    Json(CstRootNode),
    /// TOML, as `toml_edit` keeps it.
    Toml(DocumentMut),
}

impl Document {
    /// `text` read as `syntax`; empty or blank text is an empty document.
    pub fn parse(syntax: Syntax, text: &str) -> Result<Self, DocumentError> {
        match syntax {
            Syntax::Json => {
                let text = if text.trim().is_empty() { "{}\n" } else { text };
                let root = CstRootNode::parse(text, &ParseOptions::default())
                    .map_err(|e| DocumentError::Parse(e.to_string()))?;
                if root.value().is_some_and(|value| value.as_object().is_none()) {
                    return Err(DocumentError::Parse(
                        "the file holds something else than an object".into(),
                    ));
                }
                Ok(Self::Json(root))
            }
            Syntax::Toml => text
                .parse::<DocumentMut>()
                .map(Self::Toml)
                .map_err(|e| DocumentError::Parse(e.to_string().trim_end().to_owned())),
        }
    }

    /// The file's text as it is now.
    pub fn render(&self) -> String {
        match self {
            Self::Json(root) => root.to_string(),
            Self::Toml(doc) => doc.to_string(),
        }
    }

    /// Whether nothing is set in the file (an empty object or table).
    pub fn is_empty(&self) -> bool {
        match self {
            Self::Json(root) => root
                .object_value()
                .is_none_or(|object| object.properties().is_empty()),
            Self::Toml(doc) => doc.as_table().is_empty(),
        }
    }

    /// The names of the keys at the top.
    pub fn top_keys(&self) -> Vec<String> {
        match self {
            Self::Json(root) => root.object_value().map_or_else(Vec::new, |object| {
                object
                    .properties()
                    .iter()
                    .filter_map(|p| p.name()?.decoded_value().ok())
                    .collect()
            }),
            Self::Toml(doc) => doc.as_table().iter().map(|(key, _)| key.to_owned()).collect(),
        }
    }

    /// The value at `path`, if any.
    pub fn get(&self, path: &[&str]) -> Option<Value> {
        match self {
            Self::Json(root) => {
                let (last, parents) = path.split_last()?;
                let object = json_object(root, parents)?;
                object.get(last)?.value()?.to_serde_value()
            }
            Self::Toml(doc) => {
                let mut item = doc.as_item();
                for key in path {
                    item = item.as_table_like()?.get(key)?;
                }
                toml_to_json(item)
            }
        }
    }

    /// Sets `path` to `value`, making the objects on the way.
    pub fn set(&mut self, path: &[&str], value: &Value) -> Result<(), DocumentError> {
        let Some((last, parents)) = path.split_last() else {
            return Ok(());
        };
        match self {
            Self::Json(root) => {
                let object = json_object_or_make(root, parents)?;
                match object.get(last) {
                    Some(prop) => prop.set_value(json_input(value)),
                    None => {
                        object.append(last, json_input(value));
                    }
                }
            }
            Self::Toml(doc) => {
                let table = toml_table_or_make(doc, parents)?;
                table.insert(last, json_to_toml(value, true));
            }
        }
        Ok(())
    }

    /// Adds `value` to the list at `path` (made when missing) unless it is
    /// already there; whether it was added.
    pub fn add_member(&mut self, path: &[&str], value: &Value) -> Result<bool, DocumentError> {
        let Some((last, parents)) = path.split_last() else {
            return Ok(false);
        };
        match self {
            Self::Json(root) => {
                let object = json_object_or_make(root, parents)?;
                let list = object
                    .array_value_or_create(last)
                    .ok_or_else(|| DocumentError::NotAList(path.join(".")))?;
                if list
                    .elements()
                    .iter()
                    .any(|e| e.to_serde_value().as_ref() == Some(value))
                {
                    return Ok(false);
                }
                list.append(json_input(value));
                Ok(true)
            }
            Self::Toml(doc) => {
                let table = toml_table_or_make(doc, parents)?;
                let item = table
                    .entry(last)
                    .or_insert(Item::Value(toml_edit::Array::new().into()));
                let list = item
                    .as_array_mut()
                    .ok_or_else(|| DocumentError::NotAList(path.join(".")))?;
                if list
                    .iter()
                    .any(|v| toml_to_json(&Item::Value(v.clone())).as_ref() == Some(value))
                {
                    return Ok(false);
                }
                if let Item::Value(v) = json_to_toml(value, false) {
                    list.push_formatted(v.decorated(if list.is_empty() { "" } else { " " }, ""));
                }
                Ok(true)
            }
        }
    }

    /// Takes `value` out of the list at `path`, and the list itself once
    /// empty; whether it was there.
    pub fn remove_member(&mut self, path: &[&str], value: &Value) -> bool {
        let Some((last, parents)) = path.split_last() else {
            return false;
        };
        let removed = match self {
            Self::Json(root) => {
                let Some(list) = json_object(root, parents).and_then(|o| o.array_value(last)) else {
                    return false;
                };
                let found = list
                    .elements()
                    .into_iter()
                    .find(|e| e.to_serde_value().as_ref() == Some(value));
                found.map(|element| element.remove()).is_some()
            }
            Self::Toml(doc) => {
                let Some(list) = toml_item_mut(doc, path).and_then(Item::as_array_mut) else {
                    return false;
                };
                let index = list
                    .iter()
                    .position(|v| toml_to_json(&Item::Value(v.clone())).as_ref() == Some(value));
                index.map(|i| list.remove(i)).is_some()
            }
        };
        if removed
            && self
                .get(path)
                .is_some_and(|list| list.as_array().is_some_and(Vec::is_empty))
        {
            self.remove(path);
        }
        removed
    }

    /// Removes the key at `path`, then every object on the way that it
    /// leaves empty.
    pub fn remove(&mut self, path: &[&str]) {
        for depth in (1..=path.len()).rev() {
            let here = &path[..depth];
            if depth < path.len()
                && !self
                    .get(here)
                    .is_some_and(|v| v.as_object().is_some_and(|o| o.is_empty()))
            {
                break;
            }
            let (last, parents) = here.split_last().expect("depth is at least 1");
            match self {
                Self::Json(root) => {
                    if let Some(prop) = json_object(root, parents).and_then(|o| o.get(last)) {
                        prop.remove();
                    }
                }
                Self::Toml(doc) => {
                    let parent = if parents.is_empty() {
                        Some(doc.as_table_mut() as &mut dyn TableLike)
                    } else {
                        toml_item_mut(doc, parents).and_then(Item::as_table_like_mut)
                    };
                    if let Some(table) = parent {
                        table.remove(last);
                    }
                }
            }
        }
    }
}

fn json_object(root: &CstRootNode, path: &[&str]) -> Option<CstObject> {
    let mut object = root.object_value()?;
    for key in path {
        object = object.object_value(key)?;
    }
    Some(object)
}

fn json_object_or_make(root: &CstRootNode, path: &[&str]) -> Result<CstObject, DocumentError> {
    let mut object = root.object_value_or_set();
    for (depth, key) in path.iter().enumerate() {
        object = object
            .object_value_or_create(key)
            .ok_or_else(|| DocumentError::NotAnObject(path[..=depth].join(".")))?;
    }
    Ok(object)
}

fn json_input(value: &Value) -> CstInputValue {
    match value {
        Value::Null => CstInputValue::Null,
        Value::Bool(b) => CstInputValue::Bool(*b),
        Value::Number(n) => CstInputValue::Number(n.to_string()),
        Value::String(s) => CstInputValue::String(s.clone()),
        Value::Array(items) => CstInputValue::Array(items.iter().map(json_input).collect()),
        Value::Object(map) => {
            CstInputValue::Object(map.iter().map(|(k, v)| (k.clone(), json_input(v))).collect())
        }
    }
}

fn toml_item_mut<'a>(doc: &'a mut DocumentMut, path: &[&str]) -> Option<&'a mut Item> {
    let mut item = doc.as_item_mut();
    for key in path {
        item = item.as_table_like_mut()?.get_mut(key)?;
    }
    Some(item)
}

fn toml_table_or_make<'a>(
    doc: &'a mut DocumentMut,
    path: &[&str],
) -> Result<&'a mut dyn TableLike, DocumentError> {
    let mut table: &mut dyn TableLike = doc.as_table_mut();
    for (depth, key) in path.iter().enumerate() {
        let item = table.entry(key).or_insert_with(|| {
            let mut made = toml_edit::Table::new();
            // A table made only to hold another has no header of its own.
            made.set_implicit(true);
            Item::Table(made)
        });
        table = item
            .as_table_like_mut()
            .ok_or_else(|| DocumentError::NotAnObject(path[..=depth].join(".")))?;
    }
    Ok(table)
}

/// `value` as TOML: objects as tables when `tables` (a `[header]` each),
/// inline inside arrays.
fn json_to_toml(value: &Value, tables: bool) -> Item {
    match value {
        Value::Object(map) if tables => {
            let mut table = toml_edit::Table::new();
            for (key, v) in map {
                table.insert(key, json_to_toml(v, true));
            }
            // Only sub-tables: no empty header above them.
            table.set_implicit(map.values().all(Value::is_object));
            Item::Table(table)
        }
        Value::Object(map) => {
            let mut inline = toml_edit::InlineTable::new();
            for (key, v) in map {
                if let Item::Value(v) = json_to_toml(v, false) {
                    inline.insert(key, v);
                }
            }
            Item::Value(inline.into())
        }
        Value::Array(items) => {
            let array: toml_edit::Array = items
                .iter()
                .filter_map(|v| json_to_toml(v, false).into_value().ok())
                .collect();
            Item::Value(array.into())
        }
        Value::String(s) => Item::Value(s.as_str().into()),
        Value::Bool(b) => Item::Value((*b).into()),
        Value::Number(n) => match (n.as_i64(), n.as_f64()) {
            (Some(i), _) => Item::Value(i.into()),
            (None, Some(f)) => Item::Value(f.into()),
            _ => Item::None,
        },
        Value::Null => Item::None,
    }
}

fn toml_to_json(item: &Item) -> Option<Value> {
    match item {
        Item::None => None,
        Item::Value(value) => Some(toml_value_to_json(value)),
        Item::Table(table) => Some(Value::Object(
            table
                .iter()
                .filter_map(|(k, v)| Some((k.to_owned(), toml_to_json(v)?)))
                .collect(),
        )),
        Item::ArrayOfTables(tables) => Some(Value::Array(
            tables
                .iter()
                .filter_map(|t| toml_to_json(&Item::Table(t.clone())))
                .collect(),
        )),
    }
}

fn toml_value_to_json(value: &toml_edit::Value) -> Value {
    use toml_edit::Value as T;
    match value {
        T::String(s) => Value::String(s.value().clone()),
        T::Integer(i) => Value::from(*i.value()),
        T::Float(f) => Value::from(*f.value()),
        T::Boolean(b) => Value::Bool(*b.value()),
        T::Datetime(d) => Value::String(d.value().to_string()),
        T::Array(items) => Value::Array(items.iter().map(toml_value_to_json).collect()),
        T::InlineTable(table) => Value::Object(
            table
                .iter()
                .map(|(k, v)| (k.to_owned(), toml_value_to_json(v)))
                .collect(),
        ),
    }
}
