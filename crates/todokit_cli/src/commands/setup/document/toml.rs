//! TOML through `toml_edit`, the crate cargo edits manifests with: every
//! comment, order and spacing kept.

use serde_json::Value;
use toml_edit::{DocumentMut, Item, TableLike};

use super::tree::{DocumentError, Tree};

/// A TOML file.
pub struct Toml(DocumentMut);

impl Toml {
    /// `text` parsed.
    pub fn parse(text: &str) -> Result<Self, DocumentError> {
        text.parse::<DocumentMut>()
            .map(Self)
            .map_err(|e| DocumentError::Parse(e.to_string().trim_end().to_owned()))
    }

    fn item_mut(&mut self, path: &[&str]) -> Option<&mut Item> {
        let mut item = self.0.as_item_mut();
        for key in path {
            item = item.as_table_like_mut()?.get_mut(key)?;
        }
        Some(item)
    }

    fn table_or_make(&mut self, path: &[&str]) -> Result<&mut dyn TableLike, DocumentError> {
        let mut table: &mut dyn TableLike = self.0.as_table_mut();
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
}

impl Tree for Toml {
    fn render(&self) -> String {
        self.0.to_string()
    }

    fn top_keys(&self) -> Vec<String> {
        self.0.as_table().iter().map(|(key, _)| key.to_owned()).collect()
    }

    fn get(&self, path: &[&str]) -> Option<Value> {
        let mut item = self.0.as_item();
        for key in path {
            item = item.as_table_like()?.get(key)?;
        }
        to_json(item)
    }

    fn set(&mut self, parents: &[&str], last: &str, value: &Value) -> Result<(), DocumentError> {
        self.table_or_make(parents)?.insert(last, from_json(value, true));
        Ok(())
    }

    fn add_member(&mut self, parents: &[&str], last: &str, value: &Value) -> Result<bool, DocumentError> {
        let path = [parents, &[last]].concat().join(".");
        let item = self
            .table_or_make(parents)?
            .entry(last)
            .or_insert(Item::Value(toml_edit::Array::new().into()));
        let list = item.as_array_mut().ok_or(DocumentError::NotAList(path))?;
        if list
            .iter()
            .any(|v| to_json(&Item::Value(v.clone())).as_ref() == Some(value))
        {
            return Ok(false);
        }
        if let Item::Value(v) = from_json(value, false) {
            list.push_formatted(v.decorated(if list.is_empty() { "" } else { " " }, ""));
        }
        Ok(true)
    }

    fn remove_member(&mut self, parents: &[&str], last: &str, value: &Value) -> bool {
        let path = [parents, &[last]].concat();
        let Some(list) = self.item_mut(&path).and_then(Item::as_array_mut) else {
            return false;
        };
        let index = list
            .iter()
            .position(|v| to_json(&Item::Value(v.clone())).as_ref() == Some(value));
        index.map(|i| list.remove(i)).is_some()
    }

    fn remove_key(&mut self, parents: &[&str], last: &str) {
        let parent = if parents.is_empty() {
            Some(self.0.as_table_mut() as &mut dyn TableLike)
        } else {
            self.item_mut(parents).and_then(Item::as_table_like_mut)
        };
        if let Some(table) = parent {
            table.remove(last);
        }
    }
}

/// `value` as TOML: objects as tables when `tables` (a `[header]` each),
/// inline inside arrays.
fn from_json(value: &Value, tables: bool) -> Item {
    match value {
        Value::Object(map) if tables => {
            let mut table = toml_edit::Table::new();
            for (key, v) in map {
                table.insert(key, from_json(v, true));
            }
            // Only sub-tables: no empty header above them.
            table.set_implicit(map.values().all(Value::is_object));
            Item::Table(table)
        }
        Value::Object(map) => {
            let mut inline = toml_edit::InlineTable::new();
            for (key, v) in map {
                if let Item::Value(v) = from_json(v, false) {
                    inline.insert(key, v);
                }
            }
            Item::Value(inline.into())
        }
        Value::Array(items) => {
            let array: toml_edit::Array = items
                .iter()
                .filter_map(|v| from_json(v, false).into_value().ok())
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

fn to_json(item: &Item) -> Option<Value> {
    match item {
        Item::None => None,
        Item::Value(value) => Some(value_to_json(value)),
        Item::Table(table) => Some(Value::Object(
            table
                .iter()
                .filter_map(|(k, v)| Some((k.to_owned(), to_json(v)?)))
                .collect(),
        )),
        Item::ArrayOfTables(tables) => Some(Value::Array(
            tables
                .iter()
                .filter_map(|t| to_json(&Item::Table(t.clone())))
                .collect(),
        )),
    }
}

fn value_to_json(value: &toml_edit::Value) -> Value {
    use toml_edit::Value as T;
    match value {
        T::String(s) => Value::String(s.value().clone()),
        T::Integer(i) => Value::from(*i.value()),
        T::Float(f) => Value::from(*f.value()),
        T::Boolean(b) => Value::Bool(*b.value()),
        T::Datetime(d) => Value::String(d.value().to_string()),
        T::Array(items) => Value::Array(items.iter().map(value_to_json).collect()),
        T::InlineTable(table) => Value::Object(
            table
                .iter()
                .map(|(k, v)| (k.to_owned(), value_to_json(v)))
                .collect(),
        ),
    }
}
