//! YAML through `yaml-edit`'s lossless syntax tree: comments, quoting,
//! order and indentation kept; what setup adds is written in block style
//! at the file's own indentation. A mapping setup writes has its keys in
//! alphabetical order (the crate builds new mappings from a sorted map);
//! the agents read keys, not their order.

use std::collections::BTreeMap;
use std::str::FromStr;

use serde_json::Value;
use yaml_edit::{Document, Mapping, ScalarValue, YamlNode, YamlValue};

use super::tree::{DocumentError, Tree};

/// A YAML file of one document whose top is a mapping.
pub struct Yaml(Document);

impl Yaml {
    /// `text` parsed; blank text is an empty mapping.
    pub fn parse(text: &str) -> Result<Self, DocumentError> {
        if text.trim().is_empty() {
            return Ok(Self(Document::new_mapping()));
        }
        let doc = Document::from_str(text).map_err(|e| DocumentError::Parse(e.to_string()))?;
        if doc.as_mapping().is_none() {
            return Err(DocumentError::Parse(
                "the file holds something else than a mapping".into(),
            ));
        }
        Ok(Self(doc))
    }

    fn mapping(&self, path: &[&str]) -> Option<Mapping> {
        let mut mapping = self.0.as_mapping()?;
        for key in path {
            mapping = mapping.get_mapping(*key)?;
        }
        Some(mapping)
    }

    /// Sets `path` to `value`. The first key missing on the way gets the
    /// rest of the path as nested mappings in one go: a mapping made empty
    /// first would be written `{}` and stay in flow style once filled.
    fn set_deep(&self, path: &[&str], value: YamlValue) -> Result<(), DocumentError> {
        let mut mapping = self
            .0
            .as_mapping()
            .ok_or_else(|| DocumentError::NotAnObject(String::new()))?;
        for (depth, key) in path.iter().enumerate() {
            let last = depth + 1 == path.len();
            if last || !mapping.contains_key(*key) {
                let nested = path[depth + 1..].iter().rev().fold(value, |inner, key| {
                    YamlValue::Mapping(BTreeMap::from([((*key).to_owned(), inner)]))
                });
                mapping.set(*key, nested);
                return Ok(());
            }
            mapping = mapping
                .get_mapping(*key)
                .ok_or_else(|| DocumentError::NotAnObject(path[..=depth].join(".")))?;
        }
        Ok(())
    }
}

impl Tree for Yaml {
    fn render(&self) -> String {
        self.0.to_string()
    }

    fn top_keys(&self) -> Vec<String> {
        self.0.as_mapping().map_or_else(Vec::new, |mapping| {
            mapping
                .keys()
                .filter_map(|key| key.as_scalar().map(|s| s.as_string()))
                .collect()
        })
    }

    fn get(&self, path: &[&str]) -> Option<Value> {
        let (last, parents) = path.split_last()?;
        Some(to_json(&self.mapping(parents)?.get(*last)?))
    }

    fn set(&mut self, parents: &[&str], last: &str, value: &Value) -> Result<(), DocumentError> {
        self.set_deep(&[parents, &[last]].concat(), from_json(value))
    }

    fn add_member(&mut self, parents: &[&str], last: &str, value: &Value) -> Result<bool, DocumentError> {
        let path = [parents, &[last]].concat();
        let Some(existing) = self.mapping(parents).and_then(|m| m.get(last)) else {
            self.set_deep(&path, YamlValue::Sequence(vec![from_json(value)]))?;
            return Ok(true);
        };
        let not_a_list = || DocumentError::NotAList(path.join("."));
        let list = existing.as_sequence().ok_or_else(not_a_list)?;
        if list.values().any(|v| &to_json(&v) == value) {
            return Ok(false);
        }
        list.push(from_json(value));
        Ok(true)
    }

    fn remove_member(&mut self, parents: &[&str], last: &str, value: &Value) -> bool {
        let Some(list) = self.mapping(parents).and_then(|m| m.get_sequence(last)) else {
            return false;
        };
        let index = list.values().position(|v| &to_json(&v) == value);
        index.and_then(|i| list.remove(i)).is_some()
    }

    fn remove_key(&mut self, parents: &[&str], last: &str) {
        if let Some(mapping) = self.mapping(parents) {
            mapping.remove(last);
        }
    }
}

fn from_json(value: &Value) -> YamlValue {
    match value {
        Value::Null => YamlValue::scalar(ScalarValue::null()),
        Value::Bool(b) => YamlValue::scalar(*b),
        Value::Number(n) => match (n.as_i64(), n.as_f64()) {
            (Some(i), _) => YamlValue::scalar(i),
            (None, Some(f)) => YamlValue::scalar(f),
            _ => YamlValue::scalar(n.to_string()),
        },
        Value::String(s) => YamlValue::scalar(s.as_str()),
        Value::Array(items) => YamlValue::Sequence(items.iter().map(from_json).collect()),
        Value::Object(map) => {
            YamlValue::Mapping(map.iter().map(|(k, v)| (k.clone(), from_json(v))).collect())
        }
    }
}

/// A node as JSON: plain scalars typed as YAML 1.2 reads them (quoted
/// ones are strings), anchors and tags as the text they hold.
fn to_json(node: &YamlNode) -> Value {
    match node {
        YamlNode::Scalar(scalar) if scalar.is_null() => Value::Null,
        YamlNode::Scalar(scalar) if scalar.is_quoted() => Value::String(scalar.as_string()),
        YamlNode::Scalar(scalar) => match (scalar.as_bool(), scalar.as_i64(), scalar.as_f64()) {
            (Some(b), _, _) => Value::Bool(b),
            (_, Some(i), _) => Value::from(i),
            (_, _, Some(f)) => Value::from(f),
            _ => Value::String(scalar.as_string()),
        },
        YamlNode::Mapping(mapping) => Value::Object(
            mapping
                .iter()
                .filter_map(|(k, v)| Some((k.as_scalar()?.as_string(), to_json(&v))))
                .collect(),
        ),
        YamlNode::Sequence(list) => Value::Array(list.values().map(|v| to_json(&v)).collect()),
        other => Value::String(other.to_string()),
    }
}
