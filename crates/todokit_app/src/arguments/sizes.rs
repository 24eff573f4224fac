//! The size gate: every call's arguments measured before any tool sees
//! them, on every profile alike (`docs/limits.md` lists the figures), and
//! searched for the NUL character, which no list needs, PostgreSQL's
//! `jsonb` cannot hold and some terminals and C libraries cut text at.
//!
//! Two kinds of text: an item's text (content, title, note, description,
//! explanation, a metadata value or key, a reason, an id, a status) and a
//! whole list written as one text (Goose's `content`, Roo Code's `todos`).
//! Each has its cap, and every array its count cap. What passes the gate
//! can still be refused by the tool in its agent's own words (a list of 21
//! items where the original takes 20, a 201-byte task where it takes 200):
//! the gate only keeps work and memory bounded whatever arrives, so it
//! sits above every profile's own limits.
//!
//! Most calls are far below every cap, so the text is first skimmed once
//! without being parsed; only a call with a long string or a long array is
//! parsed and walked, beside the tool's schema, to name the field.

use serde_json::Value;

use super::compiled::Node;
use super::{ArgumentError, CompiledSchema, ROOT_FIELD};

/// The longest item text any profile takes when its original sets no
/// larger limit: 8 KiB.
pub const ITEM_TEXT_BYTES: usize = 8 * 1024;

/// How many times a profile's item count an array of one call may hold
/// before the gate refuses it: between the two, the tool refuses in its
/// own words.
pub const ARRAY_SLACK: usize = 2;

/// How many values (list items, keys, nested values) one call may hold per
/// item its profile's lists may hold, counted in its raw text before any of
/// it is parsed: a legitimate call is far below this, and past it a tree of
/// the call would take memory out of all proportion to what was sent.
pub const VALUES_PER_ITEM: usize = 64;

/// What the refusal of a NUL says about the field.
const NUL_MESSAGE: &str = "must not contain the NUL character (U+0000); remove it and send the call again";

/// The caps one profile's calls are measured against.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SizeLimits {
    /// The longest item text, in UTF-8 bytes.
    pub item_text_bytes: usize,
    /// The longest whole-list text, in UTF-8 bytes: the original's limit
    /// where it sets one, else the item count times the item text limit.
    pub list_text_bytes: usize,
    /// The top-level fields that hold a whole list as one text.
    pub list_text_fields: Vec<&'static str>,
    /// The most items one array of a call may hold.
    pub array_items: usize,
    /// The profile's own cap on a task's text, named in an item text's
    /// refusal when it is below [`SizeLimits::item_text_bytes`], so a model
    /// learns the limit that holds on its first refusal, not on its second.
    pub task_text_bytes: usize,
}

impl SizeLimits {
    /// No cap at all: the walk then only looks for the NUL character.
    const NONE: SizeLimits = SizeLimits {
        item_text_bytes: usize::MAX,
        list_text_bytes: usize::MAX,
        list_text_fields: Vec::new(),
        array_items: usize::MAX,
        task_text_bytes: usize::MAX,
    };

    /// The cap for the text at `path` whose schema node is `node`: a list
    /// sent as text (a declared whole-list field, or a string where the
    /// schema wants an array or object, which the lenient path parses)
    /// gets the list cap, any other text the item cap.
    fn cap(&self, path: &str, node: Option<&Node>) -> usize {
        let list = self.list_text_fields.contains(&path) || node.is_some_and(wants_structure);
        match list {
            true => self.list_text_bytes,
            false => self.item_text_bytes,
        }
    }
}

/// True when `node` takes an array or an object and not a string.
fn wants_structure(node: &Node) -> bool {
    let types = |n: &Node| {
        let has = |t: &str| n.types.contains(&t);
        (has("array") || has("object"), has("string"))
    };
    let (mut structure, mut string) = types(node);
    for branch in &node.any_of {
        let (s, t) = types(branch);
        structure |= s;
        string |= t;
    }
    structure && !string
}

/// The refusal for argument text past a cap of `limits` or holding a NUL
/// in any string, naming the field, or `None` when everything fits (or the
/// text is not JSON: the parser reports that). JSON text carries a NUL only
/// as the escape `\u0000`, so text without it and within the skim's bounds
/// is passed without a parse.
pub fn refused_text(text: &str, schema: &CompiledSchema, limits: &SizeLimits) -> Option<ArgumentError> {
    if !text.contains("\\u0000") && skim_fits(text.as_bytes(), limits) {
        return None;
    }
    // Counted before anything is parsed: a call of millions of tiny values
    // is refused here, never built as a tree to find out which field holds
    // them.
    let most = limits.array_items.saturating_mul(VALUES_PER_ITEM).max(4096);
    if json_values_over(text.as_bytes(), most) {
        return Some(refusal(
            "",
            format!(
                "the arguments hold more than {most} values (list items, keys and nested values together); a \
                 call holds at most {most}"
            ),
        ));
    }
    let value: Value = serde_json::from_str(text).ok()?;
    refused_value(&value, schema, limits)
}

/// [`refused_text`] for arguments already parsed.
pub fn refused_value(value: &Value, schema: &CompiledSchema, limits: &SizeLimits) -> Option<ArgumentError> {
    walk(value, Some(&schema.root), String::new(), limits, 0)
}

/// The refusal for a NUL in any string of `value` (a value or a key), with
/// no cap on sizes: for what did not come as a tool's arguments (a hand
/// edit's list).
pub fn nul_in_value(value: &Value) -> Option<ArgumentError> {
    walk(value, None, String::new(), &SizeLimits::NONE, 0)
}

/// The fields that carry prose beside a task (why it is blocked, a note,
/// an explanation), whose own cap is the item cap: their refusal does not
/// name a task's cap, which does not hold for them.
const FREE_TEXT_FIELDS: [&str; 6] = ["reason", "note", "notes", "description", "explanation", "details"];

/// Whether the text at `path` (`a.b[3].reason`) is one of the
/// [`FREE_TEXT_FIELDS`].
fn is_free_text(path: &str) -> bool {
    let leaf = path.rsplit('.').next().unwrap_or(path);
    let leaf = leaf.split('[').next().unwrap_or(leaf);
    FREE_TEXT_FIELDS.contains(&leaf)
}

/// How deeply a list sent as text inside a list sent as text is read.
const MAX_TEXT_NESTING: usize = 2;

fn walk(
    value: &Value,
    node: Option<&Node>,
    path: String,
    limits: &SizeLimits,
    nested: usize,
) -> Option<ArgumentError> {
    // Iterative over the tree: arguments may nest as deep as JSON allows.
    let mut stack = vec![(value, node, path)];
    while let Some((value, node, path)) = stack.pop() {
        let node = node.map(|n| n.any_of.iter().find(|b| b.types != ["null"]).unwrap_or(n));
        match value {
            Value::String(text) => {
                if text.contains('\0') {
                    return Some(refusal(&path, NUL_MESSAGE.to_owned()));
                }
                let cap = limits.cap(&path, node);
                if text.len() > cap {
                    // The words of the domain's own length check, so a
                    // profile's check at the same limit reads the same.
                    let mut message = format!(
                        "{} bytes of UTF-8 were sent; at most {cap} bytes are allowed",
                        text.len()
                    );
                    if cap == limits.item_text_bytes && limits.task_text_bytes < cap && !is_free_text(&path) {
                        message.push_str(&format!(
                            ", and a task's text may have at most {}",
                            limits.task_text_bytes
                        ));
                    }
                    return Some(refusal(&path, message));
                }
                // A list the lenient path will read out of the text is
                // measured like one sent as JSON.
                if nested < MAX_TEXT_NESTING
                    && node.is_some_and(wants_structure)
                    && let Ok(inner) = serde_json::from_str::<Value>(text)
                    && let found @ Some(_) = walk(&inner, node, path.clone(), limits, nested + 1)
                {
                    return found;
                }
            }
            Value::Array(items) => {
                if items.len() > limits.array_items {
                    return Some(refusal(
                        &path,
                        format!(
                            "{} items were sent; at most {} are allowed in one list",
                            items.len(),
                            limits.array_items
                        ),
                    ));
                }
                let inner = node.and_then(|n| n.items.as_deref());
                stack.extend(
                    items
                        .iter()
                        .enumerate()
                        .rev()
                        .map(|(i, item)| (item, inner, format!("{path}[{i}]"))),
                );
            }
            Value::Object(map) => {
                for key in map.keys() {
                    if key.contains('\0') {
                        let named = key.replace('\0', "\\u0000");
                        return Some(refusal(&join(&path, &named), NUL_MESSAGE.to_owned()));
                    }
                    if key.len() > limits.item_text_bytes {
                        return Some(refusal(
                            &path,
                            format!(
                                "a key of {} bytes was sent; at most {} bytes are allowed",
                                key.len(),
                                limits.item_text_bytes
                            ),
                        ));
                    }
                }
                let properties = node.and_then(|n| n.properties.as_deref()).unwrap_or_default();
                stack.extend(map.iter().rev().map(|(key, item)| {
                    let child = properties.iter().find(|(k, _)| k == key).map(|(_, n)| n);
                    (item, child, join(&path, key))
                }));
            }
            _ => {}
        }
    }
    None
}

/// `key` under `path`: `todos[2].content`.
fn join(path: &str, key: &str) -> String {
    match path.is_empty() {
        true => key.to_owned(),
        false => format!("{path}.{key}"),
    }
}

fn refusal(path: &str, message: String) -> ArgumentError {
    let field = match path.is_empty() {
        true => ROOT_FIELD.to_owned(),
        false => path.to_owned(),
    };
    ArgumentError::Field { field, message }
}

/// Whether `text` is surely within `limits` by its raw spelling: no string
/// literal longer than the item cap (a literal is never shorter than the
/// text it spells) or starting like a list, and no array with more commas
/// than the array cap. Not JSON at all counts as fitting: the parser says
/// what is wrong with it.
fn skim_fits(text: &[u8], limits: &SizeLimits) -> bool {
    // For each open bracket: whether it is an array, and its commas.
    let mut open: Vec<(bool, usize)> = Vec::new();
    let mut at = 0usize;
    while let Some(&byte) = text.get(at) {
        at += 1;
        match byte {
            b'"' => {
                let start = at;
                let Some(after) = json_string_end(text, at) else {
                    return true;
                };
                at = after;
                // A text that may hold JSON (a list sent as text, a slip
                // the lenient path repairs) is read whole: its items
                // count. Checklist text (`[x] Read`) does not start so.
                let list_like = matches!(
                    (text.get(start), text.get(start + 1)),
                    (Some(b'['), Some(b'{' | b'[' | b'\\' | b']' | b'0'..=b'9'))
                        | (Some(b'{'), Some(b'\\' | b'}'))
                );
                if list_like || at - 1 - start > limits.item_text_bytes {
                    return false;
                }
            }
            b'[' => open.push((true, 0)),
            b'{' => open.push((false, 0)),
            b']' | b'}' => {
                open.pop();
            }
            b',' => {
                if let Some((true, commas)) = open.last_mut() {
                    *commas += 1;
                    if *commas >= limits.array_items {
                        return false;
                    }
                }
            }
            _ => {}
        }
    }
    true
}

/// Where the JSON string whose text starts at `at` (just past its opening
/// quote) ends: the index just past its closing quote, escapes skipped;
/// `None` when it never closes. Every raw-text pass over JSON (the size
/// gate's here, the MCP servers' nesting count) skips strings with this.
pub fn json_string_end(text: &[u8], mut at: usize) -> Option<usize> {
    loop {
        // Strings are most of a call's bytes: memchr finds the next quote
        // or backslash many bytes at a time.
        let found = memchr::memchr2(b'"', b'\\', text.get(at..)?)?;
        let escape = text[at + found] == b'\\';
        at += found + 1;
        if !escape {
            return Some(at);
        }
        at += 1;
    }
}

/// Whether the JSON `text` holds more than `limit` values, counted from
/// its raw text (each `,`, `[` and `{` outside strings opens one more) and
/// stopped as soon as the count passes `limit`: the check costs one pass
/// over at most the part of the text it needs, and builds nothing.
pub fn json_values_over(text: &[u8], limit: usize) -> bool {
    let mut count = 0usize;
    let mut at = 0usize;
    while let Some(found) = text
        .get(at..)
        .and_then(|rest| rest.iter().position(|b| matches!(b, b'"' | b',' | b'[' | b'{')))
    {
        at += found;
        if text[at] == b'"' {
            let Some(after) = json_string_end(text, at + 1) else {
                return false;
            };
            at = after;
            continue;
        }
        at += 1;
        count += 1;
        if count > limit {
            return true;
        }
    }
    false
}

#[cfg(test)]
#[path = "sizes_tests.rs"]
mod tests;
