//! What each syntax's editor does, and why an edit can fail: the pieces
//! the syntaxes share, below both the document and each syntax.

use serde_json::Value;

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

/// One syntax's edits; `parents` are the keys down to the object that
/// holds `last`.
pub trait Tree {
    /// The text as it is now.
    fn render(&self) -> String;
    /// The names of the keys at the top.
    fn top_keys(&self) -> Vec<String>;
    /// The value at `path`, if any.
    fn get(&self, path: &[&str]) -> Option<Value>;
    /// Sets `last` to `value`, making the objects on the way.
    fn set(&mut self, parents: &[&str], last: &str, value: &Value) -> Result<(), DocumentError>;
    /// Appends `value` to the list `last` (made when missing); whether it
    /// was added (it is not when it is there already).
    fn add_member(&mut self, parents: &[&str], last: &str, value: &Value) -> Result<bool, DocumentError>;
    /// Takes `value` out of the list `last`; whether it was there.
    fn remove_member(&mut self, parents: &[&str], last: &str, value: &Value) -> bool;
    /// Removes the key `last`, if there.
    fn remove_key(&mut self, parents: &[&str], last: &str);
}
