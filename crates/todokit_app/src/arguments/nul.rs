//! The NUL character in a model's arguments, refused before any tool runs.
//!
//! No list needs U+0000, PostgreSQL's `jsonb` cannot hold it, and some
//! terminals and C libraries cut text there: a NUL in any string of the
//! arguments (a value or a key) is a tool error naming where it is, on
//! every profile and every store alike.

use serde_json::Value;

use super::{ArgumentError, ROOT_FIELD};

/// What the refusal says about the field.
pub(crate) const NUL_MESSAGE: &str =
    "must not contain the NUL character (U+0000); remove it and send the call again";

/// The refusal for argument text holding a NUL in any string, if it does.
/// JSON text can carry a NUL only as the escape `\u0000`, so text without
/// that escape is passed at the cost of one substring search; text with it
/// is parsed to tell a real NUL from an escaped backslash.
pub(crate) fn nul_in_text(text: &str) -> Option<ArgumentError> {
    if !text.contains("\\u0000") {
        return None;
    }
    let value: Value = serde_json::from_str(text).ok()?;
    nul_in_value(&value)
}

/// The refusal for arguments holding a NUL in any string, if they do,
/// naming the first such field (`todos[2].content`).
pub(crate) fn nul_in_value(value: &Value) -> Option<ArgumentError> {
    // Walked with a stack, not recursion: arguments may nest deeply.
    let mut stack: Vec<(&Value, String)> = vec![(value, String::new())];
    while let Some((value, path)) = stack.pop() {
        match value {
            Value::String(text) if text.contains('\0') => return Some(refusal(path)),
            Value::Array(items) => stack.extend(
                items
                    .iter()
                    .enumerate()
                    .rev()
                    .map(|(i, item)| (item, format!("{path}[{i}]"))),
            ),
            Value::Object(map) => {
                if let Some(key) = map.keys().find(|key| key.contains('\0')) {
                    return Some(refusal(join(&path, &key.replace('\0', "\\u0000"))));
                }
                stack.extend(map.iter().rev().map(|(key, item)| (item, join(&path, key))));
            }
            _ => {}
        }
    }
    None
}

fn join(path: &str, key: &str) -> String {
    match path.is_empty() {
        true => key.to_owned(),
        false => format!("{path}.{key}"),
    }
}

fn refusal(path: String) -> ArgumentError {
    ArgumentError::Field {
        field: match path.is_empty() {
            true => ROOT_FIELD.to_owned(),
            false => path,
        },
        message: NUL_MESSAGE.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    #[test]
    fn a_nul_anywhere_is_named_and_an_escaped_backslash_is_not_one() {
        let fixture = [
            r#"{"todos":[{"content":"ok"},{"content":"a\u0000b"}]}"#,
            r#"{"todos":[{"content":"a\\u0000b"}]}"#,
            r#"{"meta":{"k\u0000":1}}"#,
            r#""\u0000""#,
            r#"{"todos":[{"content":"plain"}]}"#,
        ];
        let actual: Vec<Option<String>> = fixture
            .iter()
            .map(|text| nul_in_text(text).map(|e| e.field().to_owned()))
            .collect();
        let expected = vec![
            Some("todos[1].content".to_owned()),
            None,
            Some("meta.k\\u0000".to_owned()),
            Some(ROOT_FIELD.to_owned()),
            None,
        ];
        assert_eq!(actual, expected);
    }
}
