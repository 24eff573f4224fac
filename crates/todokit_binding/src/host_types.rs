//! The typed dictionaries the Python package declares for what it hands a
//! host (`todokit/_types.py`), held key for key to the Rust types they are
//! built from: a field added to, renamed in or dropped from a Rust type
//! fails here until the Python declaration follows.

use std::collections::{BTreeMap, BTreeSet};

use pretty_assertions::assert_eq;
use schemars::schema_for;
use serde_json::Value;
use todokit::{ConversationSummary, TodoState};

/// The Python module's text.
const PYTHON_TYPES: &str = include_str!("../../todokit_python/python/todokit/_types.py");

/// Every `class Name(...)` of `text` and the keys its body declares
/// (`    key: type` lines), a required part (`_NameRequired`) folded into
/// `Name`.
fn declared(text: &str) -> BTreeMap<String, BTreeSet<String>> {
    let mut classes: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut current: Option<String> = None;
    for line in text.lines() {
        if let Some(head) = line.strip_prefix("class ") {
            let name = head.split(['(', ':']).next().unwrap_or_default();
            let name = name
                .strip_prefix('_')
                .and_then(|n| n.strip_suffix("Required"))
                .unwrap_or(name);
            current = Some(name.to_owned());
            continue;
        }
        if !line.starts_with(' ') && !line.trim().is_empty() {
            current = None;
            continue;
        }
        let key = line
            .strip_prefix("    ")
            .filter(|rest| !rest.starts_with([' ', '#', '"']))
            .and_then(|rest| rest.split_once(": "))
            .map(|(key, _)| key)
            .filter(|key| key.chars().all(|c| c.is_ascii_lowercase() || c == '_'));
        if let (Some(class), Some(key)) = (&current, key) {
            classes.entry(class.clone()).or_default().insert(key.to_owned());
        }
    }
    classes
}

/// The property names of `schema` (a root, or one of its `$defs`).
fn properties(schema: &Value) -> BTreeSet<String> {
    schema["properties"]
        .as_object()
        .map(|props| props.keys().cloned().collect())
        .unwrap_or_default()
}

#[test]
fn the_python_packages_typed_dictionaries_have_the_rust_types_keys() {
    let state = serde_json::to_value(schema_for!(TodoState)).unwrap_or_default();
    let summary = serde_json::to_value(schema_for!(ConversationSummary)).unwrap_or_default();
    let definition = |name: &str| properties(&state["$defs"][name]);
    let expected: BTreeMap<String, BTreeSet<String>> = [
        ("State", properties(&state)),
        ("Phase", definition("Phase")),
        ("Task", definition("Todo")),
        ("StoredNotice", definition("Notice")),
        ("StatusCounts", properties(&summary["$defs"]["StatusCounts"])),
        ("ConversationSummary", properties(&summary)),
    ]
    .into_iter()
    .map(|(name, keys)| (name.to_owned(), keys))
    .collect();
    let declared = declared(PYTHON_TYPES);
    let actual: BTreeMap<String, BTreeSet<String>> = expected
        .keys()
        .map(|name| (name.clone(), declared.get(name).cloned().unwrap_or_default()))
        .collect();
    assert_eq!(actual, expected);
}
