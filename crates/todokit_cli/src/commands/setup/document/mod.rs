//! An agent's configuration file as its author wrote it: JSON (with the
//! comments and trailing commas JSONC allows), TOML or YAML, edited key by
//! key so that everything `todokit setup` does not touch (comments, order,
//! layout, other keys) comes out byte for byte as it went in.
//!
//! Paths are lists of object keys from the top; values are JSON values,
//! written into TOML and YAML as the matching values there (objects as
//! tables or mappings). Each syntax is one [`Tree`]; what is the same for
//! all three (taking out what an edit leaves empty) is here.

mod json;
mod toml;
pub mod tree;
mod yaml;

use serde_json::Value;

use tree::{DocumentError, Tree};

/// The syntax of a configuration file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Syntax {
    /// JSON, comments and trailing commas allowed (as VS Code, Zed and the
    /// agents that share their parsers read it).
    Json,
    /// TOML.
    Toml,
    /// YAML (Goose's configuration, Kimi CLI's agent files).
    Yaml,
}

/// A parsed configuration file.
pub struct Document(Box<dyn Tree>);

impl Document {
    /// `text` read as `syntax`; empty or blank text is an empty document.
    pub fn parse(syntax: Syntax, text: &str) -> Result<Self, DocumentError> {
        Ok(Self(match syntax {
            Syntax::Json => Box::new(json::Json::parse(text)?),
            Syntax::Toml => Box::new(toml::Toml::parse(text)?),
            Syntax::Yaml => Box::new(yaml::Yaml::parse(text)?),
        }))
    }

    /// The file's text as it is now.
    pub fn render(&self) -> String {
        self.0.render()
    }

    /// Whether nothing is set in the file (an empty object, table or mapping).
    pub fn is_empty(&self) -> bool {
        self.0.top_keys().is_empty()
    }

    /// The names of the keys at the top.
    pub fn top_keys(&self) -> Vec<String> {
        self.0.top_keys()
    }

    /// The value at `path`, if any.
    pub fn get(&self, path: &[&str]) -> Option<Value> {
        self.0.get(path)
    }

    /// Sets `path` to `value`, making the objects on the way.
    pub fn set(&mut self, path: &[&str], value: &Value) -> Result<(), DocumentError> {
        match path.split_last() {
            Some((last, parents)) => self.0.set(parents, last, value),
            None => Ok(()),
        }
    }

    /// Adds `value` to the list at `path` (made when missing) unless it is
    /// already there; whether it was added.
    pub fn add_member(&mut self, path: &[&str], value: &Value) -> Result<bool, DocumentError> {
        match path.split_last() {
            Some((last, parents)) => self.0.add_member(parents, last, value),
            None => Ok(false),
        }
    }

    /// Takes `value` out of the list at `path`, and the list itself once
    /// empty; whether it was there.
    pub fn remove_member(&mut self, path: &[&str], value: &Value) -> bool {
        let Some((last, parents)) = path.split_last() else {
            return false;
        };
        let removed = self.0.remove_member(parents, last, value);
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
            if let Some((last, parents)) = here.split_last() {
                self.0.remove_key(parents, last);
            }
        }
    }
}
