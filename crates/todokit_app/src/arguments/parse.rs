//! Turning the argument string a model sent into a typed input, with an
//! error that names the field, what arrived and what was expected.

use serde::de::DeserializeOwned;
use serde_json::Value;
use thiserror::Error;

/// The longest error message passed back to the model. serde quotes the
/// offending value in full, and a model that sent 10 MB must not get 10 MB
/// back; the cut keeps the head and the tail (where serde says what it
/// expected).
pub const MAX_ERROR_CHARS: usize = 400;

/// The field name used for problems with the arguments as a whole.
pub const ROOT_FIELD: &str = "(arguments)";

/// Why the arguments of a call could not be decoded.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum ArgumentError {
    /// The text is not JSON at all.
    #[error("{ROOT_FIELD}: not valid JSON ({0})")]
    Syntax(String),
    /// The JSON does not have the expected shape.
    #[error("{field}: {message}")]
    Field {
        /// The path of the offending field (`todos[0].status`).
        field: String,
        /// What was wrong with it.
        message: String,
    },
}

impl ArgumentError {
    /// The path of the field the error is about.
    pub fn field(&self) -> &str {
        match self {
            ArgumentError::Syntax(_) => ROOT_FIELD,
            ArgumentError::Field { field, .. } => field,
        }
    }
}

/// Parses the argument text of a call. Empty text and `null` mean "no
/// arguments" and give an empty object.
pub fn parse_arguments(text: &str) -> Result<Value, ArgumentError> {
    if text.trim().is_empty() {
        return Ok(Value::Object(Default::default()));
    }
    match serde_json::from_str::<Value>(text) {
        Ok(Value::Null) => Ok(Value::Object(Default::default())),
        Ok(value) => Ok(value),
        Err(e) if e.is_eof() => Err(ArgumentError::Syntax(format!(
            "{}; the text ends before the JSON is complete, as if it was cut off",
            shorten(&e.to_string())
        ))),
        Err(e) => Err(ArgumentError::Syntax(shorten(&e.to_string()))),
    }
}

/// Decodes `args` into `T`, naming the first offending field on failure.
pub fn decode<T: DeserializeOwned>(args: &Value) -> Result<T, ArgumentError> {
    if !args.is_object() && !args.is_null() {
        return Err(ArgumentError::Field {
            field: ROOT_FIELD.to_owned(),
            message: format!("expected a JSON object, got {}", kind(args)),
        });
    }
    // The plain decoder first: tracking the path costs on every field, and
    // only a failure needs it.
    if let Ok(decoded) = T::deserialize(args) {
        return Ok(decoded);
    }
    serde_path_to_error::deserialize(args).map_err(|e| {
        let path = e.path().to_string();
        let field = if path == "." { ROOT_FIELD.to_owned() } else { path };
        ArgumentError::Field {
            field,
            message: shorten(&e.into_inner().to_string()),
        }
    })
}

/// The JSON type of a value, as an error message names it.
pub fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

fn shorten(message: &str) -> String {
    let count = message.chars().count();
    if count <= MAX_ERROR_CHARS {
        return message.to_owned();
    }
    let half = MAX_ERROR_CHARS / 2;
    let head: String = message.chars().take(half).collect();
    let tail: String = message.chars().skip(count - half).collect();
    format!("{head}…{tail}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::TriStatus;
    use pretty_assertions::assert_eq;
    use serde::Deserialize;

    #[derive(Debug, PartialEq, Deserialize)]
    struct Input {
        todos: Vec<Item>,
    }

    #[derive(Debug, PartialEq, Deserialize)]
    struct Item {
        #[allow(dead_code)]
        status: TriStatus,
    }

    fn run(text: &str) -> Result<Input, ArgumentError> {
        parse_arguments(text).and_then(|v| decode(&v))
    }

    #[test]
    fn not_json() {
        let actual = run("{\"todos\": [");
        let expected = Err(ArgumentError::Syntax(
            "EOF while parsing a list at line 1 column 11; the text ends before the JSON is complete, as if it was cut off"
                .to_owned(),
        ));
        assert_eq!(actual, expected);
    }

    #[test]
    fn empty_text_is_an_empty_object() {
        let actual = parse_arguments("  ");
        let expected = Ok(serde_json::json!({}));
        assert_eq!(actual, expected);
    }

    #[test]
    fn the_offending_field_is_named() {
        let actual = run(r#"{"todos":[{"status":"pending"},{"status":3}]}"#);
        let expected = Err(ArgumentError::Field {
            field: "todos[1].status".to_owned(),
            message: "invalid type: integer `3`, expected one of `pending`, `in_progress`, `completed`"
                .to_owned(),
        });
        assert_eq!(actual, expected);
    }

    #[test]
    fn an_array_as_a_string_is_refused_naming_the_field() {
        let actual = run(r#"{"todos":"[]"}"#);
        let expected = Err(ArgumentError::Field {
            field: "todos".to_owned(),
            message: "invalid type: string \"[]\", expected a sequence".to_owned(),
        });
        assert_eq!(actual, expected);
    }

    #[test]
    fn a_missing_field_is_named_at_the_root() {
        let actual = run(r#"{"items":[]}"#);
        let expected = Err(ArgumentError::Field {
            field: ROOT_FIELD.to_owned(),
            message: "missing field `todos`".to_owned(),
        });
        assert_eq!(actual, expected);
    }

    #[test]
    fn a_non_object_is_refused() {
        let actual = run("[1,2]");
        let expected = Err(ArgumentError::Field {
            field: ROOT_FIELD.to_owned(),
            message: "expected a JSON object, got an array".to_owned(),
        });
        assert_eq!(actual, expected);
    }

    #[test]
    fn a_huge_quoted_value_is_shortened_keeping_what_was_expected() {
        let fixture = format!(r#"{{"todos":"{}"}}"#, "x".repeat(10_000));
        let message = match run(&fixture) {
            Err(ArgumentError::Field { message, .. }) => message,
            other => panic!("unexpected {other:?}"),
        };
        let actual = (message.chars().count(), message.ends_with("expected a sequence"));
        let expected = (MAX_ERROR_CHARS + 1, true);
        assert_eq!(actual, expected);
    }
}
