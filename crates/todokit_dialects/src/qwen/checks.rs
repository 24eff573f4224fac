//! Qwen Code's own checks of a `todo_write` list (`validateTodos`), which
//! replace its schema's, in its order and words: the first failure is the
//! refusal.

use std::collections::{HashMap, HashSet};

use serde_json::{Map, Value};

use todokit_app::prelude::{TriStatus, WireEnum};

/// The refusal of arguments without a `todos` array.
pub const NOT_AN_ARRAY: &str = "Parameter \"todos\" must be an array.";
/// The refusal of an item that is not an object.
pub const NOT_AN_OBJECT: &str = "Each todo must be an object.";
/// The refusal of a todo without a usable id.
pub const NO_ID: &str = "Each todo must have a non-empty \"id\" string of at most 500 characters.";
/// The refusal of a todo without a usable content.
pub const NO_CONTENT: &str = "Each todo must have a non-empty \"content\" string.";
/// The refusal of a status Qwen Code does not know.
pub const BAD_STATUS: &str = "Each todo must have a valid \"status\" (pending, in_progress, completed).";
/// The refusal of a `blockedBy` that is not a list of usable ids.
pub const BAD_BLOCKED_BY: &str =
    "Each todo \"blockedBy\" value must be an array of non-empty Todo IDs of at most 500 characters.";
/// The refusal of two todos with one id.
pub const DUPLICATE_IDS: &str = "Todo IDs must be unique within the array.";
/// The refusal of dependencies that go round in a circle.
pub const CYCLE: &str = "Todo dependencies must not contain a cycle.";
/// The longest id (and dependency) Qwen Code takes, in UTF-16 code units
/// (JavaScript's `length`).
pub const MAX_ID_UNITS: usize = 500;

/// The key of an item's dependencies.
pub const BLOCKED_BY: &str = "blockedBy";

/// Qwen Code's checks on `items` (`None` for one that is not an object):
/// each item's fields, then unique ids, then each item's dependencies,
/// then cycles. The first failure's words.
pub fn check_items(items: &[Option<&Map<String, Value>>]) -> Result<(), String> {
    for item in items {
        let Some(item) = item else {
            return Err(NOT_AN_OBJECT.to_owned());
        };
        let id = item.get("id").and_then(Value::as_str);
        if !id.is_some_and(|id| is_filled(id) && utf16_len(id) <= MAX_ID_UNITS) {
            return Err(NO_ID.to_owned());
        }
        if !item.get("content").and_then(Value::as_str).is_some_and(is_filled) {
            return Err(NO_CONTENT.to_owned());
        }
        let known = item
            .get("status")
            .and_then(Value::as_str)
            .is_some_and(|word| TriStatus::SPELLINGS.iter().any(|(known, _)| *known == word));
        if !known {
            return Err(BAD_STATUS.to_owned());
        }
        // `null` is taken as left out: a strict view makes the model send
        // every field.
        if let Some(blocked_by) = item.get(BLOCKED_BY).filter(|v| !v.is_null()) {
            let usable = |dependency: &Value| {
                dependency
                    .as_str()
                    .is_some_and(|d| is_filled(d) && utf16_len(d) <= MAX_ID_UNITS)
            };
            if !blocked_by.as_array().is_some_and(|list| list.iter().all(usable)) {
                return Err(BAD_BLOCKED_BY.to_owned());
            }
        }
    }
    // Every item is an object with a string id from here on.
    let ids: Vec<&str> = items
        .iter()
        .flatten()
        .filter_map(|i| i.get("id")?.as_str())
        .collect();
    let unique: HashSet<&str> = ids.iter().copied().collect();
    if unique.len() != ids.len() {
        return Err(DUPLICATE_IDS.to_owned());
    }
    for (item, id) in items.iter().flatten().zip(&ids) {
        let deps = dependencies(item);
        if deps.iter().collect::<HashSet<_>>().len() != deps.len() {
            return Err(format!(
                "Todo \"{id}\" must not contain duplicate blockedBy references."
            ));
        }
        if deps.contains(id) {
            return Err(format!("Todo \"{id}\" must not depend on itself."));
        }
        if let Some(missing) = deps.iter().find(|d| !unique.contains(*d)) {
            return Err(format!(
                "Todo \"{id}\" references unknown dependency \"{missing}\"."
            ));
        }
    }
    // Kahn's walk from the items with nothing to wait for: any item it
    // never reaches sits on a cycle.
    let mut waiting: HashMap<&str, usize> = HashMap::with_capacity(ids.len());
    let mut dependents: HashMap<&str, Vec<&str>> = HashMap::new();
    for (item, id) in items.iter().flatten().zip(&ids) {
        let deps = dependencies(item);
        waiting.insert(id, deps.len());
        for dependency in deps {
            dependents.entry(dependency).or_default().push(id);
        }
    }
    let mut queue: Vec<&str> = ids
        .iter()
        .copied()
        .filter(|id| waiting.get(id) == Some(&0))
        .collect();
    let mut next = 0;
    while let Some(done) = queue.get(next).copied() {
        next += 1;
        for dependent in dependents.get(done).into_iter().flatten() {
            if let Some(count) = waiting.get_mut(dependent) {
                *count -= 1;
                if *count == 0 {
                    queue.push(dependent);
                }
            }
        }
    }
    if queue.len() != ids.len() {
        return Err(CYCLE.to_owned());
    }
    Ok(())
}

/// The dependencies an item names (none when it names none).
fn dependencies(item: &Map<String, Value>) -> Vec<&str> {
    item.get(BLOCKED_BY)
        .and_then(Value::as_array)
        .map(|list| list.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default()
}

/// A string's length as JavaScript counts it (UTF-16 code units).
fn utf16_len(text: &str) -> usize {
    text.chars().map(char::len_utf16).sum()
}

/// A string with something in it besides the white space JavaScript's
/// `trim` removes (which, unlike Rust's, includes U+FEFF and leaves U+0085).
pub fn is_filled(text: &str) -> bool {
    text.chars()
        .any(|c| !(c == '\u{feff}' || (c.is_whitespace() && c != '\u{85}')))
}
