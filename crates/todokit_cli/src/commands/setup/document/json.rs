//! JSON and JSONC through `jsonc-parser`'s concrete syntax tree, which
//! keeps every comment and space and indents new keys as the file does.

use jsonc_parser::ParseOptions;
use jsonc_parser::cst::{CstInputValue, CstObject, CstRootNode};
use serde_json::Value;

use super::tree::{DocumentError, Tree};

/// A JSON or JSONC file.
pub struct Json(CstRootNode);

impl Json {
    /// `text` parsed; blank text is an empty object.
    pub fn parse(text: &str) -> Result<Self, DocumentError> {
        let text = if text.trim().is_empty() { "{}\n" } else { text };
        let root = CstRootNode::parse(text, &ParseOptions::default())
            .map_err(|e| DocumentError::Parse(e.to_string()))?;
        if root.value().is_some_and(|value| value.as_object().is_none()) {
            return Err(DocumentError::Parse(
                "the file holds something else than an object".into(),
            ));
        }
        Ok(Self(root))
    }

    fn object(&self, path: &[&str]) -> Option<CstObject> {
        let mut object = self.0.object_value()?;
        for key in path {
            object = object.object_value(key)?;
        }
        Some(object)
    }

    fn object_or_make(&self, path: &[&str]) -> Result<CstObject, DocumentError> {
        let mut object = self.0.object_value_or_set();
        for (depth, key) in path.iter().enumerate() {
            object = object
                .object_value_or_create(key)
                .ok_or_else(|| DocumentError::NotAnObject(path[..=depth].join(".")))?;
        }
        Ok(object)
    }
}

impl Tree for Json {
    fn render(&self) -> String {
        self.0.to_string()
    }

    fn top_keys(&self) -> Vec<String> {
        self.0.object_value().map_or_else(Vec::new, |object| {
            object
                .properties()
                .iter()
                .filter_map(|p| p.name()?.decoded_value().ok())
                .collect()
        })
    }

    fn get(&self, path: &[&str]) -> Option<Value> {
        let (last, parents) = path.split_last()?;
        self.object(parents)?.get(last)?.value()?.to_serde_value()
    }

    fn set(&mut self, parents: &[&str], last: &str, value: &Value) -> Result<(), DocumentError> {
        let object = self.object_or_make(parents)?;
        match object.get(last) {
            Some(prop) => prop.set_value(input(value)),
            None => {
                object.append(last, input(value));
            }
        }
        Ok(())
    }

    fn add_member(&mut self, parents: &[&str], last: &str, value: &Value) -> Result<bool, DocumentError> {
        let object = self.object_or_make(parents)?;
        let list = object
            .array_value_or_create(last)
            .ok_or_else(|| DocumentError::NotAList([parents, &[last]].concat().join(".")))?;
        if list
            .elements()
            .iter()
            .any(|e| e.to_serde_value().as_ref() == Some(value))
        {
            return Ok(false);
        }
        list.append(input(value));
        Ok(true)
    }

    fn remove_member(&mut self, parents: &[&str], last: &str, value: &Value) -> bool {
        let Some(list) = self.object(parents).and_then(|o| o.array_value(last)) else {
            return false;
        };
        let found = list
            .elements()
            .into_iter()
            .find(|e| e.to_serde_value().as_ref() == Some(value));
        found.map(|element| element.remove()).is_some()
    }

    fn remove_key(&mut self, parents: &[&str], last: &str) {
        if let Some(prop) = self.object(parents).and_then(|o| o.get(last)) {
            prop.remove();
        }
    }
}

fn input(value: &Value) -> CstInputValue {
    match value {
        Value::Null => CstInputValue::Null,
        Value::Bool(b) => CstInputValue::Bool(*b),
        Value::Number(n) => CstInputValue::Number(n.to_string()),
        Value::String(s) => CstInputValue::String(s.clone()),
        Value::Array(items) => CstInputValue::Array(items.iter().map(input).collect()),
        Value::Object(map) => CstInputValue::Object(map.iter().map(|(k, v)| (k.clone(), input(v))).collect()),
    }
}
