//! The types both packages declare for the stored documents they hand a
//! host (Python's typed dictionaries in `todokit/_types.py`, TypeScript's
//! interfaces in `ts/types.ts`, in camelCase), held key for key to the Rust
//! types they are built from: a field added to, renamed in or dropped from
//! a Rust type fails here until both declarations follow.

use std::collections::{BTreeMap, BTreeSet};

use pretty_assertions::assert_eq;
use schemars::schema_for;
use serde_json::Value;
use todokit::{ConversationSummary, TodoState};

/// The Python module's text.
const PYTHON_TYPES: &str = include_str!("../../todokit_python/python/todokit/_types.py");

/// The TypeScript module's text.
const TYPESCRIPT_TYPES: &str = include_str!("../../todokit_node/ts/types.ts");

/// Every `export interface Name {` of `text` and the keys its body
/// declares (`  readonly key?: type;` lines).
fn interfaces(text: &str) -> BTreeMap<String, BTreeSet<String>> {
    let mut found: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut current: Option<String> = None;
    for line in text.lines() {
        if let Some(head) = line.strip_prefix("export interface ") {
            current = head.split([' ', '{']).next().map(str::to_owned);
            continue;
        }
        if line.starts_with('}') {
            current = None;
            continue;
        }
        let key = line
            .strip_prefix("  ")
            .map(|rest| rest.strip_prefix("readonly ").unwrap_or(rest))
            .and_then(|rest| rest.split_once(':'))
            .map(|(key, _)| key.trim_end_matches('?'))
            .filter(|key| !key.is_empty() && key.chars().all(|c| c.is_ascii_alphanumeric()));
        if let (Some(interface), Some(key)) = (&current, key) {
            found.entry(interface.clone()).or_default().insert(key.to_owned());
        }
    }
    found
}

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

/// What each declared type must hold: the Rust type's keys.
fn rust_keys() -> BTreeMap<String, BTreeSet<String>> {
    let state = serde_json::to_value(schema_for!(TodoState)).unwrap_or_default();
    let summary = serde_json::to_value(schema_for!(ConversationSummary)).unwrap_or_default();
    let definition = |name: &str| properties(&state["$defs"][name]);
    [
        ("State", properties(&state)),
        ("Phase", definition("Phase")),
        ("Task", definition("Todo")),
        ("StoredNotice", definition("Notice")),
        ("StatusCounts", properties(&summary["$defs"]["StatusCounts"])),
        ("ConversationSummary", properties(&summary)),
    ]
    .into_iter()
    .map(|(name, keys)| (name.to_owned(), keys))
    .collect()
}

/// What `declared` holds for each type `expected` names (nothing for one
/// it lacks).
fn declared_as(
    expected: &BTreeMap<String, BTreeSet<String>>,
    declared: &BTreeMap<String, BTreeSet<String>>,
) -> BTreeMap<String, BTreeSet<String>> {
    expected
        .keys()
        .map(|name| (name.clone(), declared.get(name).cloned().unwrap_or_default()))
        .collect()
}

#[test]
fn the_python_packages_typed_dictionaries_have_the_rust_types_keys() {
    let expected = rust_keys();
    let actual = declared_as(&expected, &declared(PYTHON_TYPES));
    assert_eq!(actual, expected);
}

#[test]
fn the_npm_packages_interfaces_have_the_rust_types_keys_in_camel_case() {
    let camel = |key: &str| match crate::camel_case(serde_json::json!({ key: null })) {
        Value::Object(object) => object.keys().next().cloned().unwrap_or_default(),
        _ => String::new(),
    };
    let expected: BTreeMap<String, BTreeSet<String>> = rust_keys()
        .into_iter()
        .map(|(name, keys)| (name, keys.iter().map(|key| camel(key)).collect()))
        .collect();
    let actual = declared_as(&expected, &interfaces(TYPESCRIPT_TYPES));
    assert_eq!(actual, expected);
}

#[test]
fn the_npm_packages_error_codes_are_the_rust_ones() {
    const ERRORS: &str = include_str!("../../todokit_node/ts/errors.ts");
    let union = ERRORS
        .split_once("export type TodokitErrorCode =")
        .and_then(|(_, rest)| rest.split_once(';'))
        .map(|(union, _)| union)
        .unwrap_or_default();
    let actual: Vec<&str> = union
        .split('|')
        .map(|word| word.trim().trim_matches('\''))
        .filter(|word| !word.is_empty())
        .collect();
    let expected: Vec<&str> = crate::ErrorCode::ALL.iter().map(|code| code.as_str()).collect();
    assert_eq!(actual, expected);
}
