//! [`silently_closed`]: an object whose original refuses unknown keys
//! without its schema saying so.
//!
//! OpenHands' actions are pydantic models with `extra="forbid"`: a call
//! with a key they lack is refused, yet the schema the model reads has no
//! `additionalProperties`. The model should see that schema; the decoding
//! layer must still refuse the key, and say which keys are allowed. This
//! transform, for `#[schemars(transform = silently_closed)]` (after
//! `#[serde(deny_unknown_fields)]`, which makes schemars write
//! `additionalProperties: false`), moves the closing to the `x-closed`
//! extension, which the decoding layer reads as it reads
//! `additionalProperties: false` and every model-facing view strips (as
//! every `x-` key).

use schemars::Schema;
use serde_json::Value;

use crate::arguments::CLOSED_KEY;

/// Moves the schema's `additionalProperties: false` to `x-closed: true`.
pub fn silently_closed(schema: &mut Schema) {
    if let Some(object) = schema.as_object_mut()
        && object.get("additionalProperties") == Some(&Value::Bool(false))
    {
        object.remove("additionalProperties");
        object.insert(CLOSED_KEY.to_owned(), Value::Bool(true));
    }
}

#[cfg(test)]
mod tests {
    use pretty_assertions::assert_eq;
    use serde_json::json;

    use super::*;

    #[test]
    fn the_closing_moves_to_the_extension() {
        let mut fixture: Schema = serde_json::from_value(
            json!({"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": false}),
        )
        .expect("a schema");
        silently_closed(&mut fixture);
        let expected = json!({"type": "object", "properties": {"a": {"type": "string"}}, "x-closed": true});
        assert_eq!(fixture.to_value(), expected);
    }

    #[test]
    fn an_open_object_stays_open() {
        let fixture = json!({"type": "object", "additionalProperties": {"type": "string"}});
        let mut actual: Schema = serde_json::from_value(fixture.clone()).expect("a schema");
        silently_closed(&mut actual);
        assert_eq!(actual.to_value(), fixture);
    }
}
